/*
 * Fuzz target for stackcollapse --format=svg; the body is collapse_fuzz.h.
 * The bytes are read as a timeline SVG too (--to=spans, tlread.c), whose
 * XML goes through the same scanner.
 */
#include <string.h>

#include "lib/input.h"
#include "lib/out.h"
#include "stackcollapse/formats.h"
#include "stackcollapse/tlread.h"

static void
timeline_spans(const char *path)
{
	struct reader r;
	struct input in;

	if (input_open(&in, path, "\n") < 0)
		return;
	memset(&r, 0, sizeof r);
	r.in = &in;
	r.name = "fuzz";
	tlread_spans(&r);
	out_flush();
	input_close(&in);
}

#define FUZZ_FORMAT "svg"
#define FUZZ_ALSO timeline_spans
#include "collapse_fuzz.h"
