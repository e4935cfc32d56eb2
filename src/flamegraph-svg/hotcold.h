/*
 * hotcold: a wall-clock profile's on-CPU and off-CPU time in one graph
 * (--colors=hotcold; chosen on its own when the input carries folded(5)'s
 * off-CPU mark, the leaf frame "[off-cpu]" that trace-record --wall and
 * stackcollapse write for offcpu-time samples).
 *
 * flame.c sums under each frame the counts of the marked stacks
 * (frame.off).  A frame's fill goes from the hot palette's shade of its
 * name, all of it on the CPU, to the blue one's, all of it off, in
 * proportion: a frame that waits is blue, one that spins red, and a
 * caller of both in between.  Its title says the split, and a legend
 * row under the title says which colour is which.
 */
#ifndef FG_HOTCOLD_H
#define FG_HOTCOLD_H

#include "color.h"
#include "flame.h"
#include "svg.h"

/* A frame's fill. */
struct rgb	hotcold_color(const struct frame *fr, enum shade shade,
		    const char *name, size_t n);

/* "; off-CPU P%" for a frame's title. */
void		hotcold_title(const struct frame *fr);

/* The legend: a bar from hot to cold, at y, in the graph whose id is id. */
void		hotcold_legend(const struct svg_opts *o, const char *id, double y);

#endif
