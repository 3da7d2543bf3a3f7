// Nothing lost: whatever goes wrong while `bcastgen generate` writes its
// output — a full disk, a read-only directory, a rename failing halfway, the
// process killed after writing its temporaries — the files already in the
// output directory stay exactly as they were (content, inode, permissions),
// and the only traces of a killed run are hidden temporaries that the next
// run removes. Failures are simulated without root-only tricks:
//   - full disk: RLIMIT_FSIZE in the child (write fails with EFBIG when
//     SIGXFSZ is ignored; the child is killed by SIGXFSZ when it is not);
//   - read-only directory: chmod 0555, and when the tests run as root (CI),
//     the child drops to user nobody first, since root ignores permissions;
//   - crash: BCASTGEN_TEST_ABORT_AFTER_TEMP=1 (output.cpp aborts after
//     writing every temporary, before the first rename);
//   - failed rename: BCASTGEN_TEST_FAIL_RENAME=N (the N-th rename fails).
// (Spec errors and exit codes 1/2 leaving the output alone are in
// generate_test.cpp.)
#include <gtest/gtest.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <algorithm>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "bcastgen/gen/output.h"

namespace {

namespace fs = std::filesystem;
using bcastgen::gen::IoError;

const std::string kDemo = std::string(BCASTGEN_SOURCE_DIR) + "/examples/demo.yaml";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void spit(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

// A fresh directory, world-readable (a child running as nobody reads the
// spec and the existing outputs), removed at the end.
class TempDir {
 public:
  TempDir() {
    std::string t = "/tmp/bcastgen_faults_test_XXXXXX";
    if (mkdtemp(t.data()) == nullptr) ADD_FAILURE() << "mkdtemp failed";
    path_ = t;
    chmod(path_.c_str(), 0755);
  }
  ~TempDir() {
    std::error_code ec;
    for (const auto& e : fs::recursive_directory_iterator(path_, ec)) {
      if (e.is_directory()) chmod(e.path().c_str(), 0755);
    }
    fs::remove_all(path_, ec);
  }
  std::string operator/(const std::string& rel) const { return path_ + "/" + rel; }

 private:
  std::string path_;
};

// Every entry under `dir`, hidden ones included: content, inode and mode, so
// that "unchanged" also means "not replaced by an identical copy".
struct Entry {
  std::string content;
  ino_t ino = 0;
  mode_t mode = 0;
  bool operator==(const Entry& o) const { return content == o.content && ino == o.ino && mode == o.mode; }
};
using Snapshot = std::map<std::string, Entry>;

Snapshot snapshot(const std::string& dir) {
  Snapshot m;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    struct stat st {};
    lstat(e.path().c_str(), &st);
    Entry x;
    x.content = S_ISREG(st.st_mode) ? slurp(e.path().string()) : "<dir>";
    x.ino = st.st_ino;
    x.mode = st.st_mode;
    m[fs::relative(e.path(), dir).string()] = x;
  }
  return m;
}

std::string names(const Snapshot& s) {
  std::string r;
  for (const auto& [k, v] : s) r += k + (v.content == "<dir>" ? "/" : "") + " ";
  return r;
}

// The entries of `after` that are not in `before`, and whether `after`
// holds every entry of `before` unchanged.
Snapshot added(const Snapshot& before, const Snapshot& after) {
  Snapshot a;
  for (const auto& [k, v] : after) {
    if (!before.count(k)) a[k] = v;
  }
  return a;
}
bool keeps_all(const Snapshot& before, const Snapshot& after) {
  for (const auto& [k, v] : before) {
    auto it = after.find(k);
    if (it == after.end() || !(it->second == v)) return false;
  }
  return true;
}

struct ChildRun {
  int status = 0;  // from waitpid
  std::string err;
  bool exited(int code) const { return WIFEXITED(status) && WEXITSTATUS(status) == code; }
  bool signaled(int sig) const { return WIFSIGNALED(status) && WTERMSIG(status) == sig; }
  std::string show() const {
    std::string s = WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                                      : "signal " + std::to_string(WIFSIGNALED(status) ? WTERMSIG(status) : -1);
    return s + "\n--- stderr:\n" + err;
  }
};

// Runs bcastgen with `args` in a child; `setup` runs in the child before
// exec (limits, signals, environment, privileges: all survive exec).
ChildRun run_bcastgen(const std::vector<std::string>& args, const std::function<void()>& setup = {},
                      std::string exe = BCASTGEN_EXE) {
  TempDir scratch;
  const std::string err_path = scratch / "stderr";
  const pid_t pid = fork();
  if (pid == 0) {
    const int fd = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
    dup2(fd, 2);
    const int null = open("/dev/null", O_RDWR);
    dup2(null, 0);
    dup2(null, 1);
    if (setup) setup();
    std::vector<char*> argv;
    argv.push_back(exe.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(exe.c_str(), argv.data());
    _exit(127);
  }
  ChildRun r;
  waitpid(pid, &r.status, 0);
  r.err = slurp(err_path);
  return r;
}

// An output directory holding an older generation of demo's files: the
// output of a spec whose kernels differ, plus a file of the user's.
struct Populated {
  TempDir dir;
  std::string out = dir / "out";
  Snapshot before;
  Populated() {
    fs::create_directories(out + "/bcastgen");
    spit(out + "/demo.h", "// an older demo.h\n");
    spit(out + "/demo.cpp", "// an older demo.cpp\n");
    spit(out + "/bcastgen/cpu.h", "// an older runtime header\n");
    spit(out + "/notes.txt", "the user's own file\n");
    chmod((out + "/demo.cpp").c_str(), 0640);  // permissions are kept too
    before = snapshot(out);
  }
};

std::vector<std::string> generate_args(const std::string& out) {
  return {"generate", kDemo, "-o", out, "--emit-runtime"};
}

// Hidden temporaries of a killed run: ".<name>.tmp<pid>" (or ".bak<pid>"),
// and the directories created to hold them ("bcastgen/simd/" when the
// output had no such directory yet).
bool only_hidden_temporaries(const Snapshot& extra) {
  static const std::regex kTemp(R"((.*/)?\.[^/]+\.(tmp|bak)[0-9]+)");
  for (const auto& [k, v] : extra) {
    if (v.content == "<dir>") {
      const std::string prefix = k + "/";
      const bool holds_temporary = std::any_of(extra.begin(), extra.end(), [&](const auto& e) {
        return e.first.compare(0, prefix.size(), prefix) == 0 && std::regex_match(e.first, kTemp);
      });
      if (!holds_temporary) return false;
      continue;
    }
    if (!std::regex_match(k, kTemp)) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// full disk

TEST(OutputFaults, FullDiskFailsCleanlyWithExitThree) {
  Populated p;
  // demo.cpp and demo.h are larger than 2 KiB: writing them fails with EFBIG.
  const ChildRun r = run_bcastgen(generate_args(p.out), [] {
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim {2048, 2048};
    setrlimit(RLIMIT_FSIZE, &lim);
  });
  EXPECT_TRUE(r.exited(3)) << r.show();
  EXPECT_TRUE(contains(r.err, "File too large")) << r.show();
  const Snapshot after = snapshot(p.out);
  EXPECT_TRUE(after == p.before) << "before: " << names(p.before) << "\nafter:  " << names(after);
}

TEST(OutputFaults, KilledByTheFileSizeLimitLeavesOnlyHiddenTemporaries) {
  Populated p;
  const ChildRun r = run_bcastgen(generate_args(p.out), [] {
    signal(SIGXFSZ, SIG_DFL);
    struct rlimit lim {2048, 2048};
    setrlimit(RLIMIT_FSIZE, &lim);
  });
  EXPECT_TRUE(r.signaled(SIGXFSZ)) << r.show();
  const Snapshot after = snapshot(p.out);
  EXPECT_TRUE(keeps_all(p.before, after)) << names(after);
  EXPECT_TRUE(only_hidden_temporaries(added(p.before, after))) << names(added(p.before, after));

  // The next run succeeds and removes the dead run's temporaries.
  const ChildRun again = run_bcastgen(generate_args(p.out));
  ASSERT_TRUE(again.exited(0)) << again.show();
  const Snapshot done = snapshot(p.out);
  for (const auto& [k, v] : done) EXPECT_NE(fs::path(k).filename().string()[0], '.') << k;
  EXPECT_TRUE(done.at("notes.txt") == p.before.at("notes.txt"));
  EXPECT_EQ(done.at("demo.cpp").mode & 0777, 0640u);
}

// ---------------------------------------------------------------------------
// read-only directory

// In the child: when root, become nobody, for whom permissions hold.
void drop_root() {
  if (geteuid() != 0) return;
  if (setgroups(0, nullptr) != 0 || setgid(65534) != 0 || setuid(65534) != 0) _exit(126);
}

// A copy of bcastgen and of the spec that user nobody can run and read
// wherever the build directory is (/root/... is not reachable for nobody).
struct Reachable {
  std::string exe, spec;
  explicit Reachable(const TempDir& dir) : exe(dir / "bcastgen"), spec(dir / "demo.yaml") {
    fs::copy_file(BCASTGEN_EXE, exe);
    fs::copy_file(kDemo, spec);
    chmod(exe.c_str(), 0755);
    chmod(spec.c_str(), 0644);
  }
  std::vector<std::string> args(const std::string& out) const { return {"generate", spec, "-o", out, "--emit-runtime"}; }
};

TEST(OutputFaults, ReadOnlyOutputDirectoryFailsCleanlyWithExitThree) {
  Populated p;
  const Reachable bin(p.dir);
  chmod((p.out + "/bcastgen").c_str(), 0555);
  chmod(p.out.c_str(), 0555);
  const ChildRun r = run_bcastgen(bin.args(p.out), drop_root, bin.exe);
  chmod(p.out.c_str(), 0755);
  chmod((p.out + "/bcastgen").c_str(), 0755);
  ASSERT_FALSE(r.exited(126)) << "could not drop root privileges";
  EXPECT_TRUE(r.exited(3)) << r.show();
  EXPECT_TRUE(contains(r.err, "Permission denied")) << r.show();
  EXPECT_TRUE(snapshot(p.out) == p.before) << names(snapshot(p.out));
}

TEST(OutputFaults, ReadOnlyParentCreatesNothing) {
  TempDir dir;
  const Reachable bin(dir);
  fs::create_directories(dir / "ro");
  chmod((dir / "ro").c_str(), 0555);
  const ChildRun r = run_bcastgen(bin.args(dir / "ro/new/out"), drop_root, bin.exe);
  chmod((dir / "ro").c_str(), 0755);
  EXPECT_TRUE(r.exited(3)) << r.show();
  EXPECT_TRUE(fs::is_empty(dir / "ro"));
}

// ---------------------------------------------------------------------------
// a crash after the temporaries were written

TEST(OutputFaults, CrashAfterTemporariesLeavesTargetsUnchanged) {
  Populated p;
  const ChildRun r = run_bcastgen(generate_args(p.out), [] { setenv("BCASTGEN_TEST_ABORT_AFTER_TEMP", "1", 1); });
  EXPECT_TRUE(r.signaled(SIGABRT)) << r.show();
  const Snapshot after = snapshot(p.out);
  EXPECT_TRUE(keeps_all(p.before, after)) << names(after);
  const Snapshot extra = added(p.before, after);
  EXPECT_FALSE(extra.empty());  // the hook ran after writing them
  EXPECT_TRUE(only_hidden_temporaries(extra)) << names(extra);

  // The next run ignores them, replaces the targets and removes the strays.
  const ChildRun again = run_bcastgen(generate_args(p.out));
  ASSERT_TRUE(again.exited(0)) << again.show();
  const Snapshot done = snapshot(p.out);
  for (const auto& [k, v] : done) EXPECT_NE(fs::path(k).filename().string()[0], '.') << k;
  EXPECT_TRUE(contains(done.at("demo.h").content, "bias_add"));
  EXPECT_TRUE(done.at("notes.txt") == p.before.at("notes.txt"));
}

// ---------------------------------------------------------------------------
// a rename failing midway: every file renamed before it is restored

TEST(OutputFaults, FailedRenameAtAnyPointRestoresTheDirectory) {
  int total = 0;
  {
    Populated probe;
    const ChildRun r = run_bcastgen(generate_args(probe.out), [] { setenv("BCASTGEN_TEST_FAIL_RENAME", "1000", 1); });
    ASSERT_TRUE(r.exited(0)) << r.show();
    const std::smatch m = [&] {
      std::smatch mm;
      std::regex_search(r.err, mm, std::regex(R"(, (\d+) of (\d+) file\(s\) written)"));
      return mm;
    }();
    ASSERT_EQ(m.size(), 3u) << r.err;
    total = std::stoi(m[1]);
  }
  ASSERT_GE(total, 3);
  for (int n = 1; n <= total; ++n) {
    Populated p;
    const ChildRun r = run_bcastgen(generate_args(p.out),
                               [n] { setenv("BCASTGEN_TEST_FAIL_RENAME", std::to_string(n).c_str(), 1); });
    EXPECT_TRUE(r.exited(3)) << "rename " << n << ": " << r.show();
    EXPECT_TRUE(contains(r.err, "Input/output error")) << r.show();
    const Snapshot after = snapshot(p.out);
    EXPECT_TRUE(after == p.before) << "rename " << n << " of " << total << "\nbefore: " << names(p.before)
                                   << "\nafter:  " << names(after);
  }
}

// The library entry point: new files and the directories made for them go
// too, and the old content comes back also without a backup link.
TEST(OutputFaults, WriteFilesRollsBackNewFilesAndDirectories) {
  TempDir dir;
  const std::string out = dir / "out";
  fs::create_directories(out);
  spit(out + "/keep.h", "old\n");
  const Snapshot before = snapshot(out);
  const std::map<std::string, std::string> files = {
      {"a/b/new1.h", "n1\n"}, {"keep.h", "new\n"}, {"z/new2.h", "n2\n"}};
  for (int n = 1; n <= 3; ++n) {
    bcastgen::gen::WriteFaults faults;
    faults.fail_rename = n;
    EXPECT_THROW(bcastgen::gen::write_files(out, files, faults), IoError) << n;
    EXPECT_TRUE(snapshot(out) == before) << n << ": " << names(snapshot(out));
  }
  EXPECT_EQ(bcastgen::gen::write_files(out, files).size(), 3u);
  EXPECT_EQ(slurp(out + "/keep.h"), "new\n");
  EXPECT_EQ(slurp(out + "/a/b/new1.h"), "n1\n");
}

// Stale files (shards of an earlier run with more shards) go in the same
// commit: a failure at any rename or removal brings them back, same inode.
TEST(OutputFaults, WriteFilesRestoresRemovedStaleFiles) {
  TempDir dir;
  const std::string out = dir / "out";
  fs::create_directories(out);
  spit(out + "/k.cpp", "old table\n");
  spit(out + "/k_shard0.cpp", "old 0\n");
  spit(out + "/k_shard1.cpp", "old 1\n");
  spit(out + "/k_shard2.cpp", "old 2\n");
  const Snapshot before = snapshot(out);
  const std::map<std::string, std::string> files = {{"k.cpp", "new table\n"}, {"k_shard0.cpp", "new 0\n"}};
  EXPECT_EQ(bcastgen::gen::stale_shards(out, "k", files), (std::vector<std::string>{"k_shard1.cpp", "k_shard2.cpp"}));
  const std::vector<std::string> stale = {"k_shard1.cpp", "k_shard2.cpp"};
  for (int n = 1; n <= 4; ++n) {  // two renames, two removals
    bcastgen::gen::WriteFaults faults;
    faults.fail_rename = n;
    EXPECT_THROW(bcastgen::gen::write_files(out, files, faults, stale), IoError) << n;
    EXPECT_TRUE(snapshot(out) == before) << n << ": " << names(snapshot(out));
  }
  EXPECT_EQ(bcastgen::gen::write_files(out, files, {}, stale).size(), 2u);
  EXPECT_EQ(names(snapshot(out)), "k.cpp k_shard0.cpp ");
  EXPECT_EQ(slurp(out + "/k_shard0.cpp"), "new 0\n");
}

// A target in the way (a directory) is found before anything is written.
TEST(OutputFaults, TargetThatIsADirectoryFailsFirst) {
  TempDir dir;
  const std::string out = dir / "out";
  fs::create_directories(out + "/z.h/inside");
  const Snapshot before = snapshot(out);
  try {
    bcastgen::gen::write_files(out, {{"a.h", "a\n"}, {"z.h", "z\n"}});
    ADD_FAILURE() << "no error";
  } catch (const IoError& e) {
    EXPECT_TRUE(contains(e.what(), "z.h: Is a directory")) << e.what();
  }
  EXPECT_TRUE(snapshot(out) == before) << names(snapshot(out));
}

TEST(OutputFaults, ReadFileRejectsDirectoriesAndMissingFiles) {
  TempDir dir;
  fs::create_directories(dir / "d");
  EXPECT_THROW(bcastgen::gen::read_file(dir / "d"), IoError);
  EXPECT_THROW(bcastgen::gen::read_file(dir / "missing"), IoError);
  spit(dir / "f", std::string("a\0b", 3));
  EXPECT_EQ(bcastgen::gen::read_file(dir / "f"), std::string("a\0b", 3));
}

// ---------------------------------------------------------------------------
// determinism, through the command line: same spec, same bytes, wherever written

TEST(OutputFaults, GenerateTwiceGivesTheSameBytes) {
  TempDir dir;
  ASSERT_TRUE(run_bcastgen(generate_args(dir / "one")).exited(0));
  ASSERT_TRUE(run_bcastgen(generate_args(dir / "two/deeper")).exited(0));
  const Snapshot one = snapshot(dir / "one"), two = snapshot(dir / "two/deeper");
  ASSERT_EQ(names(one), names(two));
  for (const auto& [k, v] : one) EXPECT_EQ(v.content, two.at(k).content) << k;
}

}  // namespace
