/*
 * perf: the `perf script` parser of stackcollapse.
 *
 * A parser context (struct perf_ctx) owns every table it fills, so several
 * contexts can parse parts of one input on several threads and be merged
 * afterwards (stacks.c).  Parts handed to a context other than the first
 * must start just after a blank line: that is where the parse state is
 * empty, which is what lets them be parsed independently, once the
 * context knows what the input's first lines told (perf_ctx_inherit).
 */
#ifndef SC_PERF_H
#define SC_PERF_H

#include <stddef.h>
#include <stdint.h>

#include "../lib/intern.h"
#include "rtab.h"

struct xform;

struct perf_opts {
	int include_pid;	/* root frame comm-PID */
	int include_tid;	/* root frame comm-PID/TID */
	int annotate_kernel;	/* _[k] */
	int annotate_jit;	/* _[j] */
	int include_addrs;	/* [mod <addr>] for unknown symbols */
	int perl;		/* exactly stackcollapse-perf.pl, see --perl */
	int srcline;		/* ":FILE:LINE" from perf script -F +srcline */
	int inline_frames;	/* --inline: addr2line's frames for a frame */
	int context;		/* ... each with ":FILE:LINE" */
	int no_aggregate;	/* write each sample at once (one context) */
	struct xform *xf;	/* ... transformed (transform.h) */
};

/* State every context reads and none writes while parsing in parallel. */
struct perf_shared {
	const struct perf_opts *o;
	char *event;		/* event filter; NULL until known */
	size_t eventlen;
	int event_defaulted;	/* taken from the first sample */
};

#define PERF_EXAMPLES 5
#define PERF_EXAMPLE_BYTES 60	/* of a skipped line, shown quoted */

/* What one call of perf_parse saw, for messages with file:line. */
struct perf_report {
	uint64_t newlines;	/* lines ended by '\n' in the part */
	uint64_t nskipped;	/* unrecognized lines */
	uint64_t nfiltered;	/* samples of another event */
	unsigned nex;
	struct {
		uint64_t line;	/* 1-based within the part */
		char text[4 * PERF_EXAMPLE_BYTES + 8];	/* err_quote'd */
	} ex[PERF_EXAMPLES];
	uint64_t errline;	/* nonzero: fatal error at this line */
	const char *errmsg;
};

struct perf_ctx {
	/* Own cache lines: contexts of different threads sit side by side. */
	_Alignas(64) const struct perf_shared *sh;
	struct intern frames;	/* output frame names, pname included */
	/*
	 * Frame-line bytes -> uint32 n, then n frame ids in line order;
	 * [1]: Java.
	 */
	struct rtab lines[2];
	uint32_t *kids;		/* a new line's frame ids, as translated */
	size_t nkids, kidscap;
	char *kbuf;		/* a frame line's key (frame_line) */
	size_t kbufcap;
	/* A frame line's bytes after the address -> as lines (perf.c) */
	struct rtab raw[2];
	/* key: uint32 frame ids, leaf first, pname last; value: uint64 count */
	struct rtab stacks;
	/* the sample being read */
	int in_sample;		/* an event line was seen, no blank line yet */
	int have_pname;		/* ... and its event is kept */
	int offcpu;		/* ... and it is offcpu-time */
	int java;		/* tidy Java names in this sample */
	int seen_line;		/* a line neither blank nor comment was read */
	int no_event_lines;	/* the first was a frame: -F ip,sym */
	int after_frame;	/* the line before was a frame line */
	uint32_t pname;
	uint64_t period;
	int no_period;		/* a kept sample had none: counted as 1 */
	uint32_t *stk;		/* frame ids, leaf first; room for the pname */
	size_t nstk, stkcap;
	char *scratch;		/* key and name building */
	size_t scratchcap;
	char pad[64];
};

void perf_ctx_init(struct perf_ctx *c, const struct perf_shared *sh);
void perf_ctx_free(struct perf_ctx *c);

/*
 * Make c, about to parse from a blank line on, read as from knows the
 * input: what its first lines told (whether a line was read yet, and
 * whether it was a frame: a layout without event lines).  The rest of
 * the parse state is empty after a blank line.
 */
void perf_ctx_inherit(struct perf_ctx *c, const struct perf_ctx *from);

/*
 * Parse the lines p[0..n) continuing c's sample state.  wsh, when not NULL,
 * is the shared state made writable so that the first event seen becomes
 * the default filter: pass it only where no other thread parses.  With
 * stop_on_event, return as soon as the filter is known and a line other
 * than a blank or a comment has been read (what a context parsing from
 * a blank line on inherits: perf_ctx_inherit).  Returns the number of
 * bytes consumed (all of them unless stopped or rep->errline is set).
 */
size_t perf_parse(struct perf_ctx *c, struct perf_shared *sh, const char *p,
    size_t n, int stop_on_event, struct perf_report *rep);

/* Whether the head of an input is perf script output (formats.h). */
int perf_detect(const char *p, size_t n);

/*
 * End of one input file: count a sample that no blank line ended (or drop it
 * with --perl, as the Perl script does).  Returns 1 when there was such a
 * sample.
 */
int perf_end_file(struct perf_ctx *c, struct perf_report *rep);

#endif
