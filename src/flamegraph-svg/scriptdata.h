/*
 * scriptdata: what a flame graph's script reads, written as one JSON
 * block, and the script itself.  Per row (a depth, top to bottom as
 * drawn), frames in order of start: the gap from the left neighbour's
 * end (0 for most), the count, and the name and colour as indexes into
 * tables; the names sorted; the function table's sums of the frames
 * --minwidth left out.  The static frames (flamesvg.c) are the picture
 * for viewers without scripts; the script never parses them back.
 */
#ifndef FG_SCRIPTDATA_H
#define FG_SCRIPTDATA_H

#include <stdint.h>

#include "../lib/intern.h"
#include "flame.h"
#include "svg.h"

/* A frame as the script sees it; see sd_write. */
struct fdata {
	long double gap;	/* start minus the end of its left neighbour */
	long double n;
	double delta;		/* differential: after - before, or NaN */
	double off;		/* hot/cold: its off-CPU time */
	uint32_t name, color;	/* in jdata's names and colors */
};

/* The model the script reads. */
struct jdata {
	const struct fdata *fd;
	const struct intern *names, *colors;	/* names by their raw bytes */
	const struct frame_attrs *const *attrs;	/* by name, or NULL */
	double y0, dy;		/* the root row's top, and the step to the next */
	double fh;		/* a frame's height, drawn */
	uint32_t rows;
	long double total;
	const long double *fix;	/* by name: self, total to add; or NULL */
	const uint32_t *dnames;	/* --diff: each node's name id in names */
	int frac;		/* a count, drawn or not, has a fraction */
};

/* The script's model, gathered as the frames are drawn (flamesvg.c). */
struct model {
	struct fdata *fd;
	struct intern names, colors;
	const struct frame_attrs **attrs;	/* by id in names */
	size_t attrs_cap;
	/*
	 * per id in flame.names, 1 + its id in names, 0 for none yet: a
	 * name's id without hashing it again (a seventh of writing a frame)
	 */
	uint32_t *to;
};

/*
 * Frames fr[0..n) in the order of start, then depth (a caller before its
 * callees): pre (flame.h) if it lists them strictly so, else NULL.
 */
const uint32_t *sd_pre_ordered(const struct frame *fr, size_t n,
    const uint32_t *pre);
/*
 * The function table of frames fr[0..n) by name id (nnames of them):
 * t[2 * id] the self, t[2 * id + 1] the total, as stackcollapse
 * --to=table prints them; pre is sd_pre_ordered's, or NULL to sort.
 */
long double *sd_name_table(const struct frame *fr, size_t n, size_t nnames,
    const uint32_t *pre);
/* Whether a frame's count (before layout leaves some out) has a fraction. */
int sd_fractional(const struct flame *f);
/*
 * What the table of the frames drawn misses of all's (the table of every
 * frame), kept being the table of those drawn (NULL when none was left
 * out), by name id in m, which gets the names only left-out frames have;
 * NULL if nothing.  Frees all and kept.
 */
long double *sd_table_fix(const struct flame *f, struct model *m,
    long double *all, long double *kept);
/*
 * --diff: the names of the tree's nodes, drawn or not, by id in m, which
 * gets those it lacks.
 */
uint32_t *sd_diff_names(const struct flame *f, struct model *m);
/* The data block (id its element's) and the script parts graph f needs. */
void sd_write(const struct flame *f, const struct svg_opts *o,
    const struct jdata *d, const char *id, const char *label_y);
/*
 * The flame graph's script as a function flameGraph(me) (ui.js says what
 * me is), for the timeline's script to draw the flame graphs of a span
 * profile's samples with (spanflame.js): the parts a graph of stacks
 * counted in ns uses, and --diff's, for the comparison of two
 * selections (spandiff.js); not those of --nameattr, hot/cold colours
 * or fractional counts.
 */
void sd_script_function(void);
/*
 * A whole number as base-64 digits, five bits a digit, lowest first, the
 * digits of 32 and up saying that more follow (flame.js's vlq reads it).
 */
void sd_vlq(uint64_t v);

#endif
