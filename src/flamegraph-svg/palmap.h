/*
 * palmap: flamegraph.pl's consistent palette file (--cp).
 *
 * "NAME->rgb(R,G,B)" per line.  Names found there keep their colour;
 * names not found get one from the palette, and the file is rewritten
 * with every name, sorted, so later graphs colour them alike.
 *
 * Only a palette is ever replaced: a regular file, reached without a
 * symbolic link, whose lines are all NAME->rgb(R,G,B) or empty.  Anything
 * else is an error that leaves the file alone (--palfile graph.svg used
 * to overwrite the graph).  The rewrite is made under flock(2) on the
 * file: read it again, since another run may have added names since it
 * was read, add ours (a name already there keeps its colour), write a
 * temporary file next to it and rename it over the name.  So a reader sees
 * the old file or the new, never a part of one, and runs that finish
 * together each keep the other's names.  A run that waited for the lock
 * may hold it on a file already renamed away; it checks that the name is
 * still its file and, if not, locks again.
 * Rejected: a lock file beside the palette (a killed run leaves it
 * behind, and later runs would wait for ever or guess when to break it);
 * holding the lock from the first read to the write (runs would draw one
 * after the other).
 */
#ifndef FG_PALMAP_H
#define FG_PALMAP_H

#include "../lib/intern.h"
#include "color.h"

struct palmap {
	struct intern names;
	struct rgb *colors;
	size_t cap;
	int changed;
};

/*
 * Read path into m; a missing file is an empty map.  Returns -1 after a
 * message, with m freed, when path is not a palette (see above) or
 * cannot be read.
 */
int palmap_read(struct palmap *m, const char *path);
/* The colour of name: from the map, or computed by fn and added. */
struct rgb palmap_get(struct palmap *m, const char *name, size_t n, int pal,
    enum shade shade);
/*
 * If anything was added, merge m into path as it is now and replace it
 * (see above).  0, or -1 after a message.
 */
int palmap_write(struct palmap *m, const char *path);
void palmap_free(struct palmap *m);

#endif
