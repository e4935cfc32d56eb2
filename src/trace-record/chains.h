/*
 * chains.h: the distinct call chains of a sampling run, each kept once.
 *
 * A sample settled by report.c's replay keeps a chain's id instead of
 * its frames (recs.h's REC_SETTLED), so that memory follows the distinct
 * stacks and not the number of samples.  A chain is what naming its
 * frames needs once the mappings of the sample's time are gone: each
 * frame's address and, for a user frame, the file it was mapped from and
 * that mapping's start less its file offset, so that the frame's offset
 * in the file is its address less that base.  A mapping's path is an id
 * into chains.paths.
 */
#ifndef TR_CHAINS_H
#define TR_CHAINS_H

#include <stdint.h>

#include "../lib/intern.h"

struct chain_frame {
	uint64_t	 addr;
	uint64_t	 base;		/* file offset = addr - base */
	uint32_t	 file;		/* path id + 1; 0: in no mapping */
};

/* A chain as got back: n frames, leaf first, the first nkernel the
 * kernel's (their file 0). */
struct chain {
	uint32_t	 pid;		/* 0 unless a frame needs it (chains_put) */
	uint32_t	 n, nkernel;
	char		 comm[16];	/* empty: the thread's name */
	const unsigned char *frames;	/* chains_frame's */
};

struct chains {
	struct intern	 keys;		/* chains, as chains.c lays them out */
	struct intern	 paths;		/* mapped files' paths */
	unsigned char	*buf;		/* a key being made */
	size_t		 bufcap;
};

void		 chains_init(struct chains *c);
void		 chains_free(struct chains *c);

/* The id of a mapped file's path, added if new. */
uint32_t	 chains_path(struct chains *c, const char *path);

/*
 * The id of the chain of n frames (leaf first, nkernel of them the
 * kernel's), added if new.  pid: the process, where naming a frame
 * depends on it (an address in no file, looked up in its perf map);
 * 0 otherwise, so that the processes of one program share their chains.
 * comm: 16 bytes, the name the sample came with, or empty.
 */
uint32_t	 chains_put(struct chains *c, uint32_t pid, const char *comm,
		    uint32_t nkernel, uint32_t n, const struct chain_frame *f);

/* Chain id into *ch, valid until c is freed (keys never move). */
void		 chains_get(const struct chains *c, uint32_t id, struct chain *ch);

/* Frame i of ch. */
void		 chains_frame(const struct chain *ch, uint32_t i, struct chain_frame *f);

/* The path of id (chain_frame.file - 1). */
const char	*chains_path_str(const struct chains *c, uint32_t id);

#endif
