/*
 * merge: see merge.h.  Stacks are interned whole (after the transforms,
 * so that stacks which become equal are summed), counts kept exactly
 * (count.h): a sum out of range is an error at the line that made it.
 * Output is sorted bytewise like every other
 * stackcollapse output, where difffolded.pl prints in hash order.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/folded.h"
#include "../lib/input.h"
#include "../lib/out.h"
#include "merge.h"

#define SHOWN 5			/* bad lines named before they are only counted */

void
merge_init(struct merge *m)
{
	memset(m, 0, sizeof *m);
	intern_init(&m->stacks);
}

void
merge_free(struct merge *m)
{
	intern_free(&m->stacks);
	free(m->count[0]);
	free(m->count[1]);
	free(m->buf);
}

size_t
merge_unrecurse(char *s, size_t n)
{
	size_t w = 0, prev = 0, prevlen = 0, i = 0;
	int have = 0;

	while (i <= n) {
		const char *semi = memchr(s + i, ';', n - i);
		size_t e = semi ? (size_t)(semi - s) : n, len = e - i;

		if (!have || len != prevlen || memcmp(s + prev, s + i, len) != 0) {
			if (have)
				s[w++] = ';';
			memmove(s + w, s + i, len);
			prev = w;
			prevlen = len;
			w += len;
			have = 1;
		}
		i = e + 1;
	}
	return w;
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
	uint32_t id;
	int isnew;

	if (m->striphex || m->recursive) {
		if (m->bufcap < 2 * n + 8) {
			m->bufcap = 2 * n + 8;
			m->buf = xrealloc(m->buf, m->bufcap);
		}
		if (m->striphex)
			n = striphex(m->buf, s, n);
		else
			memcpy(m->buf, s, n);
		if (m->recursive)
			n = merge_unrecurse(m->buf, n);
		s = m->buf;
	}
	if (m->integral)
		add.frac = 0;
	id = intern_put(&m->stacks, s, n, &isnew);
	if (id >= m->cap) {
		size_t c = m->cap ? m->cap * 2 : 1024;

		for (int k = 0; k < 2; k++) {
			m->count[k] = xrealloc(m->count[k], c * sizeof *m->count[k]);
			memset(m->count[k] + m->cap, 0, (c - m->cap) * sizeof *m->count[k]);
		}
		m->cap = c;
	}
	if (replace)
		m->count[which][id] = add;
	else if (count_add(&m->count[which][id], &add) < 0)
		return -1;
	return 0;
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

long long
merge_read_input(struct merge *m, struct input *in, int which)
{
	const char *l;
	size_t len;
	unsigned long long line = 0, bad = 0;
	int r;

	while ((r = input_getline(in, &l, &len)) > 0) {
		struct folded f;
		char q[4 * 60 + 8];
		int fr;

		line++;
		if (len == 0)
			continue;
		if ((fr = folded_parse(l, len, &f)) == -2) {
			warn_at(in->name, line, "count " COUNT_RANGE_WHAT ": %s",
			    err_quote(q, l, len, 60));
			r = -1;
			break;
		}
		/* --diff cuts counts to whole numbers: its decimals do not matter */
		if (fr == 0 && f.cut && !f.has2 && !m->integral) {
			warn_at(in->name, line, "count " COUNT_CUT_WHAT ": %s",
			    err_quote(q, l, len, 60));
			r = -1;
			break;
		}
		if (fr < 0 || f.has2) {
			if (bad++ < SHOWN)
				warn_at(in->name, line, "skipped invalid line %s",
				    err_quote(q, l, len, 60));
			continue;
		}
		if (merge_add(m, f.stack, f.stacklen, &f.c, which) < 0) {
			warn_at(in->name, line, "the stack's counts sum to 2^64 "
			    "or more: %s", err_quote(q, l, len, 60));
			r = -1;
			break;
		}
	}
	if (bad)
		warn_at(in->name, 0, "ignored %llu line%s with invalid format", bad,
		    bad == 1 ? "" : "s");
	return r < 0 ? -1 : (long long)bad;
}

static void
put_count(const struct count *c)
{
	char b[COUNT_TEXT_MAX];

	out_write(b, count_fmt(b, c));
}

int
merge_write(struct merge *m, int diff, int normalize)
{
	size_t n = intern_count(&m->stacks);
	uint32_t *ids = xmalloc((n + 1) * sizeof *ids);
	struct count *scaled = NULL;
	long double t0 = 0, t1 = 0;

	for (size_t i = 0; i < n; i++) {
		ids[i] = (uint32_t)i;
		t0 += count_ld(&m->count[0][i]);
		t1 += count_ld(&m->count[1][i]);
	}
	/*
	 * -n scales by a ratio, as difffolded.pl does in floating point:
	 * the one count here that is computed, not summed.
	 */
	if (diff && normalize && t0 != t1 && t0 > 0) {
		scaled = xmalloc((n + 1) * sizeof *scaled);
		for (size_t i = 0; i < n; i++) {
			long double v = floorl(count_ld(&m->count[0][i]) * t1 / t0);

			if (!(v < 18446744073709551616.0L)) {
				warnx("a scaled count (-n) does not fit in 64 bits");
				free(scaled);
				free(ids);
				return -1;
			}
			scaled[i] = (struct count){ (uint64_t)v, 0 };
		}
	}
	intern_sort(&m->stacks, ids, n);
	for (size_t i = 0; i < n; i++) {
		out_write(intern_str(&m->stacks, ids[i]), intern_len(&m->stacks, ids[i]));
		out_char(' ');
		put_count(scaled ? &scaled[ids[i]] : &m->count[0][ids[i]]);
		if (diff) {
			out_char(' ');
			put_count(&m->count[1][ids[i]]);
		}
		out_char('\n');
	}
	free(scaled);
	free(ids);
	return 0;
}
