// Spec errors that spec_test.cpp does not cover: element counts that
// overflow 64 bits, the max_elements limit (output and operands, exactly at
// and just above it), axes_mapping and pdpd axes invalid for their shapes,
// and the same problems through `bcastgen generate`: every one reported in
// one run as file:line:col, with exit 1 only when all are rule failures,
// else 2, and nothing written.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bcastgen/gen/spec.h"

namespace {

namespace fs = std::filesystem;
using bcastgen::gen::Diagnostic;
using bcastgen::gen::parse_spec;
using bcastgen::gen::SpecError;

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

std::vector<Diagnostic> errors_of(const std::string& text, bool* only_rule = nullptr) {
  try {
    parse_spec(text, "m.yaml");
  } catch (const SpecError& e) {
    if (only_rule) *only_rule = e.only_rule_failures();
    return e.diagnostics();
  }
  ADD_FAILURE() << "parse_spec accepted:\n" << text;
  return {};
}

std::string all_text(const std::vector<Diagnostic>& d) {
  std::string s;
  for (const auto& x : d) s += x.text() + "\n";
  return s;
}

// Line 1 "kernels:", 2 name, 3 op, 4 dtype, 5 rule, 6 a, 7 b, 8 extra.
std::string binary(const std::string& a, const std::string& b, const std::string& dtype = "f32",
                   const std::string& rule = "numpy", const std::string& extra = "") {
  return "kernels:\n  - name: k\n    op: add\n    dtype: " + dtype + "\n    rule: " + rule + "\n    a: " + a +
         "\n    b: " + b + "\n" + extra;
}

// Line 1 "kernels:", 2 name, 3 op, 4 mode, 5 dtype, 6 a, 7 target, 8 extra.
std::string expand(const std::string& mode, const std::string& a, const std::string& target,
                   const std::string& extra = "") {
  return "kernels:\n  - name: e\n    op: broadcast\n    mode: " + mode + "\n    dtype: f32\n    a: " + a +
         "\n    target: " + target + "\n" + extra;
}

// ---------------------------------------------------------------------------
// element counts

TEST(SpecLimits, ElementCountOverflowingSixtyFourBits) {
  // 2^32 x 2^32 x 4 = 2^66 elements.
  bool only_rule = true;
  const auto d = errors_of(binary("[4294967296, 4294967296, 4]", "[1]"), &only_rule);
  ASSERT_EQ(d.size(), 1u) << all_text(d);
  EXPECT_TRUE(contains(d[0].message, "overflows a 64-bit element count")) << d[0].text();
  EXPECT_TRUE(contains(d[0].message, "[4294967296,4294967296,4]")) << d[0].text();
  EXPECT_EQ(d[0].kernel, "k");
  EXPECT_GT(d[0].pos.line, 0);
  EXPECT_FALSE(only_rule);  // malformed input (exit 2), not a rule failure

  // Through broadcasting only: neither operand overflows, the output does.
  const auto out = errors_of(binary("[4294967296, 1]", "[1, 4294967296]"));
  ASSERT_EQ(out.size(), 1u) << all_text(out);
  EXPECT_TRUE(contains(out[0].message, "overflows")) << out[0].text();

  // A dim that does not fit in 64 bits at all.
  const auto huge = errors_of(binary("[18446744073709551616]", "[1]"));
  ASSERT_EQ(huge.size(), 1u) << all_text(huge);
  EXPECT_EQ(huge[0].text(), "m.yaml:6:9: kernel 'k': 'a[0]' must be an integer, got '18446744073709551616'");
}

TEST(SpecLimits, MaxElementsAppliesToTheOutputAndEachOperand) {
  // Output 1000 x 1000 from two operands of 1000.
  const std::string spec = binary("[1000]", "[1000, 1]");
  EXPECT_NO_THROW(parse_spec("max_elements: 1000000\n" + spec, "m.yaml"));
  const auto d = errors_of("max_elements: 999999\n" + spec);
  ASSERT_EQ(d.size(), 1u) << all_text(d);
  EXPECT_EQ(d[0].message, "shape [1000,1000] has 1000000 elements, more than max_elements 999999");
  EXPECT_FALSE(d[0].rule_failure);

  // The Broadcast op's input counts as well as its target.
  EXPECT_NO_THROW(parse_spec("max_elements: 12\n" + expand("numpy", "[3, 4]", "[3, 4]"), "m.yaml"));
  const auto op = errors_of("max_elements: 11\n" + expand("numpy", "[3, 4]", "[3, 4]"));
  ASSERT_EQ(op.size(), 1u) << all_text(op);
  EXPECT_TRUE(contains(op[0].message, "more than max_elements 11")) << op[0].text();

  // The default limit is 2^40: one more element is refused.
  const auto dflt = errors_of(binary("[1099511627777]", "[1]"));
  ASSERT_EQ(dflt.size(), 1u) << all_text(dflt);
  EXPECT_TRUE(contains(dflt[0].message, "more than max_elements 1099511627776")) << dflt[0].text();
  EXPECT_NO_THROW(parse_spec(binary("[1099511627776]", "[1]"), "m.yaml"));
}

TEST(SpecLimits, OverflowIsReportedAtTheShapeThatHasIt) {
  // Under pdpd with an axis: at a, not at the axis.
  const auto d = errors_of(binary("[4294967296, 4294967296, 4]", "[4]", "f32", "pdpd", "    axis: 2\n"));
  ASSERT_EQ(d.size(), 1u) << all_text(d);
  EXPECT_EQ(d[0].pos.line, 6) << d[0].text();
  // Grown by broadcasting: at b.
  const auto out = errors_of(binary("[4294967296, 1]", "[1, 4294967296]"));
  ASSERT_EQ(out.size(), 1u) << all_text(out);
  EXPECT_EQ(out[0].pos.line, 7) << out[0].text();
}

TEST(SpecLimits, OutputBytesBeyondSixtyFourBits) {
  // 2^61 f64 elements fit in an int64 count, not their 2^64 bytes.
  const std::string big = "max_elements: 9223372036854775807\n" + binary("[2305843009213693952]", "[1]", "f64");
  const auto d = errors_of(big);
  ASSERT_EQ(d.size(), 1u) << all_text(d);
  EXPECT_EQ(d[0].message, "output [2305843009213693952] of f64: its size in bytes does not fit in 64 bits");
  EXPECT_FALSE(d[0].rule_failure);
  // One byte per element fits.
  EXPECT_NO_THROW(parse_spec("max_elements: 9223372036854775807\n" + binary("[2305843009213693952]", "[1]", "u8"),
                             "m.yaml"));
}

TEST(SpecLimits, LimitsMustBeSensible) {
  const auto zero = errors_of("max_elements: 0\n" + binary("[2]", "[2]"));
  ASSERT_EQ(zero.size(), 1u) << all_text(zero);  // once, not once per kernel
  EXPECT_EQ(zero[0].text(), "m.yaml:1:15: 'max_elements' must be 1 or more, got 0");
  const auto neg = errors_of("stream_threshold_bytes: -1\n" + binary("[2]", "[2]"));
  ASSERT_EQ(neg.size(), 1u) << all_text(neg);
  EXPECT_EQ(neg[0].text(), "m.yaml:1:25: 'stream_threshold_bytes' must be 0 or more, got -1");
  const auto text = errors_of("max_elements: lots\n" + binary("[2]", "[2]"));
  ASSERT_EQ(text.size(), 1u) << all_text(text);
  EXPECT_EQ(text[0].message, "'max_elements' must be an integer, got 'lots'");
  EXPECT_NO_THROW(parse_spec("max_elements: 1\nstream_threshold_bytes: 0\n" + binary("[1]", "[1]"), "m.yaml"));

  // In-memory specs are checked the same way.
  bcastgen::gen::Spec s;
  const bcastgen::gen::KernelSpec k =
      bcastgen::gen::binary_kernel("k", bcastgen::Op::Add, bcastgen::DType::F32, bcastgen::Rule::Numpy, {2}, {2});
  s.kernels.push_back(k);
  s.max_elements = 0;
  EXPECT_THROW(bcastgen::gen::validate_spec(s), SpecError);
  s.max_elements = 2;
  s.stream_threshold_bytes = -5;
  EXPECT_THROW(bcastgen::gen::validate_spec(s), SpecError);
  s.stream_threshold_bytes = 0;
  EXPECT_NO_THROW(bcastgen::gen::validate_spec(s));
}

// ---------------------------------------------------------------------------
// axes invalid for their shapes

TEST(SpecLimits, AxesMappingInvalidForItsShapes) {
  struct Case {
    const char* mapping;
    const char* message;
    bool rule_failure;
  };
  const Case cases[] = {
      {"[2, 1]", "explicit: axes_mapping must be strictly increasing, but entry 1 is 1 after 2", false},
      {"[1, 1]", "explicit: axes_mapping must be strictly increasing, but entry 1 is 1 after 1", false},
      {"[0, 5]", "explicit: axes_mapping[1] = 5 is outside target [2,3,4] of rank 3", false},
      {"[-1, 2]", "'axes_mapping' has negative dim -1 at position 0", false},
      {"[1]", "explicit: axes_mapping has 1 entries but input [3,4] has rank 2", false},
      {"[0, 1]", "explicit (to target): input [3,4] and target [2,3,4] do not broadcast: axis 0 has 3 vs 2", true},
  };
  for (const Case& c : cases) {
    bool only_rule = false;
    const auto d = errors_of(expand("explicit", "[3, 4]", "[2, 3, 4]", std::string("    axes_mapping: ") + c.mapping + "\n"),
                             &only_rule);
    ASSERT_EQ(d.size(), 1u) << c.mapping << "\n" << all_text(d);
    EXPECT_EQ(d[0].message, c.message) << c.mapping;
    EXPECT_EQ(d[0].rule_failure, c.rule_failure) << c.mapping;
    EXPECT_EQ(only_rule, c.rule_failure) << c.mapping;
    // Malformed mappings point at the mapping (line 8), mismatches at the target (line 7).
    EXPECT_EQ(d[0].pos.line, c.rule_failure ? 7 : 8) << d[0].text();
  }
  const auto ok = expand("explicit", "[3, 4]", "[2, 3, 4]", "    axes_mapping: [1, 2]\n");
  EXPECT_NO_THROW(parse_spec(ok, "m.yaml"));
  // axes_mapping on another mode is refused.
  const auto stray = errors_of(expand("numpy", "[3, 4]", "[2, 3, 4]", "    axes_mapping: [1, 2]\n"));
  ASSERT_EQ(stray.size(), 1u) << all_text(stray);
  EXPECT_EQ(stray[0].message, "'axes_mapping' applies only to mode explicit");
}

TEST(SpecLimits, PdpdAxisOfTheBroadcastOp) {
  EXPECT_NO_THROW(parse_spec(expand("pdpd", "[3, 1]", "[2, 3, 4, 5]", "    axis: 1\n"), "m.yaml"));
  bool only_rule = false;
  const auto past = errors_of(expand("pdpd", "[3, 4]", "[2, 3, 4, 5]", "    axis: 3\n"), &only_rule);
  ASSERT_EQ(past.size(), 1u) << all_text(past);
  EXPECT_TRUE(past[0].rule_failure);
  EXPECT_TRUE(only_rule);
  EXPECT_TRUE(contains(past[0].message, "input placed at axis 3 needs 2 axes but target has rank 4"))
      << past[0].text();
  const auto bad = errors_of(expand("pdpd", "[3, 1]", "[2, 3, 4, 5]", "    axis: -7\n"), &only_rule);
  ASSERT_EQ(bad.size(), 1u) << all_text(bad);
  EXPECT_FALSE(bad[0].rule_failure);
  EXPECT_EQ(bad[0].pos.line, 8);
  EXPECT_TRUE(contains(bad[0].message, "axis -7 is invalid")) << bad[0].text();
}

// ---------------------------------------------------------------------------
// the command line: all of it in one run, distinct exit codes, nothing written

struct CmdResult {
  int code = -1;
  std::string err;
};

CmdResult generate(const std::string& spec_text, const std::string& dir) {
  const std::string spec = dir + "/limits.yaml", err = dir + "/stderr";
  std::ofstream(spec) << spec_text;
  const std::string cmd = std::string("'") + BCASTGEN_EXE + "' generate '" + spec + "' -o '" + dir + "/out' 2>'" +
                          err + "' >/dev/null </dev/null";
  const int status = std::system(cmd.c_str());
  CmdResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err);
  std::ostringstream s;
  s << in.rdbuf();
  r.err = s.str();
  return r;
}

