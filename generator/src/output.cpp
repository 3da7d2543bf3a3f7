#include "bcastgen/gen/output.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "bcastgen/gen/emit.h"

namespace bcastgen::gen {
namespace fs = std::filesystem;

namespace {

std::string errno_text(int err) { return std::strerror(err); }

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  // Closes now and reports the error close() returned (NFS reports write
  // errors there).
  int close() {
    const int r = ::close(fd_);
    fd_ = -1;
    return r == 0 ? 0 : errno;
  }

 private:
  int fd_;
};

// Writes `content` to a new file `path` (which must not exist), flushes it to
// the disk and closes it. Returns 0 or the errno of the first failure; the
// file may then exist, partially written.
int write_new_file(const fs::path& path, const std::string& content, mode_t mode) {
  Fd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode));
  if (fd.get() < 0) return errno;
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd.get(), p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;  // ENOSPC, EFBIG (a file size limit, with SIGXFSZ ignored), EIO, ...
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::fsync(fd.get()) != 0 && errno != EINVAL) return errno;
  return fd.close();
}

// Best effort: makes renames in `dir` durable. Some file systems do not
// support fsync on a directory; that is not an error.
void sync_dir(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

// Temporaries and backups are hidden files beside their target:
// ".<name>.tmp<pid>" and ".<name>.bak<pid>".
fs::path side_file(const fs::path& target, const char* kind, long pid) {
  return target.parent_path() / ("." + target.filename().string() + kind + std::to_string(pid));
}

// Removes the temporaries and backups of `target` left by bcastgen processes
// that no longer run (killed mid-write). Those of live processes are theirs.
void remove_stale_side_files(const fs::path& target) {
  const std::string prefix = "." + target.filename().string();
  std::error_code ec;
  for (fs::directory_iterator it(target.parent_path(), ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() + 4 || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string kind = name.substr(prefix.size(), 4);
    if (kind != ".tmp" && kind != ".bak") continue;
    const std::string digits = name.substr(prefix.size() + 4);
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const long pid = std::strtol(digits.c_str(), nullptr, 10);
    if (pid == static_cast<long>(::getpid())) continue;  // ours: handled by the caller
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
      // A stale backup means a run died mid-commit; the target holds either
      // the old or the new content, complete (renames are atomic).
      ::unlink(it->path().c_str());
    }
  }
}

// Reads a regular file whole. Returns 0 or an errno (EISDIR for a directory).
int read_whole(const std::string& path, std::string* out) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return errno;
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return errno;
  if (S_ISDIR(st.st_mode)) return EISDIR;
  out->clear();
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (n == 0) return 0;
    out->append(buf, static_cast<std::size_t>(n));
  }
}

}  // namespace

std::string read_file(const std::string& path) {
  std::string s;
  const int err = read_whole(path, &s);
  if (err != 0) throw IoError("cannot read " + path + ": " + errno_text(err));
  return s;
}

std::vector<std::string> stale_shards(const std::string& dir, const std::string& stem,
                                      const std::map<std::string, std::string>& files) {
  std::vector<std::string> stale;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (is_shard_file_name(stem, name) && files.count(name) == 0) stale.push_back(name);
  }
  std::sort(stale.begin(), stale.end());
  return stale;
}

