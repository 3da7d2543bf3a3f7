// The process exit codes of the bcastgen tool (documented in docs/guide/cli.md).
#pragma once

namespace bcastgen::gen {

enum ExitCode : int {
  kExitOk = 0,
  kExitRuleFailure = 1,  // shapes that do not broadcast, a pdpd axis that does not fit
  kExitBadInput = 2,     // malformed input or usage: syntax, negative dims, unknown names
  kExitIoError = 3,      // a file that cannot be read or written
  kExitToolFailure = 4,  // a compiler, verifier or kernel run that failed
};

}  // namespace bcastgen::gen
