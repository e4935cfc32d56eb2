/*
 * ljp: the traces of the Lightweight Java Profiler (stackcollapse-ljp.awk).
 *
 *	 42 3  my_func_b(prog.java:455)
 *	       my_func_a(prog.java:123)
 *	       java.lang.Thread.run(Thread.java:744)
 *	Total ...
 *
 * A trace is "COUNT DEPTH FRAME" and a frame a line after it, the leaf
 * first; everything from a line's first '(' to its last ')' is removed
 * first, as the script does (a name with blanks then is no frame).  Lines
 * of other shapes are passed over, and the "Total" line ends the input.
 * As in the script, a trace whose count is 0 is left out, except the last;
 * where the script loses the last trace of an input with no "Total" line,
 * it is counted here, and said.  A count that is not a whole number is an
 * error.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/num.h"
#include "formats.h"

struct lj {
	struct fstack fs;	/* frames, leaf first */
	uint64_t count;
	int have;		/* a trace was begun */
};

/* awk's default fields of l[0..n) once the parentheses are gone. */
struct fields {
	const char *f[3];
	size_t len[3];
	size_t nf;
};

static int
blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* The fields of l[0..n), three at most kept. */
static void
split(const char *l, size_t n, struct fields *fd)
{
	const char *e = l + n, *p = l, *s;

	for (fd->nf = 0;; fd->nf++) {
		while (p < e && blank(*p))
			p++;
		if (p == e)
			break;
		for (s = p; p < e && !blank(*p); p++)
			;
		if (fd->nf < 3) {
			fd->f[fd->nf] = s;
			fd->len[fd->nf] = (size_t)(p - s);
		}
	}
}

/*
 * gsub(/\(.*\)/, ""): the line without its first '(' to its last ')',
 * in *buf; returns whether there were any.
 */
static int
cut(const char *l, size_t n, char **buf, size_t *cap, size_t *len)
{
	const char *o = memchr(l, '(', n), *c = NULL;

	if (o != NULL)
		for (const char *q = l + n; q-- > o;)
			if (*q == ')') {
				c = q;
				break;
			}
	*buf = xgrow(*buf, cap, n + 1, 1);
	if (c == NULL) {
		memcpy(*buf, l, n);
		*len = n;
		return 0;
	}
	memcpy(*buf, l, (size_t)(o - l));
	memcpy(*buf + (o - l), c + 1, (size_t)(l + n - c - 1));
	*len = n - (size_t)(c + 1 - o);
	return 1;
}

static void
put(struct reader *r, struct lj *s)
{
	const char *st;
	size_t n;

	st = fs_join(&s->fs, 1, &n);
	sink_put(r->sink, st, n, s->count, 0);
}

static int
ljp_collapse(struct reader *r)
{
	struct lj s = { .have = 0 };
	struct fields fd;
	const char *l;
	char *buf = NULL;
	size_t n, cap = 0, len;
	int ret;

	fs_init(&s.fs);
	while ((ret = rd_line(r, &l, &n)) > 0) {
		split(l, n, &fd);
		if (fd.nf && fd.len[0] == 5 && memcmp(fd.f[0], "Total", 5) == 0)
			break;
		cut(l, n, &buf, &cap, &len);
		split(buf, len, &fd);
		if (fd.nf == 3) {
			if (s.have && s.count)
				put(r, &s);
			if (!fmt_all_digits(fd.f[0], fd.len[0]) ||
			    num_parse_u64(fd.f[0], fd.len[0], &s.count) < 0) {
				ret = rd_fail(r, "trace count is not a whole "
				    "number below 2^64");
				break;
			}
			s.have = 1;
			fs_truncate(&s.fs, 0);
			fs_push(&s.fs, fd.f[2], fd.len[2]);
		} else if (fd.nf == 1 && s.have) {
			fs_push(&s.fs, fd.f[0], fd.len[0]);
		}
	}
	if (ret >= 0 && s.have) {
		if (ret == 0)
			warn_at(r->name, r->line, "input ends with no Total "
			    "line; counted its last trace");
		put(r, &s);
	}
	fs_free(&s.fs);
	free(buf);
	return ret < 0 ? -1 : 0;
}

/* A "COUNT DEPTH NAME(FILE:LINE)" line, then an indented frame line. */
static int
ljp_detect(const char *p, size_t n)
{
	const char *e = p + n, *l;
	char *buf = NULL;
	size_t len, cap = 0, blen;
	struct fields fd;
	int head = 0, yes = 0;

	while (!yes && fmt_nextline(&p, e, &l, &len)) {
		int had = cut(l, len, &buf, &cap, &blen);

		split(buf, blen, &fd);
		yes = head && had && fd.nf == 1 && len && blank(l[0]);
		head = had && fd.nf == 3 && fmt_all_digits(fd.f[0], fd.len[0]) &&
		    fmt_all_digits(fd.f[1], fd.len[1]);
	}
	free(buf);
	return yes;
}

const struct format ljp_format = {
	.name = "ljp",
	.detect = ljp_detect,
	.collapse = ljp_collapse,
	.all_or_nothing = 1,
};
