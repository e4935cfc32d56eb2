# check.awk: the invariants of a spanlayout(1) output, whatever its input.
#	awk -F '\t' -f check.awk FILE
# Every span once; a parent before its children and on a row above them
# (unless the parent is on another track's band or absent); no two spans
# on one row overlap in time (a zero-length span holds one nanosecond).
# Prints "ok N spans, R rows" or the first problems, and exits 1 on any.
/^#/ { next }
{
	if ($1 in row) { print "span " $1 " twice"; bad = 1 }
	row[$1] = $6; track[$1] = $5; n++
	if ($2 != 0 && ($2 in row) && track[$2] == $5 && row[$2] >= $6) {
		print "span " $1 " not below its parent " $2; bad = 1
	}
	if ($2 != 0 && !($2 in row)) later[$1] = $2
	e = $3 + ($4 > 0 ? $4 : 1)
	print $6, $3, e, $1 | "sort -n -k1,1 -k2,2 > " tmp
}
END {
	for (s in later)
		if ((later[s] in row) && track[later[s]] == track[s]) {
			print "span " s " comes before its parent " later[s]; bad = 1
		}
	close("sort -n -k1,1 -k2,2 > " tmp)
	while ((getline l < tmp) > 0) {
		split(l, f, " ")
		if (f[1] == prow && f[2] < pend) {
			print "spans " pid " and " f[4] " overlap on row " f[1]; bad = 1
		}
		if (f[1] != prow || f[3] > pend) pend = f[3]
		if (f[1] != prow) rows++
		prow = f[1]; pid = f[4]
	}
	if (!bad) print "ok " n " spans, " rows " rows"
	exit bad
}
