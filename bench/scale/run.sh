#!/usr/bin/env bash
# The scale of bcastgen's output (issue 77), a script, not a CI stage:
#   bash bench/scale/run.sh [BUILD_DIR] [--sizes "10 100 1000"] [--compile "10 100"] [--single "100"]
#                           [--resnet-only] [--no-resnet] [--shards N]
# For each size, a fixed random spec (make_spec.py), and the ResNet-50-like one:
#   generation: wall time and peak memory of `bcastgen generate` (/usr/bin/time -v),
#     with its default shards (--shards auto), or --shards N;
#   source bytes of all .cpp files, and the number of shards;
#   for the sizes in --compile (and always the ResNet-like spec):
#     - the whole output with g++ -O2 -c, -j2 (two compilers at a time, largest sources first): its
#       wall time, the sum of the units' times ("TUs s") and the largest unit's peak memory;
#     - code bytes (`size`: .text) per kernel and per distinct kernel (kernels that share code
#       count once);
#     - the critical path of a build on 4, 16 and 64 hosts, modeled from the measured times:
#       generation, then each translation unit preprocessed here (g++ -E, two at a time, as
#       distcc and icecc do on the client) and compiled on the host that frees first, longest
#       first (no network time: the bound a distributed build approaches);
#   for the sizes in --single: g++ -O2 -c of the same spec as one file (--shards 1), the
#     single-TU time the model is compared with.
# A 1,000-kernel spec compiles in about two minutes here with -j2, and its single file
# (--single) in about three more.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$root/build
sizes="10 100 1000"
compile="10 100"
single=""
shards=auto
resnet=1
randoms=1
while [ $# -gt 0 ]; do
  case $1 in
    --sizes) sizes=$2; shift 2 ;;
    --compile) compile=$2; shift 2 ;;
    --single) single=$2; shift 2 ;;
    --resnet-only) randoms=0; shift ;;
    --no-resnet) resnet=0; shift ;;
    --shards) shards=$2; shift 2 ;;
    *) build=$1; shift ;;
  esac
done
bcastgen=$build/generator/bcastgen
[ -x "$bcastgen" ] || { echo "run.sh: $bcastgen is not built (cmake --build build)" >&2; exit 2; }
work=$(mktemp -d /tmp/bcastgen-scale.XXXXXX)
trap 'rm -rf "$work"' EXIT
cxx=(g++ -std=c++17 -O2)

# Prints "<wall seconds> <peak KiB>" of a command, from /usr/bin/time -v.
measure() {
  /usr/bin/time -v "$@" > "$work/time.out" 2> "$work/time.err" || { cat "$work/time.err" >&2; exit 1; }
  awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + t[i]}
              /Maximum resident set size/ {m = $2} END {printf "%.2f %d\n", s, m}' "$work/time.err"
}

printf "%-11s %7s %8s %6s %7s %10s %6s %8s %7s %8s %8s %8s %7s %7s %7s %9s\n" spec kernels distinct "gen s" "gen MiB" \
  "cpp bytes" shards "TUs s" "-j2 s" "maxTU MiB" "text/k" "text/dk" "cp 4" "cp 16" "cp 64" "1 TU s"
