/*
 * perf: parse `perf script` output into stacks, as stackcollapse-perf.pl
 * does.
 *
 * The Perl script defines the format through three regular expressions
 * (event line, period and event name, stack line); the match_* functions
 * below reproduce exactly what Perl's backtracking makes of them, including
 * on odd input, because byte-identical output is the contract.  Where the
 * Perl script loses data that inferno keeps (an event line indented by a
 * right-aligned comm, a one-line sample whose frame follows the event name,
 * a last sample with no blank line after it) we keep it as inferno does
 * (with --perl, an indented line that starts with a digit is a pid with
 * no comm, perf script -F tid,..., which the script reads as nothing);
 * where the two disagree on names, opts->perl picks the Perl script's way.
 * Beyond both, by default every perf script -F layout with a callchain is
 * read (parse_frame, match_event_bare): frames without a dso or without a
 * symbol, event lines without pid and tid, samples without comm, and the
 * srcline lines under frames; the Perl patterns keep none of those, and
 * with --perl neither do we.  Nor what perf writes besides samples and
 * their frames: a field under the callchain (-F +insn) with no blank line
 * after it, so that an event line ends the sample before it (the script
 * joins the two), the address after the event name (-F +addr), source
 * lines (-F +srccode) and perf's records (--show-mmap-events).  The script's --srcline (those lines added to
 * their frames) and --inline/--context (addr2line's frames, a2l.c) are
 * part of a frame line's translation, so the cache key covers what they
 * read: the srcline line, the address.
 *
 * Speed: frame lines repeat endlessly, so the translation of a frame line
 * (offset stripped, tidied, annotated, split at "->") is cached per context
 * under the line's own bytes; the hot path is one scan of the line and one
 * hash lookup.  A sample is a sequence of frame ids, counted in a table
 * keyed by those ids; names are joined only once per distinct stack, at the
 * end (stacks.c).  Both tables are rtab's (rtab.h), whose hits read two
 * cache lines.  In front of the frame-line cache, by default, a frame
 * line is looked up by its bytes after the address before it is parsed
 * at all (frame_line_raw): parsing was the larger half of a line's cost.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/compat.h"
#include "../lib/count.h"
#include "../lib/demangle.h"
#include "../lib/err.h"
#include "../lib/folded.h"
#include "../lib/num.h"
#include "../lib/scan.h"
#include "a2l.h"
#include "formats.h"
#include "perf.h"
#include "stacks.h"

struct span {
	const char *p;
	size_t n;
};

/*
 * A frame line's fields as the parser found them, and the bytes of the
 * input that the line's translation depends on (its cache key: a span of
 * the line itself but for the symbol's offset, off, which lies inside it
 * and is left out; see frame_line).  mod is empty when perf printed no
 * dso; src is the --srcline line under the frame, or empty; off is empty
 * (at the key's end) when the symbol has none or the name depends on it.
 */
struct frame_fields {
	struct span pc, func, mod, src, key, off;
};

/* Byte classes of Perl's \s, \d and \w on byte strings. */
enum { C_WS = 1, C_DIGIT = 2, C_WORD = 4 };

static const unsigned char cls[256] = {
	['\t'] = C_WS, ['\n'] = C_WS, ['\v'] = C_WS, ['\f'] = C_WS,
	['\r'] = C_WS, [' '] = C_WS,
	['0'] = C_DIGIT | C_WORD, ['1'] = C_DIGIT | C_WORD,
	['2'] = C_DIGIT | C_WORD, ['3'] = C_DIGIT | C_WORD,
	['4'] = C_DIGIT | C_WORD, ['5'] = C_DIGIT | C_WORD,
	['6'] = C_DIGIT | C_WORD, ['7'] = C_DIGIT | C_WORD,
	['8'] = C_DIGIT | C_WORD, ['9'] = C_DIGIT | C_WORD,
	['_'] = C_WORD,
	['A'] = C_WORD, ['B'] = C_WORD, ['C'] = C_WORD, ['D'] = C_WORD,
	['E'] = C_WORD, ['F'] = C_WORD, ['G'] = C_WORD, ['H'] = C_WORD,
	['I'] = C_WORD, ['J'] = C_WORD, ['K'] = C_WORD, ['L'] = C_WORD,
	['M'] = C_WORD, ['N'] = C_WORD, ['O'] = C_WORD, ['P'] = C_WORD,
	['Q'] = C_WORD, ['R'] = C_WORD, ['S'] = C_WORD, ['T'] = C_WORD,
	['U'] = C_WORD, ['V'] = C_WORD, ['W'] = C_WORD, ['X'] = C_WORD,
	['Y'] = C_WORD, ['Z'] = C_WORD,
	['a'] = C_WORD, ['b'] = C_WORD, ['c'] = C_WORD, ['d'] = C_WORD,
	['e'] = C_WORD, ['f'] = C_WORD, ['g'] = C_WORD, ['h'] = C_WORD,
	['i'] = C_WORD, ['j'] = C_WORD, ['k'] = C_WORD, ['l'] = C_WORD,
	['m'] = C_WORD, ['n'] = C_WORD, ['o'] = C_WORD, ['p'] = C_WORD,
	['q'] = C_WORD, ['r'] = C_WORD, ['s'] = C_WORD, ['t'] = C_WORD,
	['u'] = C_WORD, ['v'] = C_WORD, ['w'] = C_WORD, ['x'] = C_WORD,
	['y'] = C_WORD, ['z'] = C_WORD,
};

static inline int
is_ws(unsigned char c)
{
	return cls[c] & C_WS;
}

static inline int
is_digit(unsigned char c)
{
	return cls[c] & C_DIGIT;
}

static inline int
is_word(unsigned char c)
{
	return cls[c] & C_WORD;
}

static int
span_eq(struct span a, const char *s)
{
	size_t n = strlen(s);

	return a.n == n && memcmp(a.p, s, n) == 0;
}

/*
 * The event line, in Perl: /^(\S.+?)\s+(\d+)\/<star>(\d+)<star>\s+/ (a
 * star cannot be written after a slash in a C comment).  The comm is the
 * shortest prefix of two or more bytes followed by blanks, digits, optional
 * slashes and digits, and a blank.  pid2 is empty when the second group did
 * not match.  minlen 1 lets a one-byte comm ("a 42 ...") be one; Perl's
 * regex needs two and takes "a 42 1.0:" for the comm instead.
 */
struct event_fields {
	struct span comm, pid1, pid2;
	size_t end;		/* just after the pid/tid field */
};

static int
match_event(const char *s, size_t n, size_t minlen, struct event_fields *f)
{
	size_t i, j, d1, d1e, d2;

	if (n < 2 || is_ws((unsigned char)s[0]))
		return 0;
	for (i = minlen; i < n; i++) {
		if (!is_ws((unsigned char)s[i]))
			continue;
		for (j = i; j < n && is_ws((unsigned char)s[j]); j++)
			;
		for (d1 = j; j < n && is_digit((unsigned char)s[j]); j++)
			;
		if (j == d1)
			continue;
		for (d1e = j; j < n && s[j] == '/'; j++)
			;
		for (d2 = j; j < n && is_digit((unsigned char)s[j]); j++)
			;
		if (j >= n || !is_ws((unsigned char)s[j]))
			continue;
		f->comm = (struct span){ s, i };
		f->pid1 = (struct span){ s + d1, d1e - d1 };
		f->pid2 = (struct span){ s + d2, j - d2 };
		f->end = j;
		return 1;
	}
	return 0;
}

