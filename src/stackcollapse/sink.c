/*
 * sink: see formats.h.  Aggregated stacks go into the same table as merged
 * folded files (merge.c), so every format sums, sorts and collapses
 * recursion the one way; --no-aggregate writes each stack as it ends,
 * which is what a flame chart needs: time order, no merging of neighbours.
 * The frame stack keeps its frames in one byte buffer with offsets, so
 * pushing and popping frames costs no allocation once it has grown; the
 * buffer holds them joined with ';' already, so a stack written root
 * first (the call-tree formats, a line a frame and a stack per leaf) is
 * handed over without a copy.  Every frame pushed is made a frame by
 * folded_frame_fix, here and only here, so no format can leave a ';' in
 * a name (a Rust "$u3b$" turned back into one, say).
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/folded.h"
#include "../lib/out.h"
#include "formats.h"
#include "flamebearer.h"
#include "pprofout.h"
#include "speedscope.h"
#include "table.h"
#include "transform.h"

void
sink_init(struct sink *s, const struct fmt_run *run)
{
	memset(s, 0, sizeof *s);
	merge_init(&s->m);
	s->noagg = run->noagg;
	s->run = run;
}

void
sink_put(struct sink *s, const char *st, size_t n, uint64_t count, int replace)
{
	struct count c = { count, 0 };

	if (s->noagg) {
		xform_write(s->run->xf, st, n, &c);
		return;
	}
	if (replace)
		merge_set(&s->m, st, n, &c);
	else if (merge_add(&s->m, st, n, &c, 0) < 0 && !s->failed) {
		if (!s->rd || !s->rd->quiet)
			warn_at(s->rd ? s->rd->name : NULL, s->rd ? s->rd->line : 0,
			    "a stack's counts sum to 2^64 or more");
		s->failed = 1;
	}
}

void
sink_put2(struct sink *s, const char *st, size_t n, const struct count *c0,
    const struct count *c1)
{
	int bad;

	if (s->noagg) {
		folded_write(st, n, c0, c1);
		return;
	}
	bad = merge_add(&s->m, st, n, c0, 0) < 0;
	if (c1) {
		bad |= merge_add(&s->m, st, n, c1, 1) < 0;
		s->two = 1;
	}
	if (bad && !s->failed) {
		if (!s->rd || !s->rd->quiet)
			warn_at(s->rd ? s->rd->name : NULL, s->rd ? s->rd->line : 0,
			    "a stack's counts sum to 2^64 or more");
		s->failed = 1;
	}
}

void
sink_unit(struct sink *s, const char *u)
{
	merge_unit(&s->m, u);
}

int
sink_finish(struct sink *s, int write)
{
	int ret = 0;

	if (!s->noagg && write && !s->failed && s->two) {
		ret = sink_write_diff(&s->m, s->run);
	} else if (!s->noagg && write && !s->failed) {
		struct fmt_run r = *s->run;

		/* folded input's "# unit:", passed on, or what pprof says */
		if (s->m.unit[0] && !r.unit)
			r.unit = strcmp(s->m.unit, "ns") == 0 ? "nanoseconds" :
			    strcmp(s->m.unit, "bytes") == 0 ? "bytes" :
			    r.pprof || r.table ? "objects" : NULL;
		if (s->m.unit[0] && !r.table && !r.pprof && !r.speedscope &&
		    !r.flamebearer) {
			out_str(FOLDED_UNIT_LINE);
			out_str(s->m.unit);
			out_char('\n');
		}
		ret = sink_write_sum(&s->m.sum, &r);
	}
	merge_free(&s->m);
	return ret;
}

/*
 * folded(5)'s name of a unit that --unit or a reader gave as speedscope
 * or pprof name it ("nanoseconds", "alloc_space/bytes", "objects/count"),
 * or NULL.
 */
static const char *
folded_unit_of(const char *u)
{
	size_t n = u ? strlen(u) : 0;

	if (n == 0)
		return NULL;
	if (strcmp(u, "nanoseconds") == 0 || (n > 12 && strcmp(u + n - 12, "/nanoseconds") == 0))
		return "ns";
	if (n >= 5 && strcmp(u + n - 5, "bytes") == 0)
		return "bytes";
	if ((n >= 7 && strcmp(u + n - 7, "objects") == 0) ||
	    (n >= 13 && strcmp(u + n - 13, "objects/count") == 0))
		return "objects";
	return NULL;
}

