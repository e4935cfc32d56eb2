# jsmin.awk: join ui.js and flame.js (or timeline.js) into one script for
# embedding, shrunk: the body of one function (each script is scoped to
# the <svg> it sits in), of me (its <script>) and J (the data's JSON, or
# undefined: the body reads it from the page):
#   awk -f jsmin.awk ui.js flame.js               the body
#   awk -v var=NAME [-v parts=1] -f jsmin.awk ... a C header
# The header's string NAME is the script to embed as it is: the function,
# run at once with document.currentScript; then the <svg> gets data-ready,
# which tests wait for.  With parts=1 it is in pieces instead, from which
# svg.c takes those its graph needs (a file that only some graphs use):
# NAME_part[NAME_FILE] is the body's part from FILE.js, its names renamed
# as in the whole (a part left out leaves names unused, never taken);
# NAME_head, the parts taken, then NAME_tail are the script to embed; the
# parts alone are the body, which svg.c packs (pack.h) with the data for
# its loader, which runs it as that function.
#
# Comments go; spaces go except between two word characters.  A line
# ending in one of ; { } , ( is joined to the next: no automatic semicolon
# can be lost there.  String and regular expression literals are copied
# untouched: a '/' starts a regex where an operand is expected, after one
# of ( , = : [ ! & | ? { } ; or at the start of a line.  A ';' before a
# '}' goes, true and false are written !0 and !1, (a) => is a =>, one
# var statement after another is one, and === and !== are == and != next to a string
# that no number equals (as "svg": no conversion can make them differ).
#
# Names the scripts declare (var, let, const, function names and
# parameters, arrow function parameters, catch) become one or two letters:
# a tenth of the script.  The scripts are read as a list of tokens, and a
# declared name is renamed wherever it stands as a name: not after a '.'
# (a property) and not before a ':' after '{' or ',' (an object's key),
# never inside a literal.  What is not declared (window, Math, a property)
# keeps its name, and no new name is one the scripts use, so no list is
# kept by hand; only the words that are keywords in places (as "of" in
# for (x of y)) keep theirs.  Names are renamed by function scope (from
# a function's parameters to its body's end): a name refers to the
# innermost function around it that declares it, and each function's
# names, the most used first, take the shortest letters that no name
# inside it uses for a function around it: so the small functions all
# call their names a, b, c, which deflate (pack.h) finds again and again.
# A let or const counts as its function's, which is safe as long as no
# name is declared in a block and used in the same function outside it
# for an outer one; a global (top, name, ...) keeps its name only where
# no function around declares the same; and the scripts use no object
# shorthand ({ a }).  This is written for these scripts' style, not for
# any JavaScript: "a - -b" would lose its meaning, and they have none.
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
	if (wrd[i] && !(tok[i] ~ /^(of|get|set|async|await|static|let|yield|as|from)$/)) {
		decl[tok[i]] = 1
		isdecl[i] = 1
	}
}
# The names declared in a parameter list, from its "(" at i.
function params(i) {
	for (i = nx(i); i <= nt && tok[i] != ")"; i = nx(i))
		if (tok[pv(i)] == "(" || tok[pv(i)] == ",")
			declare(i)
}
# The names of a var, let or const at i, up to the statement's end.
function vars(i,    depth, t, p) {
	# a statement of its own (after ; { } or first), not a for's or an if's
	p = pv(i) == 0 || index(";{}", tok[pv(i)])
	for (;;) {
		i = nx(i)
		declare(i)
		for (depth = 0; ++i <= nt; ) {
			t = tok[i]
			if (index("([{", t)) depth++
			else if (index(")]}", t) && depth-- == 0) return
			else if (depth == 0 && t == ";") { if (p) varend[i] = 1; return }
			else if (depth == 0 && t == "\n") return
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
# The token that closes the bracket opened at i.
function closer(i,    d) {
	for (d = 0; i <= nt; i++)
		if (index("([{", tok[i]) && !wrd[i]) d++
		else if (index(")]}", tok[i]) && !wrd[i] && --d == 0) return i
	return nt
}
# The last token of an arrow function's expression body, from its first
# token i: up to a ',' ';' or line end outside brackets, or the bracket
# that closes around it.
function exprend(i,    d, t) {
	for (d = 0; i <= nt; i++) {
		t = tok[i]
		if (wrd[i]) continue
		if (index("([{", t)) d++
		else if (index(")]}", t) && d-- == 0) return pv(i)
		else if (d == 0 && (t == "," || t == ";" || t == "\n")) return pv(i)
	}
	return nt
}
# The functions' scopes, as token ranges sc0[s]..sc1[s] from their
# parameters to the end of their body; scope 0 is the whole script.
function scopes(    i, j, d, n) {
	n = 0
	sc0[0] = 1; sc1[0] = nt
	for (i = 1; i <= nt; i++) {
		if (wrd[i] && tok[i] == "function") {
			j = nx(i)
			if (wrd[j]) j = nx(j)
			if (tok[j] != "(") continue
			sc0[++n] = j
			sc1[n] = closer(nx(closer(j)))
		} else if (!wrd[i] && tok[i] == "=" && tok[i + 1] == ">") {
			j = pv(i)
			if (tok[j] == ")")
				for (d = 0; j > 0; j = pv(j))
					if (tok[j] == ")") d++
					else if (tok[j] == "(" && --d == 0) break
			sc0[++n] = j
			j = nx(i + 1)
			sc1[n] = tok[j] == "{" ? closer(j) : exprend(j)
		}
	}
	nsc = n
	# in order of their start, so that a scope comes after those around it
	for (i = 2; i <= n; i++) {
		j = i; d = sc0[i]; t1 = sc1[i]
		for (; j > 1 && sc0[j - 1] > d; j--) { sc0[j] = sc0[j - 1]; sc1[j] = sc1[j - 1] }
		sc0[j] = d; sc1[j] = t1
	}
}
# Sweep the tokens with the stack of scopes around each: with pass 1 a
# declaration belongs to the innermost; with pass 2 a name refers to the
# innermost scope around it that declares it (ref[i]; -1: none, a global).
function sweep(pass,    i, s, top, stk, k) {
	top = 0; stk[0] = 0; s = 1
	for (i = 1; i <= nt; i++) {
		while (top > 0 && sc1[stk[top]] < i) top--
		for (; s <= nsc && sc0[s] == i; s++) {
			stk[++top] = s
			if (pass == 1) { parent[s] = stk[top - 1]; depth[s] = top }
		}
		if (!wrd[i] || !(tok[i] in decl) || !isname(i)) continue
		if (pass == 1) {
			if (isdecl[i]) own[stk[top], tok[i]] = 1
			continue
		}
		for (k = top; k >= 0 && !((stk[k], tok[i]) in own); k--)
			;
		ref[i] = k < 0 ? -1 : stk[k]
		if (k < 0) taken[tok[i]] = 1
		else uses[ref[i], tok[i]]++
	}
}
# New names, scope by scope from the outside in: a scope's names, the
# most used first, take the shortest that are neither a global's nor one
# that a name inside its range refers to in a scope around it; so the
# names of functions apart can be the same letters.
function rename(    i, s, k, n, name, t, j, busy, sk) {
	for (i = 1; i <= nt; i++)
		if (wrd[i] && !(tok[i] in decl)) taken[tok[i]] = 1
	taken["do"] = taken["if"] = taken["in"] = 1
	depth[0] = 0
	sweep(1)
	sweep(2)
	for (s = 0; s <= nsc; s++) {
		split("", busy)
		for (i = sc0[s]; i <= sc1[s]; i++)
			if ((i in ref) && ref[i] >= 0 && ref[i] != s && depth[ref[i]] < depth[s])
				busy[to[ref[i], tok[i]]] = 1
		n = 0
		for (sk in own) {
			split(sk, t, SUBSEP)
			if (t[1] == s) name[++n] = t[2]
		}
		for (i = 2; i <= n; i++) {
			sk = name[i]
			for (j = i - 1; j > 0 && (uses[s, name[j]] < uses[s, sk] || uses[s, name[j]] == uses[s, sk] && name[j] > sk); j--)
				name[j + 1] = name[j]
			name[j + 1] = sk
		}
		k = 0
		for (i = 1; i <= n; i++) {
			do sk = short(++k); while ((sk in taken) || (sk in busy))
			to[s, name[i]] = sk
		}
	}
	for (i = 1; i <= nt; i++)
		if ((i in ref) && ref[i] >= 0)
			tok[i] = to[ref[i], tok[i]]
}
# Whether token i is a string literal that no number equals (a letter,
# not a number's, in it), so that == and === compare it alike.
function nonnumber(i,    t) {
	t = tok[i]
	return t ~ /^["']/ && t ~ /[g-wyzG-WYZ]/ && t !~ /Infinity/
}
# A C string literal; built a character at a time because awks disagree
# on backslashes in gsub's replacement.  '?' too is escaped: "??(" would
# be a trigraph under -std=c11.
function cstring(s,    out, i, c) {
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		out = out (c == "\\" || c == "\"" || c == "?" ? "\\" c : c)
	}
	return "\"" out "\\n\""
}
# Whether a part ends between token i and the next.
function crosses(i,    j) {
	for (j = i + 1; j < nx(i); j++)
		if (j in partat)
			return 1
	return 0
}
# The lines out[1..nout], as they are or as the header (see the top).
function write(    i, head, tail, f) {
	if (var == "") {
		for (i = 1; i <= nout; i++)
			print out[i]
		return
	}
	head = cstring("(function(me,J){")
	tail = cstring("})(document.currentScript);" \
	    "document.currentScript.parentNode.setAttribute(\"data-ready\",\"\")")
	if (parts) {
		printf "enum {"
		for (f = 1; f <= nfiles; f++)
			printf " %s_%s,", var, file[f]
		print " " var "_nparts };"
		print "static const char " var "_head[] = " head ";"
		print "static const char " var "_tail[] = " tail ";"
		print "static const char *const " var "_part[] = {"
		for (i = 1; i <= nout; i++) {
			print "\t" cstring(out[i])
			if (i in partend || i == nout)
				print "\t,"
		}
		print "};"
		return
	}
	print "static const char " var "[] ="
	print head
	for (i = 1; i <= nout; i++)
		print cstring(out[i])
	print tail
	print ";"
}
# Each file starts a line, and with parts=1 a part (partat: the line end
# before it, across which no var statement is joined).
FNR == 1 {
	file[++nfiles] = FILENAME
	sub(/.*\//, "", file[nfiles])
	sub(/\.js$/, "", file[nfiles])
	if (nt > 0 && tok[nt] != "\n")
		emit("\n", 0)
	if (nt > 0)
		partat[nt] = 1
}
{
	n0 = nt
	tokens($0)
	if (nt > n0 && index(";{},(", lastc) == 0)
		emit("\n", 0)
}
END {
	declarations()
	scopes()
	rename()
	for (i = 2; i + 3 <= nt; i++)
		if ((tok[i] == "=" || tok[i] == "!") && tok[i + 1] == "=" && tok[i + 2] == "=" &&
		    !index("=!<>", tok[i - 1]) && (nonnumber(i - 1) || nonnumber(i + 3)))
			gone[i + 2] = 1
	line = ""
	for (i = 1; i <= nt; i++) {
		if ((tok[i] == ";" && tok[nx(i)] == "}") || (i in gone))
			continue
		# (a) => is a =>
		if (tok[i] == "(" && wrd[i + 1] && tok[i + 2] == ")" && tok[i + 3] == "=" && tok[i + 4] == ">")
			tok[i] = tok[i + 2] = ""
		# var a = 1; var b = 2 is var a = 1, b = 2
		if ((i in varend) && tok[nx(i)] == "var" && wrd[nx(i)] && !crosses(i)) {
			line = line ","
			i = nx(i)
			continue
		}
		if (wrd[i] && (tok[i] == "true" || tok[i] == "false") && isname(i))
			tok[i] = tok[i] == "true" ? "!0" : "!1"
		if (tok[i] == "\n") {
			out[++nout] = line
			line = ""
			if (i in partat)
				partend[nout] = 1
			continue
		}
		if (isword(substr(line, length(line), 1)) && isword(substr(tok[i], 1, 1)))
			line = line " "
		line = line tok[i]
	}
	if (line != "")
		out[++nout] = line
	write()
}
