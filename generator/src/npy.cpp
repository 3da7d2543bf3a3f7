#include "bcastgen/gen/npy.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string_view>

namespace bcastgen::gen {
namespace {

static_assert(sizeof(std::size_t) >= sizeof(std::int64_t), "byte counts are held in size_t");

constexpr unsigned char kMagic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
constexpr std::size_t kMagicLen = sizeof(kMagic);
constexpr std::size_t kAlign = 64;          // data offset alignment, as NumPy writes it
constexpr std::size_t kGrowthDigits = 21;   // NumPy's spare room for the first dim

// ---------------------------------------------------------------- errors

[[noreturn]] void fail_format(const std::string& path, const std::string& what) {
  throw NpyFormatError("bad .npy file '" + path + "': " + what, path);
}

[[noreturn]] void fail_io(const std::string& path, const std::string& what, int err) {
  throw NpyIoError(what + " '" + path + "': " + std::strerror(err), path);
}

// The text of a header for a message: non-printable bytes escaped, long
// headers cut.
std::string quote_for_message(std::string_view s) {
  constexpr std::size_t kMax = 200;
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n')) s.remove_suffix(1);  // NumPy's padding
  std::string out;
  for (std::size_t i = 0; i < s.size() && i < kMax; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c >= 0x7f) {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (s.size() > kMax) out += "...";
  return out;
}

// ---------------------------------------------------------------- dtypes

// Finds the dtype of a descriptor. Byte order: '<', '=' (native, which for
// the hosts bcastgen targets is little-endian) or none; for one-byte types
// also '|' and '>', where order does not matter. Sets *big_endian when the
// kind and size match but the order is '>' on a multi-byte type.
bool lookup_descr(std::string_view descr, DType* out, bool* big_endian) {
  *big_endian = false;
  char order = 0;
  std::string_view body = descr;
  if (!body.empty() && (body[0] == '<' || body[0] == '>' || body[0] == '|' || body[0] == '=')) {
    order = body[0];
    body.remove_prefix(1);
  }
  for (DType t : kAllDTypes) {
    const std::string_view canon = dtype_info(t).npy_descr;
    if (body != canon.substr(1)) continue;
    if (dtype_size(t) == 1) {
      *out = t;
      return true;
    }
    if (order == '>') {
      *big_endian = true;
      return false;
    }
    // "Not applicable" is wrong for a multi-byte number, but it is what
    // NumPy writes for a void type: bf16 arrives as '<V2' (ml_dtypes) or
    // '|V2' (a uint16 array viewed as 'V2').
    if (order == '|' && body[0] != 'V') return false;
    *out = t;
    return true;
  }
  return false;
}

// ---------------------------------------------------------------- header

struct Header {
  std::string descr;
  bool fortran_order = false;
  Shape shape;
};

// A parser for the one Python literal a .npy header holds:
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// Keys in any order, either quote, any spacing, an optional trailing comma,
// and only whitespace after the closing brace (NumPy's padding).
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& path) : s_(text), path_(path) {}

  Header parse() {
    Header h;
    bool seen_descr = false, seen_fortran = false, seen_shape = false;
    skip_space();
    expect('{');
    for (;;) {
      skip_space();
      if (peek() == '}') break;
      const std::size_t key_pos = pos_;
      const std::string key = parse_string("a key");
      skip_space();
      expect(':');
      skip_space();
      bool* seen = nullptr;
      if (key == "descr") {
        seen = &seen_descr;
        if (peek() == '[') fail("structured dtypes (a list 'descr') are not supported");
        h.descr = parse_string("the 'descr' string");
      } else if (key == "fortran_order") {
        seen = &seen_fortran;
        h.fortran_order = parse_bool();
      } else if (key == "shape") {
        seen = &seen_shape;
        h.shape = parse_shape();
      } else {
        pos_ = key_pos;
        fail("unexpected key '" + key + "' (a .npy header has exactly 'descr', 'fortran_order' and 'shape')");
      }
      if (*seen) {
        pos_ = key_pos;
        fail("duplicate key '" + key + "'");
      }
      *seen = true;
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == '}') break;
      fail("expected ',' or '}'");
    }
    expect('}');
    skip_space();
    if (pos_ != s_.size()) fail("unexpected text after the closing '}'");
    if (!seen_descr) fail_header_key("descr");
    if (!seen_fortran) fail_header_key("fortran_order");
    if (!seen_shape) fail_header_key("shape");
    return h;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    fail_format(path_, "malformed header: " + what + " at offset " + std::to_string(pos_) + " in \"" +
                           quote_for_message(s_) + "\"");
  }
  [[noreturn]] void fail_header_key(const char* key) const {
    fail_format(path_, std::string("malformed header: no '") + key + "' key in \"" + quote_for_message(s_) + "\"");
  }

  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  bool at_end() const { return pos_ >= s_.size(); }

