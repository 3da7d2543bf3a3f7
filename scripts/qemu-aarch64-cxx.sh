#!/bin/sh
# A $CXX for `bcastgen run` when bcastgen itself runs under qemu-user
# (scripts/check-aarch64-run.sh). It compiles with the AArch64 cross
# compiler, and leaves at the `-o` path a two-line script that runs the
# program under qemu: without binfmt_misc (absent here), the host cannot exec
# an AArch64 program directly. On an AArch64 host none of this is needed:
# `bcastgen run` calls the system's c++ and runs what it built.
out=
prev=
for a in "$@"; do
  [ "$prev" = "-o" ] && out=$a
  prev=$a
done
[ -n "$out" ] || { echo "qemu-aarch64-cxx: no -o OUTPUT among the arguments" >&2; exit 2; }
# The same arguments, with the output renamed OUTPUT.elf.
for a in "$@"; do
  shift
  if [ "$a" = "$out" ]; then set -- "$@" "$out.elf"; else set -- "$@" "$a"; fi
done
aarch64-linux-gnu-g++ "$@" || exit $?
printf '#!/bin/sh\nexec qemu-aarch64 -L /usr/aarch64-linux-gnu "$0.elf" "$@"\n' >"$out"
chmod +x "$out"
