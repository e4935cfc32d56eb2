/*
 * wcp: the report of wallClockProfiler, which samples a process with gdb
 * (stackcollapse-wcp.pl).
 *
 *	Full stacks, with line numbers:
 *
 *	99.791% ===================================== (17194 samples)
 *	       1: poll   (at /src/asyncloop.nim:343)
 *	       2: main   (at /src/main.nim:12)
 *
 * Nothing is read before the "Full stacks" line.  Each stack is its
 * "PERCENT% ===== (N samples)" line, then "N: FRAME" lines, the leaf first
 * (a frame is all the rest of its line, its location too), up to a blank
 * line; it weighs N.  Lines are read with their leading and trailing
 * blanks removed, as in the script, and other lines are passed over.  The
 * last stack of an input that ends with no blank line, which the script
 * loses, is counted here, and said.
 */
#include <string.h>

#include "../lib/num.h"
#include "formats.h"

/* Perl's \s. */
static int
space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static const char *
digits(const char *p, const char *e)
{
	while (p < e && *p >= '0' && *p <= '9')
		p++;
	return p;
}

/*
 * /^\d+\.\d+% =+ \((\d+) samples\)/: 1 with the count's digits in
 * *d[0..*dn), 0 when the line is not one.
 */
static int
samples(const char *l, const char *e, const char **d, size_t *dn)
{
	const char *p = digits(l, e), *q;

	if (p == l || p == e || *p != '.' || (q = digits(p + 1, e)) == p + 1 ||
	    e - q < 3 || memcmp(q, "% =", 3) != 0)
		return 0;
	for (p = q + 2; p < e && *p == '='; p++)
		;
	if (e - p < 2 || memcmp(p, " (", 2) != 0)
		return 0;
	*d = p + 2;
	q = digits(*d, e);
	*dn = (size_t)(q - *d);
	return *dn && e - q >= 9 && memcmp(q, " samples)", 9) == 0;
}

static int
wcp_collapse(struct reader *r)
{
	struct fstack fs;
	const char *l, *e, *d, *p;
	size_t n, dn;
	uint64_t count = 0;
	int ret, started = 0;

	fs_init(&fs);
	while ((ret = rd_line(r, &l, &n)) > 0) {
		for (e = l + n; e > l && space(e[-1]); e--)
			;
		while (l < e && space(*l))
			l++;
		if (FMT_STARTS(l, (size_t)(e - l), "Full stacks")) {
			started = 1;
		} else if (!started) {
			continue;
		} else if (samples(l, e, &d, &dn)) {
			if (num_parse_u64(d, dn, &count) < 0) {
				ret = rd_fail(r, "sample count does not fit in "
				    "64 bits");
				break;
			}
		} else if ((p = digits(l, e)) > l && e - p >= 2 &&
		    p[0] == ':' && p[1] == ' ') {
			fs_push(&fs, p + 2, (size_t)(e - p - 2));
		} else if (l == e && fs.n) {
			rd_put_stack(r, &fs, count);
		}
	}
	if (ret == 0 && fs.n) {
		warn_at(r->name, r->line, "input ends inside a stack (no blank "
		    "line after it); counted it");
		rd_put_stack(r, &fs, count);
	}
	fs_free(&fs);
	return ret < 0 ? -1 : 0;
}

/* The "Full stacks" line, then a samples line. */
static int
wcp_detect(const char *p, size_t n)
{
	const char *e = p + n, *l, *le, *d;
	size_t len, dn;
	int started = 0;

	while (fmt_nextline(&p, e, &l, &len)) {
		for (le = l + len; le > l && space(le[-1]); le--)
			;
		while (l < le && space(*l))
			l++;
		if (FMT_STARTS(l, (size_t)(le - l), "Full stacks"))
			started = 1;
		else if (started && samples(l, le, &d, &dn))
			return 1;
	}
	return 0;
}

const struct format wcp_format = {
	.name = "wcp",
	.detect = wcp_detect,
	.collapse = wcp_collapse,
	.all_or_nothing = 1,
};
