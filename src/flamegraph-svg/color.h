/*
 * color: frame colours, flamegraph.pl's palettes and its choice of shade.
 *
 * By default a name's shade comes from Perl's rand() seeded with the sum
 * of the name's code points, reproduced exactly (Perl's drand48), so the
 * same name has the same colour in every graph, run after run, and the
 * colours are flamegraph.pl's.  --hash uses its namehash(), --random a
 * generator seeded per run.
 */
#ifndef FG_COLOR_H
#define FG_COLOR_H

#include <stddef.h>

enum palette {
	PAL_HOT, PAL_MEM, PAL_IO, PAL_WAKEUP, PAL_CHAIN, PAL_JAVA, PAL_JS,
	PAL_PERL, PAL_RED, PAL_GREEN, PAL_BLUE, PAL_AQUA, PAL_YELLOW,
	PAL_PURPLE, PAL_ORANGE, PAL_HOTCOLD, PAL_COUNT
};

enum shade { SHADE_NAME, SHADE_HASH, SHADE_RANDOM };

struct rgb {
	int r, g, b;
};

/* The palette called name, or -1. */
int color_palette(const char *name);
/* The colour of a frame called name[0..n). */
struct rgb color_frame(int pal, enum shade shade, const char *name, size_t n);
/* Differential: red for growth, blue for shrinkage, white for none. */
struct rgb color_delta(long double delta, long double maxdelta, int negate);

#endif
