/*
 * palmap: flamegraph.pl's consistent palette file (--cp).
 *
 * "NAME->rgb(R,G,B)" per line.  Names found there keep their colour;
 * names not found get one from the palette, and the file is rewritten
 * with every name, sorted, so later graphs colour them alike.
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
 * Read path into m; a missing file is an empty map.  Lines that are not
 * NAME->rgb(R,G,B) are skipped and reported.  Returns -1 on a read error,
 * with m freed.
 */
int palmap_read(struct palmap *m, const char *path);
/* The colour of name: from the map, or computed by fn and added. */
struct rgb palmap_get(struct palmap *m, const char *name, size_t n, int pal,
    enum shade shade);
/* Rewrite path, sorted by name, if anything was added.  0 or -1. */
int palmap_write(struct palmap *m, const char *path);
void palmap_free(struct palmap *m);

#endif
