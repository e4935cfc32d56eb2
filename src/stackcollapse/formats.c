/*
 * formats: see formats.h.  The table's order is the order of detection:
 * formats with an unmistakable marker (an XML root, a CSV header, a
 * "Call graph:" line, a JSON key) come before the ones recognized by the
 * shape of their lines, and folded stacks, which almost anything can
 * resemble, come last.  A binary format (pprof) comes first: it is tried
 * on the raw head, before the text formats skip blank lines
 * (fmt_guess_binary).  perf has a driver of its own (perfrun.c) and no
 * collapse function; folded input goes to the sink's merge whole.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/folded.h"
#include "../lib/scan.h"
#include "formats.h"

#define SHOWN 5			/* skipped lines named before only counted */

static int folded_detect(const char *p, size_t n);
static int folded_collapse(struct reader *r);

static const struct format folded_format = {
	.name = "folded",
	.detect = folded_detect,
	.collapse = folded_collapse,
	.all_or_nothing = 1,
};

static const struct format *const formats[] = {
	&spanprof_format,
	&pprof_format, &xctrace_format, &svg_format, &flamebearer_format,
	&chrome_format, &vsprof_format,
	&vtune_format, &ghcprof_format, &sample_format, &gopprof_format,
	&jstack_format, &elfutils_format, &faulthandler_format,
	&perfsched_format, &javaexc_format, &ibmjava_format,
	&instruments_format, &ljp_format, &xdebug_format, &wcp_format,
	&aix_format, &vtunemc_format, &gdb_format, &pmcstat_format,
	&bpftrace_format, &perf_format, &stap_format, &dtrace_format,
	&folded_format,
};
#define NFORMATS (sizeof formats / sizeof formats[0])

const struct format *
fmt_find(const char *name)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (strcmp(formats[i]->name, name) == 0)
			return formats[i];
	return NULL;
}

const struct format *
fmt_guess(const char *p, size_t n)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (!formats[i]->binary && formats[i]->detect(p, n))
			return formats[i];
	return NULL;
}

const struct format *
fmt_guess_binary(const char *p, size_t n)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (formats[i]->binary && formats[i]->detect(p, n))
			return formats[i];
	return NULL;
}

const char *
fmt_names(void)
{
	static char buf[1024];

	if (buf[0] == '\0')
		for (size_t i = 0; i < NFORMATS; i++) {
			if (i)
				strcat(buf, ", ");
			strcat(buf, formats[i]->name);
		}
	return buf;
}

struct option *
fmt_longopts(int base)
{
	struct option *lo;
	size_t total = 0, n = 0, k;

	for (size_t i = 0; i < NFORMATS; i++)
		for (const struct fmt_option *o = formats[i]->options;
		    o && o->name; o++)
			total++;
	lo = xcalloc(total + 1, sizeof *lo);
	for (size_t i = 0; i < NFORMATS; i++)
		for (const struct fmt_option *o = formats[i]->options;
		    o && o->name; o++) {
			for (k = 0; k < n; k++)
				if (strcmp(lo[k].name, o->name) == 0)
					break;
			if (k == n)
				lo[n++] = (struct option){ o->name, no_argument,
				    NULL, base + (int)k };
			if (o->set != NULL)
				lo[k].has_arg = required_argument;
		}
	return lo;
}

void
fmt_option_set(const char *name, char *arg)
{
	for (size_t i = 0; i < NFORMATS; i++)
		for (const struct fmt_option *o = formats[i]->options;
		    o && o->name; o++) {
			if (strcmp(o->name, name) != 0)
				continue;
			if (o->set != NULL)
				o->set(arg);
			else
				*o->var = o->val;
		}
}

void
fmt_option_all(const struct format *f, int on)
{
	for (const struct fmt_option *o = f->options; o && o->name; o++)
		if (o->var != NULL)
			*o->var = on ? o->val : 0;
}

int
fmt_nextline(const char **p, const char *e, const char **l, size_t *n)
{
	const char *nl;

	if (*p >= e)
		return 0;
	nl = memchr(*p, '\n', (size_t)(e - *p));
	*l = *p;
	*n = (size_t)((nl ? nl : e) - *p);
	if (*n && (*l)[*n - 1] == '\r')
		(*n)--;
	*p = nl ? nl + 1 : e;
	return 1;
}

int
fmt_all_digits(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

static int
blank(char c)
{
	return c == ' ' || (unsigned char)(c - '\t') <= '\r' - '\t';
}

size_t
fmt_split_blank(const char *p, size_t n)
{
	const char *b = scan_mem(p, n, "\n\n", 2);

	return b ? (size_t)(b - p) + 2 : n;
}

size_t
fmt_trim(const char **s, size_t n)
{
	/* Blanks first, eight at a time: DTrace indents by a dozen or more. */
	const char *b = scan_skip(*s, *s + n, ' ', '\t');

	n -= (size_t)(b - *s);
	*s = b;
	while (n && blank(**s)) {
		(*s)++;
		n--;
	}
	while (n && blank((*s)[n - 1]))
		n--;
	return n;
}

/* Every whole line of the head that is not blank is a folded stack. */
static int
folded_detect(const char *p, size_t n)
{
	const char *e = p + n, *l;
	size_t len;
	int seen = 0;

	while (fmt_nextline(&p, e, &l, &len)) {
		struct folded f;

		if (p == e && l + len == e && e[-1] != '\n' && seen)
			break;	/* a last line cut by the head */
		char u[FOLDED_UNIT_MAX + 1];

		if ((len = fmt_trim(&l, len)) == 0)
			continue;
		if (!seen && folded_unit(l, len, u))
			continue;	/* its first line, "# unit: ns" */
		if (folded_parse(l, len, 1, &f) == -1)
			return 0;	/* a count out of range is folded's error */
		seen = 1;
	}
	return seen;
}

/* The sink's merge sums and sorts them; a line per stack already. */
static int
folded_collapse(struct reader *r)
{
	if (r->sink->noagg)
		die(EXIT_USAGE, "%s: folded input is one line per stack "
		    "already; --no-aggregate does not apply", r->name);
	return merge_read_input(&r->sink->m, r->in, 0) < 0 ? -1 : 0;
}

int
rd_fail(struct reader *r, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (r->quiet) {
		r->noisy = 1;
		return -1;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	warn_at(r->name, r->line, "%s", msg);
	return -1;
}

void
rd_skip(struct reader *r, const char *l, size_t n)
{
	char q[4 * 60 + 8];

	r->noisy |= r->quiet;
	if (r->nskipped++ < SHOWN && !r->quiet)
		warn_at(r->name, r->line, "skipped unrecognized line %s",
		    err_quote(q, l, n, 60));
}

void
rd_put_stack(struct reader *r, struct fstack *fs, uint64_t count)
{
	const char *s;
	size_t n;

	s = fs_join(fs, 1, &n);
	sink_put(r->sink, s, n, count, 0);
	fs_truncate(fs, 0);
}
