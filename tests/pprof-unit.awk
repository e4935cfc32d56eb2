# `go tool pprof -raw` output to folded(5)'s unit line for the sample
# type -v type=NAME (default: the profile's last): pprof lists the types
# as NAME/UNIT after "Samples:".  nanoseconds are "ns", bytes "bytes", a
# count of *_objects "objects"; any other unit has no line.  What
# stackcollapse should write first when it folds that type.
/^Samples:/ { getline; n = split($0, t, " "); done = 1 }
END {
	if (!done)
		exit 1
	for (i = 1; i <= n; i++) {
		split(t[i], nu, "/")
		if (type == "" ? i == n : nu[1] == type) {
			if (nu[2] == "nanoseconds")
				print "# unit: ns"
			else if (nu[2] == "bytes")
				print "# unit: bytes"
			else if (nu[2] == "count" && nu[1] ~ /objects$/)
				print "# unit: objects"
		}
	}
}
