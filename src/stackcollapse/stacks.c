/*
 * stacks: see stacks.h.
 *
 * Each context counted stacks as arrays of frame ids in its own tables, so
 * the ids mean nothing across contexts; the common ground is the joined
 * text.  The number of distinct stacks is small next to the input (it is
 * what a flame graph draws), so joining them all, sorting the lines and
 * summing equal neighbours is cheap and deterministic.  Rejected: merging
 * into one hash table first (a second hashing of every line for no gain,
 * since the output must be sorted anyway).
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/arena.h"
#include "../lib/count.h"
#include "../lib/err.h"
#include "../lib/out.h"
#include "merge.h"
#include "stacks.h"

struct line {
	const char *s;
	size_t n;
	uint64_t count;
};

static int
cmp_line(const void *va, const void *vb)
{
	const struct line *a = va, *b = vb;
	size_t n = a->n < b->n ? a->n : b->n;
	int r = memcmp(a->s, b->s, n);

	if (r)
		return r;
	return (a->n > b->n) - (a->n < b->n);
}

int
stacks_write(struct perf_ctx *ctx, int nctx, int recursive)
{
	struct arena ar;
	struct line *lines;
	size_t nlines = 0, total = 0, i, j;
	int k, ret = 0;

	for (k = 0; k < nctx; k++)
		total += intern_count(&ctx[k].stacks);
	lines = xcalloc(total, sizeof *lines);
	arena_init(&ar);
	for (k = 0; k < nctx; k++) {
		struct perf_ctx *c = &ctx[k];

		for (i = 0; i < intern_count(&c->stacks); i++) {
			const uint32_t *ids = (const void *)intern_str(&c->stacks,
			    (uint32_t)i);
			size_t nids = intern_len(&c->stacks, (uint32_t)i) / 4;
			size_t len = 0, f;
			char *s, *w;

			for (f = 0; f < nids; f++)
				len += intern_len(&c->frames, ids[f]) + 1;
			w = s = arena_alloc(&ar, len);
			for (f = 0; f < nids; f++) {
				size_t fl = intern_len(&c->frames, ids[f]);

				if (f)
					*w++ = ';';
				memcpy(w, intern_str(&c->frames, ids[f]), fl);
				w += fl;
			}
			lines[nlines++] = (struct line){ s, recursive ?
			    merge_unrecurse(s, (size_t)(w - s)) : (size_t)(w - s),
			    c->counts[i] };
		}
	}
	qsort(lines, nlines, sizeof *lines, cmp_line);
	for (i = 0; i < nlines; i = j) {
		uint64_t sum = lines[i].count;

		for (j = i + 1; j < nlines && cmp_line(&lines[i], &lines[j]) == 0;
		    j++) {
			if (count_add_u64(&sum, lines[j].count) < 0) {
				ret = -1;
				goto done;
			}
		}
		lines[i].count = sum;
	}
	for (i = 0; i < nlines; i = j) {
		for (j = i + 1; j < nlines && cmp_line(&lines[i], &lines[j]) == 0;
		    j++)
			;
		out_write(lines[i].s, lines[i].n);
		out_char(' ');
		out_u64(lines[i].count);
		out_char('\n');
	}
done:
	arena_free(&ar);
	free(lines);
	return ret;
}

void
stacks_emit(struct perf_ctx *c, const uint32_t *ids, size_t n, uint64_t count)
{
	size_t len = 0, w = 0;
	char *s;

	for (size_t f = 0; f < n; f++)
		len += intern_len(&c->frames, ids[f]) + 1;
	s = xmalloc(len + 1);
	for (size_t f = 0; f < n; f++) {
		size_t fl = intern_len(&c->frames, ids[f]);

		if (f)
			s[w++] = ';';
		memcpy(s + w, intern_str(&c->frames, ids[f]), fl);
		w += fl;
	}
	if (c->sh->o->recursive)
		w = merge_unrecurse(s, w);
	out_write(s, w);
	out_char(' ');
	out_u64(count);
	out_char('\n');
	free(s);
}
