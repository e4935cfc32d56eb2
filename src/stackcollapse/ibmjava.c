/*
 * ibmjava: IBM Java (J9, OpenJ9) javacore thread dumps, many taken in a
 * row (stackcollapse-ibmjava.pl).
 *
 *	for i in $(seq 100); do kill -QUIT PID; sleep 1; done
 *	cat javacore.*.txt > out.txt
 *
 * A thread is its '3XMTHREADINFO      "NAME" ... state:S, ' header,
 * '4XESTACKTRACE                at CLASS.METHOD(...)' frames (the leaf
 * first, named up to their '(') and the "3XMTHREADINFO3           Native
 * callstack:" line that ends it and counts it 1, rooted at the thread's
 * name.  As in the Perl script, the tags need its exact spacing, a thread
 * the input ends inside is not counted, an "Anonymous native thread" is
 * named so even with --no-include-tname, --include-tid appends
 * "-NATIVEID" to the name, and --shorten-pkgs writes org.foo.Bar.run as
 * o.f.Bar.run (an empty frame for a name of fewer than three parts, and
 * OpenJ9's java/lang/Thread.run has two).  Other lines are passed over.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/compat.h"
#include "../lib/err.h"
#include "formats.h"
#include "javaexc.h"

static struct {
	int no_tname;		/* no thread name root frame */
	int tid;		/* NAME-NATIVEID */
	int shorten_pkgs;	/* org.foo.Bar.run -> o.f.Bar.run */
} opt;

/*
 * The script's GetOptions names, each "!" one with both negations that
 * Getopt::Long makes of it (--no-NAME and --noNAME).
 */
static const struct fmt_option ibmjava_options[] = {
	{ "include-tname", &opt.no_tname, 0, NULL },
	{ "no-include-tname", &opt.no_tname, 1, NULL },
	{ "noinclude-tname", &opt.no_tname, 1, NULL },
	{ "include-tid", &opt.tid, 1, NULL },
	{ "no-include-tid", &opt.tid, 0, NULL },
	{ "noinclude-tid", &opt.tid, 0, NULL },
	{ "shorten-pkgs", &opt.shorten_pkgs, 1, NULL },
	{ "no-shorten-pkgs", &opt.shorten_pkgs, 0, NULL },
	{ "noshorten-pkgs", &opt.shorten_pkgs, 0, NULL },
	{ NULL, NULL, 0, NULL },
};

#define NATIVE "3XMTHREADINFO3           Native callstack:"
#define HEADER "3XMTHREADINFO      \""
#define ANON "3XMTHREADINFO      Anonymous native thread"
#define TID "3XMTHREADINFO1            (native thread ID:"
#define FRAME "4XESTACKTRACE                at "

struct ij {
	struct fstack fs;	/* frames, leaf first */
	char *tname;		/* the thread's name, when have_tname */
	size_t tnlen, tncap;
	int have_tname;
	char *buf;
	size_t cap;
};

/* The thread's name set to b[0..bn), or with keep, b appended to it. */
static void
tname_set(struct ij *s, int keep, const char *b, size_t bn)
{
	size_t at = keep && s->have_tname ? s->tnlen : 0;

	s->tname = xgrow(s->tname, &s->tncap, at + bn + 1, 1);
	memcpy(s->tname + at, b, bn);
	s->tnlen = at + bn;
	s->have_tname = 1;
}

/*
 * /^3XMTHREADINFO      "([^"]*).* state:(.*), /: the name, or NULL when
 * the line does not match (no " state:" with ", " after it).  The name
 * ends at its closing quote, or, the regex backtracking, at the last
 * " state:" that a ", " follows, whichever comes first.
 */
static const char *
header(const char *l, size_t n, size_t *len)
{
	const char *name = l + sizeof HEADER - 1, *e = l + n, *q, *c, *st;
	const char *last = NULL;

	for (c = NULL, st = name; (st = memmem(st, (size_t)(e - st), ", ", 2));
	    st++)
		c = st;
	if (c == NULL)
		return NULL;
	for (st = name; (st = memmem(st, (size_t)(e - st), " state:", 7)) &&
	    st + 7 <= c; st++)
		last = st;
	if (last == NULL)
		return NULL;
	q = memchr(name, '"', (size_t)(e - name));
	*len = (size_t)((q && q < last ? q : last) - name);
	return name;
}

/* The stack ends at its native callstack: counted with its name. */
static void
native(struct reader *r, struct ij *s)
{
	const char *st;
	size_t n;

	if (s->have_tname)
		fs_push(&s->fs, s->tname, s->tnlen);
	if (s->fs.n) {
		st = fs_join(&s->fs, 1, &n);
		sink_put(r->sink, st, n, 1, 0);
	}
	fs_truncate(&s->fs, 0);
	s->have_tname = 0;
}

static void
line(struct reader *r, struct ij *s, const char *l, size_t n)
{
	const char *p, *f;
	size_t len;

	if (FMT_STARTS(l, n, NATIVE)) {
		native(r, s);
	} else if (FMT_STARTS(l, n, HEADER) && (p = header(l, n, &len))) {
		if (!opt.no_tname)
			tname_set(s, 0, p, len);
	} else if (memmem(l, n, ANON, sizeof ANON - 1)) {
		tname_set(s, 0, "Anonymous native thread", 23);
	} else if (FMT_STARTS(l, n, TID) &&
	    (p = memchr(l + sizeof TID - 1, ' ', n - (sizeof TID - 1))) &&
	    p > l + sizeof TID - 1 && p[-1] == ',' &&
	    FMT_STARTS(p, (size_t)(l + n - p), " native priority")) {
		/* ([^ ]*), : the ID is up to the first blank, less its ','. */
		if (!opt.no_tname && opt.tid) {
			f = l + sizeof TID - 1;
			s->buf = xgrow(s->buf, &s->cap, (size_t)(p - f), 1);
			s->buf[0] = '-';
			memcpy(s->buf + 1, f, (size_t)(p - f) - 1);
			tname_set(s, 1, s->buf, (size_t)(p - f));
		}
	} else if (FMT_STARTS(l, n, FRAME)) {
		p = l + sizeof FRAME - 1;
		f = memchr(p, '(', n - (sizeof FRAME - 1));
		len = (size_t)((f ? f : l + n) - p);
		if (opt.shorten_pkgs) {
			java_shorten(p, len, 0, &s->buf, &s->cap, &len);
			p = s->buf;
		}
		fs_push(&s->fs, p, len);
	}
}

static int
ibmjava_collapse(struct reader *r)
{
	struct ij s = { .have_tname = 0 };
	const char *l;
	size_t n;
	int ret;

	fs_init(&s.fs);
	while ((ret = rd_line(r, &l, &n)) > 0)
		if (n == 0 || l[0] != '#')
			line(r, &s, l, n);
	fs_free(&s.fs);
	free(s.tname);
	free(s.buf);
	return ret;
}

/* A thread header or a frame line, with their tags. */
static int
ibmjava_detect(const char *p, size_t n)
{
	const char *e = p + n, *l;
	size_t len;

	while (fmt_nextline(&p, e, &l, &len))
		if (FMT_STARTS(l, len, HEADER) || FMT_STARTS(l, len, FRAME) ||
		    FMT_STARTS(l, len, NATIVE))
			return 1;
	return 0;
}

const struct format ibmjava_format = {
	.name = "ibmjava",
	.detect = ibmjava_detect,
	.collapse = ibmjava_collapse,
	.options = ibmjava_options,
};
