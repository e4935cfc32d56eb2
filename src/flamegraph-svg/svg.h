/*
 * svg: write a flame graph as one self-contained SVG.
 *
 * Geometry, labels and <title> texts are flamegraph.pl's to the tenth of
 * a pixel (the conformance test compares them), so a frame is where users
 * of flamegraph.pl expect it.  The document is smaller: shared attributes
 * live in one stylesheet, colours are #rrggbb, and <text> is written only
 * where a label fits.  Those elements are the picture for viewers without
 * scripts; the script reads the frames from a JSON block instead (see
 * write_data in svg.c) and never parses markup back.
 * Everything is scoped to the root <svg>'s id, derived from the content,
 * so several graphs can be inlined in one page.
 */
#ifndef FG_SVG_H
#define FG_SVG_H

#include "color.h"
#include "flame.h"
#include "nameattr.h"
#include "palmap.h"

struct svg_opts {
	const char *title, *subtitle, *nametype, *countname, *fonttype;
	const char *notes;
	double width, frameheight, fontsize, fontwidth;
	double minwidth;	/* pixels, or percent with minwidth_pct */
	int minwidth_pct;
	int pal;
	enum shade shade;
	const char *bg1, *bg2;	/* background gradient */
	int inverted, negate;
	int sort_weight;	/* --sort=weight: heaviest callee first */
	struct palmap *palmap;	/* --cp: colours kept in a file, or NULL */
	const struct nameattr *nameattr;	/* --nameattr, or NULL */
	long double total;	/* --total, 0 if not given */
	double factor;
};

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

/*
 * s[0..n) as a JSON string that can sit in XML and in HTML's <script>:
 * neither "]]>" nor "</script" can appear in it.
 */
void svg_json_str(const char *s, size_t n);

/*
 * What the flame graph and the timeline share.  The head: the <svg>, the
 * comment (what, after "flamegraph-svg (flametools)"), --notes, and the
 * style sheet up to its first rule; the caller adds its own rules, then
 * svg_head_end the shared ones, the background (bg, or --bgcolors'
 * gradient if NULL), the title and the subtitle at subtitle_y.
 */
void svg_head(const struct svg_opts *o, const char *id, double height,
    const char *what, const char *bg);
void svg_head_end(const struct svg_opts *o, const char *id, const char *bg,
    double subtitle_y);
/* The buttons the script drives (reset's label), and its "Matched:" line. */
void svg_controls(const struct svg_opts *o, const char *reset, double mx,
    double my);

/*
 * The script: the files part[0..nparts) (js2c.awk) that take says, or
 * all if it is NULL, as one function run at once with its <script>
 * (ui.js's me); then the <svg> gets data-ready, which tests wait for.
 */
void svg_script(const char *const *part, int nparts, const unsigned char *take);

/*
 * An id from the content, to scope the styles and the script: equal
 * graphs get equal ids, others distinct ones.  From SVG_ID_SEED, each
 * element's name and numbers go in; svg_id writes a two-letter prefix
 * and eight hex digits.
 */
#define SVG_ID_SEED 0x9e3779b97f4a7c15ull
#define SVG_ID_SIZE 16
uint64_t svg_id_add(uint64_t h, const char *name, size_t n, const void *v,
    size_t vn);
void svg_id(char *buf, const char *prefix, uint64_t h);

/*
 * A whole number as base-64 digits, five bits a digit, lowest first, the
 * digits of 32 and up saying that more follow (flame.js's vlq reads it).
 */
void svg_vlq(uint64_t v);

/* The graph flamegraph.pl writes for empty input, with its message. */
void svg_write_empty(const struct svg_opts *o);

#endif
