#!/usr/bin/python3
"""Writes the two specs of the streaming-threshold measurement into DIR:
s.yaml (every kernel streams: threshold 0) and n.yaml (none does), each with
an f32 add and a Broadcast op per footprint in SIZES_MIB, and sizes.h, the
list the harness walks.

    make_specs.py DIR
"""
import os
import sys

SIZES_MIB = [16, 24, 28, 32, 36, 40, 48, 64]


def main():
    out = sys.argv[1]
    for ns, threshold in (("s", 0), ("n", 1 << 40)):
        lines = ["namespace: %s" % ns, "stream_threshold_bytes: %d" % threshold, "isa: [avx512, avx2]", "kernels:"]
        for m in SIZES_MIB:
            n = m * 1024 * 1024 // 12 // 1024 * 1024  # a, b and out of n floats each
            lines += ["  - {name: add%d, op: add, dtype: f32, rule: numpy, a: [%d], b: [%d]}" % (m, n, n)]
            rows = m * 1024 * 1024 // 4 // 1024  # out of rows x 1024 floats
            lines += ["  - {name: bc%d, op: broadcast, mode: numpy, dtype: f32, a: [1, 1024], target: [%d, 1024]}"
                      % (m, rows)]
        with open(os.path.join(out, ns + ".yaml"), "w") as f:
            f.write("\n".join(lines) + "\n")
    with open(os.path.join(out, "sizes.h"), "w") as f:
        f.write("#define STREAM_THRESHOLD_SIZES(X) %s\n" % " ".join("X(%d)" % m for m in SIZES_MIB))


if __name__ == "__main__":
    main()
