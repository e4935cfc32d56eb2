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
 * The diff form (table_write_diff) is the same pass over two columns; its
 * order compares shares in long double (rows are exact, the order of two
 * shares that differ past long double's 64 bits is by name).
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/count.h"
#include "../lib/err.h"
#include "../lib/folded.h"
#include "../lib/intern.h"
#include "../lib/out.h"
#include "../lib/sort.h"
#include "table.h"

struct row {
	struct count self[2], total[2];	/* per column: the only, or before, after */
	size_t seen;		/* the last stack index + 1 counted in total */
	long double key;	/* diff: the growth of self share, the order */
};

struct names {
	struct intern t;
	struct row *row;	/* by name id */
	size_t cap;
	struct count all[2];	/* each column's sum */
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
	const struct count *x = &nm->row[a].self[0], *y = &nm->row[b].self[0];

	if (x->whole != y->whole)
		return x->whole > y->whole ? -1 : 1;
	if (x->frac != y->frac)
		return x->frac > y->frac ? -1 : 1;
	return intern_cmp(&nm->t, a, b);
}

/* Diff: the largest growth of self share first, then by name. */
static int
row_cmp_diff(const void *pa, const void *pb, const void *ctx)
{
	const struct names *nm = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	long double x = nm->row[a].key, y = nm->row[b].key;

	if (x != y)
		return x > y ? -1 : 1;
	return intern_cmp(&nm->t, a, b);
}

/*
 * Sum columns 0 .. ncol-1 of a into nm, by name.  Returns 0, or -1 when
 * a column's sum is 2^64 or more.  Either way names_free frees nm.
 */
static int
sum_names(const struct folded_sum *a, int ncol, struct names *nm)
{
	size_t n = folded_sum_n(a), len;

	memset(nm, 0, sizeof *nm);
	intern_init(&nm->t);
	for (int c = 0; c < ncol; c++)
		for (uint32_t i = 0; i < n; i++)
			if (count_add(&nm->all[c], folded_sum_count(a, c, i)) < 0)
				return -1;
	for (uint32_t i = 0; i < n; i++) {
		const char *s = folded_sum_stack(a, i, &len);
		size_t start = 0;
		uint32_t id = 0;

		while (len > 0 && s[len - 1] == ';')
			len--;
		while (len > 0 && start <= len) {
			const char *semi = memchr(s + start, ';', len - start);
			size_t e = semi ? (size_t)(semi - s) : len;

			id = name_id(nm, s + start, e - start);
			if (nm->row[id].seen != (size_t)i + 1) {
				nm->row[id].seen = (size_t)i + 1;
				/* cannot fail: no total exceeds all's, which fits */
				for (int c = 0; c < ncol; c++)
					(void)count_add(&nm->row[id].total[c],
					    folded_sum_count(a, c, i));
			}
			start = e + 1;
		}
		if (len > 0)
			for (int c = 0; c < ncol; c++)	/* as above */
				(void)count_add(&nm->row[id].self[c],
				    folded_sum_count(a, c, i));
	}
	return 0;
}

/* The names in the order cmp gives: an array for the caller to free. */
static uint32_t *
sorted_rows(const struct names *nm, sort_cmp *cmp)
{
	size_t n = intern_count(&nm->t);
	uint32_t *rows = xmalloc((n + 1) * sizeof *rows);

	for (size_t i = 0; i < n; i++)
		rows[i] = (uint32_t)i;
	sort_ctx(rows, n, sizeof *rows, cmp, nm);
	return rows;
}

static void
names_free(struct names *nm)
{
	free(nm->row);
	intern_free(&nm->t);
}

/*
 * c as a percentage of all, two decimals and a '%' as pprof's top writes
 * them; 0.00% of an empty total.  Long double holds any count's share
 * closer than the two decimals show.
 */
static void
put_share(const struct count *c, const struct count *all)
{
	long double t = count_ld(all);

	out_fmt("%.2Lf%%", t > 0 ? 100 * count_ld(c) / t : 0.0L);
}

/*
 * The table of a's first ncol columns: ncol 1 by self, heaviest first,
 * with shares of the total; ncol 2 (before, after) by growth of self
 * share.
 */
static int
write_table(const struct folded_sum *a, int ncol, const char *unit)
{
	struct names nm;
	uint32_t *rows;
	size_t n;

	if (sum_names(a, ncol, &nm) < 0) {
		names_free(&nm);
		return -1;
	}
	n = intern_count(&nm.t);
	if (ncol == 2) {
		long double tb = count_ld(&nm.all[0]);
		long double ta = count_ld(&nm.all[1]);

		for (size_t i = 0; i < n; i++) {
			struct row *r = &nm.row[i];

			r->key = (ta > 0 ? count_ld(&r->self[1]) / ta : 0) -
			    (tb > 0 ? count_ld(&r->self[0]) / tb : 0);
		}
	}
	rows = sorted_rows(&nm, ncol == 2 ? row_cmp_diff : row_cmp);
	if (unit) {
		out_str(FOLDED_UNIT_LINE);
		out_str(unit);
		out_char('\n');
	}
	out_str("# total");
	for (int c = 0; c < ncol; c++) {
		out_char('\t');
		count_put(&nm.all[c]);
	}
	out_str(ncol == 2 ? "\n# self_before\ttotal_before\tself_after"
	    "\ttotal_after\tname\n" :
	    "\n# self\ttotal\tself%\ttotal%\tname\n");
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &nm.row[rows[i]];

		for (int c = 0; c < ncol; c++) {
			count_put(&r->self[c]);
			out_char('\t');
			count_put(&r->total[c]);
			out_char('\t');
		}
		if (ncol == 1) {
			put_share(&r->self[0], &nm.all[0]);
			out_char('\t');
			put_share(&r->total[0], &nm.all[0]);
			out_char('\t');
		}
		out_write(intern_str(&nm.t, rows[i]), intern_len(&nm.t, rows[i]));
		out_char('\n');
	}
	free(rows);
	names_free(&nm);
	return 0;
}

int
table_write(const struct folded_sum *a, const char *unit)
{
	return write_table(a, 1, unit);
}

int
table_write_diff(const struct folded_sum *a, const char *unit)
{
	return write_table(a, 2, unit);
}
