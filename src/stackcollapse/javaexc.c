/*
 * java-exceptions: Java stack traces as printStackTrace writes them, in a
 * log or from an agent (stackcollapse-java-exceptions.pl).
 *
 *	java.lang.IllegalStateException: bad record 3
 *		at Throws.io(Throws.java:9)
 *		at Throws.main(Throws.java:22)
 *	Caused by: ...
 *
 * Each "at CLASS.METHOD(...)" line is a frame, the leaf first, named up to
 * its '('; the first other line ends the stack, which counts 1, except a
 * line holding "waiting on ", which is passed over.  As in the script,
 * --shorten-pkgs writes org.foo.Bar.run as o.f.Bar.run and --no-pkgs as
 * Bar.run; a name with fewer than three parts becomes an empty frame
 * then, as the script's pattern leaves it (jstack keeps it whole).
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/compat.h"
#include "../lib/err.h"
#include "formats.h"
#include "javaexc.h"

static struct {
	int shorten_pkgs;	/* org.foo.Bar.run -> o.f.Bar.run */
	int no_pkgs;		/* org.foo.Bar.run -> Bar.run */
} opt;

/*
 * The script's GetOptions names, "!" ones with both negations that
 * Getopt::Long makes of them (--no-NAME and --noNAME).
 */
static const struct fmt_option javaexc_options[] = {
	{ "shorten-pkgs", &opt.shorten_pkgs, 1, NULL },
	{ "no-shorten-pkgs", &opt.shorten_pkgs, 0, NULL },
	{ "noshorten-pkgs", &opt.shorten_pkgs, 0, NULL },
	{ "no-pkgs", &opt.no_pkgs, 1, NULL },
	{ "no-no-pkgs", &opt.no_pkgs, 0, NULL },
	{ "nono-pkgs", &opt.no_pkgs, 0, NULL },
	{ NULL, NULL, 0, NULL },
};

/* Perl's \s: blanks, line breaks, \v and \f. */
static int
space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* Perl's \w without locale or Unicode: ASCII letters, digits, '_'. */
static int
word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_';
}

void
java_shorten(const char *f, size_t n, int no_pkgs, char **buf, size_t *cap,
    size_t *len)
{
	const char *d2, *d1;
	size_t w = 0;

	*len = 0;
	*buf = xgrow(*buf, cap, n + 1, 1);	/* never NULL: an empty frame */
	d2 = n ? memrchr(f, '.', n) : NULL;
	if (d2 == NULL || d2 == f || (size_t)(d2 - f) == n - 1)
		return;
	d1 = memrchr(f, '.', (size_t)(d2 - f));
	if (d1 == NULL || d1 + 1 == d2)
		return;
	if (!no_pkgs)
		for (const char *p = f; p <= d1; p++)
			if (!word(*p) || p == f || !word(p[-1]))
				(*buf)[w++] = *p;
	memcpy(*buf + w, d1 + 1, n - (size_t)(d1 + 1 - f));
	*len = w + n - (size_t)(d1 + 1 - f);
}

static int
javaexc_collapse(struct reader *r)
{
	struct fstack fs;
	const char *l, *p, *e, *f;
	char *buf = NULL;
	size_t n, cap = 0, len;
	int ret;

	fs_init(&fs);
	while ((ret = rd_line(r, &l, &n)) > 0) {
		for (p = l, e = l + n; p < e && space(*p); p++)
			;
		if (FMT_STARTS(p, (size_t)(e - p), "at ")) {
			p += 3;
			f = memchr(p, '(', (size_t)(e - p));
			n = (size_t)((f ? f : e) - p);
			if (opt.shorten_pkgs || opt.no_pkgs) {
				java_shorten(p, n, opt.no_pkgs, &buf, &cap,
				    &len);
				fs_push(&fs, buf, len);
			} else
				fs_push(&fs, p, n);
		} else if (fs.n && memmem(l, n, "waiting on ", 11) == NULL)
			rd_put_stack(r, &fs, 1);
	}
	if (ret == 0 && fs.n)
		rd_put_stack(r, &fs, 1);
	fs_free(&fs);
	free(buf);
	return ret;
}

/* Whether l is an exception's first line: "...Exception" or "...Error",
 * perhaps after "Caused by: " or 'Exception in thread "NAME" ', perhaps
 * with ": message". */
static int
header(const char *l, size_t len)
{
	const char *e = l + len, *c, *q;

	if (FMT_STARTS(l, len, "Exception in thread \""))
		return 1;
	if (FMT_STARTS(l, len, "Caused by: "))
		l += 11;
	c = memchr(l, ':', (size_t)(e - l));
	q = c ? c : e;
	if (memchr(l, ' ', (size_t)(q - l)) || memchr(l, '.', (size_t)(q - l))
	    == NULL)
		return 0;
	return FMT_ENDS(l, (size_t)(q - l), "Exception") ||
	    FMT_ENDS(l, (size_t)(q - l), "Error");
}

/* An exception's first line, then an "\tat " frame line. */
static int
javaexc_detect(const char *p, size_t n)
{
	const char *e = p + n, *l;
	size_t len;
	int head = 0;

	while (fmt_nextline(&p, e, &l, &len)) {
		if (head && FMT_STARTS(l, len, "\tat "))
			return 1;
		head = header(l, len);
	}
	return 0;
}

const struct format javaexc_format = {
	.name = "java-exceptions",
	.detect = javaexc_detect,
	.collapse = javaexc_collapse,
	.options = javaexc_options,
};
