/*
 * Fuzz target for the perf script parser: the same entry points the program
 * uses (perf_parse, perf_end_file, stacks_write), in three modes (the
 * second writing --to=table's table, the third with the default options,
 * whose frame lines take the cache before parsing), with the
 * input also split at its first blank line into two contexts as the
 * threaded path does; then the same bytes as folded lines through the
 * merge (--strip-hex, --diff -n) and transforms (xform_fuzz.h).  Output goes to /dev/null.
 *
 *   make fuzz && build/fuzz/fuzz_perf tests/fuzz/corpus/perf
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_file.h"
#include "lib/folded.h"
#include "lib/out.h"
#include "stackcollapse/formats.h"
#include "stackcollapse/merge.h"
#include "stackcollapse/perf.h"
#include "stackcollapse/stacks.h"
#include "xform_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
run(const char *p, size_t n, int perl, int addrs, int srcline)
{
	struct perf_opts o = { 0 };
	struct perf_shared sh = { &o, NULL, 0, 0 };
	struct perf_ctx c[2];
	struct perf_report rep;
	struct xform xf;
	const char *cut = memmem(p, n, "\n\n", 2);
	size_t used;

	o.perl = perl;
	o.include_addrs = addrs;
	o.include_tid = addrs;
	o.annotate_kernel = o.annotate_jit = !addrs;
	o.srcline = srcline;
	perf_ctx_init(&c[0], &sh);
	perf_ctx_init(&c[1], &sh);
	memset(&rep, 0, sizeof rep);
	used = perf_parse(&c[0], &sh, p, n, 1, &rep);
	if (cut && (size_t)(cut + 2 - p) > used) {
		size_t first = (size_t)(cut + 2 - p);

		perf_parse(&c[0], &sh, p + used, first - used, 0, &rep);
		perf_parse(&c[1], NULL, p + first, n - first, 0, &rep);
	} else {
		perf_parse(&c[0], &sh, p + used, n - used, 0, &rep);
	}
	perf_end_file(&c[0], &rep);
	fuzz_xform(&xf, perl);
	stacks_write(c, 2, &(struct fmt_run){ .xf = addrs ? &xf : NULL,
	    .table = addrs });
	out_flush();
	xform_end(&xf);
	perf_ctx_free(&c[0]);
	perf_ctx_free(&c[1]);
	if (sh.event_defaulted)
		free(sh.event);
}

/* The same bytes as folded lines, merged with every transform on. */
static void
run_folded(const char *p, size_t n)
{
	struct merge m;
	struct xform xf;
	const char *end = p + n;

	merge_init(&m);
	m.striphex = 1;
	fuzz_xform(&xf, 1);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)((nl ? nl : end) - p);
		struct folded f;

		/* a sum out of range is refused, and the merge goes on */
		if (folded_parse(p, len, 1, &f) == 0)
			(void)merge_add(&m, f.stack, f.stacklen, &f.c, f.has2);
		p = nl ? nl + 1 : end;
	}
	(void)xform_sum(&xf, &m.sum);
	(void)merge_write(&m, 1, 1);
	out_flush();
	merge_free(&m);
	xform_end(&xf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_quiet();
	run((const char *)data, size, 0, 0, 1);
	run((const char *)data, size, 1, 1, 0);
	run((const char *)data, size, 0, 0, 0);	/* frame_line_raw's way */
	run_folded((const char *)data, size);
	return 0;
}
