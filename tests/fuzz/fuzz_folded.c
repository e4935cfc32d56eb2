/*
 * Fuzz target for folded input and the flame graph writer: every line
 * through folded_parse, then flame_build and svg_write in the orders and
 * modes that change the merge (sorted, input order, reversed, chain),
 * with output to /dev/null; sorted, narrow frames are left out as
 * flame_build makes them (flame_opts.narrow), as the program does.
 *
 *   make fuzz && build/fuzz/fuzz_folded tests/fuzz/corpus/folded
 */
#include <stdint.h>
#include <string.h>

#include "flamegraph-svg/flame.h"
#include "flamegraph-svg/flamesvg.h"
#include "fuzz_file.h"
#include "lib/folded.h"
#include "lib/out.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
run(const char *p, size_t n, enum flame_order order, int reverse, int chain,
    int hotcold)
{
	struct svg_opts o = {
		.title = "t", .subtitle = "", .nametype = "Function:",
		.countname = "samples", .fonttype = "Verdana", .notes = "",
		.width = 1200, .frameheight = 16, .fontsize = 12,
		.fontwidth = 0.59, .minwidth = 0.1, .pal = PAL_JAVA,
		.shade = SHADE_NAME, .factor = 1, .bg1 = "#eeeeee",
		.bg2 = "#eeeeb0",
	};
	struct flame_opts fo = { order, reverse, chain, NULL, NULL, hotcold };
	const char *s = p, *end = p + n;
	struct flame f;

	/* as the program does; the other run keeps every frame to the end */
	if (order == ORDER_NAME) {
		fo.narrow = svg_narrow;
		fo.narrow_ctx = &o;
	}
	flame_init(&f);
	f.in_order = order == ORDER_INPUT;
	f.rewrites = reverse || chain;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = (size_t)((nl ? nl : end) - s);
		struct folded fl;

		/* as folded_next: the first line decides the kind */
		if (folded_parse(s, len, f.kind != FOLDED_ONE, &fl) == 0) {
			if (f.kind == FOLDED_UNSEEN)
				f.kind = fl.has2 ? FOLDED_TWO : FOLDED_ONE;
			if (fl.has2 || f.kind == FOLDED_ONE)
				flame_add_line(&f, s, len, &fl);
		}
		s = nl ? nl + 1 : end;
	}
	/* as flamegraph-svg chooses it: one count a line only */
	fo.hotcold = hotcold && f.kind == FOLDED_ONE;
	if (fo.hotcold)
		o.pal = PAL_HOTCOLD;
	if (flame_build(&f, &fo) == 0 && f.total > 0)
		svg_write(&f, &o);
	out_flush();
	flame_free(&f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_quiet();
	run((const char *)data, size, ORDER_NAME, 0, 0, 0);
	run((const char *)data, size, ORDER_INPUT, 1, 1, 0);
	run((const char *)data, size, ORDER_NAME, 0, 0, 1);
	return 0;
}
