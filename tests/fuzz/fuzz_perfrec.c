/*
 * Fuzz target for trace-record --sample's reading of perf ring records
 * (perfev_parse) and the replay that names them (report_write): sample
 * records with call chains, MMAP, COMM, FORK and LOST records, as the
 * kernel writes them, settled by the replay a run makes as they come
 * (replay_settle: at once for the text, in two batches split at some
 * record's time for the folded stacks), then written.
 * The first byte chooses the call chains (modulo 3: none, frame
 * pointers, dwarf: registers and a stack copy, unwound with the CFI of
 * the files the MMAP records name).  Paths in MMAP records
 * are opened as the files they name, as in a real run.
 *
 *   make fuzz && build/fuzz/fuzz_perfrec tests/fuzz/corpus/perfrec
 */
#include <stdint.h>
#include <string.h>

#include "fuzz_file.h"
#include "lib/out.h"
#include "trace-record/perfev.h"
#include "trace-record/recs.h"
#include "trace-record/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int init;
	struct recs r;
	struct report_stats st;

	if (!init) {
		fuzz_quiet();
		out_init();
		init = 1;
	}
	if (size < 1)
		return 0;
	for (int folded = 0; folded < 2; folded++) {
		struct report_opts o = { folded, "cpu-clock", NULL };
		struct recs pend;
		struct replay *rp = replay_new();

		recs_init(&r);
		recs_init(&pend);
		perfev_parse(&pend, data + 1, size - 1, data[0] % 3, 0);
		if (folded)
			replay_settle(rp, &pend, &r, pend.n ? pend.v[pend.n / 2].time : 0);
		replay_settle(rp, &pend, &r, INT64_MAX);
		recs_free(&pend);
		replay_free(rp);
		report_write(&r, &o, &st);
		recs_free(&r);
	}
	out_flush();
	return 0;
}
