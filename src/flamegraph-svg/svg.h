/*
 * svg: the SVG document that the flame graph (flamesvg.h) and the
 * timeline (timeline.h) share: the options, the head and style sheet,
 * the buttons, the script, the content's id, and numbers written as
 * flamegraph.pl writes them.  Everything is scoped to the root <svg>'s
 * id, derived from the content, so several graphs can be inlined in one
 * page.
 */
#ifndef FG_SVG_H
#define FG_SVG_H

#include <stdint.h>

#include "color.h"
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
 * svg_script in steps, for a script that holds another's code: the
 * timeline's holds the flame graph's as a function (sd_script_function).
 */
void svg_script_open(void);
void svg_script_parts(const char *const *part, int nparts,
    const unsigned char *take);
void svg_script_close(void);

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
/* svg_id_add with the name's intern_hash already computed, nh */
uint64_t svg_id_add_h(uint64_t h, uint64_t nh, const void *v, size_t vn);
void svg_id(char *buf, const char *prefix, uint64_t h);

/*
 * Numbers as flamegraph.pl writes them, into buf (32 bytes): svg_pnum as
 * Perl prints a number (%.15g), svg_short1 a coordinate ("%0.1f")
 * without a trailing ".0" (svg_trim0_n drops it from the n bytes of a
 * num_fmt_fixed string, n updated).  svg_count writes a count as an
 * attribute value: exact for integers, else %.17g.
 */
const char *svg_pnum(char *buf, double v);
const char *svg_short1(char *buf, double v);
const char *svg_trim0_n(const char *buf, size_t *n);
void svg_count(long double v);

/* The graph flamegraph.pl writes for empty input, with its message. */
void svg_write_empty(const struct svg_opts *o);

#endif
