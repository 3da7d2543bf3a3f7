// bcastgen runtime: the umbrella header. Generated code includes this one.
#pragma once

#include "bcastgen/errors.h"
#include "bcastgen/shape.h"
#include "bcastgen/types.h"
#include "bcastgen/rules.h"
#include "bcastgen/ops.h"
#include "bcastgen/coalesce.h"
#include "bcastgen/reference.h"
#include "bcastgen/cpu.h"
#include "bcastgen/view.h"