TEST(SpecLimits, EveryProblemInOneRunWithDistinctExitCodes) {
  std::string t = "/tmp/bcastgen_spec_limits_XXXXXX";
  ASSERT_NE(mkdtemp(t.data()), nullptr);
  const std::string dir = t;

  // Two rule failures only: exit 1, both reported.
  const std::string rules = "kernels:\n"
                            "  - {name: a1, op: add, dtype: f32, rule: numpy, a: [3, 1, 5], b: [4, 4, 5]}\n"
                            "  - {name: a2, op: add, dtype: f32, rule: pdpd, axis: 3, a: [2, 3, 4, 5], b: [4, 5]}\n";
  const CmdResult r1 = generate(rules, dir);
  EXPECT_EQ(r1.code, 1) << r1.err;
  EXPECT_TRUE(contains(r1.err, "limits.yaml:2:") && contains(r1.err, "kernel 'a1'")) << r1.err;
  EXPECT_TRUE(contains(r1.err, "limits.yaml:3:") && contains(r1.err, "kernel 'a2'")) << r1.err;

  // Every kind of problem at once: exit 2, one line each, in file order.
  const std::string all =
      "max_elements: 100\n"                                                                            // 1
      "kernels:\n"                                                                                     // 2
      "  - {name: big, op: add, dtype: f32, rule: numpy, a: [10, 11], b: [11]}\n"                      // 3
      "  - {name: ovf, op: add, dtype: f32, rule: numpy, a: [4294967296, 4294967296], b: [1]}\n"       // 4
      "  - {name: e, op: broadcast, mode: explicit, dtype: f32, a: [3], target: [3], axes_mapping: [4]}\n"  // 5
      "  - {name: mismatch, op: add, dtype: f32, rule: numpy, a: [3], b: [4]}\n"                       // 6
      "  - {name: 1bad, op: add, dtype: f32, rule: numpy, a: [3], b: [3]}\n"                           // 7
      "  - {name: neg, op: add, dtype: f32, rule: numpy, a: [-3], b: [3]}\n"                           // 8
      "  - {name: typed, op: add, dtype: f32, rule: numpy, a: \"12\", b: [3]}\n"                       // 9
      "  - {name: logic, op: logical_and, dtype: f32, rule: numpy, a: [3], b: [3]}\n"                  // 10
      "  - {name: mismatch, op: divide, dtype: i32, rule: numpy, a: [3], b: [3]}\n";                   // 11
  const CmdResult r2 = generate(all, dir);
  EXPECT_EQ(r2.code, 2) << r2.err;
  std::vector<int> lines;
  std::istringstream in(r2.err);
  for (std::string l; std::getline(in, l);) {
    ASSERT_EQ(l.rfind(dir + "/limits.yaml:", 0), 0u) << l;
    lines.push_back(std::atoi(l.c_str() + dir.size() + 13));
  }
  EXPECT_EQ(lines, (std::vector<int>{3, 4, 5, 6, 7, 8, 9, 10, 11})) << r2.err;
  EXPECT_TRUE(contains(r2.err, "more than max_elements 100")) << r2.err;
  EXPECT_TRUE(contains(r2.err, "overflows a 64-bit element count")) << r2.err;
  EXPECT_TRUE(contains(r2.err, "is outside target [3]")) << r2.err;
  EXPECT_TRUE(contains(r2.err, "do not broadcast")) << r2.err;
  EXPECT_TRUE(contains(r2.err, "'1bad' is not a valid C++ identifier")) << r2.err;
  EXPECT_TRUE(contains(r2.err, "negative dim -3")) << r2.err;
  EXPECT_TRUE(contains(r2.err, "got the string \"12\"")) << r2.err;
  EXPECT_TRUE(contains(r2.err, "does not support dtype 'f32'")) << r2.err;
  EXPECT_TRUE(contains(r2.err, "duplicate kernel name 'mismatch'")) << r2.err;
  EXPECT_FALSE(fs::exists(dir + "/out"));
  fs::remove_all(dir);
}

}  // namespace
