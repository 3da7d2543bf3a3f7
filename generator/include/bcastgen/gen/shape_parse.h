// Parsing of shapes written on the command line: "[2,3,4]", "2,3,4",
// "2x3x4", and "[]" for a scalar.
#pragma once

#include <string_view>

#include "bcastgen/shape.h"

namespace bcastgen::gen {

// Throws InvalidArgument naming the text and the column of the fault.
Shape parse_shape(std::string_view text);

}  // namespace bcastgen::gen
