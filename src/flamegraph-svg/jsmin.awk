# jsmin.awk: join ui.js and flame.js (or timeline.js) into one script for
# embedding, shrunk: the body of one function (each script is scoped to
# the <svg> it sits in), which jspack wraps and writes as C strings:
#   awk -f jsmin.awk ui.js flame.js | jspack flame_js
#
# Comments go; spaces go except between two word characters.  A line
# ending in one of ; { } , ( is joined to the next: no automatic semicolon
# can be lost there.  String and regular expression literals are copied
# untouched: a '/' starts a regex where an operand is expected, after one
# of ( , = : [ ! & | ? { } ; or at the start of a line.  A ';' before a
# '}' goes, and true and false are written !0 and !1.
#
# Names the scripts declare (var, let, const, function names and
# parameters, arrow function parameters, catch) become one or two letters,
# the most used the shortest: a tenth of the script.  The scripts are
# read as a list of tokens, and a declared name is renamed wherever it
# stands as a name: not after a '.' (a property) and not before a ':'
# after '{' or ',' (an object's key), never inside a literal.  What is not
# declared (window, Math, a property) keeps its name, and no new name is
# one the scripts use, so no list is kept by hand; only the words that
# are keywords in places (as "of" in for (x of y)) keep theirs.  The
# renaming ignores scope, which is safe as long as the scripts use no
# global (top, name, ...) under a name that they also declare; they use
# no object shorthand ({ a }) either.  This is written for these
# scripts' style, not for any JavaScript: "a - -b" would lose its
# meaning, and they have none.
function isword(c) { return c ~ /[A-Za-z0-9_$]/ }
function emit(t, w) { tok[++nt] = t; wrd[nt] = w; lastc = substr(t, length(t), 1) }
# Append the tokens of line s: names (wrd 1), and everything else, a
# character or a literal at a time; comments dropped.
function tokens(s,    n, i, c, q, esc, j, lit) {
	n = length(s); lastc = ""
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (incomment) {
			if (c == "*" && substr(s, i + 1, 1) == "/") { incomment = 0; i++ }
			continue
		}
		if (c == "/" && substr(s, i + 1, 1) == "*") { incomment = 1; i++; continue }
		if (c == "/" && substr(s, i + 1, 1) == "/") break
		if (c == " " || c == "\t") continue
		q = ""
		if (c == "\"" || c == "'") q = c
		else if (c == "/" && (lastc == "" || index("(,=:[!&|?{};", lastc))) q = "/"
		if (q != "") {
			lit = c; esc = 0
			for (i++; i <= n; i++) {
				c = substr(s, i, 1); lit = lit c
				if (esc) esc = 0
				else if (c == "\\") esc = 1
				else if (c == q) break
			}
			# a regex's flags are part of it, not names
			if (q == "/")
				for (; i < n && isword(substr(s, i + 1, 1)); i++)
					lit = lit substr(s, i + 1, 1)
			emit(lit, 0)
			continue
		}
		if (isword(c)) {
			for (j = i; j < n && isword(substr(s, j + 1, 1)); j++)
				;
			emit(substr(s, i, j - i + 1), c !~ /[0-9]/)
			i = j
			continue
		}
		emit(c, 0)
	}
}
# The tokens next to i, across lines.
function nx(i) { for (i++; tok[i] == "\n"; i++) ; return i }
function pv(i) { for (i--; i > 0 && tok[i] == "\n"; i--) ; return i }
# A word that is a keyword only in places (for (x of y), get, async, ...)
# may also be a name, but keeps its spelling everywhere.
function declare(i) {
	if (wrd[i] && !(tok[i] ~ /^(of|get|set|async|await|static|let|yield|as|from)$/))
		decl[tok[i]] = 1
}
# The names declared in a parameter list, from its "(" at i.
function params(i) {
	for (i = nx(i); i <= nt && tok[i] != ")"; i = nx(i))
		if (tok[pv(i)] == "(" || tok[pv(i)] == ",")
			declare(i)
}
# The names of a var, let or const at i, up to the statement's end.
function vars(i,    depth, t) {
	for (;;) {
		i = nx(i)
		declare(i)
		for (depth = 0; ++i <= nt; ) {
			t = tok[i]
			if (index("([{", t)) depth++
			else if (index(")]}", t) && depth-- == 0) return
			else if (depth == 0 && (t == ";" || t == "\n")) return
			else if (depth == 0 && t == ",") break
		}
		if (i > nt) return
	}
}
function declarations(    i, j, d) {
	for (i = 1; i <= nt; i++) {
		if (!wrd[i] && tok[i] == "=" && tok[i + 1] == ">") {
			j = pv(i)
			if (wrd[j]) declare(j)
			else if (tok[j] == ")") {
				for (d = 0; j > 0; j = pv(j))
					if (tok[j] == ")") d++
					else if (tok[j] == "(" && --d == 0) break
				params(j)
			}
		}
		if (!wrd[i]) continue
		if (tok[i] == "var" || tok[i] == "let" || tok[i] == "const") vars(i)
		else if (tok[i] == "function") {
			j = nx(i)
			if (wrd[j]) { declare(j); j = nx(j) }
			if (tok[j] == "(") params(j)
		} else if (tok[i] == "catch" && tok[nx(i)] == "(")
			declare(nx(nx(i)))
	}
}
# Whether the name at i stands as a name, not as a property or a key.
function isname(i,    p) {
	p = tok[pv(i)]
	return p != "." && !(tok[nx(i)] == ":" && (p == "{" || p == ","))
}
# The nth short name: a-z A-Z _ $, then two characters.
function short(n,    a, b) {
	a = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$"
	b = a "0123456789"
	if (n <= length(a)) return substr(a, n, 1)
	n -= length(a) + 1
	return substr(a, int(n / length(b)) + 1, 1) substr(b, n % length(b) + 1, 1)
}
function rename(    i, nd, name, uses, k, j, t, s) {
	for (i = 1; i <= nt; i++)
		if (wrd[i] && !(tok[i] in decl)) taken[tok[i]] = 1
		else if (wrd[i] && isname(i)) uses[tok[i]]++
	taken["do"] = taken["if"] = taken["in"] = 1
	nd = 0
	for (t in decl) name[++nd] = t
	# most used first, ties by name, so that the output is stable
	for (i = 2; i <= nd; i++) {
		t = name[i]
		for (j = i - 1; j > 0 && (uses[name[j]] < uses[t] || uses[name[j]] == uses[t] && name[j] > t); j--)
			name[j + 1] = name[j]
		name[j + 1] = t
	}
	k = 0
	for (i = 1; i <= nd; i++) {
		do s = short(++k); while (s in taken)
		to[name[i]] = s
	}
	for (i = 1; i <= nt; i++)
		if (wrd[i] && (tok[i] in decl) && isname(i))
			tok[i] = to[tok[i]]
}
{
	n0 = nt
	tokens($0)
	if (nt > n0 && index(";{},(", lastc) == 0)
		emit("\n", 0)
}
END {
	declarations()
	rename()
	line = ""
	for (i = 1; i <= nt; i++) {
		if (tok[i] == ";" && tok[nx(i)] == "}")
			continue
		if (wrd[i] && (tok[i] == "true" || tok[i] == "false") && isname(i))
			tok[i] = tok[i] == "true" ? "!0" : "!1"
		if (tok[i] == "\n") {
			print line
			line = ""
			continue
		}
		if (isword(substr(line, length(line), 1)) && isword(substr(tok[i], 1, 1)))
			line = line " "
		line = line tok[i]
	}
	if (line != "")
		print line
}
