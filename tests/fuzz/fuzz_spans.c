/*
 * Fuzz target for spanlayout's readers and layout: the input, through a
 * memfd, is read as whatever it looks like (spans(5), Chrome or TiDB
 * JSON) and as spans(5) forced; what reads is built into a tree, laid
 * out, folded and written as Chrome trace events (output to /dev/null).  The layout's promise is checked
 * here too: no two spans on one row overlap, no child above its parent
 * on the same band; a broken promise aborts, so the fuzzer reports it.
 *
 *   make fuzz && build/fuzz/fuzz_spans tests/fuzz/corpus/spans
 */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_file.h"
#include "lib/out.h"
#include "spanlayout/chromeout.h"
#include "spanlayout/fold.h"
#include "spanlayout/layout.h"
#include "spanlayout/spanset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct spanset *cs;
static const uint32_t *crow;

static int
by_row_start(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (crow[x] != crow[y])
		return crow[x] < crow[y] ? -1 : 1;
	if (cs->v[x].start != cs->v[y].start)
		return cs->v[x].start < cs->v[y].start ? -1 : 1;
	return (x > y) - (x < y);
}

static void
check(const struct spanset *s, const struct tree *t, const uint32_t *row)
{
	uint32_t *o = malloc((s->n + 1) * sizeof *o);

	for (size_t i = 0; i < s->n; i++) {
		uint32_t p = t->parent[i];

		o[i] = (uint32_t)i;
		if (p < s->n && row[p] >= row[i])
			abort();
	}
	cs = s;
	crow = row;
	qsort(o, s->n, sizeof *o, by_row_start);
	for (size_t i = 1; i < s->n; i++) {
		const struct span *a = &s->v[o[i - 1]], *b = &s->v[o[i]];
		int64_t end = a->dur ? a->start + (int64_t)a->dur : a->start + 1;

		if (row[o[i - 1]] == row[o[i]] && b->start < end)
			abort();
	}
	free(o);
}

static void
run(const char *path, enum span_format fmt)
{
	struct spanset s;
	struct tree t;

	spanset_init(&s);
	if (spanset_read(&s, path, fmt) == 0 && tree_build(&t, &s, BANDS_AUTO) == 0) {
		spanset_notes(&s);
		uint32_t *row = malloc((t.n + 1) * sizeof *row);

		layout_rows(&t, &s, row);
		check(&s, &t, row);
		free(row);
		fold_write(&t, &s, 0, t.by_track);
		chrome_write(&s, &t);
		out_flush();
		tree_free(&t);
	}
	spanset_free(&s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd;

	fuzz_quiet();
	if ((fd = fuzz_file(data, size, path)) < 0)
		return 0;
	run(path, FMT_AUTO);
	run(path, FMT_SPANS);
	close(fd);
	return 0;
}
