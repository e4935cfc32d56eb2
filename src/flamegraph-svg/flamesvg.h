/*
 * flamesvg: write a flame graph as one self-contained SVG.
 *
 * Geometry, labels and <title> texts are flamegraph.pl's to the tenth of
 * a pixel (the conformance test compares them), so a frame is where users
 * of flamegraph.pl expect it.  The document is smaller: shared attributes
 * live in one stylesheet, colours are #rrggbb, and <text> is written only
 * where a label fits.  Those elements are the picture for viewers without
 * scripts; the script reads the frames from a JSON block instead
 * (scriptdata.h).
 */
#ifndef FG_FLAMESVG_H
#define FG_FLAMESVG_H

#include "flame.h"
#include "svg.h"

/*
 * The width below which a frame of a graph of this total is not drawn
 * (--minwidth), for options ctx (a struct svg_opts): flame_opts.narrow.
 */
long double svg_narrow(long double total, const void *ctx);

/*
 * Write the graph to standard output.  Returns the number of frames left
 * out for being narrower than --minwidth.
 */
size_t svg_write(struct flame *f, const struct svg_opts *o);

#endif
