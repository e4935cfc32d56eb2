/*
 * diffsvg: what a --diff graph (diff.h's merged tree) adds to the SVG:
 * its subtitle, its frames' colours and titles, the legend, and its part
 * of the script's data.
 */
#ifndef FG_DIFFSVG_H
#define FG_DIFFSVG_H

#include "color.h"
#include "diff.h"
#include "svg.h"

/*
 * The subtitle (d->summary): --subtitle if any, both totals, the scale,
 * the width's side.  Call after diff_build.
 */
void diff_summary(struct diff *d, const struct svg_opts *o);

/* A frame's fill, its <title> text (name already written), the legend. */
struct rgb diff_color(const struct diff *d, const struct diff_frame *x,
    int negate);
void diff_title(const struct diff *d, const struct diff_frame *x,
    const struct svg_opts *o);
void diff_legend(const struct diff *d, const struct svg_opts *o,
    const char *id, double y, int negate);
/*
 * Its part of the script's data: ",\"diff\":{...}", every node of the
 * tree (drawn or not) in fr order, with its name (rank[dn[k]], the index
 * of node k's name in the data) and number of callees, so that the script
 * lays the tree out again by another width.
 */
void diff_data(const struct diff *d, const uint32_t *dn, const uint32_t *rank,
    const struct svg_opts *o);

#endif