/*
 * /:\s*(\d+)*\s+(\S+):\s*$/: the last word must end in ':' (the event name
 * is that word without it) and be preceded by blanks, an optional number
 * (the period) and a ':' ending the timestamp field.  Only one ':' can
 * start a match: the last byte before the event word that is neither blank
 * nor digit.
 */
static int
match_period(const char *s, size_t n, struct span *period, struct span *event)
{
	size_t e = n, t0, k, a, b;

	while (e > 0 && is_ws((unsigned char)s[e - 1]))
		e--;
	if (e < 2 || s[e - 1] != ':')
		return 0;
	for (t0 = e - 1; t0 > 0 && !is_ws((unsigned char)s[t0 - 1]); t0--)
		;
	if (t0 == 0 || t0 == e - 1)
		return 0;
	for (k = t0; k > 0 && (is_ws((unsigned char)s[k - 1]) ||
	    is_digit((unsigned char)s[k - 1])); k--)
		;
	if (k == 0 || s[k - 1] != ':')
		return 0;
	for (a = k; a < t0 && is_ws((unsigned char)s[a]); a++)
		;
	for (b = a; b < t0 && is_digit((unsigned char)s[b]); b++)
		;
	if (b > a) {
		size_t w = b;

		while (w < t0 && is_ws((unsigned char)s[w]))
			w++;
		if (w != t0 || w == b)
			return 0;
	}
	*period = (struct span){ s + a, b - a };
	*event = (struct span){ s + t0, e - 1 - t0 };
	return 1;
}

/*
 * /^\s*(\w+)\s*(.+) \((.*)\)/: the module is between the last " (" that has
 * a ')' after it and the last ')'; the function is what lies between the
 * address and that " (", and when that is nothing Perl's backtracking takes
 * one byte from the blanks or the address instead, and we return 2: the
 * line has no symbol ("11b0 (/bin/x)", perf script -F ip,dso).
 */
/*
 * The address of a frame line, /^\s*(\w+)/: where it ends, *ps where it
 * starts.  perf right-aligns it: a tab and a run of spaces.
 */
static inline size_t
addr_end(const char *s, size_t n, size_t *ps)
{
	size_t i = (size_t)(scan_skip(s, s + n, ' ', '\t') - s);

	while (i < n && is_ws((unsigned char)s[i]))
		i++;
	for (*ps = i; i < n && is_word((unsigned char)s[i]); i++)
		;
	return i;
}

static int
match_stack(const char *s, size_t n, struct span *pc, struct span *func,
    struct span *mod)
{
	size_t ps, pe = addr_end(s, n, &ps), w, lp, q;
	const char *rp;
	int ret = 1;

	if (pe == ps)
		return 0;
	if (s[n - 1] == ')')	/* as perf ends it: no call */
		rp = s + n - 1;
	else if ((rp = memrchr(s, ')', n)) == NULL)
		return 0;
	lp = (size_t)(rp - s);
	for (q = lp;;) {
		const char *op = q > 1 ? memrchr(s + 1, '(', q - 1) : NULL;

		if (op == NULL)
			return 0;
		q = (size_t)(op - s) - 1;
		if (s[q] == ' ')
			break;
		q++;
	}
	for (w = 0; pe + w < n && is_ws((unsigned char)s[pe + w]); w++)
		;
	if (q >= pe + w + 1) {
		*func = (struct span){ s + pe + w, q - pe - w };
	} else if (q >= pe + 1) {
		*func = (struct span){ s + q - 1, 1 };
		ret = 2;
	} else if (q == pe && pe - 1 > ps) {
		pe--;
		*func = (struct span){ s + pe, 1 };
		ret = 2;
	} else {
		return 0;
	}
	*pc = (struct span){ s + ps, pe - ps };
	*mod = (struct span){ s + q + 2, lp - q - 2 };
	return ret;
}

/*
 * A frame line of a layout without the dso field (perf script -F
 * ip,sym or ip alone): a tab (perf's indent of frames), blanks, a hex
 * address, then the symbol with its offset, or nothing.  Only by default:
 * the Perl script has no pattern for it and keeps none of these frames.
 * The address must end at a blank or the line's end, which a source line
 * ("  add.c:12") never does; the tab tells it from a right-aligned pid.
 */
