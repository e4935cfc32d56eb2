/*
 * merge: see merge.h.  Stacks are summed by folded.c's table (after -s,
 * so that stacks which become equal are summed), counts kept
 * exactly (count.h): a sum out of range is an error at the line that made
 * it.  Output is sorted bytewise like every other stackcollapse output,
 * where difffolded.pl prints in hash order.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/folded.h"
#include "../lib/input.h"
#include "merge.h"

#define SHOWN 5			/* bad lines named before they are only counted */

void
merge_init(struct merge *m)
{
	memset(m, 0, sizeof *m);
	folded_sum_init(&m->sum);
}

void
merge_free(struct merge *m)
{
	folded_sum_free(&m->sum);
	free(m->buf);
}

static int
ishex(char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* 0x followed by hex digits becomes "0x...", as difffolded.pl -s does. */
static size_t
striphex(char *d, const char *s, size_t n)
{
	size_t w = 0, i = 0;

	while (i < n) {
		if (i + 2 < n && s[i] == '0' && s[i + 1] == 'x' && ishex(s[i + 2])) {
			for (i += 2; i < n && ishex(s[i]); i++)
				;
			memcpy(d + w, "0x...", 5);
			w += 5;
		} else
			d[w++] = s[i++];
	}
	return w;
}

static int
put(struct merge *m, const char *s, size_t n, const struct count *count,
    int which, int replace)
{
	struct count add = *count;

	if (m->striphex) {
		if (m->bufcap < 2 * n + 8) {
			m->bufcap = 2 * n + 8;
			m->buf = xrealloc(m->buf, m->bufcap);
		}
		n = striphex(m->buf, s, n);
		s = m->buf;
	}
	if (m->integral)
		add.frac = 0;
	if (replace) {
		folded_sum_set(&m->sum, s, n, which, &add);
		return 0;
	}
	return folded_sum_add(&m->sum, s, n, which, &add);
}

int
merge_add(struct merge *m, const char *s, size_t n, const struct count *count,
    int which)
{
	return put(m, s, n, count, which, 0);
}

void
merge_set(struct merge *m, const char *s, size_t n, const struct count *count)
{
	(void)put(m, s, n, count, 0, 1);
}

long long
merge_read(struct merge *m, const char *path, int which)
{
	struct input in;
	long long r;

	if (input_open(&in, path, "\n") < 0)
		return -1;
	r = merge_read_input(m, &in, which);
	input_close(&in);
	return r;
}

void
merge_unit(struct merge *m, const char *u)
{
	if (!m->unit_seen)
		snprintf(m->unit, sizeof m->unit, "%s", u);
	else if (strcmp(m->unit, u) != 0)
		m->unit[0] = '\0';
	m->unit_seen = 1;
}

long long
merge_read_input(struct merge *m, struct input *in, int which)
{
	const char *l;
	size_t len;
	uint64_t line = 0;
	unsigned long long bad = 0;
	struct folded f;
	int r, fr, kind = FOLDED_UNSEEN;
	char *fix = NULL;
	size_t fixcap = 0;

	while ((r = folded_next(in, &line, &l, &len, &f, &fr, &kind)) > 0) {
		char q[4 * 60 + 8], u[FOLDED_UNIT_MAX + 1];

		/* what the counts are: kept when every input agrees */
		if (fr < 0 && line == 1 && folded_unit(l, len, u)) {
			merge_unit(m, u);
			continue;
		}

		/* --diff cuts counts to whole numbers: its decimals do not matter */
		if (fr == 0 && f.cut && (!f.has2 || which == MERGE_BOTH) &&
		    !m->integral) {
			warn_at(in->name, line, "count " COUNT_CUT_WHAT ": %s",
			    err_quote(q, l, len, 60));
			r = -1;
			break;
		}
		if (fr < 0 || f.has2 != (which == MERGE_BOTH)) {
			if (bad++ < SHOWN)
				warn_at(in->name, line, "skipped invalid line %s%s",
				    err_quote(q, l, len, 60), fr == -3 ?
				    " (one count in a file whose first line has "
				    "two)" : "");
			continue;
		}
		/* another writer's "handler 12", written again unambiguous */
		if (!f.has2 && folded_stack_ambiguous(f.stack, f.stacklen)) {
			fix = xgrow(fix, &fixcap, f.stacklen + 1, 1);
			memcpy(fix, f.stack, f.stacklen);
			folded_stack_fix(fix, f.stacklen);
			f.stack = fix;
		}
		if (which == MERGE_BOTH ?
		    merge_add(m, f.stack, f.stacklen, &f.c1, 0) < 0 ||
		    merge_add(m, f.stack, f.stacklen, &f.c, 1) < 0 :
		    merge_add(m, f.stack, f.stacklen, &f.c, which) < 0) {
			warn_at(in->name, line, "the stack's counts sum to 2^64 "
			    "or more: %s", err_quote(q, l, len, 60));
			r = -1;
			break;
		}
	}
	free(fix);
	if (bad)
		warn_at(in->name, 0, "ignored %llu line%s with invalid format", bad,
		    bad == 1 ? "" : "s");
	return r < 0 ? -1 : (long long)bad;
}

int
merge_write(struct merge *m, int diff, int normalize)
{
	const struct folded_sum *a = &m->sum;
	size_t n = folded_sum_n(a), len;
	uint32_t *ids;
	struct count *scaled = NULL;
	long double t0 = 0, t1 = 0;

	if (!diff) {
		folded_sum_write(a);
		return 0;
	}
	for (uint32_t i = 0; i < n; i++) {
		t0 += count_ld(folded_sum_count(a, 0, i));
		t1 += count_ld(folded_sum_count(a, 1, i));
	}
	/*
	 * -n scales by a ratio, as difffolded.pl does in floating point:
	 * the one count here that is computed, not summed.
	 */
	if (normalize && t0 != t1 && t0 > 0) {
		scaled = xmalloc((n + 1) * sizeof *scaled);
		for (uint32_t i = 0; i < n; i++) {
			long double v = floorl(count_ld(folded_sum_count(a, 0, i)) *
			    t1 / t0);

			if (!(v < 18446744073709551616.0L)) {
				warn_msg("a scaled count (-n) does not fit in 64 bits");
				free(scaled);
				return -1;
			}
			scaled[i] = (struct count){ (uint64_t)v, 0 };
		}
	}
	ids = folded_sum_sorted(a);
	for (size_t i = 0; i < n; i++) {
		const char *s = folded_sum_stack(a, ids[i], &len);

		folded_write(s, len, scaled ? &scaled[ids[i]] :
		    folded_sum_count(a, 0, ids[i]), folded_sum_count(a, 1, ids[i]));
	}
	free(scaled);
	free(ids);
	return 0;
}
