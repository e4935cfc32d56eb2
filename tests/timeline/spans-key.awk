# Laid-out spans (spans(5), "# spanlayout v1") in a form that does not
# depend on span ids or on the order of spans, for comparing spanlayout's
# output with what stackcollapse --to=spans reads back from the timeline
# drawn from it, which numbers the spans anew.  A span is named by its
# row and start (no two spans of a row start together: spanlayout keeps
# them apart by a nanosecond at least); its parent and notes by that
# name; a parent that is no span of the file, or the span itself, as
# none ("-"): spanlayout keeps such a PARENT, the timeline draws a root;
# so is a sample's span (ID).  One line per span, its notes after it,
# string properties first, then integer ones, then events, each kind in
# file order (what the timeline keeps); "# open" on the span's line; a
# line per sample; those lines sorted (the timeline keeps samples in time
# order).  Kept from the header, in order: the revision line,
# time-origin-ns, "# rows" and the other metadata; dropped, as the
# timeline drops them: "# cycle-broken" (it names ids).
BEGIN { FS = OFS = "\t" }
FNR == 1 { if ($0 != "# spanlayout v1") { print "not laid out: " FILENAME; exit 1 } }
/^# (spans-revision|time-origin-ns|rows): / { head[++nh] = $0; next }
/^# open$/ { open = 1; next }
/^# (prop|prop-int|event)\t/ {
	k = $1 == "# prop" ? 1 : $1 == "# prop-int" ? 2 : 3
	id = $2
	$2 = ""
	notes[id, k] = notes[id, k] "\n" $0
	next
}
/^# sample\t/ { sample[++ns] = $0; sid[ns] = $2; next }
/^# cycle-broken: / { next }
/^# .*:/ && n == 0 { head[++nh] = $0; next }
/^#/ { next }
{
	n++
	key[$1] = $6 ":" $3
	par[n] = $2
	self[n] = $1
	open_[n] = open
	open = 0
	$1 = $2 = ""
	line[n] = $0
}
END {
	for (i = 1; i <= nh; i++)
		print "0 " head[i]
	for (i = 1; i <= n; i++) {
		p = par[i] == self[i] || !(par[i] in key) ? "-" : key[par[i]]
		s = "span " key[self[i]] " parent " p \
		    (open_[i] ? " open" : "") line[i]
		for (k = 1; k <= 3; k++)
			s = s notes[self[i], k]
		gsub(/\n/, " | ", s)
		print s | "sort"
	}
	for (i = 1; i <= ns; i++) {
		$0 = sample[i]
		$2 = sid[i] in key ? key[sid[i]] : "-"
		print | "sort"
	}
}
