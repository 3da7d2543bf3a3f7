#!/usr/bin/python3
"""The one report of `bash bench/run.sh --kind all`: every kind's table, each
judged by the one rule (bench/verdict.py), in one Markdown document, its
first section the verdicts line of every kind.

    report_all.py RESULTS_DIR > RESULTS_DIR/report.md

RESULTS_DIR (BUILD/bench/results) holds what the kinds wrote there: the
single kind's table.md, rows.txt and transpose.txt (bench/run.sh), and the
outputs of the other kinds' runs, KIND.txt (math-speed.txt and
math-accuracy.txt for math). A kind that did not run is said to be missing.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def read(path):
    with open(path) as f:
        return f.read()


def tables(text):
    """The report part of a kind's output: from its first table or heading on, without the run's progress."""
    lines = text.splitlines()
    start = next((k for k, line in enumerate(lines) if line.startswith(("|", "### ", "== "))), len(lines))
    return "\n".join(lines[start:]).strip()


def sections(rdir):
    """(title, text) per kind, in the order of docs/benchmarks.md."""
    out = []

    def part(title, *names, make=None, text=False):
        paths = [os.path.join(rdir, n) for n in names]
        missing = [n for n, p in zip(names, paths) if not os.path.exists(p)]
        if missing:
            out.append((title, "missing: %s (the kind did not run)" % ", ".join(missing)))
        elif text:  # a plain-text table: kept as it is printed
            out.append((title, "```\n%s\n```" % make(*paths)))
        else:
            out.append((title, make(*paths)))

    part("Single ops and fused expressions", "table.md", make=lambda p: read(p).strip())
    part("Row kernels", "rows.txt", make=lambda p: tables(read(p)), text=True)
    part("Transposed reads", "transpose.txt", make=lambda p: read(p).strip(), text=True)
    part("Math functions", "math-speed.txt", "math-accuracy.txt",
         make=lambda s, a: subprocess.run([sys.executable, os.path.join(HERE, "math", "report.py"), s, a],
                                          capture_output=True, text=True, check=True).stdout.strip())
    part("16-bit floats", "half.txt", make=lambda p: tables(read(p)))
    part("ONNX models", "onnx.txt", make=lambda p: tables(read(p)))
    return out


def main():
    rdir = sys.argv[1]
    parts = sections(rdir)
    machine = os.path.join(rdir, "machine.txt")
    print("# bcastgen against its peers\n")
    if os.path.exists(machine):
        print("```\n%s\n```\n" % read(machine).strip())
    print("| kind | verdicts (bench/verdict.py) |")
    print("|---|---|")
    for title, text in parts:
        lines = [line for line in text.splitlines() if line.startswith("verdicts:")]
        print("| %s | %s |" % (title, lines[-1][len("verdicts: "):] if lines else "-"))
    for title, text in parts:
        print("\n## %s\n\n%s" % (title, text))


if __name__ == "__main__":
    main()
