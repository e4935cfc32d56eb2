/*
 * Fuzz target for flamegraph-svg --diff: the input read through
 * diff_read as one three-column file, and as both sides of a two-file
 * diff, then diff_build and svg_write at each width, normalized or not,
 * reversed or not, with output to /dev/null.
 *
 *   make fuzz && build/fuzz/fuzz_diff tests/fuzz/corpus/diff
 */
#include <stdint.h>
#include <string.h>

#include "flamegraph-svg/diff.h"
#include "flamegraph-svg/flame.h"
#include "flamegraph-svg/diffsvg.h"
#include "flamegraph-svg/flamesvg.h"
#include "fuzz_file.h"
#include "lib/input.h"
#include "lib/out.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
run(const char *path, int both, enum diff_width w, int normalize,
    int reverse)
{
	struct svg_opts o = {
		.title = "t", .subtitle = "", .nametype = "Function:",
		.countname = "samples", .fonttype = "Verdana", .notes = "",
		.width = 1200, .frameheight = 16, .fontsize = 12,
		.fontwidth = 0.59, .minwidth = 0.1, .pal = PAL_HOT,
		.shade = SHADE_NAME, .factor = 1, .bg1 = "#eeeeee",
		.bg2 = "#eeeeb0",
	};
	struct diff_opts dopt = { w, DIFF_CB, normalize, 50 };
	struct diff d;
	struct flame f;
	uint64_t nbad = 0;
	char unit[FOLDED_UNIT_MAX + 1];
	int ok = 1;

	diff_init(&d, &dopt);
	for (int i = 0; i < (both ? 1 : 2); i++) {
		struct input in;

		if (input_open(&in, path, "\n") < 0)
			break;
		if (diff_read(&d, &in, both ? DIFF_BOTH : i, &nbad, unit) < 0)
			ok = 0;
		input_close(&in);
	}
	flame_init(&f);
	if (ok && diff_build(&d, &f, reverse) >= 0 && f.total > 0) {
		diff_summary(&d, &o);
		o.subtitle = d.summary;
		f.diff = &d;
		svg_write(&f, &o);
	}
	out_flush();
	flame_free(&f);
	diff_free(&d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd;

	fuzz_quiet();
	if ((fd = fuzz_file(data, size, path)) < 0)
		return 0;
	run(path, 1, DIFF_AFTER, 1, 0);
	run(path, 1, DIFF_MAX, 0, 1);
	run(path, 0, DIFF_BEFORE, 1, 1);
	run(path, 0, DIFF_MAX, 1, 0);
	close(fd);
	return 0;
}