static int
match_frame_nodso(const char *s, size_t n, struct span *pc, struct span *func)
{
	size_t i = 0, ps, e = n;

	if (n == 0 || s[0] != '\t')
		return 0;
	while (i < n && is_ws((unsigned char)s[i]))
		i++;
	for (ps = i; i < n && (is_digit((unsigned char)s[i]) ||
	    (s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F')); i++)
		;
	if (i == ps || (i < n && !is_ws((unsigned char)s[i])))
		return 0;
	*pc = (struct span){ s + ps, i - ps };
	while (i < n && is_ws((unsigned char)s[i]))
		i++;
	while (e > i && is_ws((unsigned char)s[e - 1]))
		e--;
	*func = (struct span){ s + i, e - i };
	return 1;
}

/* Whether s[0..n) holds only bytes of class c, and at least one. */
static int
all_of(const char *s, size_t n, int c)
{
	for (size_t i = 0; i < n; i++)
		if (!(cls[(unsigned char)s[i]] & c))
			return 0;
	return n > 0;
}

/* A timestamp field, "123.456789:". */
static int
is_time(struct span t)
{
	return t.n > 2 && t.p[t.n - 1] == ':' && is_digit((unsigned char)t.p[0]) &&
	    memchr(t.p, '.', t.n) != NULL;
}

/*
 * Where the -F tod field ("2026-11-24 02:49:52.941018", two words) starts
 * when t, starting at t0 in s, is its second word; 0 when it is not.
 */
static size_t
tod_start(const char *s, size_t t0, struct span t)
{
	size_t i, b, d;

	for (i = 0; i < t.n && (is_digit((unsigned char)t.p[i]) ||
	    t.p[i] == ':' || t.p[i] == '.'); i++)
		;
	if (i != t.n || t.n < 8 || t.p[2] != ':' || t.p[5] != ':')
		return 0;
	for (b = t0; b > 0 && is_ws((unsigned char)s[b - 1]); b--)
		;
	for (d = b; d > 0 && !is_ws((unsigned char)s[d - 1]); d--)
		;
	if (b - d != 10 || s[d + 4] != '-' || s[d + 7] != '-' ||
	    !all_of(s + d, 4, C_DIGIT) || !all_of(s + d + 5, 2, C_DIGIT) ||
	    !all_of(s + d + 8, 2, C_DIGIT))
		return 0;
	return d + 1;	/* 0 is "not one": the caller subtracts 1 */
}

/*
 * Whether the number t, starting at t0 in s, is a period: perf prints it
 * right-aligned in 10 columns after a blank ("%10" PRIu64), where a pid
 * or tid takes 5 to 7 ("%5d"; pids stop at 4194304), so that the number
 * and the blanks before it, the separator left out, tell the two apart.
 */
static int
is_period(const char *s, size_t t0, struct span t)
{
	size_t b = t0;

	if (!all_of(t.p, t.n, C_DIGIT))
		return 0;
	while (b > 0 && is_ws((unsigned char)s[b - 1]))
		b--;
	return t.n + (t0 - b) - (b > 0) >= 10;
}

/* A cpu field, "[003]". */
static int
is_cpu(struct span t)
{
	return t.n > 2 && t.p[0] == '[' && t.p[t.n - 1] == ']' &&
	    all_of(t.p + 1, t.n - 2, C_DIGIT);
}

/* An event field, "cpu-clock:", "cycles:u:". */
static int
is_event(struct span t)
{
	return t.n > 1 && t.p[t.n - 1] == ':' && !is_digit((unsigned char)t.p[0]);
}

/*
 * Whether a comm that the Perl pattern found ends with a timestamp, or is
 * one: then the number after it was the period, not a pid, in a layout
 * without pid and tid ("comm  9998.929208:    2004008 cpu-clock:",
 * "9998.929208:    2004008 cpu-clock:").
 */
static int
ends_in_time(struct span comm)
{
	size_t b = comm.n;

	while (b > 0 && !is_ws((unsigned char)comm.p[b - 1]))
		b--;
	return is_time((struct span){ comm.p + b, comm.n - b });
}

/*
 * The event line of a layout without pid and tid (perf script -F
 * comm,time,..., or comm alone), which the Perl pattern cannot read:
 * perf prints "COMM [CPU] [TOD] TIME: PERIOD EVENT: ", each field optional,
 * so the fields are taken from the right, and the comm, which may hold
 * blanks, is what is left.  A line with none of them is one only when it
 * ends in the blank perf writes after the comm, so that a stray line of
 * text does not start a sample.  Without comm the line is indented and
 * holds only fields and the pid and tid, not after a tab as a frame's
 * address is: a sample with no root frame (comm.n 0).  Only by default
 * and outside a sample.
 */
static int
match_event_bare(const char *s, size_t n, struct event_fields *f,
    struct span *per, struct span *ev, int *have_ev)
{
	size_t e = n, t0, tod;
	int fields = 0, ok;

	*have_ev = 0;
	*per = (struct span){ s, 0 };
	if (n == 0)
		return 0;
	for (int step = 0; step < 5; step++) {
		struct span t;

		while (e > 0 && is_ws((unsigned char)s[e - 1]))
			e--;
		for (t0 = e; t0 > 0 && !is_ws((unsigned char)s[t0 - 1]); t0--)
			;
		t = (struct span){ s + t0, e - t0 };
		/*
		 * The comm's first word stays, unless the line holds no
		 * comm: "[000] " (-F cpu,ip,...), "cpu-clock: " (-F
		 * event,ip,...), where a comm that is one word ending in ':'
		 * alone on its line would be read as an event.
		 */
		if (t.n == 0 || (t0 == 0 && !is_time(t) && !is_cpu(t) &&
		    !(step == 0 && is_event(t)) && !(step <= 1 &&
		    is_period(s, t0, t))))
			break;
		if (step == 0 && is_event(t)) {
			*ev = (struct span){ t.p, t.n - 1 };
			*have_ev = 1;
		} else if (step <= 1 && is_period(s, t0, t)) {
			*per = t;
		} else if (step <= 2 && is_time(t)) {
			step = 2;	/* a time; only a cpu can come before */
		} else if (step <= 3 && (tod = tod_start(s, t0, t)) != 0) {
			step = 3;	/* -F tod; only a cpu can come before */
			t0 = tod - 1;
		} else if (is_cpu(t)) {
			step = 4;
		} else {
			break;
		}
		fields++;
		e = t0;
	}
	while (e > 0 && is_ws((unsigned char)s[e - 1]))
		e--;
	f->pid1 = f->pid2 = (struct span){ s + e, 0 };
	f->end = e;
	/*
	 * No comm when what is left is a pid and tid at most, which perf
	 * right-aligns ("  4242/4243 ").
	 */
	for (t0 = 0; t0 < e && (is_ws((unsigned char)s[t0]) ||
	    is_digit((unsigned char)s[t0]) || s[t0] == '/'); t0++)
		;
	if (t0 == e) {
		f->comm = (struct span){ s, 0 };
		ok = s[0] != '\t' && (fields > 0 || e > 0);	/* a frame's */
	} else {
		f->comm = (struct span){ s, e };
		ok = !is_ws((unsigned char)s[0]) &&
		    (fields > 0 || is_ws((unsigned char)s[n - 1]));
	}
	if (!ok) {	/* nothing read: the caller's spans stay empty */
		*per = (struct span){ s, 0 };
		*have_ev = 0;
	}
	return ok;
}

/* A pid or "pid/tid" field. */
static int
is_pidtid(struct span t)
{
	const char *sl = memchr(t.p, '/', t.n);
	size_t a = sl ? (size_t)(sl - t.p) : t.n;

	return all_of(t.p, a, C_DIGIT) &&
	    (sl == NULL || all_of(sl + 1, t.n - a - 1, C_DIGIT));
}

/*
 * An event line without time whose number the Perl pattern took for the
 * pid, or whose pid it took for the comm (perf script -F comm,tid,period
 * ...: "spin 4242    5025125 cpu-clock: ", "4242    5025125 ", "4242 [003]
 * 5025125 cpu-clock: "): the fields read from the right in the order perf
 * prints them, "[COMM] [PID[/TID]] [[CPU]] [TOD] [TIME:] [PERIOD] [EVENT:]",
 * a number being the period or the pid by its width (is_period).  Returns
 * whether an event was read, with *f, *per and *ev set, or -1 when the
 * line ends in none of these fields.  Only by default, where the period
 * pattern found nothing.
 */
static int
match_fields(const char *s, size_t n, struct event_fields *f, struct span *per,
    struct span *ev)
{
	size_t e = n, t0, tod;
	int have_ev = 0, stage = 0;
	struct span pid = { s, 0 };

	*per = (struct span){ s, 0 };
	for (;;) {
		struct span t;

		while (e > 0 && is_ws((unsigned char)s[e - 1]))
			e--;
		for (t0 = e; t0 > 0 && !is_ws((unsigned char)s[t0 - 1]); t0--)
			;
		t = (struct span){ s + t0, e - t0 };
		if (t.n == 0)
			break;
		if (stage == 0 && is_event(t) && !is_time(t)) {
			*ev = (struct span){ t.p, t.n - 1 };
			have_ev = stage = 1;
		} else if (stage <= 1 && is_period(s, t0, t)) {
			*per = t;
			stage = 2;
		} else if (stage <= 2 && is_time(t)) {
			stage = 3;
		} else if (stage <= 3 && (tod = tod_start(s, t0, t)) != 0) {
			stage = 4;
			t0 = tod - 1;
		} else if (stage <= 4 && is_cpu(t)) {
			stage = 4;
		} else if (stage <= 5 && is_pidtid(t)) {
			pid = t;
			stage = 6;
			e = t0;
			break;
		} else {
			break;
		}
		e = t0;
	}
	if (stage == 0)
		return -1;
	while (e > 0 && is_ws((unsigned char)s[e - 1]))
		e--;
	f->comm = (struct span){ s, e };
	f->pid1 = f->pid2 = (struct span){ pid.p, 0 };
	if (pid.n) {
		const char *sl = memchr(pid.p, '/', pid.n);

		f->pid1.n = sl ? (size_t)(sl - pid.p) : pid.n;
		if (sl)
			f->pid2 = (struct span){ sl + 1,
			    pid.n - f->pid1.n - 1 };
	}
	f->end = (size_t)(pid.p + pid.n - s);
	return have_ev;
}

/* s/\+0x[\da-f]+$// */
static struct span
strip_offset(struct span f)
{
	size_t e = f.n;

	while (e > 0 && (is_digit((unsigned char)f.p[e - 1]) ||
	    (f.p[e - 1] >= 'a' && f.p[e - 1] <= 'f')))
		e--;
	if (e < f.n && e >= 3 && memcmp(f.p + e - 3, "+0x", 3) == 0)
		f.n = e - 3;
	return f;
}

static int
has(const char *s, size_t n, const char *needle)
{
	return memmem(s, n, needle, strlen(needle)) != NULL;
}

static int
ends_with(struct span s, const char *suf)
{
	size_t k = strlen(suf);

	return s.n >= k && memcmp(s.p + s.n - k, suf, k) == 0;
}

/* m/\.\(.*\)\./: a Go method such as "net/http.(*Client).Do". */
static int
is_go_method(const char *s, size_t n)
{
	const char *a = memmem(s, n, ".(", 2);
	size_t j;

	if (a == NULL)
		return 0;
	for (j = n; j-- > (size_t)(a - s) + 2 + 1;)
		if (s[j - 1] == ')' && s[j] == '.')
			return 1;
	return 0;
}

static int
anon_ns(const char *s, size_t n, size_t i)
{
	static const char a[] = "(anonymous namespace)";

	return n - i >= sizeof a - 1 && memcmp(s + i, a, sizeof a - 1) == 0;
}

/*
 * Where the argument list starts, or n.  stackcollapse-perf.pl cuts at the
 * first '(' that does not open "(anonymous namespace)", unless the name
 * looks like a Go method (m/\.\(.*\)\./), which it leaves whole.  That
 * truncates C++ names whose template arguments hold a parenthesis
 * ("std::function<int (int)>::operator()" becomes "std::function<int "), so
 * by default we cut, as inferno does, only at a '(' outside all brackets
 * that is neither Go's "pkg.(*T)" nor "(anonymous namespace)".
 */
static size_t
args_start(const char *s, size_t n, int perl)
{
	size_t i;
	long depth = 0;

	if (perl) {
		if (is_go_method(s, n))
			return n;
		for (i = 0; i < n; i++)
			if (s[i] == '(' && !anon_ns(s, n, i))
				return i;
		return n;
	}
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (c == '(' && depth == 0 && !anon_ns(s, n, i) &&
		    !(i > 0 && s[i - 1] == '.'))
			return i;
		if (c == '<' || c == '{' || c == '[' || c == '(')
			depth++;
		else if (c == '>' || c == '}' || c == ']' || c == ')')
			depth--;
	}
	return n;
}

/*
 * Kernel code: a module in brackets ("[kernel.kallsyms]", "[nf_conntrack]"),
 * a .ko file, or a vmlinux image, versioned or not; never one that says
 * "unknown".  The Perl script knows only the first and an unversioned
 * vmlinux; the rest are inferno's additions.
 */
static int
is_kernel_mod(struct span m)
{
	const char *v = NULL, *q = m.p;
	size_t i;

	if (has(m.p, m.n, "unknown"))
		return 0;
	if ((m.n && m.p[0] == '[') || ends_with(m, ".ko"))
		return 1;
	while ((q = memmem(q, m.n - (size_t)(q - m.p), "vmlinux", 7)) != NULL)
		v = q++;
	if (v == NULL)
		return 0;
	for (i = (size_t)(v - m.p) + 7; i < m.n; i++)
		if (!is_word((unsigned char)m.p[i]) && m.p[i] != '-' &&
		    m.p[i] != '.')
			return 0;
	return 1;
}

/*
 * JIT code: a perf-PID.map symbol file (m:/tmp/perf-\d+\.map:) or a
 * jitdump-generated "jitted-PID-N.so".
 */
static int
is_jit_mod(struct span m)
{
	const char *q = m.p, *e = m.p + m.n;

	while ((q = memmem(q, (size_t)(e - q), "/tmp/perf-", 10)) != NULL) {
		const char *d = q + 10;

		while (d < e && is_digit((unsigned char)*d))
			d++;
		if (d > q + 10 && (size_t)(e - d) >= 4 && memcmp(d, ".map", 4) == 0)
			return 1;
		q++;
	}
	return has(m.p, m.n, "/jitted-") && ends_with(m, ".so");
}

/* The context's scratch buffer with room for need bytes; not preserved. */
static char *
scratch(struct perf_ctx *c, size_t need)
{
	c->scratch = xgrow(c->scratch, &c->scratchcap, need, 1);
	return c->scratch;
}

/*
 * --srcline: ":FILE:LINE" from the line perf script -F +srcline prints
 * under a frame, written at buf; returns its length.  As in the Perl
 * script, every "[...]" is removed (perf writes "libc.so.6[27b25]" where
 * it knows no line) and the rest trimmed; nothing is added when nothing
 * is left.
 */
static size_t
add_srcline(const struct perf_opts *o, struct span src, char *buf)
{
	size_t n = 1, i, k;

	if (!o->srcline || src.n == 0)
		return 0;
	buf[0] = ':';
	for (i = 0; i < src.n; i++) {
		const char *rb;

		if (src.p[i] == '[' && (rb = memchr(src.p + i, ']',
		    src.n - i)) != NULL) {
			i = (size_t)(rb - src.p);
			continue;
		}
		if (n == 1 && is_ws((unsigned char)src.p[i]))
			continue;
		buf[n++] = src.p[i];
	}
	while (n > 1 && is_ws((unsigned char)buf[n - 1]))
		n--;
	for (k = 1; k < n; k++)
		if (buf[k] == ';')
			buf[k] = ':';
	return n > 1 ? n : 0;
}

/*
 * Translate one frame field (one part of a "->" chain) into its output
 * name in buf; returns the length.  buf must hold 2 * (f.n + mod.n + pc.n)
 * + src.n + 32 bytes.
 */
static size_t
tidy_frame(const struct perf_opts *o, int java, int inlined, struct span f,
    struct span mod, struct span pc, struct span src, char *buf)
{
	size_t n = 0, i, cut;
	const char *base;

	if (span_eq(f, "[unknown]")) {
		struct span name = { "unknown", 7 };

		if (mod.n && !span_eq(mod, "[unknown]")) {
			base = memrchr(mod.p, '/', mod.n);
			name.p = base ? base + 1 : mod.p;
			name.n = mod.n - (size_t)(name.p - mod.p);
		}
		buf[n++] = '[';
		memcpy(buf + n, name.p, name.n);
		n += name.n;
		if (o->include_addrs) {
			buf[n++] = ' ';
			buf[n++] = '<';
			memcpy(buf + n, pc.p, pc.n);
			n += pc.n;
			buf[n++] = '>';
		}
		buf[n++] = ']';
	} else {
		memcpy(buf, f.p, f.n);
		n = f.n;
	}
	folded_frame_fix(buf, n);
	n = args_start(buf, n, o->perl);
	for (i = cut = 0; i < n; i++)
		if (buf[i] != '"' && buf[i] != '\'')
			buf[cut++] = buf[i];
	n = cut;
	if (java && n > 0 && buf[0] == 'L' && memchr(buf, '/', n)) {
		memmove(buf, buf + 1, n - 1);
		n--;
	}
	if (inlined) {
		if (!has(buf, n, "_[i]")) {
			memcpy(buf + n, "_[i]", 4);
			n += 4;
		}
	} else if (o->annotate_kernel && is_kernel_mod(mod)) {
		memcpy(buf + n, "_[k]", 4);
		n += 4;
	} else if (o->annotate_jit && !has(buf, n, "_[j]") && is_jit_mod(mod)) {
		memcpy(buf + n, "_[j]", 4);
		n += 4;
	}
	return n + add_srcline(o, src, buf + n);
}

void
perf_ctx_init(struct perf_ctx *c, const struct perf_shared *sh)
{
	memset(c, 0, sizeof *c);
	c->sh = sh;
	intern_init(&c->frames);
	rtab_init(&c->lines[0]);
	rtab_init(&c->lines[1]);
	rtab_init(&c->stacks);
	rtab_init(&c->raw[0]);
	rtab_init(&c->raw[1]);
}

void
perf_ctx_inherit(struct perf_ctx *c, const struct perf_ctx *from)
{
	c->seen_line = from->seen_line;
	c->no_event_lines = from->no_event_lines;
}

void
perf_ctx_free(struct perf_ctx *c)
{
	intern_free(&c->frames);
	rtab_free(&c->lines[0]);
	rtab_free(&c->lines[1]);
	rtab_free(&c->stacks);
	rtab_free(&c->raw[0]);
	rtab_free(&c->raw[1]);
	free(c->kids);
	free(c->kbuf);
	free(c->stk);
	free(c->scratch);
}

/*
 * --inline: m/(perf-\d+.map|kernel\.|\[[^\]]+\])/, the modules the Perl
 * script asks addr2line nothing about (JIT maps, the kernel, anything
 * in brackets such as [unknown] or [vdso]).
 */
static int
no_addr2line(struct span m)
{
	const char *q, *e = m.p + m.n, *b;

	if (m.n == 0 || has(m.p, m.n, "kernel."))
		return 1;
	for (q = m.p; (q = memmem(q, (size_t)(e - q), "perf-", 5)) != NULL; q++) {
		const char *d = q + 5;

		while (d < e && is_digit((unsigned char)*d))
			d++;
		if (d > q + 5 && e - d >= 4 && *d != '\n' &&
		    memcmp(d + 1, "map", 3) == 0)
			return 1;
	}
	for (q = m.p; (q = memchr(q, '[', (size_t)(e - q))) != NULL; q++)
		if ((b = memchr(q + 1, ']', (size_t)(e - q - 1))) != NULL &&
		    b > q + 1)
			return 1;
	return 0;
}

/*
 * --inline: the frames addr2line names at the frame's address, appended
 * to kids as they stand (the script tidies none of them), or 0 to go on
 * with perf's symbol.
 */
static size_t
inlined(struct perf_ctx *c, const struct frame_fields *ff)
{
	char *res;
	size_t n, i, s, nf = 0;

	if (no_addr2line(ff->mod) || (n = a2l_frames(ff->pc.p, ff->pc.n,
	    ff->mod.p, ff->mod.n, ff->func.p, ff->func.n, c->sh->o->context,
	    &res)) == 0)
		return 0;
	for (i = s = 0; i <= n; i++) {
		if (i < n && res[i] != ';')
			continue;
		folded_frame_fix(res + s, i - s);
		c->kids = xgrow(c->kids, &c->kidscap, c->nkids + 1,
		    sizeof *c->kids);
		c->kids[c->nkids++] = intern_put(&c->frames, res + s, i - s,
		    NULL);
		nf++;
		s = i + 1;
	}
	free(res);
	return nf;
}

/*
 * Translate a new frame line, appending its frames to kids: skip what looks
 * like a process name ("(java)"), split Java inline chains "a->b->c"
 * (dropping empty trailing fields, as Perl's split does) and tidy each
 * field.  Returns the number of frames.
 */
static uint32_t
translate(struct perf_ctx *c, const struct frame_fields *ff)
{
	struct span pc = ff->pc, func = strip_offset(ff->func), mod = ff->mod;
	size_t end = func.n, start = 0, nf = 0, rn;
	char *buf, *fixed = NULL;

	if (c->sh->o->inline_frames && (nf = inlined(c, ff)) > 0)
		return (uint32_t)nf;
	if (func.n == 0 || func.p[0] == '(')
		return 0;
	buf = xmalloc(2 * (func.n + mod.n + pc.n) + ff->src.n + 32);
	if (!c->sh->o->perl && (rn = demangle_rust_tidy(func.p, func.n, buf)) != 0) {
		fixed = xmalloc(rn);
		memcpy(fixed, buf, rn);
		func = (struct span){ fixed, rn };
		end = rn;
	}
	while (end >= 2 && memcmp(func.p + end - 2, "->", 2) == 0)
		end -= 2;
	for (; end > 0;) {
		const char *arrow = memmem(func.p + start, end - start, "->", 2);
		size_t fe = arrow ? (size_t)(arrow - func.p) : end;
		struct span part = { func.p + start, fe - start };
		size_t bn = tidy_frame(c->sh->o, c->java, nf > 0, part, mod, pc,
		    ff->src, buf);

		c->kids = xgrow(c->kids, &c->kidscap, c->nkids + 1,
		    sizeof *c->kids);
		c->kids[c->nkids++] = intern_put(&c->frames, buf, bn, NULL);
		nf++;
		if (!arrow)
			break;
		start = fe + 2;
	}
	free(buf);
	free(fixed);
	return (uint32_t)nf;
}

/*
 * The output frames of one stack line, through the cache.  The key is the
 * line's own bytes from the function to the module (or the source line
 * under it, with --srcline), but for the symbol's offset ("+0x1a"), which
 * the name drops: with the offsets, the 2.7 million frame lines of a
 * system-wide capture had 37,000 keys, each translated once per context
 * (2,700 instructions each), against 6,400 without.  The bytes before
 * the offset and after it are copied behind their split point (4 bytes),
 * which keeps apart two lines that join to the same bytes at different
 * points.  The copy is made only where frame_line_raw missed (or with the
 * options that bypass it).  With --addrs the address is part of the key,
 * since it can show up in the name.  Java tidying depends on the sample,
 * so it picks the table.
 */
static void
frame_line(struct perf_ctx *c, const struct frame_fields *ff)
{
	struct rtab *t = &c->lines[c->java];
	uint32_t a = (uint32_t)(ff->off.p - ff->key.p), *v, cnt;
	size_t b = ff->key.n - a - ff->off.n, kn = sizeof a + a + b;
	char *k;
	uint64_t h;

	c->kbuf = xgrow(c->kbuf, &c->kbufcap, kn, 1);
	k = c->kbuf;
	memcpy(k, &a, sizeof a);
	memcpy(k + sizeof a, ff->key.p, a);
	memcpy(k + sizeof a + a, ff->off.p + ff->off.n, b);
	h = intern_hash(k, kn);
	v = rtab_find(t, k, kn, h);

	if (v == NULL) {
		c->nkids = 0;
		cnt = translate(c, ff);
		v = rtab_add(t, k, kn, h, (cnt + 1) * sizeof *v);
		v[0] = cnt;
		for (uint32_t i = 0; i < cnt; i++)	/* kids is NULL until used */
			v[i + 1] = c->kids[i];
	}
	/* Frames of one line keep their order; lines stack leaf first. */
	cnt = v[0];
	if (c->nstk + cnt > c->stkcap)
		c->stk = xgrow(c->stk, &c->stkcap, c->nstk + cnt,
		    sizeof *c->stk);
	while (cnt > 0)
		c->stk[c->nstk++] = v[cnt--];
}

/*
 * The pname of a sample from a layout without comm (perf script -F
 * ip,sym, or pid,ip,sym): its stack has no process-name root.
 */
#define NO_ROOT UINT32_MAX

/* Count the sample just ended.  Returns -1 when the count overflows. */
static int
end_sample(struct perf_ctx *c)
{
	int ret = 0;

	if (c->have_pname) {
		size_t n = c->nstk;
		uint64_t *count, h;

		if (c->pname != NO_ROOT) {
			if (n + 1 > c->stkcap)
				c->stk = xgrow(c->stk, &c->stkcap, n + 1,
				    sizeof *c->stk);
			c->stk[n++] = c->pname;
		}
		if (c->offcpu) {	/* folded(5)'s mark, as the leaf */
			c->stk = xgrow(c->stk, &c->stkcap, n + 1, sizeof *c->stk);
			memmove(c->stk + 1, c->stk, n * sizeof *c->stk);
			c->stk[0] = intern_put(&c->frames, OFFCPU_FRAME,
			    sizeof OFFCPU_FRAME - 1, NULL);
			n++;
		}
		if (n == 0)
			goto done;	/* no comm and no frame: nothing */
		if (c->sh->o->no_aggregate) {
			stacks_emit(c, c->stk, n, c->period);
			goto done;
		}
		h = intern_hash(c->stk, n * sizeof *c->stk);
		if ((count = rtab_find(&c->stacks, c->stk, n * sizeof *c->stk,
		    h)) == NULL)
			count = rtab_add(&c->stacks, c->stk, n * sizeof *c->stk,
			    h, sizeof *count);
		if (count_add_u64(count, c->period) < 0)
			ret = -1;
	}
done:
	c->in_sample = c->have_pname = 0;
	c->nstk = 0;
	return ret;
}

static void
skipped(struct perf_report *rep, uint64_t line, const char *s, size_t n)
{
	rep->nskipped++;
	if (rep->nex < PERF_EXAMPLES) {
		err_quote(rep->ex[rep->nex].text, s, n, PERF_EXAMPLE_BYTES);
		rep->ex[rep->nex].line = line;
		rep->nex++;
	}
}

/*
 * An accepted event line: set the root frame from comm, pid and tid as
 * the Perl script does ("comm", "comm-PID", "comm-PID/TID"; a missing or
 * zero TID makes the single number the TID and the PID "?").
 */
static void
set_pname(struct perf_ctx *c, const struct event_fields *f)
{
	const struct perf_opts *o = c->sh->o;
	struct span pid = f->pid1, tid = f->pid2;
	size_t n = 0, i;
	char *b;

	c->have_pname = 1;
	if (f->comm.n == 0) {
		c->pname = NO_ROOT;
		c->java = 0;
		return;
	}
	if (pid.n == 0)		/* a layout without pid and tid */
		pid = tid = (struct span){ "?", 1 };
	else if (tid.n == 0 || span_eq(tid, "0")) {
		tid = pid;
		pid = (struct span){ "?", 1 };
	}
	b = scratch(c, f->comm.n + pid.n + tid.n + 2);
	memcpy(b, f->comm.p, f->comm.n);
	n = f->comm.n;
	if (o->include_tid || o->include_pid) {
		b[n++] = '-';
		memcpy(b + n, pid.p, pid.n);
		n += pid.n;
		if (o->include_tid) {
			b[n++] = '/';
			memcpy(b + n, tid.p, tid.n);
			n += tid.n;
		}
	}
	for (i = 0; i < n; i++)
		if (b[i] == ' ')
			b[i] = '_';
	/*
	 * Java names are tidied when the root frame starts with "java"; with
	 * --perl, only when it is exactly "java": the rule of the script that
	 * recorded FlameGraph's regression results, which keep the "L" of Java
	 * classes with --pid and --tid.
	 */
	c->java = o->perl ? n == 4 && memcmp(b, "java", 4) == 0 :
	    n >= 4 && memcmp(b, "java", 4) == 0;
	c->pname = intern_put(&c->frames, b, n, NULL);
}

/*
 * The length of an event line without the data address that -F +addr
 * prints after the event name ("cpu-clock:                0"), where the
 * period pattern wants the line to end.  Only before a callchain (next
 * line a frame, tab-indented): without one, a hex word there is the
 * sample's ip, its only frame.
 */
static size_t
strip_addr(const char *s, size_t n, const char *next, const char *end)
{
	size_t e = n, b;

	if (next >= end || *next != '\t')
		return n;
	while (e > 0 && is_ws((unsigned char)s[e - 1]))
		e--;
	for (b = e; b > 0 && (is_digit((unsigned char)s[b - 1]) ||
	    (s[b - 1] >= 'a' && s[b - 1] <= 'f')); b--)
		;
	if (b == e || b == 0 || !is_ws((unsigned char)s[b - 1]))
		return n;
	while (b > 0 && is_ws((unsigned char)s[b - 1]))
		b--;
	if (b == 0 || s[b - 1] != ':')
		return n;
	/* after an event name, not after a time (the number is a period) */
	for (e = b; e > 0 && !is_ws((unsigned char)s[e - 1]); e--)
		;
	return is_digit((unsigned char)s[e]) ? n : b;
}

enum { EV_KEPT, EV_FILTERED, EV_BAD };

/*
 * A wall-clock profile's two halves, cpu-clock and offcpu-time (trace-
 * record --wall, perf record --off-cpu), both in ns: with the event
 * taken from the first sample, either one keeps the other, so that the
 * hot/cold graph has both.  Not with --perl, nor with --event-filter.
 */
static int
wall_pair(const struct perf_shared *sh, struct span ev)
{
	struct span first = { sh->event, sh->eventlen };

	return sh->event_defaulted && !sh->o->perl &&
	    ((span_eq(first, "cpu-clock") && span_eq(ev, "offcpu-time")) ||
	    (span_eq(first, "offcpu-time") && span_eq(ev, "cpu-clock")));
}

/*
 * Apply the event filter to an event named ev, taking it as the filter
 * when none is set yet.  The period is "1" when absent or "0", as in Perl.
 */
static int
check_event(struct perf_ctx *c, struct perf_shared *wsh, struct span ev,
    struct span per, int have_ev)
{
	const struct perf_shared *sh = c->sh;

	c->offcpu = 0;
	if (have_ev) {
		if (sh->event == NULL && wsh) {
			wsh->event = xmalloc(ev.n + 1);
			memcpy(wsh->event, ev.p, ev.n);
			wsh->event[ev.n] = '\0';
			wsh->eventlen = ev.n;
			wsh->event_defaulted = 1;
		} else if (sh->event == NULL || ((ev.n != sh->eventlen ||
		    memcmp(ev.p, sh->event, ev.n) != 0) && !wall_pair(sh, ev))) {
			return EV_FILTERED;
		}
		c->offcpu = !sh->o->perl && span_eq(ev, "offcpu-time");
	}
	if (per.n == 0 || span_eq(per, "0")) {
		c->period = 1;
		c->no_period = 1;
	} else if (num_parse_u64(per.p, per.n, &c->period) < 0)
		return EV_BAD;
	return EV_KEPT;
}

/*
 * inferno's reading of an event line that Perl's period expression does
 * not match: after the timestamp's ':', "PERIOD EVENT" runs to the next
 * ':', and whatever follows the event's modifiers is a one-frame stack
 * ("false 39654 19115.489713:  1 cycles:u:  ffffffff9b201293 [unknown]
 * ([unknown])").  Returns 1 when it found an event.
 */
static int
split_oneline(const char *s, size_t n, struct span *per, struct span *ev,
    struct span *frame)
{
	const char *e = s + n, *c1, *c2, *sp, *w;

	if ((c1 = memchr(s, ':', n)) == NULL)
		return 0;
	c1++;
	c2 = memchr(c1, ':', (size_t)(e - c1));
	if (c2 == NULL)
		return 0;
	for (sp = c2; sp > c1 && sp[-1] != ' '; sp--)
		;
	*ev = (struct span){ sp, (size_t)(c2 - sp) };
	*per = (struct span){ sp, 0 };
	if (sp > c1) {
		for (w = sp - 1; w > c1 && w[-1] != ' '; w--)
			;
		*per = (struct span){ w, (size_t)(sp - 1 - w) };
		for (size_t i = 0; i < per->n; i++)
			if (!is_digit((unsigned char)per->p[i]))
				per->n = 0;
	}
	c2++;
	while (c2 < e && *c2 != ':' && *c2 != ' ')
		c2++;
	if (c2 < e)
		c2++;
	while (c2 < e && is_ws((unsigned char)*c2))
		c2++;
	while (e > c2 && is_ws((unsigned char)e[-1]))
		e--;
	*frame = (struct span){ c2, (size_t)(e - c2) };
	return 1;
}

/*
 * Whether s[0..n) is a frame line; its fields in *ff, key included (src
 * empty).  The Perl pattern's lines ("ADDR SYM+OFF (DSO)") always; by
 * default also a line whose symbol is missing ("ADDR (DSO)", named by its
 * dso as [unknown] symbols are, where Perl's backtracking makes a frame of
 * the address's last digit) and lines without the dso field ("ADDR SYM",
 * "ADDR"), so that no perf script -F layout with ip loses its frames.
 */
static int
parse_frame(const struct perf_opts *o, const char *s, size_t n,
    struct frame_fields *ff)
{
	static const struct span unknown = { "[unknown]", 9 };
	int r = match_stack(s, n, &ff->pc, &ff->func, &ff->mod), by_pc = 0;
	const char *ke;

	if (r == 2 && !o->perl) {
		const char *b = ff->pc.p, *e = b;

		while (e < s + n && is_word((unsigned char)*e))
			e++;
		ff->pc = (struct span){ b, (size_t)(e - b) };
		ff->func = unknown;
		by_pc = 1;
	} else if (r == 0) {
		if (o->perl || !match_frame_nodso(s, n, &ff->pc, &ff->func))
			return 0;
		ff->mod = (struct span){ ff->pc.p + ff->pc.n, 0 };
		if (ff->func.n == 0) {
			ff->func = unknown;
			by_pc = 1;
		} else {
			ff->mod.p = ff->func.p + ff->func.n;
		}
	}
	ff->src = (struct span){ NULL, 0 };
	ke = ff->mod.p + ff->mod.n;
	if (by_pc || o->include_addrs || o->inline_frames)
		ff->key = (struct span){ ff->pc.p, (size_t)(ke - ff->pc.p) };
	else
		ff->key = (struct span){ ff->func.p, (size_t)(ke - ff->func.p) };
	ff->off = (struct span){ ke, 0 };
	if (!by_pc && !o->inline_frames) {	/* addr2line is given the offset */
		struct span f = strip_offset(ff->func);

		ff->off = (struct span){ f.p + f.n, ff->func.n - f.n };
	}
	return 1;
}

/*
 * --srcline: the line perf script -F +srcline prints under a frame
 * ("  spin.c:4", "  libc.so.6[27b25]"), if the line at *next is one:
 * indented, not blank and not a frame.  On a match *next moves past it.
 * Called only with --srcline (the callers test it: this is on every
 * frame line's path), since it parses the next line twice; otherwise
 * such a line is passed over where it is met (perf_parse).
 */
static int
take_srcline(const struct perf_opts *o, const char **next, const char *end,
    struct span *src)
{
	const char *l = *next, *nl, *le;
	size_t len, i;
	struct frame_fields ff;

	if (l >= end || !is_ws((unsigned char)*l))
		return 0;
	nl = memchr(l, '\n', (size_t)(end - l));
	le = nl ? nl : end;
	len = (size_t)(le - l);
	if (len && l[len - 1] == '\r')
		len--;
	for (i = 0; i < len && is_ws((unsigned char)l[i]); i++)
		;
	if (i == len || parse_frame(o, l, len, &ff))
		return 0;
	*src = (struct span){ l, len };
	*next = nl ? nl + 1 : end;
	return 1;
}

/*
 * The first cache a frame line meets, before it is parsed: its bytes
 * after the address, which differs from sample to sample where the rest
 * repeats, to the frames of the line.  A hit skips match_stack (two
 * searches from the line's end, most of a frame line's parsing) and
 * frame_line's key.  That is exact where the line's reading and
 * translation depend on those bytes alone: match_stack finds the
 * function and the module after the address (the bytes before it, blanks
 * and word bytes, hold no parenthesis), and neither the address (wanted
 * by --addrs, --inline, and for lines without a symbol, match_stack's 2)
 * nor the next line (--srcline) is read.  Other lines are marked RAW_OTHER
 * and take the long way.  Returns 1 when the line's frames were stacked,
 * 0 for the long way.
 */
#define RAW_OTHER UINT32_MAX

static int
frame_line_raw(struct perf_ctx *c, const char *s, size_t n)
{
	struct rtab *t = &c->raw[c->java];
	struct frame_fields ff;
	size_t ps, pe = addr_end(s, n, &ps), n0 = c->nstk;
	uint32_t *v, cnt;
	uint64_t h;

	if (pe == ps)
		return 0;
	h = intern_hash(s + pe, n - pe);
	if ((v = rtab_find(t, s + pe, n - pe, h)) == NULL) {
		if (match_stack(s, n, &ff.pc, &ff.func, &ff.mod) != 1) {
			*(uint32_t *)rtab_add(t, s + pe, n - pe, h,
			    sizeof *v) = RAW_OTHER;
			return 0;
		}
		(void)parse_frame(c->sh->o, s, n, &ff);
		frame_line(c, &ff);
		cnt = (uint32_t)(c->nstk - n0);
		v = rtab_add(t, s + pe, n - pe, h, (cnt + 1) * sizeof *v);
		v[0] = cnt;
		for (uint32_t k = 1; k <= cnt; k++)	/* back in line order */
			v[k] = c->stk[n0 + cnt - k];
		return 1;
	}
	if ((cnt = v[0]) == RAW_OTHER)
		return 0;
	if (c->nstk + cnt > c->stkcap)
		c->stk = xgrow(c->stk, &c->stkcap, c->nstk + cnt,
		    sizeof *c->stk);
	while (cnt > 0)
		c->stk[c->nstk++] = v[cnt--];
	return 1;
}

size_t
perf_parse(struct perf_ctx *c, struct perf_shared *wsh, const char *p,
    size_t n, int stop_on_event, struct perf_report *rep)
{
	const struct perf_opts *o = c->sh->o;
	const char *s = p, *end = p + n;
	uint64_t line = 0;
	size_t minlen = o->perl ? 2 : 1;
	int raw = !o->srcline && !o->include_addrs && !o->inline_frames;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *le = nl ? nl : end, *next = nl ? nl + 1 : end;
		size_t len = (size_t)(le - s), elen, i;
		struct event_fields f;
		struct frame_fields ff;
		struct span per, ev, frame;
		int r;

		line++;
		if (nl)
			rep->newlines++;
		if (len && s[len - 1] == '\r')
			len--;
		/*
		 * The common case first: an indented line inside a sample is
		 * a frame, or else blank or unrecognized; it cannot be an
		 * event line.
		 */
		if (raw && c->in_sample && c->have_pname && len &&
		    is_ws((unsigned char)s[0]) && frame_line_raw(c, s, len)) {
			c->after_frame = 1;
			s = next;
			continue;
		}
		if (c->in_sample && len && is_ws((unsigned char)s[0]) &&
		    parse_frame(o, s, len, &ff)) {
			if (o->srcline && take_srcline(o, &next, end, &ff.src)) {
				line++;
				if (next[-1] == '\n')
					rep->newlines++;
				ff.key.n = (size_t)(ff.src.p + ff.src.n - ff.key.p);
			}
			if (c->have_pname)
				frame_line(c, &ff);
			c->after_frame = 1;
			s = next;
			continue;
		}
		per = ev = frame = (struct span){ s, 0 };
		r = 0;
		for (i = 0; i < len && is_ws((unsigned char)s[i]); i++)
			;
		elen = o->perl ? len : strip_addr(s, len, next, end);
		if (len && s[0] == '#') {
			/* a comment: perf's header */
		} else if (i == len) {
			if (end_sample(c) < 0)
				goto overflow;
		} else if (!o->perl && s[0] == '|') {
			/* -F +srccode's source lines, "|42      x++;" */
		} else if (((match_event(s, len, minlen, &f) || (!c->in_sample &&
		    i > 0 && !(o->perl && is_digit((unsigned char)s[i])) &&
		    match_event(s + i, len - i, minlen, &f))) &&
		    (o->perl || !ends_in_time(f.comm))) ||
		    (!o->perl && !c->in_sample &&
		    match_event_bare(s, elen, &f, &per, &ev, &r))) {
			int have, oneline = 0, k;

			/*
			 * An event line ends the sample before it, which -F
			 * +insn, +data_page_size and the like leave with no
			 * blank line after it; the Perl script runs the two
			 * together.
			 */
			if (!o->perl && c->in_sample && end_sample(c) < 0)
				goto overflow;
			if (f.pid1.n == 0) {
				have = r;	/* match_event_bare read them */
			} else {
				have = match_period(f.comm.p,
				    elen - (size_t)(f.comm.p - s), &per, &ev);
				/*
				 * --show-mmap-events and the like: a record of
				 * perf's, not a sample.
				 */
				if (!have && !o->perl && memmem(s, len,
				    ": PERF_RECORD_", 14) != NULL)
					goto next_line;
				if (!have && !o->perl && (k = match_fields(f.comm.p,
				    elen - (size_t)(f.comm.p - s), &f, &per,
				    &ev)) >= 0) {
					have = k;	/* per read, or empty */
				} else {
					if (!have && f.comm.p != s) {
						oneline = split_oneline(f.comm.p +
						    f.end, len - (size_t)(f.comm.p -
						    s) - f.end, &per, &ev, &frame);
						have = oneline;
					}
					if (!have)
						per.n = 0;
				}
			}
			c->in_sample = 1;
			r = check_event(c, wsh, ev, per, have);
			if (r == EV_FILTERED) {
				rep->nfiltered++;
			} else if (r == EV_BAD) {
				rep->errline = line;
				rep->errmsg = "sample period does not fit in 64 bits";
				return (size_t)(s - p);
			} else {
				set_pname(c, &f);
				if (oneline && frame.n) {
					if (parse_frame(o, frame.p, frame.n, &ff))
						frame_line(c, &ff);
					else
						skipped(rep, line, frame.p, frame.n);
					if (end_sample(c) < 0)
						goto overflow;
				}
			}
		} else if (parse_frame(o, s, len, &ff)) {
			if (!c->seen_line && !o->perl && s[0] == '\t')
				c->no_event_lines = 1;
			if (!c->in_sample && c->no_event_lines) {
				/*
				 * -F ip,sym: perf printed an empty event line.
				 * Not in other inputs, where a frame after a
				 * blank line is a stray and stays ignored.
				 * Such a layout has no event to filter on, so
				 * its input is parsed by this one context.
				 */
				memset(&f, 0, sizeof f);
				c->in_sample = 1;
				if (check_event(c, wsh, ev, per, 0) == EV_KEPT)
					set_pname(c, &f);
			}
			if (o->srcline && take_srcline(o, &next, end, &ff.src)) {
				line++;
				if (next[-1] == '\n')
					rep->newlines++;
				ff.key.n = (size_t)(ff.src.p + ff.src.n - ff.key.p);
			}
			if (c->have_pname)
				frame_line(c, &ff);
			c->after_frame = c->seen_line = 1;
			s = next;
			continue;
		} else if (c->after_frame && i > 0 && !o->perl) {
			/* -F +srcline's line under a frame, not asked for */
		} else {
			skipped(rep, line, s, len);
		}
next_line:
		if (i < len && s[0] != '#')
			c->seen_line = 1;
		c->after_frame = 0;
		s = next;
		if (stop_on_event && c->sh->event != NULL && c->seen_line)
			break;
	}
	return (size_t)(s - p);
overflow:
	rep->errline = line;
	rep->errmsg = "sample count does not fit in 64 bits";
	return (size_t)(s - p);
}

int
perf_end_file(struct perf_ctx *c, struct perf_report *rep)
{
	int open = c->have_pname;

	if (open && c->sh->o->perl)
		c->have_pname = 0;
	if (end_sample(c) < 0) {
		rep->errline = 1;
		rep->errmsg = "sample count does not fit in 64 bits";
	}
	return open;
}

/*
 * inferno's test: the first line that is neither a comment nor blank is an
 * event line, and the next line is a frame of its stack (or, for stacks
 * printed on the event line, the next event).  After a blank line comes
 * an event again: a frame there is not perf script output.  Lines are
 * matched with their trailing blanks, which end perf's event line when
 * it stops at the pid ("comm 42 ") or the comm; a frame without a dso
 * must start with the tab perf writes, being otherwise too plain.  Only
 * a layout without comm and event starts with a frame.
 */
int
perf_detect(const char *p, size_t n)
{
	static const struct perf_opts dflt;
	const char *e = p + n, *l;
	size_t len;
	int after_event = 0, seen = 0;

	while (fmt_nextline(&p, e, &l, &len)) {
		struct event_fields f;
		struct frame_fields ff;
		struct span per, ev;
		const char *t = l;
		size_t tn = fmt_trim(&t, len), i = (size_t)(t - l);
		int have;

		if (tn && t[0] == '#')
			continue;
		if (tn == 0) {
			after_event = 0;	/* a sample with no stack */
			continue;
		}
		if (after_event)
			return match_stack(l, len, &ff.pc, &ff.func, &ff.mod) ||
			    (l[0] == '\t' && parse_frame(&dflt, l, len, &ff)) ||
			    match_event(t, len - i, 1, &f);
		if (!seen && l[0] == '\t' && parse_frame(&dflt, l, len, &ff))
			return 1;	/* -F ip,...: no event line at all */
		if (!match_event(t, len - i, 1, &f) &&
		    !match_event_bare(l, len, &f, &per, &ev, &have))
			return 0;
		after_event = seen = 1;
	}
	return 0;
}
