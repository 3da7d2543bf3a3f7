// The .npy reader/writer: round trips of every dtype, interop with the real
// NumPy in both directions, the header variants we accept and the errors
// for everything we refuse.
#include "bcastgen/gen/npy.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace fs = std::filesystem;
using bcastgen::DType;
using bcastgen::Shape;
using bcastgen::gen::NpyArray;
using bcastgen::gen::NpyError;
using bcastgen::gen::NpyFormatError;
using bcastgen::gen::NpyIoError;
using bcastgen::gen::read_npy;
using bcastgen::gen::write_npy;

namespace {

// ------------------------------------------------------------ helpers

class npy : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("bcastgen-npy-test-" + std::to_string(::getpid()) + "-" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // The names in the test directory, sorted.
  std::vector<std::string> listing() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

  // Runs `script` with NumPy's python and the test directory as argv[1];
  // returns the exit status and puts stdout+stderr in *log.
  int run_python(const std::string& script, std::string* log) const {
    const std::string script_path = path("script.py"), log_path = path("python.log");
    std::ofstream(script_path) << script;
    const std::string cmd = std::string(BCASTGEN_PYTHON) + " '" + script_path + "' '" + dir_.string() + "' > '" +
                            log_path + "' 2>&1";
    const int status = std::system(cmd.c_str());
    std::ifstream in(log_path);
    std::stringstream ss;
    ss << in.rdbuf();
    *log = ss.str();
    fs::remove(script_path);
    fs::remove(log_path);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  fs::path dir_;
};

void write_bytes(const std::string& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string read_bytes(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A .npy file by hand: `dict` is the header text (padded here with spaces
// and a '\n' to a multiple of 64 bytes), then the raw data.
std::string make_npy(const std::string& dict, const std::string& data, int major = 1) {
  const std::size_t len_bytes = major == 1 ? 2 : 4;
  std::string header = dict;
  while ((10 - 2 + len_bytes + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  for (std::size_t i = 0; i < len_bytes; ++i) out += static_cast<char>((header.size() >> (8 * i)) & 0xff);
  return out + header + data;
}

template <class T>
std::string raw(const std::vector<T>& v) {
  std::string s(v.size() * sizeof(T), '\0');
  if (!v.empty()) std::memcpy(&s[0], v.data(), s.size());
  return s;
}

template <class T>
std::vector<unsigned char> bytes_of(const std::vector<T>& v) {
  std::vector<unsigned char> b(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

template <class T>
std::vector<T> values_of(const NpyArray& a) {
  EXPECT_EQ(a.data.size() % sizeof(T), 0u);
  std::vector<T> v(a.data.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), a.data.data(), a.data.size());
  return v;
}

template <class T>
NpyArray make_array(DType dt, Shape shape, const std::vector<T>& values) {
  NpyArray a;
  a.dtype = dt;
  a.shape = std::move(shape);
  a.data = bytes_of(values);
  return a;
}

// The exception read_npy throws for this file, with its type checked.
template <class E>
std::string read_error(const std::string& p) {
  try {
    read_npy(p);
  } catch (const E& e) {
    const auto* tag = dynamic_cast<const NpyError*>(&e);
    EXPECT_NE(tag, nullptr);
    if (tag) {
      EXPECT_EQ(tag->path(), p);
    }
    const std::string msg = e.what();
    EXPECT_NE(msg.find(p), std::string::npos) << msg;
    return msg;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
    return {};
  }
  ADD_FAILURE() << "read_npy(" << p << ") did not throw";
  return {};
}

#define EXPECT_HAS(msg, part) EXPECT_NE((msg).find(part), std::string::npos) << "message: " << (msg)

// ------------------------------------------------------------ round trips

TEST_F(npy, RoundTripsEveryDtypeAndShape) {
  const std::vector<Shape> shapes = {{}, {0}, {3, 0, 2}, {7}, {1}, {2, 3, 4}, {1, 1, 1, 5}};
  for (DType dt : bcastgen::kAllDTypes) {
    for (const Shape& shape : shapes) {
      SCOPED_TRACE(std::string(bcastgen::dtype_name(dt)) + " " + bcastgen::format_shape(shape));
      NpyArray a;
      a.dtype = dt;
      a.shape = shape;
      const std::size_t n = static_cast<std::size_t>(bcastgen::checked_numel(shape) * bcastgen::dtype_size(dt));
      for (std::size_t i = 0; i < n; ++i) {
        a.data.push_back(dt == DType::Bool ? (i % 3 == 0) : static_cast<unsigned char>(i * 37 + 11));
      }
      const std::string p = path("a.npy");
      write_npy(p, a);

      // NumPy's layout: magic, version 1.0, data at a multiple of 64,
      // the header ending in '\n', then exactly the data.
      const std::string bytes = read_bytes(p);
      ASSERT_GE(bytes.size(), 10u);
      EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
      const std::size_t hlen = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
      EXPECT_EQ((10 + hlen) % 64, 0u);
      EXPECT_EQ(bytes[10 + hlen - 1], '\n');
      EXPECT_EQ(bytes.size(), 10 + hlen + n);
      EXPECT_EQ(bytes.substr(10, 11), "{'descr': '");

      const NpyArray b = read_npy(p);
      EXPECT_EQ(b.dtype, dt);
      EXPECT_EQ(b.shape, shape);
      EXPECT_EQ(b.data, a.data);
    }
  }
  EXPECT_EQ(listing(), std::vector<std::string>{"a.npy"});  // no temporary files left
}

TEST_F(npy, WriteReplacesAnExistingFile) {
  const std::string p = path("out.npy");
  write_bytes(p, "old contents");
  write_npy(p, make_array<std::int32_t>(DType::I32, {2}, {7, -7}));
  EXPECT_EQ(values_of<std::int32_t>(read_npy(p)), (std::vector<std::int32_t>{7, -7}));
  write_npy(p, make_array<double>(DType::F64, {}, {2.5}));
  const NpyArray b = read_npy(p);
  EXPECT_EQ(b.dtype, DType::F64);
  EXPECT_EQ(b.shape, Shape{});
  EXPECT_EQ(values_of<double>(b), std::vector<double>{2.5});
  EXPECT_EQ(listing(), std::vector<std::string>{"out.npy"});
}

TEST_F(npy, HugeHeaderFallsBackToVersion2) {
  Shape shape(22000, 1);
  shape[0] = 0;
  NpyArray a;
  a.dtype = DType::U8;
  a.shape = shape;
  const std::string p = path("wide.npy");
  write_npy(p, a);
  const std::string bytes = read_bytes(p);
  EXPECT_EQ(bytes[6], '\x02');
  EXPECT_EQ(read_npy(p).shape, shape);
}

// ------------------------------------------------------------ NumPy -> C++

TEST_F(npy, ReadsWhatNumpyWrites) {
  const std::string script = R"PY(
import sys
import numpy as np
d = sys.argv[1] + '/'
np.save(d + 'f32.npy', np.arange(6, dtype=np.float32).reshape(2, 3) * np.float32(0.5) - np.float32(1))
np.save(d + 'f64_0d.npy', np.array(3.25))
np.save(d + 'i8.npy', np.array([-128, -1, 0, 1, 127], dtype=np.int8))
np.save(d + 'u8.npy', np.array([[0, 255], [7, 128]], dtype=np.uint8))
np.save(d + 'i16.npy', np.array([-32768, 32767, -2], dtype=np.int16))
np.save(d + 'u16.npy', np.array([65535, 1], dtype=np.uint16))
np.save(d + 'i32.npy', np.arange(-12, 12, dtype=np.int32).reshape(2, 3, 4))
np.save(d + 'u32.npy', np.array([4294967295, 0], dtype=np.uint32))
np.save(d + 'i64.npy', np.array([-(2**63), 2**63 - 1, 5], dtype=np.int64))
np.save(d + 'u64.npy', np.array([2**64 - 1, 1], dtype=np.uint64))
np.save(d + 'bool.npy', np.array([[True, False, True], [False, False, True]]))
np.save(d + 'bool_0d.npy', np.array(True))
np.save(d + 'empty.npy', np.zeros((0, 3), dtype=np.float32))
np.save(d + 'sliced.npy', np.arange(12, dtype=np.int32).reshape(3, 4)[:, ::2])
np.save(d + 'transposed.npy', np.arange(6, dtype=np.int32).reshape(2, 3).T)
np.save(d + 'big_endian.npy', np.array([1, 2], dtype='>f4'))
np.save(d + 'f16.npy', np.array([1, -2.5, 65504, 2**-24], dtype=np.float16))
# bf16: NumPy has none. A uint16 array viewed as 'V2' saves as '|V2';
# ml_dtypes' bfloat16 arrays carry '<V2' (written here by patching the
# header of a '<u2' file: the same length).
np.save(d + 'bf16_void.npy', np.array([0x3f80, 0xc020], dtype=np.uint16).view('V2'))
np.save(d + 'bf16_ml.npy', np.array([0x3f80, 0x7f80], dtype=np.uint16))
with open(d + 'bf16_ml.npy', 'r+b') as f:
    head = f.read(128)
    f.seek(0)
    f.write(head.replace(b"'<u2'", b"'<V2'"))
with open(d + 'v2.npy', 'wb') as f:
    np.lib.format.write_array(f, np.array([1.5, -2.5]), version=(2, 0))
with open(d + 'v3.npy', 'wb') as f:
    np.lib.format.write_array(f, np.array([1, 2, 3], dtype=np.int16), version=(3, 0))
)PY";
  std::string log;
  ASSERT_EQ(run_python(script, &log), 0) << log;

  NpyArray a = read_npy(path("f32.npy"));
  EXPECT_EQ(a.dtype, DType::F32);
  EXPECT_EQ(a.shape, (Shape{2, 3}));
  EXPECT_EQ(values_of<float>(a), (std::vector<float>{-1, -0.5f, 0, 0.5f, 1, 1.5f}));

  a = read_npy(path("f64_0d.npy"));
  EXPECT_EQ(a.dtype, DType::F64);
  EXPECT_EQ(a.shape, Shape{});
  EXPECT_EQ(values_of<double>(a), std::vector<double>{3.25});

  a = read_npy(path("i8.npy"));
  EXPECT_EQ(a.dtype, DType::I8);
  EXPECT_EQ(a.shape, Shape{5});
  EXPECT_EQ(values_of<std::int8_t>(a), (std::vector<std::int8_t>{-128, -1, 0, 1, 127}));

  a = read_npy(path("u8.npy"));
  EXPECT_EQ(a.dtype, DType::U8);
  EXPECT_EQ(a.shape, (Shape{2, 2}));
  EXPECT_EQ(values_of<std::uint8_t>(a), (std::vector<std::uint8_t>{0, 255, 7, 128}));

  a = read_npy(path("i16.npy"));
  EXPECT_EQ(a.dtype, DType::I16);
  EXPECT_EQ(values_of<std::int16_t>(a), (std::vector<std::int16_t>{-32768, 32767, -2}));

  a = read_npy(path("u16.npy"));
  EXPECT_EQ(a.dtype, DType::U16);
  EXPECT_EQ(values_of<std::uint16_t>(a), (std::vector<std::uint16_t>{65535, 1}));

  a = read_npy(path("i32.npy"));
  EXPECT_EQ(a.dtype, DType::I32);
  EXPECT_EQ(a.shape, (Shape{2, 3, 4}));
  std::vector<std::int32_t> i32;
  for (int i = -12; i < 12; ++i) i32.push_back(i);
  EXPECT_EQ(values_of<std::int32_t>(a), i32);

  a = read_npy(path("u32.npy"));
  EXPECT_EQ(a.dtype, DType::U32);
  EXPECT_EQ(values_of<std::uint32_t>(a), (std::vector<std::uint32_t>{4294967295u, 0}));

  a = read_npy(path("i64.npy"));
  EXPECT_EQ(a.dtype, DType::I64);
  EXPECT_EQ(values_of<std::int64_t>(a), (std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min(),
                                                                    std::numeric_limits<std::int64_t>::max(), 5}));

  a = read_npy(path("u64.npy"));
  EXPECT_EQ(a.dtype, DType::U64);
  EXPECT_EQ(values_of<std::uint64_t>(a), (std::vector<std::uint64_t>{std::numeric_limits<std::uint64_t>::max(), 1}));

  a = read_npy(path("bool.npy"));
  EXPECT_EQ(a.dtype, DType::Bool);
  EXPECT_EQ(a.shape, (Shape{2, 3}));
  EXPECT_EQ(a.data, (std::vector<unsigned char>{1, 0, 1, 0, 0, 1}));

  a = read_npy(path("bool_0d.npy"));
  EXPECT_EQ(a.dtype, DType::Bool);
  EXPECT_EQ(a.shape, Shape{});
  EXPECT_EQ(a.data, std::vector<unsigned char>{1});

  a = read_npy(path("empty.npy"));
  EXPECT_EQ(a.dtype, DType::F32);
  EXPECT_EQ(a.shape, (Shape{0, 3}));
  EXPECT_TRUE(a.data.empty());

  a = read_npy(path("sliced.npy"));  // NumPy writes a strided view in C order
  EXPECT_EQ(a.shape, (Shape{3, 2}));
  EXPECT_EQ(values_of<std::int32_t>(a), (std::vector<std::int32_t>{0, 2, 4, 6, 8, 10}));

  a = read_npy(path("v2.npy"));
  EXPECT_EQ(a.dtype, DType::F64);
  EXPECT_EQ(values_of<double>(a), (std::vector<double>{1.5, -2.5}));

  a = read_npy(path("v3.npy"));
  EXPECT_EQ(a.dtype, DType::I16);
  EXPECT_EQ(values_of<std::int16_t>(a), (std::vector<std::int16_t>{1, 2, 3}));

  // What NumPy writes but we refuse.
  EXPECT_HAS(read_error<NpyFormatError>(path("transposed.npy")), "fortran_order True");
  const std::string be = read_error<NpyFormatError>(path("big_endian.npy"));
  EXPECT_HAS(be, "'>f4' (big-endian)");
  EXPECT_HAS(be, "<f4, <f8, |i1");

  a = read_npy(path("f16.npy"));
  EXPECT_EQ(a.dtype, DType::F16);
  EXPECT_EQ(values_of<std::uint16_t>(a), (std::vector<std::uint16_t>{0x3c00, 0xc100, 0x7bff, 0x0001}));
  for (const char* name : {"bf16_void.npy", "bf16_ml.npy"}) {
    a = read_npy(path(name));
    EXPECT_EQ(a.dtype, DType::Bf16) << name;
    EXPECT_EQ(values_of<std::uint16_t>(a)[0], 0x3f80u) << name;
  }
}

// ------------------------------------------------------------ C++ -> NumPy

TEST_F(npy, NumpyReadsWhatWeWrite) {
  const float inf = std::numeric_limits<float>::infinity();
  write_npy(path("f32.npy"), make_array<float>(DType::F32, {2, 3}, {-1, -0.5f, 0, 0.25f, inf, -0.0f}));
  write_npy(path("f64_0d.npy"), make_array<double>(DType::F64, {}, {-3.125}));
  write_npy(path("i8.npy"), make_array<std::int8_t>(DType::I8, {5}, {-128, -1, 0, 1, 127}));
  write_npy(path("u8.npy"), make_array<std::uint8_t>(DType::U8, {2, 2}, {0, 255, 7, 128}));
  write_npy(path("i16.npy"), make_array<std::int16_t>(DType::I16, {3}, {-32768, 32767, -2}));
  write_npy(path("u16.npy"), make_array<std::uint16_t>(DType::U16, {3, 0, 2}, {}));
  std::vector<std::int32_t> i32;
  for (int i = -12; i < 12; ++i) i32.push_back(i * 1000);
  write_npy(path("i32.npy"), make_array<std::int32_t>(DType::I32, {2, 3, 4}, i32));
  write_npy(path("u32.npy"), make_array<std::uint32_t>(DType::U32, {2}, {4294967295u, 0}));
  write_npy(path("i64.npy"), make_array<std::int64_t>(DType::I64, {3},
                                                      {std::numeric_limits<std::int64_t>::min(),
                                                       std::numeric_limits<std::int64_t>::max(), 5}));
  write_npy(path("u64.npy"),
            make_array<std::uint64_t>(DType::U64, {1, 2}, {std::numeric_limits<std::uint64_t>::max(), 1}));
  write_npy(path("bool.npy"), make_array<std::uint8_t>(DType::Bool, {2, 3}, {1, 0, 1, 0, 0, 1}));
  write_npy(path("bool_0d.npy"), make_array<std::uint8_t>(DType::Bool, {}, {0}));
  write_npy(path("empty.npy"), make_array<float>(DType::F32, {0}, {}));
  write_npy(path("big_dim.npy"), make_array<std::uint8_t>(DType::U8, {1000000000000, 0}, {}));
  write_npy(path("f16.npy"), make_array<std::uint16_t>(DType::F16, {3}, {0x3c00, 0x8000, 0x7c00}));
  write_npy(path("bf16.npy"), make_array<std::uint16_t>(DType::Bf16, {2}, {0x3f80, 0xc020}));

  const std::string script = R"PY(
import sys
import numpy as np
d = sys.argv[1] + '/'
expected = {
    'f32': np.array([[-1, -0.5, 0], [0.25, np.inf, -0.0]], dtype=np.float32),
    'f64_0d': np.array(-3.125),
    'i8': np.array([-128, -1, 0, 1, 127], dtype=np.int8),
    'u8': np.array([[0, 255], [7, 128]], dtype=np.uint8),
    'i16': np.array([-32768, 32767, -2], dtype=np.int16),
    'u16': np.zeros((3, 0, 2), dtype=np.uint16),
    'i32': (np.arange(-12, 12, dtype=np.int32) * 1000).reshape(2, 3, 4),
    'u32': np.array([4294967295, 0], dtype=np.uint32),
    'i64': np.array([-(2**63), 2**63 - 1, 5], dtype=np.int64),
    'u64': np.array([[2**64 - 1, 1]], dtype=np.uint64),
    'bool': np.array([[True, False, True], [False, False, True]]),
    'bool_0d': np.array(False),
    'empty': np.zeros((0,), dtype=np.float32),
    'big_dim': np.zeros((1000000000000, 0), dtype=np.uint8),
    'f16': np.array([1, -0.0, np.inf], dtype=np.float16),
    # bf16 arrives as 2-byte voids: its bits, np.load(f).view(ml_dtypes.bfloat16)
    'bf16': np.array([0x3f80, 0xc020], dtype=np.uint16).view('V2'),
}
bad = 0
for name, want in expected.items():
    fname = d + name + '.npy'
    got = np.load(fname, allow_pickle=False)
    problems = []
    if got.dtype != want.dtype:
        problems.append('dtype %s, want %s' % (got.dtype, want.dtype))
    if got.shape != want.shape:
        problems.append('shape %s, want %s' % (got.shape, want.shape))
    elif not np.array_equal(got, want):
        problems.append('values %r, want %r' % (got, want))
    elif want.dtype.kind == 'f' and not np.array_equal(np.signbit(got), np.signbit(want)):
        problems.append('signs of zeros differ')
    with open(fname, 'rb') as f:
        version = np.lib.format.read_magic(f)
        np.lib.format.read_array_header_1_0(f) if version == (1, 0) else None
        offset = f.tell()
    if version != (1, 0):
        problems.append('version %s, want (1, 0)' % (version,))
    if offset % 64 != 0:
        problems.append('data offset %d is not a multiple of 64' % offset)
    with open(fname, 'rb') as f:
        raw = f.read()
    if raw[offset - 1:offset] != b'\n':
        problems.append('header does not end in a newline')
    if len(raw) != offset + want.nbytes:
        problems.append('file is %d bytes, want %d' % (len(raw), offset + want.nbytes))
    for p in problems:
        print('%s: %s' % (name, p))
        bad += 1
print('checked %d files, %d problems' % (len(expected), bad))
sys.exit(1 if bad else 0)
)PY";
  std::string log;
  EXPECT_EQ(run_python(script, &log), 0) << log;
  EXPECT_HAS(log, "checked 16 files, 0 problems");
  EXPECT_HAS(read_bytes(path("bf16.npy")), "'descr': '<V2'");  // ml_dtypes' descriptor
}

// A mismatch must fail the interop check, not pass silently: the same
// script shape, with a deliberately wrong expectation.
TEST_F(npy, PythonCheckFailsOnMismatch) {
  write_npy(path("x.npy"), make_array<std::int32_t>(DType::I32, {2}, {1, 2}));
  const std::string script = R"PY(
import sys
import numpy as np
got = np.load(sys.argv[1] + '/x.npy')
sys.exit(0 if got.dtype == np.int64 else 1)
)PY";
  std::string log;
  EXPECT_EQ(run_python(script, &log), 1) << log;
}

// ------------------------------------------------------------ header variants

TEST_F(npy, AcceptsHeaderVariants) {
  struct Case {
    const char* dict;
    DType dtype;
    Shape shape;
  };
  const std::vector<Case> cases = {
      {"{'shape': (2,), 'fortran_order': False, 'descr': '<i4'}", DType::I32, {2}},
      {"{\"descr\": \"<i4\", \"fortran_order\": False, \"shape\": (2,)}", DType::I32, {2}},
      {"{'descr':'<i4','fortran_order':False,'shape':(1,2,),}", DType::I32, {1, 2}},
      {"  {  'descr' : '=i4' ,\t'fortran_order' : False , 'shape' : ( 2 , ) , }  ", DType::I32, {2}},
      {"{'descr': 'i4', 'fortran_order': False, 'shape': (2, 1)}", DType::I32, {2, 1}},
      {"{'descr': '<u4', 'fortran_order': False, 'shape': (2L,), }", DType::U32, {2}},
      {"{'descr': '<i1', 'fortran_order': False, 'shape': (8,), }", DType::I8, {8}},
      {"{'descr': '>u1', 'fortran_order': False, 'shape': (2, 4), }", DType::U8, {2, 4}},
      {"{'descr': '=b1', 'fortran_order': False, 'shape': (), }", DType::Bool, {}},
      {"{'descr': '<b1', 'fortran_order': False, 'shape': (1, 1, 1), }", DType::Bool, {1, 1, 1}},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (), }", DType::F64, {}},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (0, 5), }", DType::F32, {0, 5}},
  };
  int i = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.dict);
    const std::size_t n =
        static_cast<std::size_t>(bcastgen::checked_numel(c.shape) * bcastgen::dtype_size(c.dtype));
    const std::string data(n, c.dtype == DType::Bool ? '\1' : '\7');
    for (int major : {1, 2, 3}) {
      const std::string p = path("v" + std::to_string(i++) + ".npy");
      write_bytes(p, make_npy(c.dict, data, major));
      const NpyArray a = read_npy(p);
      EXPECT_EQ(a.dtype, c.dtype);
      EXPECT_EQ(a.shape, c.shape);
      EXPECT_EQ(a.data, std::vector<unsigned char>(data.begin(), data.end()));
    }
  }
}

