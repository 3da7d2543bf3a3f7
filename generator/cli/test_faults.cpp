// The fault injection of the output tests (tests/output_faults_test.cpp),
// read from the environment here, in the tool, so that the library's
// write_files reads none:
//   BCASTGEN_TEST_ABORT_AFTER_TEMP=1  abort() once every temporary is written,
//                                     before the first rename (a crash);
//   BCASTGEN_TEST_FAIL_RENAME=N       the N-th rename into place (1-based)
//                                     fails with EIO (a failure mid-commit).
#include <cstdlib>
#include <string_view>

#include "commands.h"

namespace bcastgen::cli {

gen::WriteFaults write_faults_from_environment() {
  gen::WriteFaults f;
  const char* abort_after = std::getenv("BCASTGEN_TEST_ABORT_AFTER_TEMP");
  f.abort_after_temporaries = abort_after != nullptr && std::string_view(abort_after) == "1";
  const char* fail_rename = std::getenv("BCASTGEN_TEST_FAIL_RENAME");
  f.fail_rename = fail_rename != nullptr ? std::strtol(fail_rename, nullptr, 10) : 0;
  return f;
}

}  // namespace bcastgen::cli
