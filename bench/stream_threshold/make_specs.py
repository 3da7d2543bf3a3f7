#!/usr/bin/python3
"""Writes the two specs of the streaming-threshold measurement into DIR:
s.yaml (every kernel streams: threshold 0) and n.yaml (none does), and
sizes.h, the list of footprints the harness walks. Per footprint in
SIZES_MIB, four kernels that read and write in different shares:

    add   a + b = out, f32                  reads 2/3, writes 1/3
    row   x[R, 1024] + b[1024], f32         reads 1/2, writes 1/2
    rowh  the same in bf16                  reads 1/2, writes 1/2 (narrowing stores)
    bc    broadcast [1, 1024] to [R, 1024]  writes only
    exp   exp(x[R, 1024]), f32              reads 1/2, writes 1/2, bound by its arithmetic

    make_specs.py DIR
"""
import os
import sys

SIZES_MIB = [16, 24, 32, 40, 48, 64, 96, 128]
MIB = 1024 * 1024


def kernels(m):
    n = m * MIB // 12 // 1024 * 1024  # a, b and out of n floats each
    return [
        "{name: add%d, op: add, dtype: f32, rule: numpy, a: [%d], b: [%d]}" % (m, n, n),
        "{name: row%d, inputs: {x: [%d, 1024], b: [1024]}, expr: x + b}" % (m, m * MIB // 8 // 1024),
        "{name: rowh%d, dtype: bf16, inputs: {x: [%d, 1024], b: [1024]}, expr: x + b}" % (m, m * MIB // 4 // 1024),
        "{name: bc%d, op: broadcast, mode: numpy, dtype: f32, a: [1, 1024], target: [%d, 1024]}"
        % (m, m * MIB // 4 // 1024),
        "{name: exp%d, inputs: {x: [%d, 1024]}, expr: 'exp(x)'}" % (m, m * MIB // 8 // 1024),
    ]


def main():
    out = sys.argv[1]
    for ns, threshold in (("s", 0), ("n", 1 << 40)):
        lines = ["namespace: %s" % ns, "stream_threshold_bytes: %d" % threshold,
                 "isa: [avx512bf16, avx512, avx2]", "kernels:"]
        for m in SIZES_MIB:
            lines += ["  - " + k for k in kernels(m)]
        with open(os.path.join(out, ns + ".yaml"), "w") as f:
            f.write("\n".join(lines) + "\n")
    with open(os.path.join(out, "sizes.h"), "w") as f:
        f.write("#define STREAM_THRESHOLD_SIZES(X) %s\n" % " ".join("X(%d)" % m for m in SIZES_MIB))


if __name__ == "__main__":
    main()
