// The ONNX frontend: a model in, the spec of its fused elementwise kernels
// and a map from the kernels back to the graph out (`bcastgen onnx`).
//
//   ImportOptions options;
//   options.input_shapes["input"] = {1, 3, 224, 224};  // fixes dynamic dims
//   ImportedModel m = import_model(read_file("net.onnx"), "net", options);
//   GeneratedFiles files = generate(check_spec(m.spec), {...});
//
// The model is read with ONNX's own protobuf classes and shape inference;
// this library is the only part of bcastgen that links them, so the core
// stays free of protobuf. How nodes are grouped and mapped is in the
// README ("ONNX models").
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "bcastgen/errors.h"
#include "bcastgen/gen/spec.h"
#include "bcastgen/shape.h"

namespace bcastgen::onnx_import {

// A model that cannot be read: not an ONNX model, a truncated protobuf, a
// dynamic dimension without a fixed shape, a dtype bcastgen has no type for,
// an --input-shape that names no input. Bad input (exit 2).
class ImportError : public InvalidArgument {
 public:
  using InvalidArgument::InvalidArgument;
};

struct ImportOptions {
  std::string ns;                             // the generated namespace; empty: from the model's name
  std::map<std::string, Shape> input_shapes;  // graph input -> its static shape
  bool fast = false;                          // accuracy: fast (gen::use_fast_tier), written into the spec
};

struct ImportedModel {
  gen::Spec spec;        // one kernel per distinct fused group
  std::string spec_yaml;  // the same spec as text, which parse_spec reads back to it
  std::string map_json;   // <stem>.onnx-map.json
  std::string report;     // per op type: nodes fused, kernels, what was not covered and why
  // Every output of the graph was folded when the model was read (a shape
  // computation): the map holds their values, and there is no kernel to write.
  bool outputs_folded = false;
};

// `bytes` is the serialized ModelProto; `model_name` names it in the map and
// (as an identifier) the default namespace. Throws ImportError.
ImportedModel import_model(std::string_view bytes, const std::string& model_name, const ImportOptions& options);

}  // namespace bcastgen::onnx_import
