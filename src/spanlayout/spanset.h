/*
 * spanset: the spans of every input, whatever format they came in.
 *
 * One flat array of fixed-size records; names and tracks are interned
 * (a trace repeats a few hundred names millions of times), so a span costs
 * 56 bytes here however long its name.  Each reader appends to one set and
 * counts what it had to skip or repair, for the summary on stderr.
 * Metadata comments ("# key: value") are kept in order to be passed on.
 */
#ifndef SL_SPANSET_H
#define SL_SPANSET_H

#include <stddef.h>
#include <stdint.h>

#include "../lib/intern.h"

#define SPAN_OPEN 1u		/* still open at the end of the trace */

struct span {
	uint64_t id, parent;	/* parent 0: a root */
	int64_t start;		/* ns */
	uint64_t dur;		/* ns; start + dur fits int64 */
	uint32_t name, track;	/* ids in spanset.names / spanset.tracks */
	uint32_t flags;
	uint32_t file;		/* index in spanset.files */
	uint64_t line;		/* where it was read, for messages */
};

/*
 * A property or event of a span (spans(5) revision 2, Chrome args and
 * instant events).  Read with its span's id; spanset_notes finds the
 * span and groups the notes by it, in the order read.
 */
struct note {
	uint64_t id;		/* the span's, as read */
	uint32_t span;		/* index in v, after spanset_notes */
	uint32_t kind;		/* enum spans_note_kind */
	uint32_t key, val;	/* ids in spanset.strs; val: SPANS_PROP's */
	int64_t num;		/* SPANS_PROP_INT's value, SPANS_EVENT's time */
};

/* A stack sample (revision 3), passed through: spans(5)'s fields. */
struct sample {
	uint64_t id;		/* the innermost span, or 0 */
	int64_t time;
	uint64_t weight;
	uint32_t track, event;	/* ids in spanset.strs */
	uint32_t stack;		/* id in spanset.stacks, unescaped */
};

struct spanset {
	struct span *v;
	size_t n, cap;
	struct intern names, tracks;
	char **meta;		/* comment lines, without "# " */
	size_t nmeta, capmeta;
	struct note *notes;
	size_t nnotes, capnotes;
	struct intern strs;	/* keys, values and event names */
	uint32_t *nfirst;	/* span i's notes: notes[nfirst[i] .. nfirst[i+1]) */
	uint64_t lost_notes;	/* of an id no span has */
	struct sample *samples;
	size_t nsamples, capsamples;
	struct intern stacks;
	const char **files;
	size_t nfiles;
	/* What the readers skipped or repaired, for the summary. */
	uint64_t unmatched_ends;	/* Chrome E with no B */
	uint64_t open_begins;		/* Chrome B with no E */
	uint64_t other_phases;		/* Chrome events that are not spans */
	uint64_t open_spans;		/* spans flagged open (any format) */
};

void spanset_init(struct spanset *s);
void spanset_free(struct spanset *s);
struct span *spanset_add(struct spanset *s);
void spanset_meta(struct spanset *s, const char *text, size_t n);

struct spans_note;
struct spans_sample;
/* Add a sample, passed through (copied). */
void spanset_sample(struct spanset *s, const struct spans_sample *x);
/* Add a note for the span of id n->id (copied). */
void spanset_note(struct spanset *s, const struct spans_note *n);
/*
 * Once every input is read and ids are known unique: each note's span,
 * and nfirst.  Notes of no span are counted in lost_notes and dropped.
 */
void spanset_notes(struct spanset *s);

enum span_format { FMT_AUTO, FMT_SPANS, FMT_CHROME, FMT_TIDB };

/*
 * Read one file into s.  fmt FMT_AUTO looks at the first byte that is not
 * white space: '{' or '[' is JSON (Chrome or TiDB, told apart by their
 * keys), anything else spans(5) text.  Returns 0, or -1 after reporting
 * an error as "prog: file:line: what".
 */
int spanset_read(struct spanset *s, const char *path, enum span_format fmt);

/*
 * The JSON reader behind spanset_read (tracejson.c): Chrome trace events
 * or a TiDB trace; FMT_AUTO tells them apart by their keys.
 */
struct input;
int spanset_read_json(struct spanset *s, struct input *in, enum span_format fmt);

#endif
