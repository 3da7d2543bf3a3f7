// Reading and writing NumPy .npy files, for `bcastgen run` (which reads the
// input arrays of a generated kernel and writes its output).
//
// Supported: format versions 1.0, 2.0 and 3.0 on read (1.0 on write, 2.0
// only when a header would not fit 1.0's 64 KiB), C order, and the element
// types of types.h in little-endian byte order. Everything else (big-endian
// or structured dtypes, Fortran order, objects) is refused with an error
// naming the file and the fault.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "bcastgen/errors.h"
#include "bcastgen/shape.h"
#include "bcastgen/types.h"

namespace bcastgen::gen {

// A dense array: `data` holds the elements in C (row-major) order as
// little-endian bytes, checked_numel(shape) * dtype_size(dtype) of them.
// A bool element is one byte, 0 or 1. Rank 0 (empty shape) is a scalar.
struct NpyArray {
  DType dtype = DType::F32;
  Shape shape;
  std::vector<unsigned char> data;
};

// What every .npy error has in common: the file it is about. A tag base,
// not an exception on its own, so that each concrete error keeps a single
// path to bcastgen::Error (and to std::exception):
//   catch (const NpyError& e)          -> both kinds, e.path(), e.message()
//   catch (const InvalidArgument& e)   -> NpyFormatError only (bad input)
//   catch (const NpyIoError& e)        -> the file system failed us
class NpyError {
 public:
  explicit NpyError(std::string path) : path_(std::move(path)) {}
  virtual ~NpyError() = default;
  const std::string& path() const { return path_; }
  // The full message, the same text as what().
  virtual const char* message() const noexcept = 0;

 private:
  std::string path_;
};

// The file could not be opened, read, created, written or renamed into
// place (missing file, permissions, a directory, an I/O error). The message
// includes the system's reason.
class NpyIoError : public Error, public NpyError {
 public:
  NpyIoError(const std::string& message, std::string path) : Error(message), NpyError(std::move(path)) {}
  const char* message() const noexcept override { return what(); }
};

// The bytes are not a .npy file we accept: bad magic, an unsupported
// version or dtype, a malformed header, Fortran order, truncated or
// trailing data, a bool byte other than 0/1, an element count that
// overflows. Also thrown by write_npy for an inconsistent NpyArray.
class NpyFormatError : public InvalidArgument, public NpyError {
 public:
  NpyFormatError(const std::string& message, std::string path)
      : InvalidArgument(message), NpyError(std::move(path)) {}
  const char* message() const noexcept override { return what(); }
};

// Reads a whole .npy file. Throws NpyIoError or NpyFormatError.
NpyArray read_npy(const std::string& path);

// Writes `a` as a version 1.0 .npy file whose data starts at a multiple of
// 64 bytes, as NumPy does. The bytes go to a temporary file in the same
// directory, which is then renamed over `path`: a reader never sees a
// half-written file, and on failure `path` is left as it was. Throws
// NpyFormatError if `a` is inconsistent (data size, negative dim, bool
// byte), NpyIoError if the file system fails.
void write_npy(const std::string& path, const NpyArray& a);

// The descriptors read_npy accepts, "<f4, <f8, |i1, ..." (for messages).
std::string supported_npy_descrs_text();

}  // namespace bcastgen::gen
