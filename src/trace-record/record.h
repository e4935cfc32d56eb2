/*
 * record.h: trace-record's spans mode: run the program with the socket
 * and shared buffers libtracerecord writes to, and write its spans.
 */
#ifndef TR_RECORD_H
#define TR_RECORD_H

#include <stdint.h>

#include "spanfilter.h"

struct record_opts {
	const char	*output;	/* -o, or NULL */
	const char	*clock;		/* --clock: "auto", "tsc", "tscp" or "mono" */
	uint32_t	 nbufs;		/* --buffers */
	uint64_t	 max_spans;	/* --max-spans: drop, never wait; 0: wait */
	int		 info;		/* --clock-info: run nothing */
	struct spanfilter filter;	/* --min-duration, --max-depth, ... */
};

/*
 * Run argv and write its spans (or, with o->info, only the clock and its
 * calibration).  Returns trace-record's exit status: the program's, or
 * 128+N if signal N killed it; 126 or 127 if it could not be run.
 * Dies with 125 on trace-record's own failures.
 */
int	record_run(const struct record_opts *o, char **argv);

/*
 * The channel libtracerecord writes to, for trace-record --sample
 * --spans too: a socket for packets, shared memory for the buffers.
 */
struct channel {
	int		 sock[2];	/* ours, the program's */
	int		 shmfd;
	struct tr_shm	*shm;
	size_t		 shmsize;
};

struct clockcal;
struct collect;

void	record_channel_open(struct channel *ch, uint32_t nbufs);
/* In the child, before exec: the environment that names the channel. */
void	record_child_env(const struct channel *ch, const struct clockcal *cal);
/* Take every packet queued on sock into c (the malformed counted in
 * *bad); 0 when every writer has closed it, else 1. */
int	record_take(int sock, struct collect *c, uint64_t *bad);

#endif
