/*
 * bars: see bars.h.  Bars are nested by sorting them by row and start
 * and walking each row beside the row below, so nesting costs a sort.
 * A stack is made by following parents down to the root: a graph's
 * depth is small beside its width, and this keeps no tree but the
 * parent links.  Rejected: a tree of nodes with child lists, which the
 * stacks do not need, since the sink sums and sorts them anyway.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/sort.h"
#include "bars.h"

void
bars_init(struct bars *b)
{
	memset(b, 0, sizeof *b);
	intern_init(&b->names);
}

void
bars_free(struct bars *b)
{
	free(b->b);
	intern_free(&b->names);
}

struct bar *
bars_add(struct bars *b, const char *s, size_t n, uint32_t row, uint64_t line)
{
	struct bar *x;

	b->b = xgrow(b->b, &b->cap, b->n + 1, sizeof *b->b);
	x = &b->b[b->n++];
	memset(x, 0, sizeof *x);
	x->name = intern_put(&b->names, s, n, NULL);
	x->row = row;
	x->parent = BAR_NONE;
	x->line = line;
	return x;
}

/* By row, then start, then order read (a stable sort by hand). */
static int
by_place(const void *pa, const void *pb, const void *ctx)
{
	const struct bar *bs = ctx;
	size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
	const struct bar *a = &bs[ia], *b = &bs[ib];
	int c;

	if (a->row != b->row)
		return a->row < b->row ? -1 : 1;
	if ((c = count_cmp(&a->start, &b->start)) != 0)
		return c;
	return (ia > ib) - (ia < ib);
}

static void
end_of(const struct bar *x, struct count *e)
{
	*e = x->start;
	(void)count_add(e, &x->w);	/* checked when read */
}

static int
fail_at(struct reader *r, uint64_t line, const char *what, const struct bars *b,
    const struct bar *x)
{
	char q[4 * 60 + 8];

	err_quote(q, intern_str(&b->names, x->name), intern_len(&b->names,
	    x->name), 60);
	if (b->at_byte) {
		r->line = 0;
		return rd_fail(r, "byte %llu: %s: %s", (unsigned long long)line,
		    what, q);
	}
	r->line = line;
	return rd_fail(r, "%s: %s", what, q);
}

int
bars_nest(struct bars *b, struct reader *r)
{
	size_t *ix = xmalloc((b->n + 1) * sizeof *ix), i, lo = 0, p = 0;
	size_t prow = 0, prown = 0;	/* the row below: ix[prow..prow+prown) */
	int ret = 0;

	for (i = 0; i < b->n; i++)
		ix[i] = i;
	sort_ctx(ix, b->n, sizeof *ix, by_place, b->b);
	for (i = 0; i < b->n && ret == 0; i++) {
		struct bar *x = &b->b[ix[i]];
		struct count e, pe;

		if (i == 0 || x->row != b->b[ix[i - 1]].row) {
			/* a new row: the one just done is the row below */
			if (i > 0 && x->row == b->b[ix[i - 1]].row + 1) {
				prow = lo;
				prown = i - lo;
			} else
				prown = 0;
			lo = i;
			p = 0;
		} else {
			end_of(&b->b[ix[i - 1]], &pe);
			if (count_cmp(&x->start, &pe) < 0)
				ret = fail_at(r, x->line, "frames overlap", b, x);
		}
		if (x->row == 0 || ret < 0)
			continue;
		end_of(x, &e);
		while (p < prown && (end_of(&b->b[ix[prow + p]], &pe),
		    count_cmp(&pe, &e) < 0))
			p++;
		if (p == prown || count_cmp(&b->b[ix[prow + p]].start,
		    &x->start) > 0)
			ret = fail_at(r, x->line, "a frame that no frame below "
			    "holds", b, x);
		else
			x->parent = (uint32_t)ix[prow + p];
	}
	free(ix);
	return ret;
}

int
bars_self(const struct bars *b, struct reader *r, int col, struct count *self)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		self[i] = b->b[i].tot[col];
	for (i = 0; i < b->n; i++) {
		const struct bar *x = &b->b[i];

		if (x->parent != BAR_NONE &&
		    count_sub(&self[x->parent], &x->tot[col]) < 0)
			return fail_at(r, b->b[x->parent].line, "a frame's count "
			    "is smaller than its children's", b,
			    &b->b[x->parent]);
	}
	return 0;
}

void
bars_emit(const struct bars *b, struct reader *r, const struct count *self0,
    const struct count *self1)
{
	static const struct count zero;
	uint32_t *chain = NULL;
	size_t cap = 0;
	struct fstack fs;

	fs_init(&fs);
	for (size_t i = 0; i < b->n; i++) {
		size_t k = 0;

		if (count_cmp(&self0[i], &zero) == 0 &&
		    (!self1 || count_cmp(&self1[i], &zero) == 0))
			continue;
		for (uint32_t j = (uint32_t)i; b->b[j].parent != BAR_NONE;
		    j = b->b[j].parent) {
			chain = xgrow(chain, &cap, k + 1, sizeof *chain);
			chain[k++] = j;
		}
		while (k-- > 0)
			fs_push(&fs, intern_str(&b->names, b->b[chain[k]].name),
			    intern_len(&b->names, b->b[chain[k]].name));
		r->line = b->at_byte ? 0 : b->b[i].line;
		sink_put2(r->sink, fs.buf, fs.len, &self0[i],
		    self1 ? &self1[i] : NULL);
		fs_truncate(&fs, 0);
	}
	fs_free(&fs);
	free(chain);
}
