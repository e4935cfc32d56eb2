/*
 * strsort: see strsort.h for the design note.
 */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "sort.h"
#include "strsort.h"

/* Parts shorter than this are insertion sorted. */
#define SHORT 12

/*
 * Parts at least this long are put in the order of their keys by an LSD
 * radix sort, a pass for each byte that is not the same in all, before
 * the runs of equal keys go on deeper: passes with no comparison, where
 * a partition mispredicted a branch an item a step (partitions were a
 * tenth of a graph of 200,000 unsorted stacks).
 */
#define RADIX 4096

/* A part of the array to sort, whose strings agree on their first depth bytes. */
struct part {
	size_t lo, n, depth;
	unsigned budget;	/* partitions left before the merge sort */
};

/* The parts left to sort. */
struct stack {
	struct part *p;
	size_t n, cap;
};

/*
 * The eight bytes of s[0..n) from depth on, the first the most
 * significant, zeros past the end: integers that order as the bytes do.
 * (The shifts, not a load and a byte swap: no byte order to test, and
 * compilers make them one load where the order allows.)
 */
static inline uint64_t
key_at(const char *s, uint32_t n, size_t depth)
{
	const unsigned char *p = (const unsigned char *)s + depth;
	uint64_t k = 0;

	if (n >= depth + 8)
		return (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 |
		    (uint64_t)p[2] << 40 | (uint64_t)p[3] << 32 |
		    (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 |
		    (uint64_t)p[6] << 8 | p[7];
	for (size_t i = 0; depth + i < n; i++)
		k |= (uint64_t)p[i] << (56 - 8 * i);
	return k;
}

/* How many of the key's bytes are the string's (fewer than 8: it ends). */
static inline size_t
key_len(uint32_t n, size_t depth)
{
	return n <= depth ? 0 : n - depth >= 8 ? 8 : n - depth;
}

/*
 * Order of a and b by their keys at depth: a key that is a prefix of
 * another (zeros past its end) sorts first.
 */
static inline int
key_cmp(uint64_t ka, uint32_t na, uint64_t kb, uint32_t nb, size_t depth)
{
	size_t la, lb;

	if (ka != kb)
		return ka < kb ? -1 : 1;
	la = key_len(na, depth);
	lb = key_len(nb, depth);
	return (la > lb) - (la < lb);
}

/* Order of two strings that agree on their first depth bytes. */
static int
str_cmp(const struct strsort_item *a, const struct strsort_item *b,
    size_t depth)
{
	uint32_t n = a->n < b->n ? a->n : b->n;
	int r = n > depth ? memcmp(a->s + depth, b->s + depth, n - depth) : 0;

	return r ? r : (a->n > b->n) - (a->n < b->n);
}

static int
cmp_from(const void *va, const void *vb, const void *ctx)
{
	return str_cmp(va, vb, *(const size_t *)ctx);
}

static void
insertion(struct strsort_item *v, size_t n, size_t depth)
{
	for (size_t i = 1; i < n; i++) {
		struct strsort_item t = v[i];
		size_t j = i;

		for (; j > 0; j--) {
			int c = key_cmp(v[j - 1].key, v[j - 1].n, t.key, t.n,
			    depth);

			if (c < 0 || (c == 0 && (key_len(t.n, depth) < 8 ||
			    str_cmp(&v[j - 1], &t, depth + 8) <= 0)))
				break;
			v[j] = v[j - 1];
		}
		v[j] = t;
	}
}

static inline void
swap(struct strsort_item *a, struct strsort_item *b)
{
	struct strsort_item t = *a;

	*a = *b;
	*b = t;
}

/* The median of three items by key, as an index. */
static size_t
median3(const struct strsort_item *v, size_t a, size_t b, size_t c,
    size_t depth)
{
#define LT(x, y) (key_cmp(v[x].key, v[x].n, v[y].key, v[y].n, depth) < 0)
	if (LT(a, b))
		return LT(b, c) ? b : LT(a, c) ? c : a;
	return LT(a, c) ? a : LT(b, c) ? c : b;
#undef LT
}

static unsigned
budget(size_t n)
{
	unsigned b = 0;

	while (n >>= 1)
		b += 2;
	return b + 2;
}

static void
push(struct stack *st, size_t lo, size_t n, size_t depth, unsigned budget)
{
	st->p = xgrow(st->p, &st->cap, st->n + 1, sizeof *st->p);
	st->p[st->n++] = (struct part){ lo, n, depth, budget };
}

/*
 * v[lo..lo+n), whose keys at depth are equal: those whose strings end in
 * the key first, the shorter first (equal strings, each group), then
 * those that go on, pushed to be sorted eight bytes deeper.  Strings
 * that end in the key are found only by the radix sort, which gives tmp
 * (n items); the partition's equal keys have equal lengths too.
 */
static void
equal_run(struct strsort_item *v, size_t lo, size_t n, size_t depth,
    struct strsort_item *tmp, struct stack *st)
{
	struct strsort_item *a = v + lo;
	size_t at[10] = { 0 }, i, k;

	for (i = 0; i < n; i++)
		at[key_len(a[i].n, depth) + 1]++;
	if (at[key_len(a[0].n, depth) + 1] != n) {
		for (k = 1; k < 10; k++)
			at[k] += at[k - 1];
		for (i = 0; i < n; i++)
			tmp[at[key_len(a[i].n, depth)]++] = a[i];
		memcpy(a, tmp, n * sizeof *a);
	}
	for (k = n; k > 0 && key_len(a[k - 1].n, depth) == 8; k--)
		;
	if (n - k > 1) {
		for (i = k; i < n; i++)
			a[i].key = key_at(a[i].s, a[i].n, depth + 8);
		push(st, lo + k, n - k, depth + 8, budget(n - k));
	}
}

/* Part p by an LSD radix sort of its keys through tmp, then equal_run. */
static void
radix_part(struct strsort_item *v, const struct part *p,
    struct strsort_item *tmp, struct stack *st)
{
	struct strsort_item *a = v + p->lo, *src = a, *dst = tmp, *t;
	size_t count[8][256], i, r;
	unsigned b;

	memset(count, 0, sizeof count);
	for (i = 0; i < p->n; i++)
		for (b = 0; b < 8; b++)
			count[b][(a[i].key >> (8 * b)) & 255]++;
	for (b = 0; b < 8; b++) {
		size_t sum = 0, c;

		if (count[b][(a[0].key >> (8 * b)) & 255] == p->n)
			continue;	/* the same byte in all */
		for (i = 0; i < 256; i++) {
			c = count[b][i];
			count[b][i] = sum;
			sum += c;
		}
		for (i = 0; i < p->n; i++)
			dst[count[b][(src[i].key >> (8 * b)) & 255]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, p->n * sizeof *a);
	for (i = 0; i < p->n; i = r) {
		for (r = i + 1; r < p->n && a[r].key == a[i].key; r++)
			;
		if (r - i > 1)
			equal_run(v, p->lo + i, r - i, p->depth, tmp, st);
	}
}

void
strsort(struct strsort_item *v, size_t n)
{
	struct stack st = { NULL, 0, 0 };
	struct strsort_item *tmp = n >= RADIX ? xmalloc(n * sizeof *tmp) : NULL;

	for (size_t i = 0; i < n; i++)
		v[i].key = key_at(v[i].s, v[i].n, 0);
	if (n > 1)
		push(&st, 0, n, 0, budget(n));
	while (st.n > 0) {
		struct part p = st.p[--st.n];
		struct strsort_item *a = v + p.lo;
		size_t lt = 0, i = 0, gt = p.n, m;
		uint64_t pk;
		uint32_t pn;

		if (p.n >= RADIX) {
			radix_part(v, &p, tmp, &st);
			continue;
		}
		if (p.n < SHORT) {
			insertion(a, p.n, p.depth);
			continue;
		}
		if (p.budget == 0) {
			sort_ctx(a, p.n, sizeof *a, cmp_from, &p.depth);
			continue;
		}
		/*
		 * Tukey's ninther for a long part: a median of three alone
		 * let parts that partitioning had left in order (sorted
		 * input) shrink by a few items a step.
		 */
		if (p.n > 40) {
			size_t e = p.n / 8;

			m = median3(a, median3(a, 0, e, 2 * e, p.depth),
			    median3(a, 3 * e, 4 * e, 5 * e, p.depth),
			    median3(a, 6 * e, 7 * e, p.n - 1, p.depth), p.depth);
		} else
			m = median3(a, 0, p.n / 2, p.n - 1, p.depth);
		pk = a[m].key;
		pn = a[m].n;
		/* a[0..lt) below the pivot, a[lt..i) equal, a[gt..n) above */
		while (i < gt) {
			int c = key_cmp(a[i].key, a[i].n, pk, pn, p.depth);

			if (c < 0)
				swap(&a[lt++], &a[i++]);
			else if (c > 0)
				swap(&a[i], &a[--gt]);
			else
				i++;
		}
		if (lt > 1)
			push(&st, p.lo, lt, p.depth, p.budget - 1);
		if (p.n - gt > 1)
			push(&st, p.lo + gt, p.n - gt, p.depth, p.budget - 1);
		if (gt - lt > 1)
			equal_run(v, p.lo + lt, gt - lt, p.depth, tmp, &st);
	}
	free(st.p);
	free(tmp);
}
