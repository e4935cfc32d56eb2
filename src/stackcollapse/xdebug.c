/*
 * xdebug: PHP function traces of Xdebug in its computerized format
 * (stackcollapse-xdebug.php).
 *
 *	php -d xdebug.mode=trace -d xdebug.start_with_request=yes \
 *	    -d xdebug.trace_format=1 -d xdebug.trace_output_name=trace app.php
 *
 * Between "TRACE START" and the line that ends the trace ("TRACE END", or
 * the summary line that starts with a tab), each line is a function's
 * entry ("LEVEL\tNO\t0\tTIME\tMEMORY\tNAME\t...") or exit
 * ("LEVEL\tNO\t1\tTIME\tMEMORY"), runs of tabs counting as one, as the
 * script makes them.  By default, as in the script, the stack open
 * between two lines weighs the time between them in microseconds: a
 * sampling at 1 MHz.  --calls (the script's -c) counts each innermost
 * call once instead.  --time is the script's -t, the default.
 *
 * Where the script prints float sums with their noise (85.999999999999),
 * the times are read here to the microsecond and summed exactly (86).
 * Return-value and assignment lines ("R", "A"), which the script takes
 * for exits or entries, are passed over; an exit with no entry is passed
 * over and said, where the script prints its warning in its output.  A
 * line of fewer fields, a time that is not a number or goes back, is an
 * error.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "formats.h"

static struct {
	int calls;		/* count innermost calls, not microseconds */
} opt;

static const struct fmt_option xdebug_options[] = {
	{ "calls", &opt.calls, 1, NULL },
	{ "time", &opt.calls, 0, NULL },
	{ NULL, NULL, 0, NULL },
};

#define NFIELDS 6

struct xd {
	struct fstack fs;	/* the open calls, outermost first */
	int was_exit;		/* --calls: the last line was an exit */
	uint64_t prev;		/* the last line's time, microseconds */
};

/* The first NFIELDS fields of l, tabs runs as one; returns their number. */
static size_t
fields(const char *l, size_t n, const char **f, size_t *len)
{
	const char *e = l + n, *p = l, *s;
	size_t k = 0;

	while (k < NFIELDS) {
		for (s = p; p < e && *p != '\t'; p++)
			;
		f[k] = s;
		len[k++] = (size_t)(p - s);
		if (p == e)
			break;
		while (p < e && *p == '\t')
			p++;
	}
	return k;
}

/* A time in seconds to whole microseconds: 0, or -1 when not a number. */
static int
micros(const char *s, size_t n, uint64_t *us)
{
	char num[64], *end;
	double t;

	if (n == 0 || n >= sizeof num)
		return -1;
	memcpy(num, s, n);
	num[n] = '\0';
	t = strtod(num, &end);
	if (*end != '\0' || !(t >= 0) || t * 1e6 >= 9.2e18)
		return -1;
	*us = (uint64_t)llround(t * 1e6);
	return 0;
}

/* The open stack weighs n. */
static void
weigh(struct reader *r, struct xd *s, uint64_t n)
{
	const char *st;
	size_t len;

	st = fs_join(&s->fs, 0, &len);
	sink_put(r->sink, st, len, n, 0);
}

static int
line(struct reader *r, struct xd *s, const char *l, size_t n)
{
	const char *f[NFIELDS];
	size_t len[NFIELDS], nf = fields(l, n, f, len);
	int exit;
	uint64_t t;

	if (nf >= 3 && len[2] == 1 && (f[2][0] == 'R' || f[2][0] == 'A'))
		return 0;
	exit = nf >= 3 && len[2] == 1 && f[2][0] == '1';
	if (nf < 4 || (!exit && nf < 6) || (!exit && !(len[2] == 1 &&
	    f[2][0] == '0')))
		return rd_fail(r, "not a line of an Xdebug trace (LEVEL, NO, "
		    "0 or 1, TIME, MEMORY, NAME...)");
	if (micros(f[3], len[3], &t) < 0)
		return rd_fail(r, "time is not a number of seconds");
	if (opt.calls) {
		if (exit) {
			if (!s->was_exit)	/* "" with no entry, as the script */
				weigh(r, s, 1);
			if (s->fs.n)
				fs_truncate(&s->fs, s->fs.n - 1);
			s->was_exit = 1;
		} else {
			fs_push(&s->fs, f[5], len[5]);
			s->was_exit = 0;
		}
		return 0;
	}
	if (exit && s->fs.n == 0) {
		warn_at(r->name, r->line, "function exit with no entry; "
		    "passed over");
		return 0;
	}
	if (t < s->prev)
		return rd_fail(r, "time goes back");
	if (s->fs.n)
		weigh(r, s, t - s->prev);
	if (exit)
		fs_truncate(&s->fs, s->fs.n - 1);
	else
		fs_push(&s->fs, f[5], len[5]);
	s->prev = t;
	return 0;
}

static int
xdebug_collapse(struct reader *r)
{
	struct xd s = { .was_exit = 0 };
	const char *l;
	size_t n;
	int ret;

	fs_init(&s.fs);
	while ((ret = rd_line(r, &l, &n)) > 0 && !FMT_STARTS(l, n, "TRACE START"))
		;
	while (ret > 0 && (ret = rd_line(r, &l, &n)) > 0) {
		if ((n && l[0] == '\t') || FMT_STARTS(l, n, "TRACE END"))
			break;
		if (line(r, &s, l, n) < 0) {
			ret = -1;
			break;
		}
	}
	fs_free(&s.fs);
	return ret < 0 ? -1 : 0;
}

/* "TRACE START", then a line "LEVEL\tNO\t0\tTIME" or with 1. */
static int
xdebug_detect(const char *p, size_t n)
{
	const char *e = p + n, *l, *f[NFIELDS];
	size_t len, fl[NFIELDS];
	int start = 0;

	while (fmt_nextline(&p, e, &l, &len)) {
		if (FMT_STARTS(l, len, "TRACE START"))
			start = 1;
		else if (start)
			return fields(l, len, f, fl) >= 4 &&
			    fmt_all_digits(f[0], fl[0]) &&
			    fmt_all_digits(f[1], fl[1]) && fl[2] == 1 &&
			    (f[2][0] == '0' || f[2][0] == '1');
	}
	return 0;
}

const struct format xdebug_format = {
	.name = "xdebug",
	.detect = xdebug_detect,
	.collapse = xdebug_collapse,
	.options = xdebug_options,
	.all_or_nothing = 1,
};
