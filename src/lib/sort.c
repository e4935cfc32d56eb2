/*
 * sort: see sort.h.
 */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "sort.h"

/*
 * Merge v[0..h) and v[h..n), each sorted: the left half out to tmp, then
 * back with the right one, which the output can never overtake.  Inlined
 * with a constant size for index arrays, whose copies become moves.
 */
static inline void
merge(char *v, char *tmp, size_t h, size_t n, size_t size, sort_cmp *cmp,
    const void *ctx)
{
	char *l = tmp, *le = tmp + h * size;
	char *r = v + h * size, *re = v + n * size, *o = v;

	memcpy(tmp, v, h * size);
	while (l < le && r < re) {
		/* <= takes the left one on a tie: stable. */
		if (cmp(l, r, ctx) <= 0) {
			memcpy(o, l, size);
			l += size;
		} else {
			memcpy(o, r, size);
			r += size;
		}
		o += size;
	}
	/* What is left of the right half is already in place. */
	memcpy(o, l, (size_t)(le - l));
}

static void
msort(char *v, char *tmp, size_t n, size_t size, sort_cmp *cmp,
    const void *ctx)
{
	size_t h = n / 2;

	if (n < 2)
		return;
	msort(v, tmp, h, size, cmp, ctx);
	msort(v + h * size, tmp, n - h, size, cmp, ctx);
	if (size == 4)
		merge(v, tmp, h, n, 4, cmp, ctx);
	else if (size == 8)
		merge(v, tmp, h, n, 8, cmp, ctx);
	else
		merge(v, tmp, h, n, size, cmp, ctx);
}

void
sort_ctx(void *base, size_t n, size_t size, sort_cmp *cmp, const void *ctx)
{
	char *tmp;

	if (n < 2)
		return;
	tmp = xmalloc(n / 2 * size);
	msort(base, tmp, n, size, cmp, ctx);
	free(tmp);
}
