#!/usr/bin/python3
"""The rows kind's cases, the one list of them: rows_bench.py times them, and
bench/rows/CMakeLists.txt builds a Halide pipeline for each that has a Halide
mode (it runs this file, which prints those as `id|mode|rows|cols`).

Per case: id and group (rows_bench.py --cases takes either), title, the
shape (rows x cols; x and r are [rows, cols], g and b [cols]), the inputs in
parameter order, bcastgen's expression, the roof (an elementwise kernel with
the same traffic) and its inputs, the peers' modes (oneDNN, XNNPACK, Halide;
None where a peer has no form of it), the tolerance of the peers' outputs
against NumPy's float64 and whether the fast tier is timed too.

    /usr/bin/python3 bench/rows/rows_cases.py
"""

LN = "(x - mean(x, [-1])) / sqrt(mean(square(x - mean(x, [-1])), [-1]) + 1e-5) * g + b"
RES_LN = "(x + r - mean(x + r, [-1])) / sqrt(mean(square(x + r - mean(x + r, [-1])), [-1]) + 1e-5) * g + b"
RMS = "x / sqrt(mean(x * x, [-1]) + 1e-6) * g"
SOFTMAX = "softmax(x, -1)"
LN_GELU = "gelu(" + LN + ")"


def case(cid, group, title, rows, cols, names, expr, roof, roof_names, onednn=None, peer_rtol=1e-5, fast=False,
         xnnpack=None, halide=None):
    return dict(id=cid, group=group, title=title, rows=rows, cols=cols, names=names, expr=expr, roof=roof,
                roof_names=roof_names, onednn=onednn, peer_rtol=peer_rtol, fast=fast, xnnpack=xnnpack, halide=halide)


CASES = [
    case("ln_4096", "ln", "LayerNorm, DRAM-sized", 4096, 768, ("x", "g", "b"), LN, "x * g + b", ("x", "g", "b"),
         "layernorm", halide="layernorm"),
    case("ln_64", "ln", "LayerNorm, in cache", 64, 768, ("x", "g", "b"), LN, "x * g + b", ("x", "g", "b"),
         "layernorm", halide="layernorm"),
    case("residual_ln", "residual_ln", "Residual + LayerNorm", 4096, 768, ("x", "r", "g", "b"), RES_LN,
         "(x + r) * g + b", ("x", "r", "g", "b"), "add_layernorm", halide="add_layernorm"),
    case("rmsnorm", "rmsnorm", "RMSNorm", 4096, 4096, ("x", "g"), RMS, "x * g", ("x", "g"), halide="rmsnorm"),
    case("softmax_128", "softmax", "Softmax, BERT-base attention 12 heads x 128", 12 * 128, 128, ("x",), SOFTMAX,
         "x * 1.5", ("x",), "softmax", xnnpack="softmax", halide="softmax"),
    case("softmax_512", "softmax", "Softmax, 8 heads x 512", 8 * 512, 512, ("x",), SOFTMAX, "x * 1.5", ("x",),
         "softmax", xnnpack="softmax", halide="softmax"),
    case("ln_gelu", "ln_gelu", "LayerNorm then GELU, fused", 4096, 768, ("x", "g", "b"), LN_GELU, "x * g + b",
         ("x", "g", "b"), "layernorm_gelu", peer_rtol=1e-4, fast=True, halide="layernorm_gelu"),
]


if __name__ == "__main__":
    for c in CASES:
        if c["halide"]:
            print("%s|%s|%d|%d" % (c["id"], c["halide"], c["rows"], c["cols"]))