  void skip_space() {
    while (!at_end() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }

  void expect(char c) {
    if (at_end() || s_[pos_] != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }

  std::string parse_string(const char* what) {
    if (at_end() || (s_[pos_] != '\'' && s_[pos_] != '"')) fail(std::string("expected ") + what);
    const char quote = s_[pos_++];
    std::string out;
    for (;;) {
      if (at_end() || s_[pos_] == '\n') fail("unterminated string");
      const char c = s_[pos_++];
      if (c == quote) break;
      if (c == '\\') {
        if (at_end()) fail("unterminated string");
        out += s_[pos_++];
      } else {
        out += c;
      }
    }
    return out;
  }

  bool parse_bool() {
    if (s_.substr(pos_, 4) == "True") {
      pos_ += 4;
      return true;
    }
    if (s_.substr(pos_, 5) == "False") {
      pos_ += 5;
      return false;
    }
    fail("expected True or False for 'fortran_order'");
  }

  std::int64_t parse_dim() {
    if (peek() == '-') fail("negative dim in 'shape'");
    if (at_end() || s_[pos_] < '0' || s_[pos_] > '9') fail("expected a dim in 'shape'");
    std::int64_t v = 0;
    while (!at_end() && s_[pos_] >= '0' && s_[pos_] <= '9') {
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s_[pos_] - '0', &v)) {
        fail("dim in 'shape' does not fit in 64 bits");
      }
      ++pos_;
    }
    if (peek() == 'L' || peek() == 'l') ++pos_;  // Python 2 longs, "(3L, 4L)"
    return v;
  }

  // "()", "(5,)", "(2, 3)", "(2, 3,)"; "(5)" is a number, not a tuple.
  Shape parse_shape() {
    if (peek() != '(') fail("expected a tuple for 'shape'");
    ++pos_;
    Shape shape;
    bool trailing_comma = false;
    for (;;) {
      skip_space();
      if (peek() == ')') break;
      shape.push_back(parse_dim());
      skip_space();
      trailing_comma = peek() == ',';
      if (trailing_comma) {
        ++pos_;
        continue;
      }
      if (peek() != ')') fail("expected ',' or ')' in 'shape'");
    }
    if (shape.size() == 1 && !trailing_comma) fail("'shape' is not a tuple (a 1-d shape is written '(n,)')");
    ++pos_;
    return shape;
  }

  std::string_view s_;
  const std::string& path_;
  std::size_t pos_ = 0;
};

// ---------------------------------------------------------------- reading

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// Appends up to n bytes from f to out; returns how many were appended (fewer
// only at end of file). Grows in chunks, so a lying header cannot make us
// allocate more than the file holds plus one chunk.
std::size_t read_up_to(std::FILE* f, std::size_t n, std::vector<unsigned char>* out, const std::string& path) {
  constexpr std::size_t kChunk = std::size_t{1} << 24;
  std::size_t total = 0;
  while (total < n) {
    const std::size_t want = std::min(kChunk, n - total);
    const std::size_t old = out->size();
    out->resize(old + want);
    const std::size_t got = std::fread(out->data() + old, 1, want, f);
    out->resize(old + got);
    total += got;
    if (got < want) {
      if (std::ferror(f)) fail_io(path, "cannot read .npy file", errno);
      break;
    }
  }
  return total;
}

// Reads f to its end, returning how many bytes that was.
std::size_t count_rest(std::FILE* f, const std::string& path) {
  unsigned char chunk[1 << 16];
  std::size_t total = 0;
  for (;;) {
    const std::size_t got = std::fread(chunk, 1, sizeof chunk, f);
    total += got;
    if (got < sizeof chunk) {
      if (std::ferror(f)) fail_io(path, "cannot read .npy file", errno);
      return total;
    }
  }
}

// numel * dtype size, throwing checked_numel's InvalidArgument (a negative
// dim) or OverflowError. checked_numel builds a message per dim, so the
// common case is counted here first: a header of thousands of dims then
// costs linear time.
std::int64_t byte_size(DType dtype, const Shape& shape) {
  std::int64_t n = 1;
  bool ok = true;
  for (std::int64_t d : shape) ok = ok && d >= 0 && !__builtin_mul_overflow(n, d, &n);
  if (!ok) n = checked_numel(shape);  // throws, naming the fault
  return checked_mul(n, dtype_size(dtype), ("byte size of " + format_shape(shape)).c_str());
}

std::uint32_t little_endian(const unsigned char* p, int bytes) {
  std::uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

}  // namespace