// ------------------------------------------------------------ errors

TEST_F(npy, ErrorClassesSeparateIoFromFormat) {
  static_assert(std::is_base_of_v<bcastgen::InvalidArgument, NpyFormatError>);
  static_assert(std::is_base_of_v<bcastgen::Error, NpyIoError>);
  static_assert(!std::is_base_of_v<bcastgen::InvalidArgument, NpyIoError>);
  static_assert(std::is_base_of_v<NpyError, NpyFormatError> && std::is_base_of_v<NpyError, NpyIoError>);

  // A catch of bcastgen::Error (as a CLI guard does) sees both.
  const std::string missing = path("missing.npy");
  bool caught = false;
  try {
    read_npy(missing);
  } catch (const bcastgen::InvalidArgument&) {
    ADD_FAILURE() << "an I/O error must not be an InvalidArgument";
  } catch (const bcastgen::Error& e) {
    caught = true;
    EXPECT_NE(dynamic_cast<const NpyIoError*>(&e), nullptr);
  }
  EXPECT_TRUE(caught);
  write_bytes(path("bad.npy"), "not an npy file at all");
  caught = false;
  try {
    read_npy(path("bad.npy"));
  } catch (const NpyError& e) {
    caught = true;
    EXPECT_HAS(std::string(e.message()), "bad magic");
    EXPECT_NE(dynamic_cast<const bcastgen::InvalidArgument*>(&e), nullptr);
  }
  EXPECT_TRUE(caught);
}

