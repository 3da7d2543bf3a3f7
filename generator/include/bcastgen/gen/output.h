// Writing generated files: all or nothing, and only what changed.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "bcastgen/errors.h"

namespace bcastgen::gen {

// A file that could not be read or written.
class IoError : public Error {
 public:
  using Error::Error;
};

// Faults write_files injects, for the tests of its all-or-nothing commit
// (tests/output_faults_test.cpp; the CLI sets them from BCASTGEN_TEST_*).
struct WriteFaults {
  bool abort_after_temporaries = false;  // abort() once every temporary is written, before the first rename
  long fail_rename = 0;                  // the N-th rename into place (1-based) fails with EIO; 0: none
};

// Writes every file under `dir` (created if missing). Each is first written
// to a hidden temporary beside its target (".<name>.tmp<pid>", fsync'ed);
// only when all temporaries exist are they renamed into place, each replaced
// file kept as a hard-linked backup until the last rename succeeded, so an
// error at any step (a full disk, a read-only or missing directory, a failed
// rename) leaves the directory as it was: replaced files are restored, new
// ones and the directories created are removed. A process killed before the
// renames leaves only hidden temporaries (and the directories made to hold
// them), which the next run removes.
// Files whose content is unchanged are not rewritten (builds stay quiet).
// `remove`: files under `dir` to delete in the same commit (stale shards),
// restored with the others on failure; missing ones are skipped.
// Returns the paths that were written. Throws IoError naming the path.
// `faults`: none but in tests (a removal counts as a rename).
std::vector<std::string> write_files(const std::string& dir, const std::map<std::string, std::string>& files,
                                     const WriteFaults& faults = {}, const std::vector<std::string>& remove = {});

// The shards of <stem> in `dir` that `files` does not have (an earlier run
// made more), by name: is_shard_file_name (emit.h).
std::vector<std::string> stale_shards(const std::string& dir, const std::string& stem,
                                      const std::map<std::string, std::string>& files);

// Reads a whole regular file; throws IoError naming the path (also for a
// directory).
std::string read_file(const std::string& path);

}  // namespace bcastgen::gen