std::string supported_npy_descrs_text() {
  std::string s;
  for (DType t : kAllDTypes) {
    if (!s.empty()) s += ", ";
    s += dtype_info(t).npy_descr;
  }
  return s;
}

NpyArray read_npy(const std::string& path) {
  File f(std::fopen(path.c_str(), "rb"));
  if (!f) fail_io(path, "cannot open .npy file", errno);

  // Preamble: magic, major, minor.
  std::vector<unsigned char> buf;
  const std::size_t got = read_up_to(f.get(), kMagicLen + 2, &buf, path);
  if (got == 0) fail_format(path, "empty file, not a .npy file");
  if (std::memcmp(buf.data(), kMagic, std::min(got, kMagicLen)) != 0) {
    fail_format(path, "bad magic: not a .npy file (it should start with \"\\x93NUMPY\")");
  }
  if (got < kMagicLen + 2) {
    fail_format(path, "truncated header: the file ends after " + std::to_string(got) + " bytes");
  }
  const int major = buf[6], minor = buf[7];
  if ((major != 1 && major != 2 && major != 3) || minor != 0) {
    fail_format(path, "unsupported format version " + std::to_string(major) + "." + std::to_string(minor) +
                          " (supported: 1.0, 2.0, 3.0)");
  }

  // Header length: 2 bytes in 1.0, 4 in 2.0 and 3.0, little-endian.
  const int len_bytes = major == 1 ? 2 : 4;
  buf.clear();
  if (read_up_to(f.get(), static_cast<std::size_t>(len_bytes), &buf, path) < static_cast<std::size_t>(len_bytes)) {
    fail_format(path, "truncated header: the file ends inside the header length");
  }
  const std::size_t header_len = little_endian(buf.data(), len_bytes);
  const std::size_t data_offset = kMagicLen + 2 + len_bytes + header_len;

  buf.clear();
  const std::size_t header_got = read_up_to(f.get(), header_len, &buf, path);
  if (header_got < header_len) {
    fail_format(path, "truncated header: expected " + std::to_string(header_len) + " header bytes got " +
                          std::to_string(header_got));
  }
  // 1.0 and 2.0 headers are latin-1, 3.0 UTF-8; the parts we accept are ASCII.
  const std::string header_text(buf.begin(), buf.end());
  const Header h = HeaderParser(header_text, path).parse();

  NpyArray a;
  bool big_endian = false;
  if (!lookup_descr(h.descr, &a.dtype, &big_endian)) {
    fail_format(path, "unsupported dtype '" + h.descr + "'" + (big_endian ? " (big-endian)" : "") +
                          "; supported: " + supported_npy_descrs_text());
  }
  if (h.fortran_order) {
    fail_format(path, "fortran_order True is not supported (save a C-ordered array, e.g. np.ascontiguousarray)");
  }
  a.shape = h.shape;

  std::int64_t nbytes = 0;
  try {
    nbytes = byte_size(a.dtype, a.shape);
  } catch (const InvalidArgument& e) {
    fail_format(path, e.what());
  }

  const std::size_t want = static_cast<std::size_t>(nbytes);
  const std::size_t data_got = read_up_to(f.get(), want, &a.data, path);
  if (data_got < want) {
    fail_format(path, "truncated data: expected " + std::to_string(want) + " bytes got " + std::to_string(data_got) +
                          " (shape " + format_shape(a.shape) + " of " + dtype_name(a.dtype) + ", data at offset " +
                          std::to_string(data_offset) + ")");
  }
  const std::size_t extra = count_rest(f.get(), path);
  if (extra != 0) {
    fail_format(path, std::to_string(extra) + " unexpected bytes after the " + std::to_string(want) +
                          " data bytes (shape " + format_shape(a.shape) + " of " + dtype_name(a.dtype) + ")");
  }

  if (a.dtype == DType::Bool) {
    for (std::size_t i = 0; i < a.data.size(); ++i) {
      if (a.data[i] > 1) {
        fail_format(path, "bool element " + std::to_string(i) + " has byte value " + std::to_string(a.data[i]) +
                              ", not 0 or 1");
      }
    }
  }
  return a;
}

// ---------------------------------------------------------------- writing

