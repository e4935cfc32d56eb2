/*
 * Fuzz target for the timeline reader and writer of flamegraph-svg: the
 * input, through a memfd, is read as laid-out spans (spans(5) with ROW)
 * and, when any span reads, written as a timeline SVG to /dev/null, with
 * a --minwidth that keeps every span in the static picture and one that
 * keeps none.
 *
 *   make fuzz && build/fuzz/fuzz_timeline tests/fuzz/corpus/timeline
 */
#include "flamegraph-svg/timeline.h"
#include "fuzz_file.h"
#include "lib/input.h"
#include "lib/out.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
run(const char *path, double minwidth)
{
	struct svg_opts o = {
		.title = "t", .subtitle = "", .nametype = "Function:",
		.countname = "samples", .fonttype = "Verdana", .notes = "",
		.width = 1200, .frameheight = 16, .fontsize = 12,
		.fontwidth = 0.59, .minwidth = minwidth, .factor = 1,
		.bg1 = "#eeeeee", .bg2 = "#eeeeee",
	};
	struct input in;
	struct timeline t;

	if (input_open(&in, path, "\n") < 0)
		return;
	timeline_init(&t);
	if (timeline_read(&t, &in) == 0 && t.n > 0)
		timeline_write(&t, &o);
	out_flush();
	input_close(&in);
	timeline_free(&t);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd;

	fuzz_quiet();
	if ((fd = fuzz_file(data, size, path)) < 0)
		return 0;
	run(path, 0);
	run(path, 1e9);
	close(fd);
	return 0;
}
