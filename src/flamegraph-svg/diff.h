/*
 * diff: flamegraph-svg --diff, two profiles drawn as one graph that loses
 * nothing (Gregg's complaint about the classic differential graph: it is
 * drawn on one profile's shape, so code found only in the other vanishes).
 *
 * Input: two folded files, BEFORE and AFTER, or one three-column file
 * ("STACK BEFORE AFTER", stackcollapse --diff's).  Stacks are summed per
 * side, exactly (folded.h's folded_sum: column 0 before, 1 after), then
 * merged into one tree of frames whose children are in name order; unlike
 * the classic graph (flame.c), a frame's callees merge whatever stacks sort
 * between them, so a frame is one node of the call tree.  Every node keeps
 * its before and after totals and selves (struct diff_frame); the frames
 * of struct flame point at them (frame.diff).
 *
 * Width is one side's (after by default, or before) or, with max, the
 * larger of the two and at least its callees' widths plus its larger self,
 * so a frame that exists on one side only is drawn when that side's width
 * counts.  Max is in after's units, before scaled by the ratio of the
 * totals when normalized.  Frames of width 0 (one side's only, under the
 * other side's width) are not drawn and not counted as left out.  Colour is the
 * relative change of the frame's self share (self count over its side's
 * total; raw counts with --no-normalize): neutral grey for none, toward
 * red for more and green for less (blue and orange for --diff-palette=cb),
 * full at the clamp (100% by default) and beyond.  A self that is new is
 * full "more"; a self that is gone is -100%.  A frame found on one side
 * only is marked by the full colour of its side (removed: "less", added:
 * "more"), whatever its self, and its title says "only in".  Every number written is
 * finite: a ratio is taken only over a nonzero denominator.
 *
 * The script's data (diff_data) is the whole tree, not the frames drawn:
 * every node breadth first with its name, number of callees and both
 * sides' counts, so that the browser lays it out by another width and
 * colours it by the other palette without the file being made again
 * (flame.js's relayout mirrors diff_build), and makes the diff table
 * from it (table.js); scriptdata.c then leaves out its per-frame data.
 *
 * Rejected: the classic form's one delta per stack (flame.c; still what
 * plain three-column input draws), which cannot show a frame absent from
 * the drawn side; colouring by total share, which paints every caller of
 * a changed leaf and hides where the time moved.
 */
#ifndef FG_DIFF_H
#define FG_DIFF_H

#include "../lib/folded.h"
#include "color.h"
#include "flame.h"

struct input;

enum diff_width { DIFF_AFTER, DIFF_BEFORE, DIFF_MAX };
enum diff_palette { DIFF_RG, DIFF_CB };

struct diff_opts {
	enum diff_width width;
	enum diff_palette palette;
	int normalize;		/* compare shares (default), or raw counts */
	double clamp;		/* percent of change drawn at full colour */
};

/* One node of the merged tree: counts as read (before any scaling). */
struct diff_frame {
	long double before, after;	/* totals: the node and its callees */
	long double sbefore, safter;	/* selves: stacks that end here */
};

struct diff {
	struct diff_opts o;
	struct folded_sum sum;		/* the summed stacks, both sides */
	long double tbefore, tafter;	/* the sides' totals */
	struct diff_frame *fr;		/* by frame.diff - 1 */
	uint32_t *name, *nkids;		/* each node's name (in f->names), callees */
	uint32_t depth;			/* the deepest node's */
	size_t nfr, cap;
	char summary[1024];		/* the subtitle: totals and scale */
};

void diff_init(struct diff *d, const struct diff_opts *o);
void diff_free(struct diff *d);

/*
 * Read the folded lines of in into side col (0 before, 1 after), or with
 * col DIFF_BOTH the three-column lines into both.  Lines of the other
 * shape are skipped, the first few shown and their number said; *nbad
 * grows by it.  Returns 0, or -1 after a count or a sum that does not fit
 * (reported with its line).  unit (FOLDED_UNIT_MAX + 1 bytes) gets the
 * input's "# unit:" (folded.h), or "" when it has none.
 */
#define DIFF_BOTH 2
int diff_read(struct diff *d, struct input *in, int col, uint64_t *nbad,
    char *unit);

/*
 * The merged tree as frames of f (empty, from flame_init), with --reverse
 * if reverse.  Returns 0; -1 when a side's total is 2^64 or more; 1 when
 * the chosen width's side is empty and the other's width was taken (for
 * the caller to say).
 */
int diff_build(struct diff *d, struct flame *f, int reverse);
#endif