namespace {

// The header NumPy itself writes for a C-ordered array of this dtype and
// shape, padded so that the data starts at a multiple of 64, so that the
// file is byte-identical to np.save's.
std::string make_header(DType dtype, const Shape& shape) {
  std::string tuple = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) tuple += ", ";
    tuple += std::to_string(shape[i]);
  }
  if (shape.size() == 1) tuple += ',';
  tuple += ')';
  std::string dict = std::string("{'descr': '") + dtype_info(dtype).npy_descr +
                     "', 'fortran_order': False, 'shape': " + tuple + ", }";
  // NumPy leaves room for the first dim to grow in place.
  if (!shape.empty()) {
    const std::size_t digits = std::to_string(shape[0]).size();
    if (digits < kGrowthDigits) dict.append(kGrowthDigits - digits, ' ');
  }
  // 1.0 holds a header of up to 65535 bytes; beyond that NumPy uses 2.0.
  for (int v : {1, 2}) {
    const std::size_t prefix = kMagicLen + 2 + (v == 1 ? 2 : 4);
    const std::size_t hlen = dict.size() + 1;  // + '\n'
    const std::size_t pad = kAlign - (prefix + hlen) % kAlign;
    const std::size_t total = hlen + pad;
    if (v == 1 && total > 0xffff) continue;
    std::string out(reinterpret_cast<const char*>(kMagic), kMagicLen);
    out += static_cast<char>(v);
    out += '\0';
    for (int i = 0; i < (v == 1 ? 2 : 4); ++i) out += static_cast<char>((total >> (8 * i)) & 0xff);
    out += dict;
    out.append(pad, ' ');
    out += '\n';
    return out;
  }
  return {};  // not reached: 2.0 holds 4 GiB
}

// Writes all of [p, p + n) to fd.
bool write_all(int fd, const unsigned char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

// A temporary file next to the target, removed unless committed.
class TempFile {
 public:
  explicit TempFile(const std::string& target) : target_(target) {
    const std::size_t slash = target.rfind('/');
    const std::string dir = slash == std::string::npos ? std::string() : target.substr(0, slash + 1);
    static std::atomic<unsigned> counter{0};
    for (int attempt = 0; attempt < 100; ++attempt) {
      const auto tick = std::chrono::steady_clock::now().time_since_epoch().count();
      path_ = dir + ".bcastgen-npy-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" +
              std::to_string(static_cast<unsigned long long>(tick) % 1000000007ULL) + ".tmp";
      // 0666 and the process umask, like any newly created file.
      fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd_ >= 0) return;
      if (errno != EEXIST) break;
    }
    const int err = errno;
    path_.clear();
    const std::string where = dir.empty() ? std::string("the current directory") : "'" + dir + "'";
    fail_io(target_, "cannot create a temporary file in " + where + " to write .npy file", err);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!path_.empty()) ::unlink(path_.c_str());
  }

  void write(const unsigned char* p, std::size_t n) {
    if (!write_all(fd_, p, n)) fail_io(target_, "cannot write .npy file", errno);
  }

  // Flushes, closes and renames over the target.
  void commit() {
    if (::fsync(fd_) != 0 && errno != EINVAL && errno != EROFS) fail_io(target_, "cannot write .npy file", errno);
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail_io(target_, "cannot write .npy file", errno);
    if (std::rename(path_.c_str(), target_.c_str()) != 0) {
      fail_io(target_, "cannot rename temporary file '" + path_ + "' to .npy file", errno);
    }
    path_.clear();
  }

 private:
  std::string target_;
  std::string path_;
  int fd_ = -1;
};

}  // namespace

void write_npy(const std::string& path, const NpyArray& a) {
  bool known = false;
  for (DType t : kAllDTypes) known = known || t == a.dtype;
  if (!known) {
    throw NpyFormatError("cannot write .npy file '" + path + "': invalid dtype value " +
                             std::to_string(static_cast<int>(a.dtype)),
                         path);
  }
  std::int64_t nbytes = 0;
  try {
    nbytes = byte_size(a.dtype, a.shape);
  } catch (const InvalidArgument& e) {
    throw NpyFormatError("cannot write .npy file '" + path + "': " + e.what(), path);
  }
  if (a.data.size() != static_cast<std::size_t>(nbytes)) {
    throw NpyFormatError("cannot write .npy file '" + path + "': shape " + format_shape(a.shape) + " of " +
                             dtype_name(a.dtype) + " needs " + std::to_string(nbytes) + " data bytes, the array has " +
                             std::to_string(a.data.size()),
                         path);
  }
  if (a.dtype == DType::Bool) {
    for (std::size_t i = 0; i < a.data.size(); ++i) {
      if (a.data[i] > 1) {
        throw NpyFormatError("cannot write .npy file '" + path + "': bool element " + std::to_string(i) +
                                 " has byte value " + std::to_string(a.data[i]) + ", not 0 or 1",
                             path);
      }
    }
  }

  const std::string header = make_header(a.dtype, a.shape);
  TempFile tmp(path);
  tmp.write(reinterpret_cast<const unsigned char*>(header.data()), header.size());
  tmp.write(a.data.data(), a.data.size());
  tmp.commit();
}

}  // namespace bcastgen::gen
