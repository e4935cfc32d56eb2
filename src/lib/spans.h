/*
 * spans: the spans(5) text format, read and written in one place.
 *
 * A span line is tab-separated: ID PARENT START_NS DURATION_NS TRACK
 * [ROW] NAME, ROW only in the laid-out form ("# spanlayout v1") that
 * spanlayout writes; NAME is the rest of the line with tab, newline and
 * backslash escaped as \t, \n and \\ (any other backslash stands for
 * itself).  trace-record and spanlayout write it, spanlayout and
 * flamegraph-svg's timeline read it; before this module each side had
 * its own escaping, unescaping and field splitting, and the two readers
 * took different numbers (an empty START_NS was 0 to one of them).
 *
 * The reader pulls one item at a time from an input: a span, with its
 * numbers checked (digits only, IDs not 0, times in the range below),
 * or a metadata comment for the caller to keep or ignore.  It owns the
 * parts of the format that span lines: version lines (a later one
 * switches the columns, so concatenated files read), and "# open" /
 * "# open: ID" marks, given as the next span's open flag (a "# open: N"
 * not followed by span N is trace-record's count, given as metadata).
 * Pointers it returns stay valid until the next call.
 *
 * One error policy, with one switch.  A bad span line is named as
 * "prog: file:line: what: "field"" and either stops the reader
 * (spanlayout: it computes the layout from the parents, and a span left
 * out would silently move its children and all below them) or is skipped,
 * the first few named and all counted (flamegraph-svg's timeline: the rows
 * are already laid out, so a bad line costs its own box only).  A line the
 * caller finds bad for its own reasons (an ID seen twice, a row it cannot
 * draw) goes through the same policy with spans_reject.  An unsupported
 * version, or a file that is not laid out where that is required, stops
 * the reader whatever the policy: no line after it could be read right.
 *
 * The range of times: a span's start and its end (start + duration) lie
 * within plus or minus 2^62 ns, about 146 years either side of the epoch
 * (or of whatever time the trace counts from), and it lasts at most 2^62
 * ns.  Then the time between any two of them fits a signed 64-bit
 * integer, and so does a duration, so no reader overflows computing an
 * end, a self time or a time relative to the earliest start.  spanlayout
 * makes the same check of the times it writes, relative to the earliest
 * start, so that whatever it writes its readers take back.  Rejected:
 * all of int64 (an end, or the distance between two starts, overflows;
 * one reader took starts another then refused) and a check per program
 * (three programs drew three different edges).
 */
#ifndef FT_SPANS_H
#define FT_SPANS_H

#include <stddef.h>
#include <stdint.h>

#include "input.h"

#define SPAN_TIME_MAX ((int64_t)1 << 62)
#define SPAN_TIME_MIN (-SPAN_TIME_MAX)

enum span_range { SPAN_IN_RANGE, SPAN_START_OUT, SPAN_END_OUT, SPAN_TOO_LONG };

/*
 * Whether a span starting at start (ns) and lasting dur ns is in range;
 * the start is checked first, then the end, then the duration.
 */
enum span_range span_range_check(int64_t start, uint64_t dur);

/* What is wrong, for a message: "start outside ...", "span ends past ...". */
const char *span_range_what(enum span_range r);

/* The first line of the laid-out form, which flamegraph-svg looks for. */
#define SPANS_LAID_OUT_MAGIC "# spanlayout v1"

/* One span line, as read or to be written. */
struct spans_rec {
	uint64_t id, parent;	/* parent 0: a root */
	int64_t start;		/* ns */
	uint64_t dur;		/* ns */
	const char *track;	/* never empty: an empty TRACK reads as "-" */
	size_t ntrack;
	uint64_t row;		/* laid-out form only */
	const char *name;	/* unescaped */
	size_t nname;
	int open;		/* marked still open */
};

/*
 * A property or an event of a span (revision 2), one comment line each,
 * after the line of the span it belongs to:
 *	# prop<TAB>ID<TAB>KEY<TAB>VALUE
 *	# prop-int<TAB>ID<TAB>KEY<TAB>VALUE	(a signed decimal)
 *	# event<TAB>ID<TAB>TIME_NS<TAB>NAME
 * KEY, VALUE and NAME escaped as a span's NAME; TIME_NS in the time base
 * of START_NS.  Comments, so that a reader of revision 1 skips them; read
 * only after "# spans-revision: 2", so that an old file's comments that
 * happen to look so read as before.
 */
#define SPANS_REVISION_LINE "# spans-revision: 2"
enum spans_note_kind { SPANS_PROP, SPANS_PROP_INT, SPANS_EVENT };

struct spans_note {
	enum spans_note_kind kind;
	uint64_t id;		/* the span's */
	const char *key;	/* unescaped: the key, or the event's name */
	size_t nkey;
	const char *val;	/* SPANS_PROP: the value, unescaped */
	size_t nval;
	int64_t num;		/* SPANS_PROP_INT: the value; SPANS_EVENT: its time */
};

/*
 * A stack sample taken while the program ran (revision 3: trace-record
 * --sample --spans), one comment line each, after the spans:
 *	# sample<TAB>ID<TAB>TIME_NS<TAB>TRACK<TAB>WEIGHT<TAB>EVENT<TAB>STACK
 * ID is the span innermost on the sampled thread when it was taken, or
 * 0 for none; TIME_NS in the time base of START_NS; TRACK the thread's,
 * as its spans'; WEIGHT what it stands for (ns of CPU time for
 * cpu-clock, of blocked time for offcpu-time); STACK its frames, root
 * first, as a folded(5) line's (escaped as NAME).
 */
