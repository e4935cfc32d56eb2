/*
 * formats: the profiler formats that stackcollapse reads, what they share,
 * and how one is recognized from the first lines.
 *
 * Each format is one file that defines its struct format: its name, its
 * detect and collapse functions, and its options (struct fmt_option).  A
 * new option touches that file, the usage text and the man page; a new
 * format, its file and a line in formats.c's table and here.  A format
 * that reads its inputs its own way (perf, on several threads) has a
 * driver (struct fmt_driver) instead of a collapse function.
 *
 * A collapse function reads its input through a struct reader (lines with
 * their numbers, or the raw blocks for XML and JSON) and hands every stack
 * it finishes to the reader's sink: summed and sorted at the end, or
 * written at once in input order with --no-aggregate.  Frames are built in
 * a struct fstack, a stack of byte strings that can be pushed at either
 * end and joined with ';'.
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

struct fmt_run;
struct option;
struct xform;

/* Where finished stacks go. */
struct sink {
	struct merge m;		/* aggregated: summed, written sorted */
	int noagg;		/* written at once, one line per stack */
	const struct fmt_run *run;	/* how to write the sums (--to) */
	const struct reader *rd;	/* the input read, for messages */
	int failed;		/* a sum did not fit: nothing is written */
	int two;		/* stacks came with two columns (sink_put2) */
	char *buf;
	size_t cap;
};

void sink_init(struct sink *s, const struct fmt_run *run);
/*
 * Add count to the stack s[0..n), or with replace set it (inferno's
 * "insert" for formats whose lines carry totals).  A sum of 2^64 or more
 * is reported at s->rd's line and sets s->failed.
 */
void sink_put(struct sink *s, const char *st, size_t n, uint64_t count,
    int replace);
/*
 * Add exact counts to the stack s[0..n): c0 alone, or with c1 non-NULL
 * a differential input's before (c0) and after (c1), which makes the
 * output differential too (folded(5)'s "STACK BEFORE AFTER").
 */
void sink_put2(struct sink *s, const char *st, size_t n,
    const struct count *c0, const struct count *c1);
/* What the input's counts are, "ns", "bytes" or "objects" (folded(5)). */
void sink_unit(struct sink *s, const char *u);
/*
 * Write the aggregated stacks (nothing with noagg, with write 0, or after
 * a failure) and free.  Returns 0, or -1 when the table or the profile
 * could not be written (reported).
 */
int sink_finish(struct sink *s, int write);
/*
 * Write summed stacks as run asks, transformed by run->xf (which
 * replaces a's stacks) and then as --to says: folded text, the table of
 * functions (table.c), a pprof profile (pprofout.c) or a speedscope file
 * (speedscope.c).  Returns 0, or -1 after saying why nothing was written.
 */
int sink_write_sum(struct folded_sum *a, const struct fmt_run *run);
/* The same for two columns (before, after): what --diff writes. */
int sink_write_diff(struct merge *m, const struct fmt_run *run);

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
	struct sink *sink;
	uint64_t nskipped;
	int part;		/* a later part of a split input (split.c):
				 * no file header before its first line */
	int quiet;		/* messages not said but noted in noisy */
	int noisy;
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
/*
 * Put fs's frames, pushed leaf first, as one stack of weight count, and
 * empty fs.
 */
void rd_put_stack(struct reader *r, struct fstack *fs, uint64_t count);

/*
 * One long option of a format, which sets that format's own options (the
 * file's static struct).  The format is known only once the first input is
 * read, so every option of every format is accepted on any run; several
 * formats may declare one name (sample and vtune take --no-modules) and a
 * format may declare a name twice to set two things (perf's --all): every
 * entry of the name given is applied.
 */
struct fmt_option {
	const char *name;	/* without "--" */
	int *var;		/* set to val, */
	int val;
	void (*set)(char *arg);	/* or the option takes an argument */
};

/* How the run goes, for a format that drives its inputs itself. */
struct fmt_run {
	int nthreads;		/* -j: at most FMT_MAX_THREADS */
	int noagg;		/* --no-aggregate */
	struct xform *xf;	/* the transforms (transform.h), or NULL */
	int table;		/* --to=table: table_write, not folded text */
	int pprof;		/* --to=pprof: pprof_write */
	int speedscope;		/* --to=speedscope: speedscope_write */
	int flamebearer;	/* --to=flamebearer: flamebearer_write */
	const char *unit;	/* --unit: pprof_unit's argument, or as
				 * speedscope_unit gives it */
};

