/*
 * merge: see merge.h.  Stacks are interned whole (after the transforms,
 * so that stacks which become equal are summed), counts kept as long
 * double, which on x86-64 holds every integer below 2^64 exactly and also
 * sums fractional counts.  Output is sorted bytewise like every other
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

static void
put(struct merge *m, const char *s, size_t n, long double count, int which,
    int replace)
{
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
		count = floorl(count);
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
		m->count[which][id] = count;
	else
		m->count[which][id] += count;
}

void
merge_add(struct merge *m, const char *s, size_t n, long double count, int which)
{
	put(m, s, n, count, which, 0);
}

void
merge_set(struct merge *m, const char *s, size_t n, long double count)
{
	put(m, s, n, count, 0, 1);
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

		line++;
		if (len == 0)
			continue;
		if (folded_parse(l, len, &f) < 0 || f.has2) {
			char q[4 * 60 + 8];

			if (bad++ < SHOWN)
				warn_at(in->name, line, "skipped invalid line %s",
				    err_quote(q, l, len, 60));
			continue;
		}
		merge_add(m, f.stack, f.stacklen, f.count, which);
	}
	if (bad)
		warn_at(in->name, 0, "ignored %llu line%s with invalid format", bad,
		    bad == 1 ? "" : "s");
	return r < 0 ? -1 : (long long)bad;
}

/* A count: whole numbers exactly, fractions with up to 10 decimals. */
static void
put_count(long double v)
{
	if (v == floorl(v) && v >= 0 && v < 18446744073709551616.0L)
		out_u64((uint64_t)v);
	else {
		char b[64];
		int n = snprintf(b, sizeof b, "%.10Lf", v);

		while (n > 0 && b[n - 1] == '0')
			n--;
		if (n > 0 && b[n - 1] == '.')
			n--;
		out_write(b, (size_t)n);
	}
}

void
merge_write(struct merge *m, int diff, int normalize)
{
	size_t n = intern_count(&m->stacks);
	uint32_t *ids = xmalloc((n + 1) * sizeof *ids);
	long double t0 = 0, t1 = 0;

	for (size_t i = 0; i < n; i++) {
		ids[i] = (uint32_t)i;
		t0 += m->count[0][i];
		t1 += m->count[1][i];
	}
	intern_sort(&m->stacks, ids, n);
	for (size_t i = 0; i < n; i++) {
		long double c0 = m->count[0][ids[i]];

		out_write(intern_str(&m->stacks, ids[i]), intern_len(&m->stacks, ids[i]));
		out_char(' ');
		if (diff && normalize && t0 != t1 && t0 > 0)
			c0 = floorl(c0 * t1 / t0);
		put_count(c0);
		if (diff) {
			out_char(' ');
			put_count(m->count[1][ids[i]]);
		}
		out_char('\n');
	}
	free(ids);
}
