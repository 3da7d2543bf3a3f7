// The bcastgen binary itself: `shape`, `explain`, help and version, with
// their exit codes (0 ok, 1 rule failure, 2 malformed input or usage), stdout
// and stderr captured through temporary files.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

struct CliRun {
  int code = -1;
  std::string out, err;
};

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') {
      q += "'\\''";
    } else {
      q += c;
    }
  }
  return q + "'";
}

std::string make_temp(const char* what) {
  std::string path = std::string("/tmp/bcastgen_cli_test_") + what + "_XXXXXX";
  const int fd = mkstemp(path.data());
  EXPECT_GE(fd, 0) << "mkstemp " << path;
  if (fd >= 0) close(fd);
  return path;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs the bcastgen binary with `args` (each quoted for the shell).
CliRun bcastgen(const std::vector<std::string>& args) {
  const std::string out = make_temp("out"), err = make_temp("err");
  std::string cmd = quote(BCASTGEN_EXE);
  for (const auto& a : args) cmd += " " + quote(a);
  cmd += " >" + quote(out) + " 2>" + quote(err) + " </dev/null";
  const int status = std::system(cmd.c_str());
  CliRun r;
  r.code = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  std::remove(out.c_str());
  std::remove(err.c_str());
  return r;
}
CliRun bcastgen(std::initializer_list<std::string> args) { return bcastgen(std::vector<std::string>(args)); }

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

std::string show(const CliRun& r) {
  return "exit " + std::to_string(r.code) + "\n--- stdout:\n" + r.out + "--- stderr:\n" + r.err;
}

// ---------------------------------------------------------------------------
// shape

TEST(CliShape, PdpdAxis1) {
  // seed 000 "PDPD examples": (2,3,4,5) + (3,1) with axis = 1.
  const CliRun r = bcastgen({"shape", "--rule", "pdpd", "--axis", "1", "[2,3,4,5]", "[3,1]"});
  EXPECT_EQ(r.code, 0) << show(r);
  EXPECT_EQ(r.out, "[2,3,4,5]\n") << show(r);
  EXPECT_EQ(r.err, "") << show(r);
}

TEST(CliShape, PaddleAxis1GrowsEitherOperand) {
  // seed 004: x (2,1,4) + y (3,1), axis=1 -> (2,3,4), which pdpd rejects.
  const CliRun r = bcastgen({"shape", "--rule", "paddle", "--axis", "1", "[2,1,4]", "[3,1]"});
  EXPECT_EQ(r.code, 0) << show(r);
  EXPECT_EQ(r.out, "[2,3,4]\n") << show(r);
  EXPECT_EQ(r.err, "") << show(r);
}

TEST(CliShape, PaddleMismatchExitsOneNamingTheAxis) {
  // seed 004: (2,3,4,5) + (4,5) with axis=1 is "Broadcast dimension mismatch".
  const CliRun r = bcastgen({"shape", "--rule", "paddle", "--axis", "1", "[2,3,4,5]", "[4,5]"});
  EXPECT_EQ(r.code, 1) << show(r);
  EXPECT_EQ(r.out, "") << show(r);
  EXPECT_EQ(r.err,
            "bcastgen: paddle (axis 1): A [2,3,4,5] and B [4,5] do not broadcast: B placed at axis 1 gives axis 1 "
            "has 3 vs 4\n")
      << show(r);
}

TEST(CliShape, PaddleAxisOutsideTheRankDifferenceExitsTwo) {
  const CliRun r = bcastgen({"shape", "--rule", "paddle", "--axis", "3", "[2,3,4,5]", "[4,5]"});
  EXPECT_EQ(r.code, 2) << show(r);
  EXPECT_TRUE(contains(r.err, "axis 3 is invalid")) << show(r);
}

TEST(CliShape, NumpyMismatchExitsOneWithOneStderrLine) {
  const CliRun r = bcastgen({"shape", "--rule", "numpy", "[3,1,5]", "[4,4,5]"});
  EXPECT_EQ(r.code, 1) << show(r);
  EXPECT_EQ(r.out, "") << show(r);
  const auto l = lines(r.err);
  ASSERT_EQ(l.size(), 1u) << show(r);
  EXPECT_TRUE(contains(l[0], "axis 0")) << show(r);
  EXPECT_EQ(l[0], "bcastgen: numpy: A [3,1,5] and B [4,4,5] do not broadcast: axis 0 has 3 vs 4");
}

TEST(CliShape, NumpyXSyntax) {
  // seed 002 Array API, "Broadcasting > Examples".
  const CliRun r = bcastgen({"shape", "--rule", "numpy", "8x1x6x1", "7x1x5"});
  EXPECT_EQ(r.code, 0) << show(r);
  EXPECT_EQ(r.out, "[8,7,6,5]\n") << show(r);
}

TEST(CliShape, Scalars) {
  const CliRun r = bcastgen({"shape", "[]", "[]"});
  EXPECT_EQ(r.code, 0) << show(r);
  EXPECT_EQ(r.out, "[]\n") << show(r);
  const CliRun r2 = bcastgen({"shape", "2,3,5", "[]"});
  EXPECT_EQ(r2.code, 0) << show(r2);
  EXPECT_EQ(r2.out, "[2,3,5]\n") << show(r2);
}

TEST(CliShape, DefaultRuleIsNumpy) {
  const CliRun r = bcastgen({"shape", "[2,1,4]", "[3,1]"});
  EXPECT_EQ(r.code, 0) << show(r);
  EXPECT_EQ(r.out, "[2,3,4]\n") << show(r);
}

TEST(CliShape, OtherRules) {
  const CliRun bidir = bcastgen({"shape", "--rule", "bidirectional", "[3,1]", "[2,1,6]"});
  EXPECT_EQ(bidir.code, 0) << show(bidir);
  EXPECT_EQ(bidir.out, "[2,3,6]\n") << show(bidir);
  const CliRun none_ok = bcastgen({"shape", "--rule", "none", "[2,3]", "2x3"});
  EXPECT_EQ(none_ok.code, 0) << show(none_ok);
  EXPECT_EQ(none_ok.out, "[2,3]\n") << show(none_ok);
  const CliRun none_bad = bcastgen({"shape", "--rule", "none", "[2,3]", "[3]"});
  EXPECT_EQ(none_bad.code, 1) << show(none_bad);
  const CliRun pdpd_default = bcastgen({"shape", "--rule", "pdpd", "[2,3,4,5]", "[4,5]"});
  EXPECT_EQ(pdpd_default.code, 0) << show(pdpd_default);
  EXPECT_EQ(pdpd_default.out, "[2,3,4,5]\n") << show(pdpd_default);
}

TEST(CliShape, PdpdOnlyBBroadcastsExitsOne) {
  // seed 000: (8,1,6,1) + (7,1,5) with axis = 1 does not broadcast under PDPD.
  const CliRun r = bcastgen({"shape", "--rule", "pdpd", "--axis", "1", "[8,1,6,1]", "[7,1,5]"});
  EXPECT_EQ(r.code, 1) << show(r);
  EXPECT_EQ(r.out, "") << show(r);
  EXPECT_TRUE(contains(r.err, "PaddlePaddle")) << show(r);
}

TEST(CliShape, PdpdAxisThatDoesNotFitExitsOne) {
  const CliRun r = bcastgen({"shape", "--rule", "pdpd", "--axis", "3", "[2,3,4,5]", "[4,5]"});
  EXPECT_EQ(r.code, 1) << show(r);
  EXPECT_EQ(r.out, "") << show(r);
  EXPECT_TRUE(contains(r.err, "placed at axis 3")) << show(r);
}

TEST(CliShape, BadSyntaxExitsTwo) {
  for (const std::string bad : {"[2,3", "2,,3", "abc", "2x3,4", "2,3]", ""}) {
    const CliRun r = bcastgen({"shape", bad, "[3]"});
    EXPECT_EQ(r.code, 2) << "'" << bad << "'\n" << show(r);
    EXPECT_EQ(r.out, "") << show(r);
    EXPECT_TRUE(contains(r.err, "bad shape")) << show(r);
    EXPECT_TRUE(contains(r.err, "column")) << show(r);
  }
  const CliRun r = bcastgen({"shape", "[2,3", "[3]"});
  EXPECT_EQ(r.err, "bcastgen: bad shape '[2,3': expected ']' at column 5\n") << show(r);
}

TEST(CliShape, NegativeDimExitsTwo) {
  const CliRun r = bcastgen({"shape", "2,-3", "3"});
  EXPECT_EQ(r.code, 2) << show(r);
  EXPECT_TRUE(contains(r.err, "negative dim")) << show(r);
}

TEST(CliShape, UnknownRuleExitsTwo) {
  const CliRun r = bcastgen({"shape", "--rule", "foo", "2", "3"});
  EXPECT_EQ(r.code, 2) << show(r);
  EXPECT_EQ(r.out, "") << show(r);
  EXPECT_TRUE(contains(r.err, "foo")) << show(r);
}

TEST(CliShape, PdpdAxisBelowMinusOneExitsTwo) {
  for (const std::string axis_arg : {"--axis=-2", "--axis"}) {
    const CliRun r = axis_arg == "--axis"
                         ? bcastgen({"shape", "--rule", "pdpd", "--axis", "-2", "[2,3]", "[3]"})
                         : bcastgen({"shape", "--rule", "pdpd", axis_arg, "[2,3]", "[3]"});
    EXPECT_EQ(r.code, 2) << show(r);
    // Rejected by the rule engine, not as an unparsable option.
    EXPECT_TRUE(contains(r.err, "axis -2 is invalid")) << show(r);
  }
}

TEST(CliShape, AxisWithNonPdpdRuleExitsTwo) {
  const CliRun r = bcastgen({"shape", "--rule", "numpy", "--axis", "1", "[2,3]", "[3]"});
  EXPECT_EQ(r.code, 2) << show(r);
  EXPECT_EQ(r.out, "") << show(r);
  EXPECT_TRUE(contains(r.err, "--axis")) << show(r);
}

TEST(CliShape, UsageErrorsExitTwo) {
  EXPECT_EQ(bcastgen({}).code, 2);
  EXPECT_EQ(bcastgen({"shape"}).code, 2);
  EXPECT_EQ(bcastgen({"shape", "[2]"}).code, 2);
  EXPECT_EQ(bcastgen({"frobnicate", "[2]", "[2]"}).code, 2);
  EXPECT_EQ(bcastgen({"shape", "--axis", "x", "[2]", "[2]"}).code, 2);
}

// ---------------------------------------------------------------------------
// help and version

TEST(CliHelp, TopLevelHelp) {
  const CliRun r = bcastgen({"--help"});
  EXPECT_EQ(r.code, 0) << show(r);
  EXPECT_TRUE(contains(r.out, "Usage")) << show(r);
  EXPECT_TRUE(contains(r.out, "shape")) << show(r);
  EXPECT_TRUE(contains(r.out, "explain")) << show(r);
}

TEST(CliHelp, Version) {
  const CliRun r = bcastgen({"--version"});
  EXPECT_EQ(r.code, 0) << show(r);
  EXPECT_TRUE(std::regex_match(r.out, std::regex("bcastgen [0-9]+\\.[0-9]+\\.[0-9]+\n"))) << show(r);
}

TEST(CliHelp, ShapeHelp) {
  const CliRun r = bcastgen({"shape", "--help"});
  EXPECT_EQ(r.code, 0) << show(r);
  for (const char* s : {"--rule", "--axis", "none", "numpy", "pdpd", "bidirectional", "2x3x4"}) {
    EXPECT_TRUE(contains(r.out, s)) << s << "\n" << show(r);
  }
}

TEST(CliHelp, ExplainHelp) {
  const CliRun r = bcastgen({"explain", "--help"});
  EXPECT_EQ(r.code, 0) << show(r);
  for (const char* s : {"--json", "--rule", "--axis", "strides"}) {
    EXPECT_TRUE(contains(r.out, s)) << s << "\n" << show(r);
  }
}

// ---------------------------------------------------------------------------
// explain

// The table row starting with `label` (label followed by a space and no '['
// on the line, which would be the header's "result [..]").
std::string table_row(const std::string& text, const std::string& label) {
  for (const auto& l : lines(text)) {
    if (l.rfind(label + " ", 0) == 0 && l.find('[') == std::string::npos) return l;
  }
  ADD_FAILURE() << "no row '" << label << "' in:\n" << text;
  return "";
}

// The cells of a row: the whitespace-separated tokens after the label.
std::vector<std::string> cells(const std::string& row, const std::string& label) {
  std::vector<std::string> v;
  std::istringstream in(row.size() >= label.size() ? row.substr(label.size()) : "");
  for (std::string t; in >> t;) v.push_back(t);
  return v;
}

// End column of each cell of a row.
std::vector<std::size_t> cell_ends(const std::string& row, const std::string& label) {
  std::vector<std::size_t> ends;
  for (std::size_t i = label.size(); i < row.size(); ++i) {
    if (row[i] != ' ' && (i + 1 == row.size() || row[i + 1] == ' ')) ends.push_back(i + 1);
  }
  return ends;
}

using Cells = std::vector<std::string>;

TEST(CliExplain, TableRowsArrayApiExample) {
  const CliRun r = bcastgen({"explain", "8x1x6x1", "7x1x5"});
  ASSERT_EQ(r.code, 0) << show(r);
  EXPECT_TRUE(contains(r.out, "[8,7,6,5]")) << show(r);
  EXPECT_EQ(cells(table_row(r.out, "axis"), "axis"), (Cells{"0", "1", "2", "3"}));
  EXPECT_EQ(cells(table_row(r.out, "A dim"), "A dim"), (Cells{"8", "1", "6", "1"}));
  EXPECT_EQ(cells(table_row(r.out, "B dim"), "B dim"), (Cells{"1", "7", "1", "5"}));
  EXPECT_EQ(cells(table_row(r.out, "result"), "result"), (Cells{"8", "7", "6", "5"}));
  EXPECT_EQ(cells(table_row(r.out, "A stride"), "A stride"), (Cells{"6", "0", "1", "0"}));
  EXPECT_EQ(cells(table_row(r.out, "B stride"), "B stride"), (Cells{"0", "5", "0", "1"}));
  EXPECT_EQ(cells(table_row(r.out, "stretched"), "stretched"), (Cells{"B", "A", "B", "A"}));
}

// Every row's cells end in the same columns as the axis row's.
void expect_aligned(const std::string& text, const std::vector<std::string>& labels) {
  const auto want = cell_ends(table_row(text, "axis"), "axis");
  for (const auto& label : labels) {
    EXPECT_EQ(cell_ends(table_row(text, label), label), want) << "row '" << label << "' misaligned in:\n" << text;
  }
}

TEST(CliExplain, TableColumnsAligned) {
  const CliRun numpy = bcastgen({"explain", "8x1x6x1", "7x1x5"});
  ASSERT_EQ(numpy.code, 0) << show(numpy);
  expect_aligned(numpy.out, {"A dim", "B dim", "result", "A stride", "B stride", "stretched"});

  const CliRun bidir = bcastgen({"explain", "--rule", "bidirectional", "[3,1]", "[2,1,6]"});
  ASSERT_EQ(bidir.code, 0) << show(bidir);
  expect_aligned(bidir.out, {"input dim", "target dim", "result", "input stride", "target stride", "stretched"});
  EXPECT_EQ(cells(table_row(bidir.out, "input stride"), "input stride"), (Cells{"0", "1", "0"}));
  EXPECT_EQ(cells(table_row(bidir.out, "target stride"), "target stride"), (Cells{"6", "0", "1"}));
  EXPECT_EQ(cells(table_row(bidir.out, "stretched"), "stretched"), (Cells{"input", "target", "input"}));
}

TEST(CliExplain, PdpdTable) {
  const CliRun r = bcastgen({"explain", "--rule", "pdpd", "--axis", "1", "[2,3,4,5]", "[3,1]"});
  ASSERT_EQ(r.code, 0) << show(r);
  EXPECT_TRUE(contains(r.out, "axis 1")) << show(r);
  EXPECT_EQ(cells(table_row(r.out, "B dim"), "B dim"), (Cells{"1", "3", "1", "1"}));
  EXPECT_EQ(cells(table_row(r.out, "A stride"), "A stride"), (Cells{"60", "20", "5", "1"}));
  EXPECT_EQ(cells(table_row(r.out, "B stride"), "B stride"), (Cells{"0", "1", "0", "0"}));
  expect_aligned(r.out, {"A dim", "B dim", "result", "A stride", "B stride", "stretched"});
}

TEST(CliExplain, PaddleTable) {
  const CliRun r = bcastgen({"explain", "--rule", "paddle", "--axis", "1", "[2,1,4]", "[3,1]"});
  ASSERT_EQ(r.code, 0) << show(r);
  EXPECT_TRUE(contains(r.out, "axis 1: B starts there")) << show(r);
  EXPECT_EQ(cells(table_row(r.out, "B dim"), "B dim"), (Cells{"1", "3", "1"}));
  EXPECT_EQ(cells(table_row(r.out, "result"), "result"), (Cells{"2", "3", "4"}));
  EXPECT_EQ(cells(table_row(r.out, "A stride"), "A stride"), (Cells{"4", "0", "1"}));
  EXPECT_EQ(cells(table_row(r.out, "B stride"), "B stride"), (Cells{"0", "1", "0"}));
}

// explain --expr: a dim row and a stride row per input, in the order given.
TEST(CliExplain, ExprTableHasRowsPerInput) {
  const CliRun r =
      bcastgen({"explain", "--expr", "max(x * scale + shift, 0)", "x=2,64,5,7", "scale=1,64,1,1", "shift=64,1,1"});
  ASSERT_EQ(r.code, 0) << show(r);
  EXPECT_EQ(cells(table_row(r.out, "scale dim"), "scale dim"), (Cells{"1", "64", "1", "1"}));
  EXPECT_EQ(cells(table_row(r.out, "shift dim"), "shift dim"), (Cells{"1", "64", "1", "1"}));
  EXPECT_EQ(cells(table_row(r.out, "result"), "result"), (Cells{"2", "64", "5", "7"}));
  EXPECT_EQ(cells(table_row(r.out, "x stride"), "x stride"), (Cells{"2240", "35", "7", "1"}));
  EXPECT_EQ(cells(table_row(r.out, "shift stride"), "shift stride"), (Cells{"0", "1", "0", "0"}));
  expect_aligned(r.out, {"x dim", "scale dim", "shift dim", "result", "x stride", "scale stride", "shift stride"});
}

// pdpd places the second input at the axis, and the table shows it there.
TEST(CliExplain, ExprPdpdPlacesTheSecondInputAtTheAxis) {
  const CliRun r = bcastgen({"explain", "--rule", "pdpd", "--axis", "1", "--expr", "a * b", "a=2,3,4,5", "b=3,1"});
  ASSERT_EQ(r.code, 0) << show(r);
  EXPECT_EQ(cells(table_row(r.out, "b dim"), "b dim"), (Cells{"1", "3", "1", "1"}));
  EXPECT_EQ(cells(table_row(r.out, "b stride"), "b stride"), (Cells{"0", "1", "0", "0"}));
  expect_aligned(r.out, {"a dim", "b dim", "result", "a stride", "b stride"});
}

TEST(CliExplain, ScalarResult) {
  const CliRun r = bcastgen({"explain", "[]", "[]"});
  EXPECT_EQ(r.code, 0) << show(r);
  EXPECT_TRUE(contains(r.out, "scalar")) << show(r);
}

TEST(CliExplain, FailuresUseTheSameExitCodes) {
  const CliRun mismatch = bcastgen({"explain", "[3,1,5]", "[4,4,5]"});
  EXPECT_EQ(mismatch.code, 1) << show(mismatch);
  EXPECT_EQ(mismatch.out, "") << show(mismatch);
  EXPECT_TRUE(contains(mismatch.err, "axis 0")) << show(mismatch);
  EXPECT_EQ(bcastgen({"explain", "--json", "[3", "[4]"}).code, 2);
  EXPECT_EQ(bcastgen({"explain", "--rule", "numpy", "--axis", "0", "[3]", "[3]"}).code, 2);
}

TEST(CliExplain, JsonArrayApiExample) {
  const CliRun r = bcastgen({"explain", "--json", "8x1x6x1", "7x1x5"});
  ASSERT_EQ(r.code, 0) << show(r);
  nlohmann::json j;
  ASSERT_NO_THROW(j = nlohmann::json::parse(r.out)) << show(r);
  for (const char* key : {"out", "a_strides", "b_strides", "a_broadcast_axes", "b_broadcast_axes"}) {
    ASSERT_TRUE(j.contains(key)) << key << "\n" << show(r);
  }
  using V = std::vector<std::int64_t>;
  EXPECT_EQ(j["out"].get<V>(), (V{8, 7, 6, 5}));
  EXPECT_EQ(j["a_strides"].get<V>(), (V{6, 0, 1, 0}));
  EXPECT_EQ(j["b_strides"].get<V>(), (V{0, 5, 0, 1}));
  EXPECT_EQ(j["a_broadcast_axes"].get<V>(), (V{1, 3}));
  EXPECT_EQ(j["b_broadcast_axes"].get<V>(), (V{0, 2}));
  EXPECT_EQ(j["rule"], "numpy");
}

TEST(CliExplain, JsonPdpd) {
  const CliRun r = bcastgen({"explain", "--json", "--rule", "pdpd", "--axis", "1", "[2,3,4,5]", "[3,1]"});
  ASSERT_EQ(r.code, 0) << show(r);
  const auto j = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(j.is_discarded()) << show(r);
  using V = std::vector<std::int64_t>;
  EXPECT_EQ(j.at("out").get<V>(), (V{2, 3, 4, 5}));
  EXPECT_EQ(j.at("a_strides").get<V>(), (V{60, 20, 5, 1}));
  EXPECT_EQ(j.at("b_strides").get<V>(), (V{0, 1, 0, 0}));
  EXPECT_EQ(j.at("a_broadcast_axes").get<V>(), V{});
  EXPECT_EQ(j.at("b_broadcast_axes").get<V>(), (V{0, 2, 3}));
  EXPECT_EQ(j.at("axis"), 1);
}

TEST(CliExplain, JsonScalars) {
  const CliRun r = bcastgen({"explain", "--json", "[]", "[5]"});
  ASSERT_EQ(r.code, 0) << show(r);
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << show(r);
  using V = std::vector<std::int64_t>;
  EXPECT_EQ(j.at("out").get<V>(), (V{5}));
  EXPECT_EQ(j.at("a_strides").get<V>(), (V{0}));
  EXPECT_EQ(j.at("b_strides").get<V>(), (V{1}));
  EXPECT_EQ(j.at("a_broadcast_axes").get<V>(), (V{0}));
  EXPECT_EQ(j.at("b_broadcast_axes").get<V>(), V{});
}

// explain names the CPU kind its plan is for: generic by default, a row by
// --cpu, this machine's by --cpu native; an unknown kind exits 2.
TEST(CliExplain, CpuKind) {
  const CliRun g = bcastgen({"explain", "8,768", "768"});
  ASSERT_EQ(g.code, 0) << show(g);
  EXPECT_TRUE(contains(g.out, "\ncpu       generic (any CPU): unroll 4, loads, then nodes, then stores;")) << show(g);
  const CliRun z = bcastgen({"explain", "8,768", "768", "--cpu", "zen4"});
  ASSERT_EQ(z.code, 0) << show(z);
  EXPECT_TRUE(contains(z.out, "\ncpu       zen4 (AMD Zen 4")) << show(z);
  EXPECT_TRUE(contains(z.out, "unroll 4, loads, then nodes, then stores, streaming kernels in vectors of at most 32 "
                              "bytes;"))
      << show(z);
  EXPECT_TRUE(contains(z.out, "no partial vector; runs on avx512 CPUs too, whose variant is left out")) << show(z);
  const CliRun n = bcastgen({"explain", "8,768", "768", "--cpu", "native"});
  ASSERT_EQ(n.code, 0) << show(n);
  EXPECT_TRUE(std::regex_search(n.out, std::regex("\ncpu       (generic|intel-xeon|zen3|zen4|zen5) \\("))) << show(n);
  const CliRun u = bcastgen({"explain", "8,768", "768", "--cpu", "Zen4"});
  EXPECT_EQ(u.code, 2) << show(u);
  EXPECT_TRUE(contains(u.err, "--cpu: unknown CPU kind 'Zen4'")) << show(u);
}

// `batch`: each line's result is what the same command prints and returns
// when run alone (the oracle: separate processes), in order, line numbers
// counted with the skipped empty line; a malformed line and a nested batch
// are bad input of their own line, and the batch's exit code is the first
// that is not 0.
TEST(CliBatch, EachLineAsIfRunAlone) {
  const std::vector<std::vector<std::string>> commands = {
      {"shape", "8,1,6,1", "7,1,5"}, {"shape", "3", "4"}, {"explain", "--json", "8,768", "768"},
      {"shape", "2,x"}, {"list", "--json"}};
  const std::string file = make_temp("batch");
  {
    std::ofstream f(file);
    for (std::size_t i = 0; i < commands.size(); ++i) {
      f << nlohmann::json(commands[i]).dump() << "\n";
      if (i == 1) f << "\n";
    }
    f << "{\"not\": \"an array\"}\n[\"batch\", \"x\"]\n";
  }
  const CliRun b = bcastgen({"batch", file});
  std::remove(file.c_str());
  EXPECT_EQ(b.code, 1) << show(b);  // the first failure: shapes 3 and 4 do not broadcast
  EXPECT_EQ(b.err, "") << show(b);
  const std::vector<std::string> results = lines(b.out);
  ASSERT_EQ(results.size(), commands.size() + 2) << show(b);
  for (std::size_t i = 0; i < commands.size(); ++i) {
    const CliRun alone = bcastgen(commands[i]);
    const nlohmann::json r = nlohmann::json::parse(results[i]);
    EXPECT_EQ(r["line"], i < 2 ? i + 1 : i + 2) << results[i];
    EXPECT_EQ(r["exit"], alone.code) << results[i] << "\nalone: " << show(alone);
    EXPECT_EQ(r["stdout"], alone.out) << results[i] << "\nalone: " << show(alone);
    EXPECT_EQ(r["stderr"], alone.err) << results[i] << "\nalone: " << show(alone);
  }
  const nlohmann::json bad = nlohmann::json::parse(results[commands.size()]);
  EXPECT_EQ(bad["exit"], 2);
  EXPECT_TRUE(contains(bad["stderr"].get<std::string>(), ":7: not a JSON array of the command's arguments")) << bad;
  const nlohmann::json nested = nlohmann::json::parse(results[commands.size() + 1]);
  EXPECT_EQ(nested["exit"], 2);
  EXPECT_TRUE(contains(nested["stderr"].get<std::string>(), ":8: a batch cannot run a batch")) << nested;
  const CliRun missing = bcastgen({"batch", "/nonexistent/commands.jsonl"});
  EXPECT_EQ(missing.code, 3) << show(missing);
  EXPECT_TRUE(contains(missing.err, "cannot read /nonexistent/commands.jsonl")) << show(missing);
}

}  // namespace
