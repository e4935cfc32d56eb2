/*
 * elfutils: backtraces of a process taken again and again by elfutils'
 * eu-stack, the poor man's profiler (stackcollapse-elfutils.pl).
 *
 *	for i in $(seq 100); do eu-stack -p PID; sleep 0.1; done > out.txt
 *
 * "PID N - process" starts a process, "TID N:" a thread; each
 * "#N  0x... FUNC" line under it is a frame, the leaf first, and the
 * thread's stack counts 1.  As in the Perl script, a frame is everything
 * after the address and its blank (a frame with no name is "[unknown]";
 * with eu-stack -m, the " - MODULE" after the name is kept), --pid and
 * --tid put "PID=N" and "TID=N" frames at the root, and other lines are
 * passed over.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "formats.h"

static struct {
	int pid;		/* root frame PID=N */
	int tid;		/* root frame TID=N, under PID=N */
} opt;

static const struct fmt_option elfutils_options[] = {
	{ "pid", &opt.pid, 1, NULL },
	{ "tid", &opt.tid, 1, NULL },
	{ NULL, NULL, 0, NULL },
};

struct eu {
	struct fstack fs;	/* frames, leaf first */
	struct word {		/* the last PID and TID lines' numbers */
		char *s;
		size_t n, cap;
	} pid, tid;
	char *root;		/* "PID=" or "TID=" and one of them */
	size_t rootcap;
};

/*
 * The Perl script's stack is one string that a frame line replaces while
 * it is empty: a stack of one empty frame is no stack.
 */
static int
empty(const struct fstack *fs)
{
	return fs->n == 0 || (fs->n == 1 && fs_len(fs, 0) == 0);
}

static void
push_root(struct eu *s, const char *key, const struct word *w)
{
	s->root = xgrow(s->root, &s->rootcap, w->n + 4, 1);
	memcpy(s->root, key, 4);
	if (w->n)		/* no number, or no PID line yet */
		memcpy(s->root + 4, w->s, w->n);
	fs_push(&s->fs, s->root, w->n + 4);
}

/* The thread's stack, counted once, with its PID and TID roots. */
static void
add_current(struct reader *r, struct eu *s)
{
	const char *st;
	size_t n;

	if (empty(&s->fs))
		return;
	if (opt.tid)
		push_root(s, "TID=", &s->tid);
	if (opt.pid)
		push_root(s, "PID=", &s->pid);
	st = fs_join(&s->fs, 1, &n);
	sink_put(r->sink, st, n, 1, 0);
	fs_truncate(&s->fs, 0);
}

/* The digits after a "PID " or "TID " line's word: /^PID ([0-9]*)/. */
static void
number(struct word *w, const char *l, size_t n)
{
	size_t k = 4;

	while (k < n && l[k] >= '0' && l[k] <= '9')
		k++;
	w->n = k - 4;
	w->s = xgrow(w->s, &w->cap, w->n, 1);
	if (w->n)	/* (no digits: w->s may still be NULL) */
		memcpy(w->s, l + 4, w->n);
}

/*
 * A frame line, /^#[0-9]* *0x[0-9a-f]*( (.*))?/: 1 with the name after the
 * blank that ends the address in *f (NULL when none), 0 when not a frame.
 * The address's "0x" may be the last digit of the frame number and an 'x'
 * ("#10x5"), as the regex allows.
 */
static int
frame(const char *l, size_t n, const char **f, size_t *fl)
{
	const char *p = l + 1, *e = l + n, *d;

	while (p < e && *p >= '0' && *p <= '9')
		p++;
	d = p;
	while (p < e && *p == ' ')
		p++;
	if (e - p >= 2 && p[0] == '0' && p[1] == 'x')
		p += 2;
	else if (p == d && d > l + 1 && d[-1] == '0' && p < e && *p == 'x')
		p++;
	else
		return 0;
	while (p < e && ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
		p++;
	if (p < e && *p == ' ') {
		*f = p + 1;
		*fl = (size_t)(e - *f);
	} else {
		*f = NULL;
		*fl = 0;
	}
	return 1;
}

static int
elfutils_collapse(struct reader *r)
{
	struct eu s = { 0 };
	const char *l, *f;
	size_t n, fl;
	int ret;

	fs_init(&s.fs);
	while ((ret = rd_line(r, &l, &n)) > 0) {
		if (FMT_STARTS(l, n, "PID ")) {
			add_current(r, &s);
			number(&s.pid, l, n);
		} else if (FMT_STARTS(l, n, "TID ")) {
			add_current(r, &s);
			number(&s.tid, l, n);
		} else if (n && l[0] == '#' && frame(l, n, &f, &fl)) {
			if (empty(&s.fs))
				fs_truncate(&s.fs, 0);
			if (f == NULL)
				fs_push(&s.fs, "[unknown]", 9);
			else
				fs_push(&s.fs, f, fl);
		}
	}
	if (ret == 0)
		add_current(r, &s);
	fs_free(&s.fs);
	free(s.pid.s);
	free(s.tid.s);
	free(s.root);
	return ret;
}

/* A "TID N:" line, then a "#0  0x" frame line: eu-stack's own layout. */
static int
elfutils_detect(const char *p, size_t n)
{
	const char *e = p + n, *l;
	size_t len;
	int tid = 0;

	while (fmt_nextline(&p, e, &l, &len)) {
		if (FMT_STARTS(l, len, "TID ") && len > 5 && l[len - 1] == ':' &&
		    fmt_all_digits(l + 4, len - 5))
			tid = 1;
		else if (tid && FMT_STARTS(l, len, "#0  0x"))
			return 1;
		else
			tid = 0;
	}
	return 0;
}

const struct format elfutils_format = {
	.name = "elfutils",
	.detect = elfutils_detect,
	.collapse = elfutils_collapse,
	.options = elfutils_options,
};
