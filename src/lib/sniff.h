/*
 * sniff: recognize, from an input's head, files that belong to another
 * step of the pipeline than the program given them, so that the program
 * says what to run instead of misreading them.  A spans file read as perf
 * script text made 1,801 stacks named 1, 10, 100...; read as folded
 * stacks, a frame called "# elapsed-ns:"; both with exit status 0.
 *
 * Only unmistakable markers count: a magic first line or bytes, a JSON
 * document with trace event keys, perf script's event line followed by an
 * indented frame.  Which of them is an error, and what to run, is each
 * program's to say (stackcollapse reads Chrome CPU profiles itself).
 */
#ifndef FT_SNIFF_H
#define FT_SNIFF_H

#include <stddef.h>

enum sniff_kind {
	SNIFF_NONE,
	SNIFF_PERF_DATA,	/* perf record's binary file ("PERFILE2") */
	SNIFF_SPANS,		/* spans(5): "# spans v1" */
	SNIFF_SPANS_LAID_OUT,	/* spans(5) laid out: "# spanlayout v1" */
	SNIFF_CHROME_TRACE,	/* JSON trace events ("traceEvents", "ph") */
	SNIFF_CHROME_PROFILE,	/* JSON CPU profile (.cpuprofile, ProfileChunk) */
	SNIFF_PERF_SCRIPT,	/* perf script's text: event line, frame lines */
};

/* Enough of a head for every marker: a perf script event line is ~100 bytes. */
#define SNIFF_HEAD 4096

/*
 * What the head p[0..n) of an input is, by the markers above; SNIFF_NONE
 * when none is there.  Leading blank lines are passed over; *line is set
 * to the number (from 1) of the line the marker is on, 0 for a binary
 * file.
 */
enum sniff_kind sniff_head(const char *p, size_t n, unsigned long long *line);

/*
 * The input's name as perf script's -i takes it: quoted (err_quote) into
 * buf, of SNIFF_NAME_MAX bytes, or "-" for standard input.
 */
#define SNIFF_NAME_MAX (4 * 200 + 8)
const char *sniff_perf_name(char *buf, const char *name);

#endif