run_spec() {
  local name=$1 spec=$2 compile_it=$3 single_it=$4
  local n distinct dir gen_s gen_kb cpp units
  local serial="-" j2="-" maxmem="-" per="-" perd="-" cp4="-" cp16="-" cp64="-" one="-"
  n=$(grep -c '^  - ' "$spec")
  dir=$work/$name
  read -r gen_s gen_kb < <(measure "$bcastgen" generate "$spec" -o "$dir" --emit-runtime --shards "$shards")
  cpp=$(cat "$dir"/*.cpp | wc -c)
  units=$(find "$dir" -maxdepth 1 -name '*_shard*.cpp' | wc -l)
  distinct=$(/usr/bin/python3 -c 'import json, sys; print(sum(1 for k in json.load(open(sys.argv[1]))["kernels"] if "shares_code_with" not in k))' "$dir"/*.manifest.json)
  if [ "$compile_it" = 1 ]; then
    # -j2: the largest sources first, two compilers at a time, each timed
    # (wall and peak memory) by /usr/bin/time into <source>.time.
    local start f
    start=$(date +%s.%N)
    ls -S "$dir"/*.cpp | xargs -P2 -I{} sh -c 'f={}; exec /usr/bin/time -f "%e %M" -o "$f.time" "$@" -c "$f" -o "${f%.cpp}.o"' \
      _ "${cxx[@]}" -I"$dir"
    j2=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')
    # Each unit's compile time, and its preprocessing alone (g++ -E, the part distcc and icecc do here).
    : > "$work/$name.times"
    for f in "$dir"/*.cpp; do
      read -r pre _ < <(measure "${cxx[@]}" -I"$dir" -E "$f" -o "${f%.cpp}.ii")
      echo "$(cut -d' ' -f1 "$f.time") $pre" >> "$work/$name.times"
    done
    rm -f "$dir"/*.ii
    serial=$(awk '{s += $1} END {printf "%.1f", s}' "$work/$name.times")
    maxmem=$(cat "$dir"/*.cpp.time | awk '{if ($2 > m) m = $2} END {printf "%d", m / 1024}')
    read -r per perd < <(size -A "$dir"/*.o | awk -v n="$n" -v d="$distinct" '$1 ~ /^\.text/ {t += $2}
      END {printf "%.0f %.0f\n", t / n, t / d}')
    read -r cp4 cp16 cp64 < <(/usr/bin/python3 - "$work/$name.times" "$gen_s" <<'EOF'
import heapq, sys
# (compile s, preprocess s) per translation unit, longest first.
units = sorted((tuple(map(float, x.split())) for x in open(sys.argv[1]) if x.strip()), reverse=True)
gen = float(sys.argv[2])
LOCAL = 2  # this machine's cores: distcc and icecc preprocess on the client
def makespan(hosts):
    # The client preprocesses the units in order, LOCAL at a time; each then
    # compiles on the host that frees first, for its compile time less its
    # preprocessing.
    client = [gen] * LOCAL
    free = [gen] * hosts
    end = gen
    for c, p in units:
        ready = heapq.heappop(client) + p
        heapq.heappush(client, ready)
        start = max(ready, heapq.heappop(free))
        heapq.heappush(free, start + max(c - p, 0.0))
        end = max(end, start + max(c - p, 0.0))
    return end
print(" ".join("%.1f" % makespan(h) for h in (4, 16, 64)))
EOF
)
  fi
  if [ "$single_it" = 1 ]; then
    "$bcastgen" generate "$spec" -o "$dir.one" --emit-runtime --shards 1 2> /dev/null
    read -r one _ < <(measure "${cxx[@]}" -I"$dir.one" -c "$dir.one/$(basename "${spec%.yaml}").cpp" -o "$dir.one/one.o")
  fi
  printf "%-11s %7d %8d %6s %7d %10d %6d %8s %7s %8s %8s %8s %7s %7s %7s %9s\n" "$name" "$n" "$distinct" "$gen_s" \
    $((gen_kb / 1024)) "$cpp" "$units" "$serial" "$j2" "$maxmem" "$per" "$perd" "$cp4" "$cp16" "$cp64" "$one"
  rm -rf "$dir" "$dir.one"
}
listed() {  # <word> <list>
  local m
  for m in $2; do [ "$m" = "$1" ] && return 0; done
  return 1
}
if [ "$randoms" = 1 ]; then
  for n in $sizes; do
    /usr/bin/python3 "$root/bench/scale/make_spec.py" "$n" "$work/random_$n.yaml"
    c=0 o=0
    listed "$n" "$compile" && c=1
    listed "$n" "$single" && o=1
    run_spec "random_$n" "$work/random_$n.yaml" $c $o
  done
fi
if [ "$resnet" = 1 ]; then
  /usr/bin/python3 "$root/bench/scale/make_spec.py" --resnet "$work/resnet.yaml"
  o=0
  listed resnet "$single" && o=1
  run_spec resnet "$work/resnet.yaml" 1 $o
fi