TEST_F(npy, IoErrors) {
  EXPECT_HAS(read_error<NpyIoError>(path("missing.npy")), "No such file or directory");
  fs::create_directory(path("adir"));
  EXPECT_HAS(read_error<NpyIoError>(path("adir")), "Is a directory");
}

TEST_F(npy, TruncatedFiles) {
  const std::string p = path("t.npy");
  const std::string full = make_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
                                    raw<float>({1, 2, 3, 4, 5, 6}));
  write_bytes(p, full.substr(0, full.size() - 4));
  EXPECT_HAS(read_error<NpyFormatError>(p), "truncated data: expected 24 bytes got 20");
  write_bytes(p, full.substr(0, 40));
  EXPECT_HAS(read_error<NpyFormatError>(p), "truncated header");
  write_bytes(p, full.substr(0, 9));
  EXPECT_HAS(read_error<NpyFormatError>(p), "truncated header");
  write_bytes(p, full.substr(0, 4));
  EXPECT_HAS(read_error<NpyFormatError>(p), "truncated header");
  write_bytes(p, "");
  EXPECT_HAS(read_error<NpyFormatError>(p), "empty file");
  write_bytes(p, full + "xy");
  EXPECT_HAS(read_error<NpyFormatError>(p), "2 unexpected bytes after the 24 data bytes");
}

