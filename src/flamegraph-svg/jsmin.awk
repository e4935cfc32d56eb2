# jsmin.awk: join ui.js and flame.js (or timeline.js) into one script for
# embedding, shrunk, inside one function (each script is scoped to the
# <svg> it sits in), and write it as a C string named flame_js (or -v
# var=NAME):  awk -f jsmin.awk ui.js flame.js
#
# Comments go; spaces go except between two word characters.  A line
# ending in one of ; { } , ( is joined to the next: no automatic semicolon
# can be lost there.  String and regular expression literals are copied
# untouched: a '/' starts a regex where an operand is expected, after one
# of ( , = : [ ! & | ? { } ; or at the start of a line.  Names are kept:
# renaming them saved a tenth of the script, but little once gzipped, and
# a hand-kept list of names to rename was a trap for new code.  This is
# written for these scripts' style, not for any JavaScript: "a - -b" would
# lose its meaning, and they have none.
function isword(c) { return c ~ /[A-Za-z0-9_$]/ }
function minify(s,    out, i, n, c, q, esc, j, nx, p) {
	out = ""; n = length(s); q = ""; esc = 0
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (q != "") {
			out = out c
			if (esc) esc = 0
			else if (c == "\\") esc = 1
			else if (c == q) q = ""
			continue
		}
		if (incomment) {
			if (c == "*" && substr(s, i + 1, 1) == "/") { incomment = 0; i++ }
			continue
		}
		if (c == "/" && substr(s, i + 1, 1) == "*") { incomment = 1; i++; continue }
		if (c == "/" && substr(s, i + 1, 1) == "/") break
		if (c == "\"" || c == "'") { q = c; out = out c; continue }
		if (c == "/") {
			p = substr(out, length(out), 1)
			if (p == "" || index("(,=:[!&|?{};", p)) { q = "/"; out = out c; continue }
		}
		if (c == " " || c == "\t") {
			for (j = i + 1; j <= n && substr(s, j, 1) ~ /[ \t]/; j++)
				;
			nx = substr(s, j, 1)
			if (isword(substr(out, length(out), 1)) && isword(nx))
				out = out " "
			continue
		}
		out = out c
	}
	return out
}
# A C string literal; built a character at a time because awks disagree
# on backslashes in gsub's replacement.
function cstring(s,    out, i, c) {
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		out = out (c == "\\" || c == "\"" ? "\\" c : c)
	}
	return "\"" out "\\n\""
}
BEGIN {
	print "static const char " (var == "" ? "flame_js" : var) "[] ="
	print cstring("(function(){")
}
{
	line = minify($0)
	if (line == "")
		next
	acc = acc line
	if (index(";{},(", substr(line, length(line), 1)) == 0) {
		print cstring(acc)
		acc = ""
	}
}
END {
	if (acc != "")
		print cstring(acc)
	print cstring("})();")
	print ";"
}
