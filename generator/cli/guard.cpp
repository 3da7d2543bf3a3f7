#include <iostream>

#include "bcastgen/errors.h"
#include "bcastgen/gen/exit_codes.h"
#include "commands.h"

namespace bcastgen::cli {

int run_guarded(const std::function<int()>& body) {
  try {
    return body();
  } catch (const BroadcastError& e) {
    std::cerr << "bcastgen: " << e.what() << "\n";
    return gen::kExitRuleFailure;
  } catch (const InvalidArgument& e) {
    std::cerr << "bcastgen: " << e.what() << "\n";
    return gen::kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "bcastgen: internal error: " << e.what() << "\n";
    return gen::kExitToolFailure;
  }
}

}  // namespace bcastgen::cli
