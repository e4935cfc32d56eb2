/*
 * record.h: trace-record's spans mode: run the program with the socket
 * and shared buffers libtracerecord writes to, and write its spans.
 */
#ifndef TR_RECORD_H
#define TR_RECORD_H

#include <stdint.h>

struct record_opts {
	const char	*output;	/* -o, or NULL */
	const char	*clock;		/* --clock: "auto", "tsc", "tscp" or "mono" */
	uint32_t	 nbufs;		/* --buffers */
	uint64_t	 max_spans;	/* --max-spans: drop, never wait; 0: wait */
	int		 info;		/* --clock-info: run nothing */
};

/*
 * Run argv and write its spans (or, with o->info, only the clock and its
 * calibration).  Returns trace-record's exit status: the program's, or
 * 128+N if signal N killed it; 126 or 127 if it could not be run.
 * Dies with 125 on trace-record's own failures.
 */
int	record_run(const struct record_opts *o, char **argv);

#endif
