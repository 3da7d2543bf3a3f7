// `bcastgen batch FILE`: many bcastgen commands in one process. A caller
// that generates thousands of kernels (an AOT compiler, the ONNX test over
// ONNX's node tests) pays the process start once: the ONNX schema registry,
// the vocabulary, the dynamic loader (about 40 ms of the 45 a small
// `bcastgen onnx` takes).
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.h"

namespace bcastgen::cli {

namespace {

using nlohmann::json;

// Redirects std::cout and std::cerr into strings while it lives.
class CapturedStreams {
 public:
  CapturedStreams() : out_(std::cout.rdbuf(out_text_.rdbuf())), err_(std::cerr.rdbuf(err_text_.rdbuf())) {}
  ~CapturedStreams() {
    std::cout.rdbuf(out_);
    std::cerr.rdbuf(err_);
  }
  CapturedStreams(const CapturedStreams&) = delete;
  CapturedStreams& operator=(const CapturedStreams&) = delete;
  std::string out() const { return out_text_.str(); }
  std::string err() const { return err_text_.str(); }

 private:
  std::ostringstream out_text_, err_text_;
  std::streambuf* out_;
  std::streambuf* err_;
};

// A line's arguments: a JSON array of strings, the command line after `bcastgen`.
std::vector<std::string> line_arguments(const std::string& line) {
  const json j = json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_array() || j.empty()) {
    throw InvalidArgument("not a JSON array of the command's arguments, e.g. [\"onnx\", \"m.onnx\", \"-o\", \"out\"]");
  }
  std::vector<std::string> args;
  for (const json& a : j) {
    if (!a.is_string()) throw InvalidArgument("argument " + a.dump() + " is not a string");
    args.push_back(a.get<std::string>());
  }
  if (args.front() == "batch") throw InvalidArgument("a batch cannot run a batch");
  return args;
}

}  // namespace

Action register_batch(CLI::App& app, CommandRunner run) {
  auto file = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand(
      "batch",
      "run many bcastgen commands in one process: FILE has one per line, a JSON array of its arguments "
      "([\"onnx\", \"m.onnx\", \"-o\", \"out\"]); prints one JSON line per command: its line number, exit code, "
      "stdout and stderr. Exits 0 when every command did, else with the first other exit code");
  cmd->add_option("FILE", *file, "the commands, one per line (- for standard input); empty lines are skipped")
      ->required();
  return [file, run]() -> int {
    std::ostringstream standard_input;
    if (*file == "-") standard_input << std::cin.rdbuf();
    std::istringstream in(*file == "-" ? standard_input.str() : gen::read_file(*file));
    int status = gen::kExitOk;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      int code = gen::kExitOk;
      std::string out, err;
      {
        CapturedStreams captured;
        code = run_guarded([&] {
          std::vector<std::string> args;
          try {
            args = line_arguments(line);
          } catch (const InvalidArgument& e) {
            throw InvalidArgument(*file + ":" + std::to_string(number) + ": " + e.what());
          }
          return run(args);
        });
        out = captured.out();
        err = captured.err();
      }
      const json result = {{"line", number}, {"exit", code}, {"stdout", out}, {"stderr", err}};
      std::cout << result.dump(-1, ' ', false, json::error_handler_t::replace) << std::endl;
      if (status == gen::kExitOk) status = code;
    }
    return status;
  };
}

}  // namespace bcastgen::cli
