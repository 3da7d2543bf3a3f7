#!/usr/bin/python3
"""Writes a fixed random spec of N binary f32 kernels for the scale measurements (issue 77).

    /usr/bin/python3 bench/scale/make_spec.py N OUT.yaml [--seed S]
    /usr/bin/python3 bench/scale/make_spec.py --resnet OUT.yaml

N kernels: ranks 2 to 4, one of five ops, the numpy rule; b is a with some
dims set to 1 and leading dims dropped. The same N and seed give the same
file, and the first N kernels of a larger spec are the N of a smaller one.
--resnet: the bias adds, residual adds and ReLU-style maxima of a
ResNet-50's 53 convolutions at batch 1, whose shapes repeat (stage by stage).
"""
import random
import sys

OPS = ("add", "subtract", "multiply", "maximum", "minimum")
DIMS = (1, 2, 3, 4, 7, 8, 12, 16, 28, 32, 56, 64, 96, 128)


def kernel(rng, i):
    rank = rng.randint(2, 4)
    a = [rng.choice(DIMS) for _ in range(rank)]
    b = [1 if rng.random() < 0.4 else d for d in a]
    b = b[rng.randint(0, rank - 1):]
    return "  - {name: k%05d, op: %s, dtype: f32, rule: numpy, a: %s, b: %s}\n" % (i, rng.choice(OPS), a, b)


def resnet():
    lines = []
    # (blocks, channels of the bottleneck, spatial size) per stage
    for stage, (blocks, c, hw) in enumerate(((3, 64, 56), (4, 128, 28), (6, 256, 14), (3, 512, 7))):
        for blk in range(blocks):
            for conv, ch in enumerate((c, c, 4 * c)):
                n = "s%db%dc%d" % (stage, blk, conv)
                lines.append("  - {name: %s_bias, op: add, dtype: f32, rule: numpy, a: [1, %d, %d, %d], b: [1, %d, 1, 1]}\n"
                             % (n, ch, hw, hw, ch))
                lines.append("  - {name: %s_relu, op: maximum, dtype: f32, rule: numpy, a: [1, %d, %d, %d], b: [1]}\n"
                             % (n, ch, hw, hw))
            lines.append("  - {name: s%db%d_residual, op: add, dtype: f32, rule: numpy, a: [1, %d, %d, %d], "
                         "b: [1, %d, %d, %d]}\n" % (stage, blk, 4 * c, hw, hw, 4 * c, hw, hw))
    return lines


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--resnet":
        lines, out = resnet(), args[1]
    elif len(args) in (2, 4) and args[0].isdigit():
        seed = int(args[3]) if len(args) == 4 and args[2] == "--seed" else 77
        rng = random.Random(seed)
        lines, out = [kernel(rng, i) for i in range(int(args[0]))], args[1]
    else:
        print(__doc__, file=sys.stderr)
        return 2
    with open(out, "w") as f:
        f.write("# bench/scale/make_spec.py %s\nnamespace: scale\nkernels:\n" % " ".join(args[:-1]))
        f.writelines(lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
