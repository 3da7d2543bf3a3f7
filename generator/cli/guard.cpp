#include <iostream>

#include "bcastgen/errors.h"
#include "bcastgen/gen/exit_codes.h"
#include "bcastgen/gen/npy.h"
#include "bcastgen/gen/output.h"
#include "bcastgen/gen/spec.h"
#include "commands.h"

namespace bcastgen::cli {

int run_guarded(const std::function<int()>& body) {
  try {
    return body();
  } catch (const gen::SpecError& e) {
    for (const auto& d : e.diagnostics()) std::cerr << d.text() << "\n";
    return e.only_rule_failures() ? gen::kExitRuleFailure : gen::kExitBadInput;
  } catch (const gen::IoError& e) {
    std::cerr << "bcastgen: " << e.what() << "\n";
    return gen::kExitIoError;
  } catch (const gen::NpyIoError& e) {
    std::cerr << "bcastgen: " << e.what() << "\n";
    return gen::kExitIoError;
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
