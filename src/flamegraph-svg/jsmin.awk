# jsmin.awk: shrink flame.js (or timeline.js) for embedding, and write it
# as a C string named flame_js (or -v var=NAME).
#
# Comments go; spaces go except between two word characters.  A line
# ending in one of ; { } , ( is joined to the next: no automatic semicolon
# can be lost there.  String and regular expression literals are copied
# untouched: a '/' starts a regex where an operand is expected, after one
# of ( , = : [ ! & | ? { } ; or at the start of a line.
#
# The names listed on a line "/* jsmin: rename NAME... */" become $a, $b,
# ..., in order of the list, so put the most used first: a listed name is renamed wherever it is a word of its own, except
# after '.' (a property) or before ':' after '{', ',' or a line's start
# (an object key).  So a listed name must be a variable or function of
# flame.js, never a property read as a string or a global.  This is
# written for flame.js's style, not for any JavaScript: "a - -b" would
# lose its meaning, and flame.js has none.
function isword(c) { return c ~ /[A-Za-z0-9_$]/ }
# The character after position i of s that is not a space.
function nextch(s, i) {
	while (substr(s, i, 1) ~ /[ \t]/)
		i++
	return substr(s, i, 1)
}
function minify(s,    out, i, n, c, q, esc, j, nx, p, w) {
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
		if (isword(c)) {
			for (j = i; j < n && isword(substr(s, j + 1, 1)); j++)
				;
			w = substr(s, i, j - i + 1)
			p = substr(out, length(out), 1)
			if ((w in rename) && p != "." &&
			    !(nextch(s, j + 1) == ":" && (p == "" || p == "{" || p == ",")))
				w = rename[w]
			out = out w
			i = j
			continue
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
# The i-th short name (from 0): a, b, ..., 9, then ba, bb, ...
function short(i,    d) {
	d = substr(names, i % 62 + 1, 1)
	return i < 62 ? d : short(int(i / 62)) d
}
BEGIN {
	print "static const char " (var == "" ? "flame_js" : var) "[] ="
	names = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
}
/^\/\* jsmin: rename .*\*\/$/ {
	for (k = 4; k < NF; k++)
		rename[$k] = "$" short(k - 4)
	next
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
	print ";"
}
