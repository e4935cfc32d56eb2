/*
 * timeline: spans laid out by spanlayout(1) (spans(5), "# spanlayout v1")
 * drawn as an interactive timeline, TiDB Dashboard's: an overview strip of
 * the whole trace with a selected window, and a detail view of that window.
 *
 * The file carries the spans twice.  As SVG elements, for viewers without
 * scripts: every span wider than --minwidth at the whole trace's scale,
 * with its <title>.  And as compact data for the script: per row, the
 * spans in time order with delta-coded starts, names and tracks as
 * indexes into tables; from those the script draws only what the window
 * shows, so a million spans cost the browser one JSON.parse, not a
 * million elements.
 */
#ifndef FG_TIMELINE_H
#define FG_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "../lib/input.h"
#include "../lib/intern.h"
#include "svg.h"

struct tspan {
	uint64_t start, dur;	/* ns from the trace's start */
	uint32_t row, name, track;
	uint32_t parent;	/* index in timeline.v, or TL_NONE */
	uint32_t open;		/* still open when its process ended */
};

#define TL_NONE UINT32_MAX

struct timeline {
	struct tspan *v;
	size_t n, cap;
	struct intern names, tracks, ids;
	uint32_t rows;
	char *command;		/* the "# command:" metadata, or NULL */
	uint64_t nbad;		/* lines skipped */
};

void timeline_init(struct timeline *t);
void timeline_free(struct timeline *t);

/* Does this head of an input start with "# spanlayout v1"? */
int timeline_detect(const char *p, size_t n);

/*
 * Read one spanlayout(1) input into t with the spans(5) reader
 * (src/lib/spans.h) skipping bad lines: the first few named as
 * "file:line: skipped span: what", all counted in t->nbad; so is a span
 * whose ID came before or whose row is past the timeline's limit.
 * Returns -1 if the input cannot be read or is not laid-out spans.
 */
int timeline_read(struct timeline *t, struct input *in);

/* Write the timeline SVG.  Returns the spans left out of the static
 * picture for being narrower than --minwidth. */
size_t timeline_write(struct timeline *t, const struct svg_opts *o);

#endif
