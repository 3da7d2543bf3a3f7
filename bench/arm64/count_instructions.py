#!/usr/bin/env python3
"""Instructions per element of bcastgen's and XNNPACK's NEON kernels, counted
under qemu-user (count-instructions.sh builds DRIVER, instructions_driver.cpp).

qemu's `-d in_asm,exec,nochain` logs each block of guest code when it is
translated (its instructions) and each time it runs (its address): the
instructions executed are the sum, over the runs, of the blocks' lengths.
A run of 3 calls minus a run of 1 call is two calls' instructions, without
the process's start and the operator's set-up; the block that gains the most
instructions between the two is the kernel's inner loop, shown beside it.

    count_instructions.py DRIVER
"""
import collections
import os
import re
import subprocess
import sys

QEMU = ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"]
if os.environ.get("QEMU_LD_LIBRARY_PATH"):  # XNNPACK's unpacked libraries
    QEMU += ["-E", "LD_LIBRARY_PATH=" + os.environ["QEMU_LD_LIBRARY_PATH"]]
CASES = {"bias_add": 64 * 56 * 56, "mean_sub": 224 * 224 * 3}  # output elements
PEERS = ["bcastgen", "xnnpack"]
INSN = re.compile(r"^0x([0-9a-f]+):\s+[0-9a-f]+\s+(.*)$")


def profile(driver, peer, case, reps):
    """(blocks: address -> instructions, runs: address -> count, the driver's output)."""
    cmd = QEMU + ["-d", "in_asm,exec,nochain", "-D", "/dev/stderr", driver, peer, case, str(reps)]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace")
    blocks, runs, current = {}, collections.Counter(), None
    for line in p.stderr:
        if line.startswith("Trace"):
            runs[int(line.split("[", 1)[1].split("/")[1], 16)] += 1
            continue
        m = INSN.match(line)
        if m:
            address, text = int(m.group(1), 16), " ".join(m.group(2).split())
            if current is None:
                current = blocks.setdefault(address, [])
                if current:  # translated again: keep the first translation
                    current = []
            current.append((address, text))
        else:
            current = None
    output = p.stdout.read().strip()
    if p.wait() != 0:
        sys.exit(f"count_instructions: {' '.join(cmd)} failed")
    return blocks, runs, output


def executed(blocks, runs):
    return sum(len(blocks[a]) * n for a, n in runs.items())


def main():
    driver = sys.argv[1]
    print("| case | peer | instructions per element (one call) | inner loop: instructions, elements per trip |")
    print("|---|---|---|---|")
    loops = []
    for case, elements in CASES.items():
        outputs = {}
        for peer in PEERS:
            blocks1, runs1, outputs[peer] = profile(driver, peer, case, 1)
            blocks3, runs3, _ = profile(driver, peer, case, 3)
            per_element = (executed(blocks3, runs3) - executed(blocks1, runs1)) / (2 * elements)
            gain = {a: len(blocks3[a]) * (runs3[a] - runs1.get(a, 0)) for a in runs3}
            loop = max(gain, key=gain.get)
            trips = (runs3[loop] - runs1.get(loop, 0)) / 2
            loops.append((case, peer, blocks3[loop]))
            print(f"| {case} | {peer} | {per_element:.2f} | {len(blocks3[loop])}, {elements / trips:.1f} |")
        if len(set(outputs.values())) != 1:
            sys.exit(f"count_instructions: {case}: the peers disagree on the last element: {outputs}")
    for case, peer, block in loops:
        print(f"\n{case}, {peer}: inner loop")
        for address, text in block:
            print(f"    {address:#x}: {text}")


if __name__ == "__main__":
    main()
