# `go tool pprof -traces -unit=...` output to folded stacks: each sample
# (between lines of dashes) is a value and its frames, leaf first, one a
# line; "(inline)" marks an inlined frame, which stays a frame.  Label
# lines ("bytes:  8kB") and the header are passed over, samples of value
# zero dropped (no width), equal stacks summed.  A value must be a whole
# number once its unit is cut (run pprof with -unit=ns or -unit=B): one
# pprof rounded ("1.50MB") is an error, not a guess.
# The stacks are sorted as LC_ALL=C sort sorts them (tests/pprof-unit.awk
# gives the unit line to put first).  Used by tests/record-pprof.sh and
# tests/run.sh.
function flush() {
	if (stack != "" && value > 0)
		sum[stack] += value
	stack = ""
	value = 0
}
/^-----------\+/ { flush(); body = 1; next }
!body { next }
# A frame under the first: 13 blanks, then the name.
/^             [^ ]/ { v = ""; name = substr($0, 14) }
# The first frame: the value, right-aligned in 10 columns but wider when
# it must be, and 3 blanks.
/^ *[0-9][^ ]*   [^ ]/ {
	v = $1
	name = $0
	sub(/^ *[^ ]+   /, "", name)
}
# Anything else (a label line) is passed over.
!/^             [^ ]/ && !/^ *[0-9][^ ]*   [^ ]/ { next }
{
	sub(/ \(inline\)$/, "", name)
	if (v != "") {
		flush()
		sub(/(ns|B)$/, "", v)
		if (v !~ /^[0-9]+$/) {
			print "pprof-traces.awk: line " NR ": value \"" v \
			    "\" is not a whole number" > "/dev/stderr"
			bad = 1
			exit 1
		}
		value = v + 0
	}
	stack = stack == "" ? name : name ";" stack
}
END {
	if (bad)
		exit 1
	flush()
	sorted = "LC_ALL=C sort"
	for (s in sum)
		printf "%s %.0f\n", s, sum[s] | sorted
	close(sorted)
}