#define FMT_MAX_THREADS 16

/*
 * A format read by its own driver instead of a reader and the sink: perf,
 * which splits large inputs and parses the parts on several threads into
 * stack tables of its own.  At most one format runs per invocation.
 */
struct fmt_driver {
	/* Before the first input. */
	void (*begin)(const struct fmt_run *run);
	/* One input, whole; 0, or -1 after a reported error. */
	int (*input)(struct input *in);
	/* After the last input: write the stacks and free. */
	void (*end)(void);
};

struct format {
	const char *name;
	/*
	 * Whether the head of an input (its first bytes, whole lines except
	 * perhaps the last) is in this format: 1 yes, 0 no.
	 */
	int (*detect)(const char *p, size_t n);
	/* Collapse the whole input; 0, or -1 after a reported error. */
	int (*collapse)(struct reader *r);
	/* Its options, ended by a NULL name; or NULL. */
	const struct fmt_option *options;
	/* Or, with collapse NULL, the driver that reads its inputs. */
	const struct fmt_driver *driver;
	/*
	 * Or NULL: where, in p[0..n), the first record starts after a line
	 * (wholly in p[0..n)) at which collapse's state is as at the start
	 * of a file, a header aside; n when there is none.  Such an input
	 * is collapsed on several threads (split.c).
	 */
	size_t (*split)(const char *p, size_t n);
	/* Write nothing when an input failed: a sum missing one looks whole. */
	int all_or_nothing;
	/*
	 * A binary format: detect sees the head from its first byte, before
	 * text formats skip blank lines (fmt_guess_binary), and collapse
	 * reads the input with input_next.
	 */
	int binary;
};

/* The format called name, or NULL. */
const struct format *fmt_find(const char *name);
/* The first text format whose detect accepts the head, or NULL. */
const struct format *fmt_guess(const char *p, size_t n);
/* The same for the binary formats, on the input's first bytes. */
const struct format *fmt_guess_binary(const char *p, size_t n);
/* "perf, dtrace, ..." for messages. */
const char *fmt_names(void);
/*
 * Every option name of every format once, as getopt_long's table (its
 * end an entry of zeros) with val base + the entry's index; allocated.
 */
struct option *fmt_longopts(int base);
/* Apply every format's options called name (with its argument). */
void fmt_option_set(const char *name, char *arg);
/*
 * Set every option of f as if each were given in table order (arg NULL
 * for the ones that take one: those are left), or with on 0 clear them:
 * for tests that run a format both ways.
 */
void fmt_option_all(const struct format *f, int on);

/* Whether s[0..n) starts, or ends, with the string literal lit. */
#define FMT_STARTS(s, n, lit) ((n) >= sizeof lit - 1 && \
	memcmp(s, lit, sizeof lit - 1) == 0)
#define FMT_ENDS(s, n, lit) ((n) >= sizeof lit - 1 && \
	memcmp((s) + (n) - (sizeof lit - 1), lit, sizeof lit - 1) == 0)

/*
 * Collapse r's input, a mapped one, with f->collapse on up to nthreads
 * threads (split.c); 0, or -1 after a reported error.
 */
int split_collapse(const struct format *f, struct reader *r, int nthreads);
/* split for formats whose records end at a blank line (gdb, jstack). */
size_t fmt_split_blank(const char *p, size_t n);

/* Line helpers for the parsers. */
int fmt_nextline(const char **p, const char *e, const char **l, size_t *n);
int fmt_all_digits(const char *s, size_t n);
size_t fmt_trim(const char **s, size_t n);

/* The formats, each defined in its own file (perf's in perfrun.c). */
extern const struct format spanprof_format;
extern const struct format xctrace_format, chrome_format, vsprof_format,
    vtune_format, ghcprof_format, sample_format, gopprof_format,
    jstack_format, gdb_format, pmcstat_format, bpftrace_format, perf_format,
    stap_format, dtrace_format, pprof_format, elfutils_format,
    faulthandler_format, perfsched_format, javaexc_format, ibmjava_format,
    instruments_format, ljp_format, xdebug_format, wcp_format, aix_format,
    vtunemc_format, svg_format, flamebearer_format;

#endif
