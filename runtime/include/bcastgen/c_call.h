// bcastgen runtime: runs a C++ call for a C entry point, turning the typed
// errors into a bcastgen_status so that nothing throws across the boundary.
#pragma once

#include <exception>
#include <string>

#include "bcastgen/c_api.h"
#include "bcastgen/errors.h"

namespace bcastgen {

// The status of the exception being handled, and its message in
// `last_error`: one function for every C entry of a file, called from
// their one catch (...) (each entry's own chain of handlers was ~400 bytes
// of code per entry: bench/scale).
BCASTGEN_COLD_PATH inline bcastgen_status c_status_of_current_exception(std::string& last_error) noexcept {
  try {
    try {
      throw;
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

template <class F>
bcastgen_status c_call(std::string& last_error, F&& f) noexcept {
  try {
    f();
  } catch (...) {
    return c_status_of_current_exception(last_error);
  }
  last_error.clear();
  return BCASTGEN_OK;
}

}  // namespace bcastgen