int
sink_write_sum(struct folded_sum *a, const struct fmt_run *run)
{
	int ret;

	if (xform_sum(run->xf, a) < 0) {
		warn_msg("a transformed stack's counts sum to 2^64 or more");
		return -1;
	}
	if (run->pprof)
		return pprof_write(a, run->unit);
	if (run->flamebearer)
		return flamebearer_write(a, 0, run->unit);
	if (!run->table && !run->speedscope) {
		folded_sum_write(a);
		return 0;
	}
	ret = run->table ? table_write(a, folded_unit_of(run->unit)) :
	    speedscope_write(a, run->unit ? run->unit : "none");
	if (ret < 0)
		warn_msg(TABLE_RANGE_WHAT);
	return ret;
}

/*
 * Two columns, as --diff writes them: folded "STACK BEFORE AFTER", the
 * table of both, or a double flamebearer; pprof and speedscope have no
 * place for a second column.
 */
int
sink_write_diff(struct merge *m, const struct fmt_run *run)
{
	int ret;

	if (run->pprof || run->speedscope) {
		warn_msg("the input has two columns (before, after): --to=%s "
		    "holds one; use --to=folded, table or flamebearer",
		    run->pprof ? "pprof" : "speedscope");
		return -1;
	}
	if (run->flamebearer)
		return flamebearer_write(&m->sum, 1, run->unit);
	if (run->table)
		ret = table_write_diff(&m->sum, run->unit ?
		    folded_unit_of(run->unit) : m->unit[0] ? m->unit : NULL);
	else
		return merge_write(m, 1, 0);
	if (ret < 0)
		warn_msg(TABLE_RANGE_WHAT);
	return ret;
}

void
fs_init(struct fstack *f)
{
	memset(f, 0, sizeof *f);
	f->buf = xgrow(NULL, &f->cap, 256, 1);	/* never NULL, even empty */
	f->off = xgrow(NULL, &f->ncap, 16, sizeof *f->off);
	f->off[0] = 0;
}

void
fs_free(struct fstack *f)
{
	free(f->buf);
	free(f->off);
	free(f->join);
}

/* Room for a frame of n bytes and its separator; where it goes. */
static char *
fs_room(struct fstack *f, size_t n)
{
	/* A frame a line, in most formats: the common case makes no call. */
	if (f->len + 1 + n > f->cap)
		f->buf = xgrow(f->buf, &f->cap, f->len + 1 + n, 1);
	if (f->n + 2 > f->ncap)
		f->off = xgrow(f->off, &f->ncap, f->n + 2, sizeof *f->off);
	if (f->n)
		f->buf[f->len++] = ';';
	f->off[f->n] = f->len;
	return f->buf + f->len;
}

static void
fs_pushed(struct fstack *f, size_t n)
{
	f->len += n;
	f->off[++f->n] = f->len + 1;
}

void
fs_push(struct fstack *f, const char *s, size_t n)
{
	char *w = fs_room(f, n);

	memcpy(w, s, n);
	folded_frame_fix(w, n);
	fs_pushed(f, n);
}

void
fs_push2(struct fstack *f, const char *a, size_t an, char sep, const char *b,
    size_t bn)
{
	char *w = fs_room(f, an + 1 + bn);

	memcpy(w, a, an);
	w[an] = sep;
	memcpy(w + an + 1, b, bn);
	folded_frame_fix(w, an + 1 + bn);
	fs_pushed(f, an + 1 + bn);
}

void
fs_truncate(struct fstack *f, size_t n)
{
	if (n < f->n) {
		f->n = n;
		f->len = n ? f->off[n] - 1 : 0;
	}
}

const char *
fs_join(struct fstack *f, int reverse, size_t *len)
{
	size_t w = 0;

	if (!reverse) {
		*len = f->len;
		return f->buf;
	}
	f->join = xgrow(f->join, &f->joincap, f->len + 1, 1);
	for (size_t i = f->n; i-- > 0; ) {
		size_t fl = f->off[i + 1] - f->off[i] - 1;

		if (i + 1 < f->n)
			f->join[w++] = ';';
		memcpy(f->join + w, f->buf + f->off[i], fl);
		w += fl;
	}
	*len = w;
	return f->join;
}
