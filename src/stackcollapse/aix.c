/*
 * aix: AIX procstack backtraces of every process, taken again and again
 * by FlameGraph's aix-perf.pl (stackcollapse-aix.pl).
 *
 *	1234: /usr/bin/ksh
 *	---------- tid# 12345 (pthread ID:      1) ----------
 *	0xd01234ab  _event_sleep(??, ??, ??) + 0x1a4
 *	0x10000abc  main(0x1, 0x2ff22b38) + 0x58
 *
 * "PID: COMMAND" starts a process, a "---------- tid# N" line a thread;
 * each "0xADDR  FUNC(...) ..." line is a frame, the leaf first, named up
 * to its '(' (its address when the name is "[...]"), and each thread's
 * stack counts 1 under the command's first word.  As in the script, a
 * frame line needs three blanks after its address (the Perl pattern
 * /^(0x[0-9abcdef]*) *([^ ]*) ([^ ]*) ([^ ]*)/ with its backtracking, so
 * with fewer the name is a part of what follows or empty), and a stack
 * whose only frames so far are "0" starts anew at the next frame.  Other
 * lines are passed over.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "formats.h"

struct ax {
	struct fstack fs;	/* frames, leaf first */
	char *proc;		/* the process's command */
	size_t plen, pcap;
};

static int
hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* The end of the run of non-blanks at p. */
static const char *
word(const char *p, const char *e)
{
	while (p < e && *p != ' ')
		p++;
	return p;
}

/* From a: WORD ' ' WORD ' ', the pattern's $2 and $3 with their blanks. */
static int
two_words(const char *a, const char *e, const char **x)
{
	const char *p = word(a, e);

	*x = p;
	if (p == e)
		return 0;
	p = word(p + 1, e);
	return p < e;
}

/*
 * The frame of a line that starts with "0x", as the Perl pattern matches
 * it: the address ($1) and name ($2) in *addr and *name; 0 when the line
 * does not match.  The blanks after the address are taken greedily, then
 * given back one by one, then the hex digits.
 */
static int
frame(const char *l, size_t n, const char **addr, size_t *alen,
    const char **name, size_t *nlen)
{
	const char *e = l + n, *h = l + 2, *a, *x;

	while (h < e && hex(*h))
		h++;
	for (a = h; a < e && *a == ' '; a++)
		;
	for (;; a--) {
		if (two_words(a, e, &x)) {
			*addr = l;
			*alen = (size_t)(h - l);
			*name = a;
			*nlen = (size_t)(x - a);
			return 1;
		}
		if (a == h)
			break;
	}
	while (--h >= l + 2) {
		if (two_words(h, e, &x)) {
			*addr = l;
			*alen = (size_t)(h - l);
			*name = h;
			*nlen = (size_t)(x - h);
			return 1;
		}
	}
	return 0;
}

/* Perl's truth of the stack's string: not "" and not "0". */
static int
truthy(const struct fstack *fs)
{
	return fs->n > 1 || (fs->n == 1 && !(fs_len(fs, 0) == 0 ||
	    (fs_len(fs, 0) == 1 && fs->buf[fs->off[0]] == '0')));
}

static void
put(struct reader *r, struct ax *s)
{
	const char *st;
	size_t n;

	fs_push(&s->fs, s->proc ? s->proc : "", s->plen);
	st = fs_join(&s->fs, 1, &n);
	sink_put(r->sink, st, n, 1, 0);
}

/* Whether the stack's string is not empty: a frame, or one empty frame. */
static int
nonempty(const struct fstack *fs)
{
	return fs->n > 1 || (fs->n == 1 && fs_len(fs, 0) > 0);
}

static void
line(struct reader *r, struct ax *s, const char *l, size_t n)
{
	const char *e = l + n, *p, *addr, *name, *q;
	size_t alen, nlen;

	for (p = l; p < e && *p >= '0' && *p <= '9'; p++)
		;
	if (p > l && p < e && *p == ':') {
		if (nonempty(&s->fs))
			put(r, s);
		fs_truncate(&s->fs, 0);
		/* /^\d+: ([^ ]*)/, or undef when it fails: "". */
		s->plen = 0;
		if (e - p >= 2 && p[1] == ' ') {
			q = word(p + 2, e);
			s->plen = (size_t)(q - p - 2);
			s->proc = xgrow(s->proc, &s->pcap, s->plen + 1, 1);
			memcpy(s->proc, p + 2, s->plen);
		}
	} else if (FMT_STARTS(l, n, "---------- tid# ") && n > 16 &&
	    l[16] >= '0' && l[16] <= '9') {
		if (nonempty(&s->fs))
			put(r, s);
		fs_truncate(&s->fs, 0);
	} else if (FMT_STARTS(l, n, "0x") &&
	    frame(l, n, &addr, &alen, &name, &nlen)) {
		/* s/\(.*\)?//: everything from the first '('. */
		if ((q = memchr(name, '(', nlen)) != NULL)
			nlen = (size_t)(q - name);
		if (nlen >= 2 && name[0] == '[' && name[nlen - 1] == ']') {
			name = addr;
			nlen = alen;
		}
		if (!truthy(&s->fs))
			fs_truncate(&s->fs, 0);
		fs_push(&s->fs, name, nlen);
	}
}

static int
aix_collapse(struct reader *r)
{
	struct ax s = { .plen = 0 };
	const char *l;
	size_t n;
	int ret;

	fs_init(&s.fs);
	while ((ret = rd_line(r, &l, &n)) > 0)
		line(r, &s, l, n);
	if (ret == 0 && nonempty(&s.fs))
		put(r, &s);
	fs_free(&s.fs);
	free(s.proc);
	return ret;
}

/* A "---------- tid# N" line, then a frame line. */
static int
aix_detect(const char *p, size_t n)
{
	const char *e = p + n, *l;
	size_t len;
	int tid = 0;

	while (fmt_nextline(&p, e, &l, &len)) {
		if (FMT_STARTS(l, len, "---------- tid# "))
			tid = 1;
		else if (tid && FMT_STARTS(l, len, "0x"))
			return 1;
		else
			tid = 0;
	}
	return 0;
}

const struct format aix_format = {
	.name = "aix",
	.detect = aix_detect,
	.collapse = aix_collapse,
};
