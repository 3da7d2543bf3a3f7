// bcastgen runtime: runs a C++ call for a C entry point, turning the typed
// errors into a bcastgen_status so that nothing throws across the boundary.
#pragma once

#include <exception>
#include <string>

#include "bcastgen/c_api.h"
#include "bcastgen/errors.h"

namespace bcastgen {

template <class F>
bcastgen_status c_call(std::string& last_error, F&& f) noexcept {
  try {
    try {
      f();
      last_error.clear();
      return BCASTGEN_OK;
    } catch (const ShapeMismatchError& e) {
      last_error = e.what();
      return BCASTGEN_ERROR_SHAPE;
    } catch (const NullPointerError& e) {
      last_error = e.what();
      return BCASTGEN_ERROR_NULL_POINTER;
    } catch (const AliasError& e) {
      last_error = e.what();
      return BCASTGEN_ERROR_ALIAS;
    } catch (const InvalidArgument& e) {
      last_error = e.what();
      return BCASTGEN_ERROR_ARGUMENT;
    } catch (const std::exception& e) {
      last_error = e.what();
      return BCASTGEN_ERROR_INTERNAL;
    } catch (...) {
      last_error = "unknown error";
      return BCASTGEN_ERROR_INTERNAL;
    }
  } catch (...) {  // assigning the message itself failed (out of memory)
    return BCASTGEN_ERROR_INTERNAL;
  }
}

}  // namespace bcastgen
