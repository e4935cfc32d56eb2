#!/bin/sh
# make demo: the whole pipeline on a bundled real capture (Python running a
# small workload, recorded with perf --call-graph dwarf on a flametools
# machine), ending in an SVG to open in a browser.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out="$top/build/demo"
mkdir -p "$out"
"$top/bin/stackcollapse" "$top/tests/data/demo-python-dwarf.perf.txt.gz" \
    > "$out/demo.folded"
"$top/bin/flamegraph-svg" --title "Python workload (perf, DWARF stacks)" \
    "$out/demo.folded" > "$out/demo.svg"
echo "folded stacks: $out/demo.folded ($(wc -l < "$out/demo.folded") distinct stacks)"
echo "flame graph:   $out/demo.svg ($(wc -c < "$out/demo.svg") bytes)"
echo
echo "hottest leaf functions (share of samples):"
awk '{ n = $NF; sub(/ [0-9.]+$/, ""); k = split($0, f, ";");
       leaf[f[k]] += n; total += n }
     END { for (l in leaf) printf "%6.2f%%  %s\n", 100 * leaf[l] / total, l }' \
    "$out/demo.folded" | sort -rn | head -n 8
echo
echo "open it: xdg-open $out/demo.svg   (or any browser: hover, click, Ctrl-F)"
