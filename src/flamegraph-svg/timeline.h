/*
 * timeline: spans laid out by spanlayout(1) (spans(5), "# spanlayout v1")
 * drawn as an interactive timeline, TiDB Dashboard's: an overview strip of
 * the whole trace with a selected window, and a detail view of that window.
 *
 * The file carries the spans twice.  As SVG elements, for viewers without
 * scripts: every span wider than --minwidth at the whole trace's scale,
 * with its <title>.  And as compact data for the script: per row, the
 * spans in time order with delta-coded starts, names and tracks as
 * indexes into tables (a row's track once where all its spans share it),
 * parents as positions or, for most, as "the span of the row above that
 * holds my start"; from those the script draws only what the window
 * shows, so a million spans cost the browser one JSON.parse, not a
 * million elements.  Properties and events ride along, keyed by a span's
 * position in that order; the script shows them in its detail pane and
 * marks the events on their spans.
 *
 * A span profile's stack samples (spans(5) revision 3) ride along too,
 * for the flame graphs the script draws of a span, a name or a window
 * (spanflame.js): each distinct stack once, as a tree of frames (a node
 * is its caller's node and a name), and per sample, in time order, its
 * time as the difference from the one before, its span's position in
 * the order above (0 for none), its track, its stack's node and its
 * weight (once, when all weigh the same, as sampling at a fixed rate
 * makes them).  Frame names are written as they are, in a table of
 * their own, so that a person finds a function in the data; so are the
 * samples' events, once when all share one.
 *
 * The laid-out file's time origin and its other metadata comments (the
 * command, the clock, the process, ...) ride along as well, so that
 * stackcollapse --to=spans gives back the file the timeline was drawn
 * from, absolute times included: the origin as a string (an int64 may
 * not fit a double), the comments as they were, but for "# rows" (the
 * rows are in the data) and "# cycle-broken" (it names span ids, which
 * the data does not keep).
 */
#ifndef FG_TIMELINE_H
#define FG_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "../lib/idindex.h"
#include "../lib/input.h"
#include "../lib/intern.h"
#include "svg.h"

/* 32 bytes: a row is below 2^24 (timeline.c's MAX_ROWS), so the open
 * flag shares its word; 10M spans are 320 MB, and writing copies them
 * once (timeline_write). */
struct tspan {
	uint64_t start, dur;	/* ns from the trace's start */
	uint32_t row : 24;
	uint32_t open : 1;	/* still open when its process ended */
	uint32_t name, track;
	uint32_t parent;	/* index in timeline.v, or TL_NONE */
};

#define TL_NONE IDINDEX_NONE	/* also what idindex_find gives for none */

/* A property or an event of a span (spans(5) revision 2). */
struct tnote {
	uint64_t id;		/* the span's, until timeline_read resolves it */
	uint32_t span;		/* index in timeline.v */
	uint32_t kind;		/* enum spans_note_kind */
	uint32_t key;		/* in timeline.keys: the key, or the event's name */
	uint32_t val;		/* SPANS_PROP: in timeline.vals */
	int64_t num;		/* SPANS_PROP_INT: the value; SPANS_EVENT: its time */
};

/* A stack sample of a span profile. */
struct tsample {
	uint64_t id;		/* its span's, until timeline_read resolves it */
	uint32_t span;		/* index in timeline.v, or TL_NONE */
	uint32_t track;		/* in timeline.tracks */
	uint32_t node;		/* its stack's leaf in timeline.nodes */
	uint32_t event;		/* in timeline.evnames: cpu-clock, ... */
	int64_t time;		/* ns from the trace's start */
	uint64_t weight;
};

struct timeline {
	struct tspan *v;
	size_t n, cap;
	struct intern names, tracks;
	uint64_t *idv;		/* the spans' ids, by index in v */
	size_t capidv;
	struct idseen seen;	/* the ids read */
	struct idindex ids;	/* of idv, after each timeline_read */
	struct tnote *notes;
	size_t nnotes, capnotes;
	struct intern keys, vals;	/* of the notes */
	uint64_t nlost;		/* notes of no span read */
	struct tsample *samples;
	size_t nsamples, capsamples;
	struct intern fnames;	/* the samples' frame names */
	/* Stacks as a tree: a node's key is its caller's node + 1 (0 for a
	 * root frame) and its name in fnames, two uint32s. */
	struct intern nodes;
	struct intern evnames;	/* the samples' events */
	uint32_t rows;
	int64_t origin;		/* "# time-origin-ns:", if has_origin */
	int has_origin;
	/* The other metadata comments in order, without "# ", by index in
	 * metas (a line may come twice). */
	struct intern metas;
	uint32_t *meta;
	size_t nmeta, capmeta;
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

/* Write the timeline SVG, having moved t's spans into the order they
 * are drawn in (by row, then start; every index of a span follows) and
 * dropped their ids: t is then only to be freed.
 * Returns the spans left out of the static picture for being narrower
 * than --minwidth. */
size_t timeline_write(struct timeline *t, const struct svg_opts *o);

#endif