TEST_F(npy, BadMagicAndVersion) {
  const std::string p = path("m.npy");
  write_bytes(p, std::string("PK\x03\x04", 4) + std::string(100, '\0'));  // an .npz (zip)
  EXPECT_HAS(read_error<NpyFormatError>(p), "bad magic");
  std::string f = make_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (), }", raw<float>({1}));
  f[6] = 4;
  write_bytes(p, f);
  EXPECT_HAS(read_error<NpyFormatError>(p), "unsupported format version 4.0");
  f[6] = 1;
  f[7] = 1;
  write_bytes(p, f);
  EXPECT_HAS(read_error<NpyFormatError>(p), "unsupported format version 1.1");
}

TEST_F(npy, UnsupportedDtypes) {
  const std::string p = path("d.npy");
  auto with_descr = [&](const std::string& descr) {
    write_bytes(p, make_npy("{'descr': '" + descr + "', 'fortran_order': False, 'shape': (2,), }",
                            std::string(16, '\0')));
    return read_error<NpyFormatError>(p);
  };
  const std::string be = with_descr(">f4");
  EXPECT_HAS(be, "unsupported dtype '>f4' (big-endian)");
  EXPECT_HAS(be, "supported: <f4, <f8, |i1, |u1, <i2, <u2, <i4, <u4, <i8, <u8, |b1, <f2, <V2");
  EXPECT_HAS(with_descr(">i8"), "(big-endian)");
  EXPECT_HAS(with_descr("|f4"), "unsupported dtype '|f4'");
  EXPECT_HAS(with_descr("<f2"), "12 unexpected bytes after the 4 data bytes (shape [2] of f16)");  // read as f16
  EXPECT_HAS(with_descr("<V4"), "unsupported dtype '<V4'");
  EXPECT_HAS(with_descr(">V2"), "(big-endian)");
  EXPECT_HAS(with_descr("<c8"), "unsupported dtype '<c8'");
  EXPECT_HAS(with_descr("|O"), "unsupported dtype '|O'");
  EXPECT_HAS(with_descr("<U3"), "unsupported dtype '<U3'");
  EXPECT_HAS(with_descr(""), "unsupported dtype ''");
  write_bytes(p, make_npy("{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (2,), }",
                          std::string(8, '\0')));
  EXPECT_HAS(read_error<NpyFormatError>(p), "structured dtypes");
}