#define SPANS_REVISION3_LINE "# spans-revision: 3"

struct spans_sample {
	uint64_t id;		/* the innermost span, or 0 */
	int64_t time;
	const char *track;
	size_t ntrack;
	uint64_t weight;
	const char *event;
	size_t nevent;
	const char *stack;	/* unescaped */
	size_t nstack;
};

/* Columns, in the order of a line, for spans_reject. */
enum spans_field { SPANS_ID, SPANS_PARENT, SPANS_START, SPANS_DUR,
    SPANS_TRACK, SPANS_ROW, SPANS_NAME };

/*
 * The value of a metadata comment "time-origin-ns: N" (meta[0..n), as
 * r->meta has it), the time that laid-out START_NS count from: a signed
 * decimal, blanks before it, within 2^62 of 0.  Returns 0 with *origin set, 1 when the
 * comment has another key, -1 when the value is bad (the caller names
 * it).  One parser for spanlayout and the timeline, which keep it.
 */
int spans_time_origin(const char *meta, size_t n, int64_t *origin);

/*
 * Whether the comment "# " s[0..n) reads back as the metadata s
 * (SPANS_META), whatever the revision: one line holding ':' that is no
 * version, revision, sample, property or event line.  For a writer of
 * metadata it did not read itself (stackcollapse --to=spans): anything
 * else would read back as a line of the format.  "open: N" is metadata
 * unless span N comes next, so the writer puts no span right after it.
 */
int spans_is_meta(const char *s, size_t n);

/* Reader flags. */
#define SPANS_SKIP_BAD 1u	/* skip bad span lines instead of stopping */
#define SPANS_LAID_OUT 2u	/* only spanlayout's output: the first line
				 * is SPANS_LAID_OUT_MAGIC, START_NS counts
				 * from 0 (the earliest start), ROW is read */
#define SPANS_NOTES 4u		/* give properties and events (SPANS_NOTE);
				 * without it they are skipped */
#define SPANS_SAMPLES 8u	/* give samples (SPANS_SAMPLE); without it
				 * they are skipped */

enum spans_item { SPANS_END, SPANS_SPAN, SPANS_META, SPANS_NOTE, SPANS_SAMPLE };

struct spans_reader {
	struct input *in;
	unsigned flags;
	int cols;		/* 6: spans v1, 7: spanlayout v1 */
	uint64_t line;		/* of the item last returned */
	uint64_t vline;		/* of the version line, 0 before it */
	uint64_t skipped;	/* bad span lines (SPANS_SKIP_BAD) */
	const char *meta;	/* SPANS_META: the comment without "# " */
	size_t nmeta;
	/* The line a call read and keeps for the next one, and its fields. */
	const char *f[7];
	size_t fn[7];
	const char *held;
	size_t nheld;
	int open;		/* "# open" seen: the next span is open */
	char *pend;		/* "open: N", undecided until the next line */
	size_t npend, cappend;
	uint64_t pend_id;
	char *name;		/* the unescaped NAME */
	size_t capname;
	int revision;		/* 2 or 3 after "# spans-revision: N" */
	struct spans_note note;	/* SPANS_NOTE's */
	struct spans_sample sample;	/* SPANS_SAMPLE's, its stack in nbuf */
	char *nbuf;		/* its unescaped KEY and VALUE */
	size_t capnbuf;
};

/* Read spans(5) from in, which the caller opened and closes. */
void spans_reader_init(struct spans_reader *r, struct input *in, unsigned flags);

/*
 * The next item: SPANS_SPAN with *rec filled, SPANS_META with r->meta
 * (a comment holding ':', or an "open: N" that marked no span),
 * SPANS_NOTE with r->note (with SPANS_NOTES), SPANS_SAMPLE with
 * r->sample (with SPANS_SAMPLES), or SPANS_END.  The
 * revision line is read, not given.  Returns -1 after reporting an error
 * that stops the reader.
 */
int spans_next(struct spans_reader *r, struct spans_rec *rec);

/*
 * The span spans_next just returned fails a check of the caller's, what
 * (such as "duplicate ID") naming the problem with field f: reported and
 * counted as a bad line.  Returns -1 when the reader stops at bad lines
 * (the caller then stops too), else 0 (the caller drops the span).
 */
int spans_reject(struct spans_reader *r, enum spans_field f, const char *what);

/* Name the count of skipped lines, if any, and free what r holds. */
void spans_reader_free(struct spans_reader *r);

/*
 * s[0..n) with tab, newline and backslash escaped, into d (room for 2 * n
 * bytes), and back (d: room for n bytes); both return the length.
 */
size_t spans_escape(char *d, const char *s, size_t n);
size_t spans_unescape(char *d, const char *s, size_t n);

/* s[0..n) escaped, to standard output (out.h): a NAME or a metadata value. */
void spans_put_escaped(const char *s, size_t n);

/* One property or event line to standard output. */
void spans_put_note(const struct spans_note *n);

/* One sample line to standard output. */
void spans_put_sample(const struct spans_sample *x);

/*
 * One span line to standard output, 6 columns or, with rows, 7, after
 * its mark when r->open: "# open" in the laid-out form, "# open: ID" in
 * the other.
 */
void spans_put(const struct spans_rec *r, int rows);

#endif
