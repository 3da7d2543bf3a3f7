// Peer for bench/rows/rows_bench.py: oneDNN 2.6 (Debian's libdnnl, OpenMP
// build: run with OMP_NUM_THREADS=1) on the row kernels, f32, one CPU
// engine. The primitives and their memory objects are made outside the timed
// region; a timed call is primitive::execute + stream::wait for each
// primitive of the mode.
//
//   g++ -O2 -std=c++17 onednn_rows.cpp -o onednn_rows -ldnnl
//   OMP_NUM_THREADS=1 onednn_rows MODE ROWS COLS SAMPLES OUT.bin IN.bin...
//
// MODE (inputs, raw f32 little-endian, row-major [ROWS, COLS]; g, b [COLS]):
//   layernorm       x g b    layer_normalization_forward, scale and shift,
//                            statistics computed (no use_global_stats),
//                            forward_inference, epsilon 1e-5
//   softmax         x        softmax_forward, axis 1 (the last)
//   add_layernorm   x r g b  binary_add into a scratch tensor, then layernorm
//   layernorm_gelu  x g b    layernorm, then eltwise_gelu_erf in place on dst
//
// Writes the first call's output to OUT.bin, then times: the batch size
// doubles until a batch takes 1 ms, then SAMPLES batches run; prints one JSON
// line {mode, median_ns, samples_ns, impl}, median_ns the median batch's time
// per call. On a oneDNN error prints {mode, error} and exits 1.
#include <dnnl.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "peer_io.h"

namespace {

using dnnl::algorithm;
using dnnl::memory;
using dnnl::prop_kind;

constexpr const char* kName = "onednn_rows";

[[noreturn]] void fail(const std::string& message) { peer::fail(kName, message); }
float* read_floats(const char* path, std::size_t n) { return peer::read_floats(kName, path, n); }
float* alloc_floats(std::size_t n) { return peer::alloc_floats(kName, n); }
void write_floats(const char* path, const float* p, std::size_t n) { peer::write_floats(kName, path, p, n); }

struct Step {
  dnnl::primitive prim;
  std::unordered_map<int, memory> args;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 7) fail("usage: onednn_rows MODE ROWS COLS SAMPLES OUT.bin IN.bin...");
  const std::string mode = argv[1];
  const memory::dim rows = std::atol(argv[2]), cols = std::atol(argv[3]);
  const int samples = std::atoi(argv[4]);
  const char* out_path = argv[5];
  const int inputs = argc - 6;
  const std::size_t n = static_cast<std::size_t>(rows * cols);
  const bool ln = mode == "layernorm" || mode == "add_layernorm" || mode == "layernorm_gelu";
  const int want = mode == "softmax" ? 1 : mode == "add_layernorm" ? 4 : ln ? 3 : -1;
  if (want < 0) fail("unknown mode " + mode);
  if (inputs != want) fail(mode + " takes " + std::to_string(want) + " inputs");

  std::vector<float*> in;
  for (int k = 0; k < inputs; ++k) {
    // x and r are [rows, cols]; g and b are [cols]
    const bool row_vector = ln && k >= inputs - 2;
    in.push_back(read_floats(argv[6 + k], row_vector ? static_cast<std::size_t>(cols) : n));
  }
  float* out = alloc_floats(n);
  float* sum = mode == "add_layernorm" ? alloc_floats(n) : nullptr;

  std::vector<Step> steps;
  std::string impl;
  try {
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream stream(eng);
    const memory::desc data_md({rows, cols}, memory::data_type::f32, memory::format_tag::ab);
    const memory::desc vec_md({cols}, memory::data_type::f32, memory::format_tag::a);
    auto add_impl = [&](const dnnl::primitive_desc& pd) {
      impl += (impl.empty() ? "" : ", ") + std::string(pd.impl_info_str());
    };
    if (mode == "softmax") {
      dnnl::softmax_forward::primitive_desc pd(
          dnnl::softmax_forward::desc(prop_kind::forward_inference, data_md, 1), eng);
      steps.push_back({dnnl::softmax_forward(pd),
                       {{DNNL_ARG_SRC, memory(data_md, eng, in[0])}, {DNNL_ARG_DST, memory(data_md, eng, out)}}});
      add_impl(pd);
    } else {
      float* src = in[0];
      if (mode == "add_layernorm") {
        dnnl::binary::primitive_desc pd(dnnl::binary::desc(algorithm::binary_add, data_md, data_md, data_md), eng);
        steps.push_back({dnnl::binary(pd),
                         {{DNNL_ARG_SRC_0, memory(data_md, eng, in[0])},
                          {DNNL_ARG_SRC_1, memory(data_md, eng, in[1])},
                          {DNNL_ARG_DST, memory(data_md, eng, sum)}}});
        add_impl(pd);
        src = sum;
      }
      const auto flags = dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift;
      dnnl::layer_normalization_forward::primitive_desc pd(
          dnnl::layer_normalization_forward::desc(prop_kind::forward_inference, data_md, 1e-5f, flags), eng);
      Step s{dnnl::layer_normalization_forward(pd),
             {{DNNL_ARG_SRC, memory(data_md, eng, src)},
              {DNNL_ARG_SCALE, memory(vec_md, eng, in[inputs - 2])},
              {DNNL_ARG_SHIFT, memory(vec_md, eng, in[inputs - 1])},
              {DNNL_ARG_DST, memory(data_md, eng, out)}}};
      // forward_inference without global statistics: oneDNN keeps the mean
      // and variance internal (empty descs); pass buffers if it asks for them.
      for (const auto& [arg, md] : {std::make_pair(DNNL_ARG_MEAN, pd.mean_desc()),
                                    std::make_pair(DNNL_ARG_VARIANCE, pd.variance_desc())}) {
        if (md.get_size() != 0) s.args.emplace(arg, memory(md, eng));
      }
      steps.push_back(std::move(s));
      add_impl(pd);
      if (mode == "layernorm_gelu") {
        dnnl::eltwise_forward::primitive_desc epd(
            dnnl::eltwise_forward::desc(prop_kind::forward_inference, algorithm::eltwise_gelu_erf, data_md, 0.f, 0.f),
            eng);
        steps.push_back({dnnl::eltwise_forward(epd),
                         {{DNNL_ARG_SRC, memory(data_md, eng, out)}, {DNNL_ARG_DST, memory(data_md, eng, out)}}});
        add_impl(epd);
      }
    }
    auto call = [&] {
      for (Step& s : steps) {
        s.prim.execute(stream, s.args);
        stream.wait();
      }
    };
    call();
    write_floats(out_path, out, n);

    peer::time_and_print(mode, impl, samples, call);
  } catch (const dnnl::error& e) {
    std::string what = e.what();
    std::replace(what.begin(), what.end(), '"', '\'');
    std::printf("{\"mode\": \"%s\", \"error\": \"%s\"}\n", mode.c_str(), what.c_str());
    return 1;
  }
  return 0;
}