TEST_F(npy, FortranOrderIsRefused) {
  const std::string p = path("f.npy");
  write_bytes(p, make_npy("{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }", std::string(24, '\0')));
  EXPECT_HAS(read_error<NpyFormatError>(p), "fortran_order True is not supported");
}

TEST_F(npy, BoolBytesMustBeZeroOrOne) {
  const std::string p = path("b.npy");
  write_bytes(p, make_npy("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", std::string("\1\2\0", 3)));
  EXPECT_HAS(read_error<NpyFormatError>(p), "bool element 1 has byte value 2, not 0 or 1");
}

TEST_F(npy, ElementCountOverflow) {
  const std::string p = path("o.npy");
  write_bytes(p, make_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", ""));
  EXPECT_HAS(read_error<NpyFormatError>(p), "overflows");
  // The count fits, the byte size does not.
  write_bytes(p, make_npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2305843009213693952,), }", ""));
  EXPECT_HAS(read_error<NpyFormatError>(p), "overflows");
  write_bytes(p, make_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }", ""));
  EXPECT_HAS(read_error<NpyFormatError>(p), "does not fit in 64 bits");
  // A big but representable size is caught as truncation, not allocated.
  write_bytes(p, make_npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000,), }", "abcdefgh"));
  EXPECT_HAS(read_error<NpyFormatError>(p), "truncated data: expected 8000000000000 bytes got 8");
}