std::vector<std::string> write_files(const std::string& dir, const std::map<std::string, std::string>& files,
                                     const WriteFaults& faults, const std::vector<std::string>& remove) {
  struct Pending {
    fs::path target, temp, backup;
    bool existed = false;     // the target was there before: restore it on failure
    bool temp_made = false;   // the temporary exists
    bool backed_up = false;   // the backup (a hard link to the old target) exists
    bool renamed = false;     // the temporary replaced the target (a removal: the target was removed)
    bool removal = false;     // a stale file to remove, not a file to write
    std::string old;          // the old content, when a hard link is not possible
  };
  const long pid = static_cast<long>(::getpid());
  std::vector<Pending> pending;
  std::vector<fs::path> created_dirs;  // in creation order, removed in reverse on failure

  // Undoes everything: restores replaced targets from their backups, removes
  // the targets that did not exist, the temporaries and the directories this
  // call created. Returns what could not be restored (empty: all of it).
  auto roll_back = [&]() -> std::string {
    std::string lost;
    for (auto it = pending.rbegin(); it != pending.rend(); ++it) {
      Pending& p = *it;
      if (p.renamed) {
        if (p.existed) {
          if (p.backed_up && ::rename(p.backup.c_str(), p.target.c_str()) == 0) {
            p.backed_up = false;
          } else if (!p.backed_up && write_new_file(p.temp, p.old, 0666) == 0 &&
                     ::rename(p.temp.c_str(), p.target.c_str()) == 0) {
            // restored from memory
          } else {
            lost += "; could not restore " + p.target.string() +
                    (p.backed_up ? " (its old content is in " + p.backup.string() + ")" : "");
            p.backed_up = false;  // keep the backup for the user
          }
        } else {
          ::unlink(p.target.c_str());
        }
      }
      if (p.temp_made) ::unlink(p.temp.c_str());
      if (p.backed_up) ::unlink(p.backup.c_str());
    }
    std::error_code ec;
    for (auto it = created_dirs.rbegin(); it != created_dirs.rend(); ++it) fs::remove(*it, ec);  // only if empty
    return lost;
  };

  auto check_relative = [](const std::string& rel, const char* verb) {
    const fs::path relp(rel);
    if (rel.empty() || relp.is_absolute() ||
        std::any_of(relp.begin(), relp.end(), [](const fs::path& c) { return c == ".." || c == "."; })) {
      throw IoError(std::string("refusing to ") + verb + " '" + rel + "': not a plain relative path");
    }
  };

  try {
    // 1. The temporaries, beside their targets. Nothing visible changes yet.
    for (const auto& [rel, content] : files) {
      check_relative(rel, "write");
      const fs::path relp(rel);
      const fs::path target = fs::path(dir) / relp;
      Pending p;
      p.target = target;
      struct stat st {};
      mode_t mode = 0666;  // before the umask, as for any new file
      if (::stat(target.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode)) {
          throw IoError("cannot write " + target.string() + ": " +
                        (S_ISDIR(st.st_mode) ? errno_text(EISDIR) : std::string("not a regular file")));
        }
        const int err = read_whole(target.string(), &p.old);
        if (err != 0) throw IoError("cannot read " + target.string() + ": " + errno_text(err));
        if (p.old == content) continue;  // unchanged: not rewritten
        p.existed = true;
        mode = st.st_mode & 07777;  // keep the file's permissions
      } else if (errno != ENOENT) {
        if (errno != ENOTDIR) throw IoError("cannot write " + target.string() + ": " + errno_text(errno));
      }
      // Missing directories, from the outermost.
      std::vector<fs::path> missing;
      for (fs::path d = target.parent_path(); !d.empty(); d = d.parent_path()) {
        struct stat ds {};
        if (::stat(d.c_str(), &ds) == 0) {
          if (!S_ISDIR(ds.st_mode)) {
            throw IoError("cannot create directory " + target.parent_path().string() + ": " + d.string() +
                          " is not a directory");
          }
          break;
        }
        missing.push_back(d);
        if (d == d.parent_path()) break;
      }
      for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
        if (::mkdir(it->c_str(), 0777) == 0) {
          created_dirs.push_back(*it);
        } else if (errno != EEXIST) {  // EEXIST: made meanwhile by someone else, not ours to remove
          throw IoError("cannot create directory " + it->string() + ": " + errno_text(errno));
        }
      }
      remove_stale_side_files(target);
      p.temp = side_file(target, ".tmp", pid);
      p.backup = side_file(target, ".bak", pid);
      ::unlink(p.temp.c_str());  // a leftover of an earlier process with our pid
      ::unlink(p.backup.c_str());
      pending.push_back(std::move(p));
      Pending& q = pending.back();
      q.temp_made = true;
      if (const int err = write_new_file(q.temp, content, mode)) {
        throw IoError("cannot write " + q.temp.string() + ": " + errno_text(err));
      }
      if (q.existed) ::chmod(q.temp.c_str(), mode);  // the umask may have narrowed it
    }
    // The stale files to remove: kept, as replaced files are, until the end.
    for (const std::string& rel : remove) {
      check_relative(rel, "remove");
      Pending p;
      p.target = fs::path(dir) / rel;
      struct stat st {};
      if (::lstat(p.target.c_str(), &st) != 0) continue;  // already gone
      if (!S_ISREG(st.st_mode)) throw IoError("cannot remove " + p.target.string() + ": not a regular file");
      const int err = read_whole(p.target.string(), &p.old);
      if (err != 0) throw IoError("cannot read " + p.target.string() + ": " + errno_text(err));
      remove_stale_side_files(p.target);
      p.temp = side_file(p.target, ".tmp", pid);
      p.backup = side_file(p.target, ".bak", pid);
      ::unlink(p.temp.c_str());
      ::unlink(p.backup.c_str());
      p.existed = p.removal = true;
      pending.push_back(std::move(p));
    }
    if (!pending.empty() && faults.abort_after_temporaries) std::abort();

    // 2. Into place. Each replaced target is first hard-linked to a backup,
    //    so that a failed rename further on can put every earlier one back.
    const long fail_at = faults.fail_rename;
    long renames = 0;
    for (Pending& p : pending) {
      if (p.existed) {
        if (::link(p.target.c_str(), p.backup.c_str()) == 0) {
          p.backed_up = true;
          p.old.clear();
          p.old.shrink_to_fit();
        }  // else: no hard links here; p.old restores it
      }
      ++renames;
      if (p.removal) {
        const int err = renames == fail_at ? EIO : (::unlink(p.target.c_str()) == 0 ? 0 : errno);
        if (err != 0) throw IoError("cannot remove " + p.target.string() + ": " + errno_text(err));
        p.renamed = true;
        continue;
      }
      const int err = renames == fail_at ? EIO : (::rename(p.temp.c_str(), p.target.c_str()) == 0 ? 0 : errno);
      if (err != 0) {
        throw IoError("cannot rename " + p.temp.string() + " to " + p.target.string() + ": " + errno_text(err));
      }
      p.renamed = true;
      p.temp_made = false;
    }
  } catch (const IoError& e) {
    const std::string lost = roll_back();
    if (lost.empty()) throw;
    throw IoError(std::string(e.what()) + lost);
  } catch (...) {
    roll_back();
    throw;
  }

  // 3. Done: drop the backups, make the renames durable.
  std::vector<std::string> written;
  std::vector<fs::path> dirs;
  for (const Pending& p : pending) {
    if (p.backed_up) ::unlink(p.backup.c_str());
    if (!p.removal) written.push_back(p.target.string());
    if (std::find(dirs.begin(), dirs.end(), p.target.parent_path()) == dirs.end()) dirs.push_back(p.target.parent_path());
  }
  for (const auto& d : dirs) sync_dir(d);
  return written;
}

}  // namespace bcastgen::gen
