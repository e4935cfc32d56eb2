#!/bin/sh
# make demo: the whole pipeline on a bundled real capture (Python running a
# small workload, recorded with perf --call-graph dwarf on a flametools
# machine), ending in an SVG to open in a browser; and a timeline of a
# bundled uftrace recording.
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

# The timeline: a bundled uftrace recording of Lua running a sort.
"$top/bin/spanlayout" "$top/tests/data/uftrace-lua.json.gz" 2> /dev/null |
    "$top/bin/flamegraph-svg" --title "Lua running a sort (uftrace)" \
    > "$out/timeline.svg" 2> /dev/null
echo
echo "timeline:      $out/timeline.svg ($(grep -c '' "$out/timeline.svg") lines," \
    "$(wc -c < "$out/timeline.svg") bytes)"
echo
echo "open them: xdg-open $out/demo.svg $out/timeline.svg"
echo "  flame graph: hover, click, Ctrl-F; timeline: wheel, drag, click, Ctrl-F"