TEST_F(npy, MalformedHeaders) {
  const std::string p = path("h.npy");
  auto with_dict = [&](const std::string& dict) {
    write_bytes(p, make_npy(dict, std::string(8, '\0')));
    return read_error<NpyFormatError>(p);
  };
  EXPECT_HAS(with_dict("{'descr': '<i4', 'fortran_order': False}"), "no 'shape' key");
  EXPECT_HAS(with_dict("{'shape': (2,), 'fortran_order': False}"), "no 'descr' key");
  EXPECT_HAS(with_dict("{'descr': '<i4', 'shape': (2,)}"), "no 'fortran_order' key");
  EXPECT_HAS(with_dict("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), 'x': 1}"), "unexpected key 'x'");
  EXPECT_HAS(with_dict("{'descr': '<i4', 'descr': '<i4', 'fortran_order': False, 'shape': (2,)}"),
             "duplicate key 'descr'");
  EXPECT_HAS(with_dict("{'descr': '<i4', 'fortran_order': False, 'shape': (2)}"), "not a tuple");
  EXPECT_HAS(with_dict("{'descr': '<i4', 'fortran_order': False, 'shape': [2]}"), "expected a tuple");
  EXPECT_HAS(with_dict("{'descr': '<i4', 'fortran_order': False, 'shape': (-2,)}"), "negative dim");
  EXPECT_HAS(with_dict("{'descr': '<i4', 'fortran_order': False, 'shape': (2,,)}"), "expected a dim");
  EXPECT_HAS(with_dict("{'descr': '<i4', 'fortran_order': 0, 'shape': (2,)}"), "expected True or False");
  EXPECT_HAS(with_dict("{'descr': '<i4', 'fortran_order': False, 'shape': (2,)} junk"), "after the closing '}'");
  EXPECT_HAS(with_dict("{'descr': '<i4' 'fortran_order': False, 'shape': (2,)}"), "expected ',' or '}'");
  EXPECT_HAS(with_dict("{'descr: '<i4', 'fortran_order': False, 'shape': (2,)}"), "expected ':'");
  EXPECT_HAS(with_dict("'descr': '<i4'"), "expected '{'");
  EXPECT_HAS(with_dict("{'descr': '<i4"), "unterminated string");
}

