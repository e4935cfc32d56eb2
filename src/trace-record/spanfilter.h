/*
 * spanfilter.h: which spans trace-record writes (--min-duration,
 * --max-depth, --filter, --exclude); the rules are spanfilter.c's.
 */
#ifndef TR_SPANFILTER_H
#define TR_SPANFILTER_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

struct spanfilter {
	uint64_t	 min_ns;	/* --min-duration; 0: none */
	uint32_t	 max_depth;	/* --max-depth; 0: none */
	regex_t		*keep, *drop;	/* --filter, --exclude */
	size_t		 nkeep, ndrop;
	char		*given;		/* the options as given, for the header */
};

/* A span's place in the filtered tree, worked out from its parent's. */
struct spanfilter_mark {
	uint32_t	 depth;		/* its own if kept, else its nearest
					 * kept ancestor's (0: none) */
	uint8_t		 bits;		/* SPANFILTER_* */
};

enum {
	SPANFILTER_KEPT = 1,
	SPANFILTER_SCOPE = 2,		/* under a --filter match, or no --filter */
	SPANFILTER_EXCLUDED = 4,	/* under an --exclude match */
};

/* What a name matches: a --filter (SPANFILTER_SCOPE), an --exclude
 * (SPANFILTER_EXCLUDED). */
unsigned spanfilter_name(const struct spanfilter *f, const char *name);

/*
 * "10us" as nanoseconds in *ns: digits and a unit, ns, us, ms or s.
 * Returns 0, or -1 on anything else, 0, or more than 2^63 ns.
 */
int	spanfilter_duration(const char *s, uint64_t *ns);

/*
 * Add a --filter (exclude 0) or --exclude regex, a POSIX extended one
 * (grep -E).  Returns NULL, or why it does not compile (static).
 */
const char *spanfilter_add(struct spanfilter *f, int exclude, const char *re);

/* Note an option as given (name and argument), for spanfilter_given's line. */
void	spanfilter_note(struct spanfilter *f, const char *opt, const char *arg);

/* Whether any filter is set. */
int	spanfilter_active(const struct spanfilter *f);

/*
 * The mark of a span from its parent's (NULL: it has none), what its
 * name matches (spanfilter_name), its duration in ns, and whether it
 * ended; returns whether it is kept.
 */
int	spanfilter_mark(const struct spanfilter *f, const struct spanfilter_mark *parent,
	    unsigned match, uint64_t dur_ns, int ended, struct spanfilter_mark *m);

void	spanfilter_free(struct spanfilter *f);

#endif
