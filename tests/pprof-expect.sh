#!/bin/sh
# pprof-expect.sh DIR [OUT]: the folded stacks `go tool pprof -traces`
# shows for DIR's cpu.pb.gz and heap.pb.gz, one file per sample type
# (TYPE.folded for the CPU profile, heap-TYPE.folded for the heap), into
# OUT (default DIR).  Values are asked in ns and bytes, so that pprof
# prints them whole.  Used by tests/record-pprof.sh and tests/run.sh.
set -eu
d=$1 out=${2:-$1}
awk=$(dirname "$0")/pprof-traces.awk
# traces UNIT TYPE FILE: the unit line (pprof-unit.awk), then the stacks
traces() {
	HOME=${TMPDIR:-/tmp} go tool pprof -raw "$3" 2> /dev/null |
	    awk -v type="$2" -f "$(dirname "$0")/pprof-unit.awk"
	HOME=${TMPDIR:-/tmp} go tool pprof -traces -unit="$1" -sample_index="$2" \
	    "$3" 2> /dev/null | awk -f "$awk"
}
for t in samples cpu; do
	traces ns $t "$d/cpu.pb.gz" > "$out/cpu-$t.folded"
done
for t in alloc_objects alloc_space inuse_objects inuse_space; do
	traces B $t "$d/heap.pb.gz" > "$out/heap-$t.folded"
done