TEST_F(npy, WriteErrors) {
  // Into a directory that does not exist.
  const std::string nowhere = path("no/such/dir/x.npy");
  try {
    write_npy(nowhere, make_array<float>(DType::F32, {1}, {1}));
    ADD_FAILURE() << "no throw";
  } catch (const NpyIoError& e) {
    EXPECT_HAS(std::string(e.what()), nowhere);
    EXPECT_HAS(std::string(e.what()), "No such file or directory");
  }
  // Over a directory: the rename fails, the target stays, no temp file left.
  fs::create_directories(path("target/inner"));
  EXPECT_THROW(write_npy(path("target"), make_array<float>(DType::F32, {1}, {1})), NpyIoError);
  EXPECT_TRUE(fs::is_directory(path("target/inner")));
  EXPECT_EQ(listing(), std::vector<std::string>{"target"});

  // An inconsistent array: nothing is written.
  const std::string p = path("x.npy");
  try {
    write_npy(p, make_array<float>(DType::F32, {2, 3}, {1, 2, 3}));
    ADD_FAILURE() << "no throw";
  } catch (const NpyFormatError& e) {
    EXPECT_HAS(std::string(e.what()), "needs 24 data bytes, the array has 12");
  }
  EXPECT_THROW(write_npy(p, make_array<std::uint8_t>(DType::Bool, {2}, {0, 2})), NpyFormatError);
  EXPECT_THROW(write_npy(p, make_array<std::uint8_t>(DType::U8, {-1}, {})), NpyFormatError);
  EXPECT_THROW(write_npy(p, make_array<std::uint8_t>(DType::U8, {4294967296, 4294967296}, {})), NpyFormatError);
  EXPECT_FALSE(fs::exists(p));
}

}  // namespace
