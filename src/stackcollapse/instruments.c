/*
 * instruments: a call tree of Apple Instruments' Time Profiler, exported
 * as text (stackcollapse-instruments.pl).
 *
 *	Running Time	Self (ms)		Symbol Name
 *	1500.0 ms  100.0%	0.0 ms	 	main
 *	900.0 ms  60.0%	900.0 ms	 	 work
 *
 * The first line is a header.  Every other line is a node: its running
 * time, share, self time, a tab, a blank and a tab, then its name after as
 * many blanks as it is deep.  A node weighs its self time in milliseconds
 * (min and s converted, rounded to whole ones as printf's %.0f does), under
 * the names of the last nodes read at each lesser depth; a depth skipped
 * gives an empty frame, as in the script.  The script prints a line per
 * node, in tree order; here equal stacks are summed and sorted.  Where the
 * script dies at a line that is not a node, that is an error here, except
 * an empty line, passed over.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/compat.h"
#include "../lib/err.h"
#include "../lib/num.h"
#include "bydepth.h"
#include "formats.h"

/* Perl's \s. */
static int
space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static int
digit(char c)
{
	return c >= '0' && c <= '9';
}

static const char *
digits(const char *p, const char *e)
{
	while (p < e && digit(*p))
		p++;
	return p;
}

/* (?:min|s|ms) at p: its end, or NULL. */
static const char *
unit(const char *p, const char *e)
{
	if (e - p >= 3 && memcmp(p, "min", 3) == 0)
		return p + 3;
	if (p < e && *p == 's')
		return p + 1;
	if (e - p >= 2 && memcmp(p, "ms", 2) == 0)
		return p + 2;
	return NULL;
}

/* \d+\.\d+ at p: its end, or NULL. */
static const char *
decimal(const char *p, const char *e)
{
	const char *q = digits(p, e);

	if (q == p || q == e || *q != '.')
		return NULL;
	p = q + 1;
	q = digits(p, e);
	return q == p ? NULL : q;
}

static const char *
blanks(const char *p, const char *e)
{
	const char *q = p;

	while (q < e && space(*q))
		q++;
	return q == p ? NULL : q;
}

struct node {
	const char *self, *unit, *name;
	size_t selflen, unitlen, depth, namelen;
};

/*
 * The script's pattern, /\d+\.\d+ (?:min|s|ms)\s+\d+\.\d+%\s+
 * (\d+(?:\.\d+)?) (min|s|ms)\t \t(\s*)(.+)/, tried from p: each part has
 * one way to match, the last two split the rest of the line.
 */
static int
match_at(const char *p, const char *e, struct node *nd)
{
	const char *q;

	if ((p = decimal(p, e)) == NULL || p == e || *p++ != ' ' ||
	    (p = unit(p, e)) == NULL || (p = blanks(p, e)) == NULL ||
	    (p = decimal(p, e)) == NULL || p == e || *p++ != '%' ||
	    (p = blanks(p, e)) == NULL)
		return 0;
	nd->self = p;
	if ((q = digits(p, e)) == p)
		return 0;
	if (q < e && *q == '.' && digits(q + 1, e) > q + 1)
		q = digits(q + 1, e);
	nd->selflen = (size_t)(q - p);
	if (q == e || *q++ != ' ')
		return 0;
	nd->unit = q;
	if ((p = unit(q, e)) == NULL)
		return 0;
	nd->unitlen = (size_t)(p - q);
	if (e - p < 3 || memcmp(p, "\t \t", 3) != 0)
		return 0;
	p += 3;
	for (q = p; q < e && space(*q); q++)
		;
	if (q == e) {		/* all blanks: .+ takes the last one */
		if (q == p)
			return 0;
		q--;
	}
	nd->depth = (size_t)(q - p);
	nd->name = q;
	nd->namelen = (size_t)(e - q);
	return 1;
}

/* The leftmost match: from the start of each run of digits. */
static int
match(const char *l, size_t n, struct node *nd)
{
	const char *e = l + n;

	for (const char *p = l; p < e; p++)
		if (digit(*p) && (p == l || !digit(p[-1])) &&
		    match_at(p, e, nd))
			return 1;
	return 0;
}

struct ins {
	struct bydepth names;	/* the script's @stack */
	struct fstack fs;
};

/* The node's self time in whole milliseconds, as the script prints it. */
static int
weight(struct reader *r, const struct node *nd, uint64_t *ms)
{
	char num[64], out[400];
	double t;

	if (nd->selflen >= sizeof num)
		return rd_fail(r, "self time %.*s is too long", 40, nd->self);
	memcpy(num, nd->self, nd->selflen);
	num[nd->selflen] = '\0';
	t = strtod(num, NULL);
	if (nd->unitlen == 3)
		t *= 60 * 1000;
	else if (nd->unitlen == 1)
		t *= 1000;
	if (t >= 18446744073709551616.0)
		return rd_fail(r, "self time %s does not fit in 64 bits", num);
	snprintf(out, sizeof out, "%.0f", t);
	return num_parse_u64(out, strlen(out), ms) < 0 ?
	    rd_fail(r, "self time %s does not fit in 64 bits", num) : 0;
}

static int
node(struct reader *r, struct ins *s, const struct node *nd)
{
	const char *st;
	uint64_t ms;
	size_t n;

	if (weight(r, nd, &ms) < 0)
		return -1;
	memcpy(bd_set(&s->names, nd->depth, nd->namelen), nd->name,
	    nd->namelen);
	bd_stack(&s->names, nd->depth, &s->fs);
	st = fs_join(&s->fs, 0, &n);
	sink_put(r->sink, st, n, ms, 0);
	return 0;
}

static int
instruments_collapse(struct reader *r)
{
	struct ins s = { .names = { NULL, 0, 0 } };
	struct node nd;
	const char *l;
	size_t n;
	int ret;

	fs_init(&s.fs);
	if ((ret = rd_line(r, &l, &n)) > 0)	/* the header */
		while ((ret = rd_line(r, &l, &n)) > 0) {
			if (n == 0)
				continue;
			if (!match(l, n, &nd)) {
				ret = rd_fail(r, "not a node of an Instruments "
				    "call tree (TIME ms PERCENT%% SELF ms, tab, "
				    "blank, tab, NAME)");
				break;
			}
			if (node(r, &s, &nd) < 0) {
				ret = -1;
				break;
			}
		}
	bd_free(&s.names);
	fs_free(&s.fs);
	return ret < 0 ? -1 : 0;
}

/* The header's "Symbol Name", then a node. */
static int
instruments_detect(const char *p, size_t n)
{
	const char *e = p + n, *l;
	size_t len;
	struct node nd;

	if (!fmt_nextline(&p, e, &l, &len) ||
	    memmem(l, len, "Symbol Name", 11) == NULL)
		return 0;
	return fmt_nextline(&p, e, &l, &len) && match(l, len, &nd);
}

const struct format instruments_format = {
	.name = "instruments",
	.detect = instruments_detect,
	.collapse = instruments_collapse,
	.all_or_nothing = 1,
};
