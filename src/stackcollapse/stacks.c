/*
 * stacks: see stacks.h.
 *
 * Each context counted stacks as arrays of frame ids in its own tables, so
 * the ids mean nothing across contexts; the common ground is the joined
 * text.  The number of distinct stacks is small next to the input (it is
 * what a flame graph draws), so each context's stacks are joined once
 * and summed by their text in folded.c's table, which sorts them and
 * writes them as every other format's are.  Rejected: sorting the joined
 * lines and summing equal neighbours here (the table's job, done twice).
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/count.h"
#include "../lib/err.h"
#include "../lib/folded.h"
#include "formats.h"
#include "stacks.h"
#include "transform.h"

/*
 * Frames ids[0..n) of c, leaf first, joined root first with ';' in *buf
 * (grown as needed); returns the length.  The frames were made frames
 * (folded_frame_fix) when perf.c named them.
 */
static size_t
join(const struct perf_ctx *c, const uint32_t *ids, size_t n, char **buf,
    size_t *cap)
{
	size_t len = 0, w = 0;

	for (size_t f = 0; f < n; f++)
		len += intern_len(&c->frames, ids[f]) + 1;
	*buf = xgrow(*buf, cap, len + 1, 1);
	for (size_t f = n; f-- > 0;) {
		size_t fl = intern_len(&c->frames, ids[f]);

		if (f + 1 < n)
			(*buf)[w++] = ';';
		memcpy(*buf + w, intern_str(&c->frames, ids[f]), fl);
		w += fl;
	}
	return w;
}

int
stacks_write(struct perf_ctx *ctx, int nctx, const struct fmt_run *run)
{
	struct folded_sum sum;
	char *buf = NULL;
	size_t cap = 0;
	int ret = 0;

	folded_sum_init(&sum);
	for (int k = 0; k < nctx && ret == 0; k++) {
		const struct perf_ctx *c = &ctx[k];

		for (size_t r = 0; r < c->stacks.len;
		    r = rtab_next(&c->stacks, r)) {
			size_t klen;
			const uint32_t *ids = rtab_key(&c->stacks, r, &klen);
			size_t len = join(c, ids, klen / sizeof *ids, &buf,
			    &cap);
			struct count n = { *(uint64_t *)rtab_val(&c->stacks, r),
			    0 };

			if (folded_sum_add(&sum, buf, len, 0, &n) < 0) {
				ret = -1;
				break;
			}
		}
	}
	if (ret < 0)
		warn_msg("a stack's total count does not fit in 64 bits");
	else
		ret = sink_write_sum(&sum, run);
	folded_sum_free(&sum);
	free(buf);
	return ret;
}

void
stacks_emit(struct perf_ctx *c, const uint32_t *ids, size_t n, uint64_t count)
{
	struct count cnt = { count, 0 };
	char *buf = NULL;	/* not c->scratch: ids are there */
	size_t cap = 0, len = join(c, ids, n, &buf, &cap);

	xform_write(c->sh->o->xf, buf, len, &cnt);
	free(buf);
}
