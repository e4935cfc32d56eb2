/*
 * formats: the profiler formats other than perf that stackcollapse reads,
 * what they share, and how one is recognized from the first lines.
 *
 * Each format is one file with one collapse function.  A collapse function
 * reads its input through a struct reader (lines with their numbers, or the
 * raw blocks for XML and JSON) and hands every stack it finishes to the
 * reader's sink: summed and sorted at the end, or written at once in input
 * order with --no-aggregate.  Frames are built in a struct fstack, a stack
 * of byte strings that can be pushed at either end and joined with ';'.
 *
 * Errors follow inferno's rules per format: input that makes the result
 * wrong (a skipped indentation level, a bad count) stops the file with
 * "file:line: what" and exit 1; lines a format is known to contain without
 * meaning (headers, comments) are passed over; anything else is skipped,
 * the first few named and all counted on stderr.
 */
#ifndef SC_FORMATS_H
#define SC_FORMATS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/input.h"
#include "merge.h"

struct fmt_opts {
	int includeoffset;	/* dtrace: keep +0x offsets (not the leaf's) */
	int no_modules;		/* sample, vtune: no "module`" prefix */
	int ghc_source;		/* ghcprof: 0 %time, 1 ticks, 2 bytes */
	int jstack_tid;		/* jstack: keep "-TID" on thread names */
	int jstack_no_tname;	/* jstack: no thread name root frame */
	int jstack_all;		/* jstack: every thread state, not RUNNABLE */
	int shorten_pkgs;	/* jstack: org.foo.Bar.run -> o.f.Bar.run */
};

/* Where finished stacks go. */
struct sink {
	struct merge m;		/* aggregated: summed, written sorted */
	int noagg;		/* written at once, one line per stack */
	int recursive;
	const struct reader *rd;	/* the input read, for messages */
	int failed;		/* a sum did not fit: nothing is written */
	char *buf;
	size_t cap;
};

void sink_init(struct sink *s, int noagg, int recursive);
/*
 * Add count to the stack s[0..n), or with replace set it (inferno's
 * "insert" for formats whose lines carry totals).  A sum of 2^64 or more
 * is reported at s->rd's line and sets s->failed.
 */
void sink_put(struct sink *s, const char *st, size_t n, uint64_t count,
    int replace);
/*
 * Write the aggregated stacks (nothing with noagg, with write 0, or after
 * a failure) and free.
 */
void sink_finish(struct sink *s, int write);

/* A stack of frames; index 0 is the bottom. */
struct fstack {
	char *buf;		/* the frames joined with ';', bottom first */
	size_t len, cap;
	size_t *off;		/* start of each frame in buf; off[n] is len + 1 */
	size_t n, ncap;
	char *join;
	size_t joincap;
};

void fs_init(struct fstack *f);
void fs_free(struct fstack *f);
void fs_push(struct fstack *f, const char *s, size_t n);
/* Push "a`b" (module and function) as one frame. */
void fs_push2(struct fstack *f, const char *a, size_t an, char sep,
    const char *b, size_t bn);
void fs_truncate(struct fstack *f, size_t n);
/* Frame i's length. */
static inline size_t
fs_len(const struct fstack *f, size_t i)
{
	return f->off[i + 1] - f->off[i] - 1;
}
/* Frames joined with ';', bottom first (or top first with reverse). */
const char *fs_join(struct fstack *f, int reverse, size_t *len);

/* One input being collapsed. */
struct reader {
	struct input *in;
	const char *name;
	uint64_t line;		/* of the line last returned */
	const struct fmt_opts *o;
	struct sink *sink;
	uint64_t nskipped;
};

/* The next line (newline and '\r' removed); 1, 0 at the end, -1 error. */
static inline int
rd_line(struct reader *r, const char **l, size_t *n)
{
	int ret = input_getline(r->in, l, n);

	if (ret > 0)
		r->line++;
	return ret;
}
/* "file:line: what" on stderr; returns -1. */
int rd_fail(struct reader *r, const char *fmt, ...)
    PRINTFLIKE(2, 3);
/* Count a skipped line, naming the first few. */
void rd_skip(struct reader *r, const char *l, size_t n);

struct format {
	const char *name;
	/*
	 * Whether the head of an input (its first bytes, whole lines except
	 * perhaps the last) is in this format: 1 yes, 0 no.
	 */
	int (*detect)(const char *p, size_t n);
	/* Collapse the whole input; 0, or -1 after a reported error. */
	int (*collapse)(struct reader *r);
};

/* The format called name, or NULL. */
const struct format *fmt_find(const char *name);
/* The first format whose detect accepts the head, or NULL. */
const struct format *fmt_guess(const char *p, size_t n);
/* "perf, dtrace, ..." for messages. */
const char *fmt_names(void);

/* Whether s[0..n) starts, or ends, with the string literal lit. */
#define FMT_STARTS(s, n, lit) ((n) >= sizeof lit - 1 && \
	memcmp(s, lit, sizeof lit - 1) == 0)
#define FMT_ENDS(s, n, lit) ((n) >= sizeof lit - 1 && \
	memcmp((s) + (n) - (sizeof lit - 1), lit, sizeof lit - 1) == 0)

/* Line helpers for the parsers. */
int fmt_nextline(const char **p, const char *e, const char **l, size_t *n);
int fmt_all_digits(const char *s, size_t n);
size_t fmt_trim(const char **s, size_t n);

int perf_detect(const char *p, size_t n);
int dtrace_collapse(struct reader *r);
int dtrace_detect(const char *p, size_t n);
int stap_collapse(struct reader *r);
int stap_detect(const char *p, size_t n);
int sample_collapse(struct reader *r);
int sample_detect(const char *p, size_t n);
int vtune_collapse(struct reader *r);
int vtune_detect(const char *p, size_t n);
int vsprof_collapse(struct reader *r);
int vsprof_detect(const char *p, size_t n);
int ghcprof_collapse(struct reader *r);
int ghcprof_detect(const char *p, size_t n);
int xctrace_collapse(struct reader *r);
int xctrace_detect(const char *p, size_t n);
int bpftrace_collapse(struct reader *r);
int bpftrace_detect(const char *p, size_t n);
int gdb_collapse(struct reader *r);
int gdb_detect(const char *p, size_t n);
int jstack_collapse(struct reader *r);
int jstack_detect(const char *p, size_t n);
int pmcstat_collapse(struct reader *r);
int pmcstat_detect(const char *p, size_t n);
int gopprof_collapse(struct reader *r);
int gopprof_detect(const char *p, size_t n);
int chrome_collapse(struct reader *r);
int chrome_detect(const char *p, size_t n);

#endif
