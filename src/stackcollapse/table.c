/*
 * table: see table.h.  One pass over the aggregated stacks (in id order:
 * sums do not depend on it, so the stacks are not sorted) splits each
 * into frames, interned into a table of names with a self and a total
 * per name id.  A name is counted in a stack's total once: seen[] holds,
 * per name, the last stack (its index + 1) that counted it, so recursion
 * costs no set to clear between stacks.  Then the names are sorted, once,
 * for the rows.  Memory is this call's and freed before it returns.
 * Rejected: computing totals from the stacks sorted as a tree (a prefix
 * walk gives a frame's total, not a name's: a name reached by two paths
 * is two frames, and a recursive one would count twice).
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/count.h"
#include "../lib/err.h"
#include "../lib/intern.h"
#include "../lib/out.h"
#include "../lib/sort.h"
#include "table.h"

struct row {
	struct count self, total;
	size_t seen;		/* the last stack index + 1 counted in total */
};

struct names {
	struct intern t;
	struct row *row;	/* by name id */
	size_t cap;
};

/* Name s[0..n)'s id, its counts grown to hold it (zero when new). */
static uint32_t
name_id(struct names *nm, const char *s, size_t n)
{
	uint32_t id = intern_put(&nm->t, s, n, NULL);

	if (id >= nm->cap) {
		size_t old = nm->cap;

		nm->row = xgrow(nm->row, &nm->cap, (size_t)id + 1,
		    sizeof *nm->row);
		memset(nm->row + old, 0, (nm->cap - old) * sizeof *nm->row);
	}
	return id;
}

/* Heaviest self first; equal selves by name, bytewise, a prefix first. */
static int
row_cmp(const void *pa, const void *pb, const void *ctx)
{
	const struct names *nm = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const struct count *x = &nm->row[a].self, *y = &nm->row[b].self;

	if (x->whole != y->whole)
		return x->whole > y->whole ? -1 : 1;
	if (x->frac != y->frac)
		return x->frac > y->frac ? -1 : 1;
	return intern_cmp(&nm->t, a, b);
}

static void
put_count(const struct count *c)
{
	char b[COUNT_TEXT_MAX];

	out_write(b, count_fmt(b, c));
}

int
table_write(const struct folded_sum *a)
{
	size_t n = folded_sum_n(a), len, nnames;
	struct count all = { 0, 0 };
	struct names nm;
	uint32_t *rows;

	for (uint32_t i = 0; i < n; i++)
		if (count_add(&all, folded_sum_count(a, 0, i)) < 0)
			return -1;
	memset(&nm, 0, sizeof nm);
	intern_init(&nm.t);
	for (uint32_t i = 0; i < n; i++) {
		const char *s = folded_sum_stack(a, i, &len);
		const struct count *c = folded_sum_count(a, 0, i);
		size_t start = 0;
		uint32_t id = 0;

		while (len > 0 && s[len - 1] == ';')
			len--;
		while (len > 0 && start <= len) {
			const char *semi = memchr(s + start, ';', len - start);
			size_t e = semi ? (size_t)(semi - s) : len;

			id = name_id(&nm, s + start, e - start);
			if (nm.row[id].seen != (size_t)i + 1) {
				nm.row[id].seen = (size_t)i + 1;
				/* cannot fail: no total exceeds all's, which fits */
				(void)count_add(&nm.row[id].total, c);
			}
			start = e + 1;
		}
		if (len > 0)
			(void)count_add(&nm.row[id].self, c);	/* as above */
	}
	nnames = intern_count(&nm.t);
	rows = xmalloc((nnames + 1) * sizeof *rows);
	for (size_t i = 0; i < nnames; i++)
		rows[i] = (uint32_t)i;
	sort_ctx(rows, nnames, sizeof *rows, row_cmp, &nm);
	out_str("# total\t");
	put_count(&all);
	out_str("\n# self\ttotal\tname\n");
	for (size_t i = 0; i < nnames; i++) {
		put_count(&nm.row[rows[i]].self);
		out_char('\t');
		put_count(&nm.row[rows[i]].total);
		out_char('\t');
		out_write(intern_str(&nm.t, rows[i]), intern_len(&nm.t, rows[i]));
		out_char('\n');
	}
	free(rows);
	free(nm.row);
	intern_free(&nm.t);
	return 0;
}
