# js2c.awk: JavaScript files as C strings, for flamegraph-svg to embed
# as they are.  Whole-line comments and leading blanks go, nothing else:
# the script in a graph is the source, readable and greppable.
#   awk -v var=NAME -f js2c.awk ui.js flame.js ... > NAME.h
# writes enum { NAME_ui, NAME_flame, ..., NAME_nparts } and NAME_part[],
# each file's text, so that a writer can leave out a file its graph does
# not use.
#
# A comment line starts with // or /*; a /* comment runs to the line
# holding its */, which must end there (the scripts keep to that, and a
# line that does not is an error rather than code lost).
function cstring(s,    out, i, c) {
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		# (a '?' too: -std=c11 reads trigraphs)
		out = out (c == "\\" || c == "\"" || c == "?" ? "\\" c : c)
	}
	return "\"" out "\\n\""
}
FNR == 1 {
	if (nfiles)
		print "\t,"
	else
		print "static const char *const " var "_part[] = {"
	name = FILENAME
	sub(/.*\//, "", name)
	sub(/\.js$/, "", name)
	file[++nfiles] = name
	incomment = 0
}
{
	line = $0
	sub(/^[ \t]+/, "", line)
	if (incomment) {
		if (index(line, "*/")) {
			incomment = 0
			if (line !~ /\*\/$/) {
				printf "%s:%d: code after a comment's end\n", FILENAME, FNR > "/dev/stderr"
				exit 1
			}
		}
		next
	}
	if (line ~ /^\/\//)
		next
	if (line ~ /^\/\*/) {
		incomment = line !~ /\*\/$/ || line == "/*/"
		next
	}
	if (line != "")
		print "\t" cstring(line)
}
END {
	if (nfiles == 0)
		exit 1
	print "};"
	printf "enum {"
	for (f = 1; f <= nfiles; f++)
		printf " %s_%s,", var, file[f]
	print " " var "_nparts };"
}
