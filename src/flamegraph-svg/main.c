/*
 * flamegraph-svg: draw folded stacks as an interactive SVG flame graph.
 *
 * Reads folded stacks (folded(5); files or standard input, gzip detected
 * by its magic bytes) and writes one self-contained SVG: frames where
 * flamegraph.pl puts them, with hover details, click-zoom and regex search
 * when scripts run, and a complete picture when they do not.  An input
 * that starts "# spanlayout v1" is drawn as a timeline instead (timeline.h).
 *
 *	perf script | stackcollapse | flamegraph-svg > cpu.svg
 *	trace-record ./prog | spanlayout | flamegraph-svg > trace.svg
 */
#include <getopt.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/folded.h"
#include "../lib/input.h"
#include "../lib/num.h"
#include "../lib/opt.h"
#include "../lib/out.h"
#include "../lib/sniff.h"
#include "diff.h"
#include "diffsvg.h"
#include "flame.h"
#include "flamesvg.h"
#include "svg.h"
#include "timeline.h"

static const char usage_text[] =
"usage: flamegraph-svg [--title TEXT] [--subtitle TEXT] [--width PX]\n"
"                      [--height PX] [--minwidth PX|N%] [--fonttype FONT]\n"
"                      [--fontsize PX] [--fontwidth F] [--countname TEXT]\n"
"                      [--nametype TEXT] [--colors PALETTE] [--bgcolors COLOR]\n"
"                      [--hash | --random] [--reverse] [--inverted]\n"
"                      [--flamechart] [--negate] [--notes TEXT] [--total N]\n"
"                      [--factor F] [--sort name|weight] [--cp]\n"
"                      [--palfile FILE] [--nameattr FILE] [--gzip] [--plain]\n"
"                      [FILE...]\n"
"       flamegraph-svg --diff [--diff-width=after|before|max]\n"
"                      [--diff-palette=rg|cb] [--diff-clamp PCT]\n"
"                      [--normalize | --no-normalize] [OPTIONS] BEFORE AFTER\n"
"       flamegraph-svg --diff [OPTIONS] [DIFF_FILE]\n"
"       flamegraph-svg [--timeline] [--title TEXT] [--subtitle TEXT]\n"
"                      [--width PX] [--height PX] [--minwidth PX|N%] [FILE]\n"
"\n"
"Draw folded stacks (see folded(5)) as an interactive SVG flame graph, or\n"
"spans laid out by spanlayout(1) (\"# spanlayout v1\") as a timeline.\n"
"\n"
"  --title TEXT       title (default \"Flame Graph\", \"Icicle Graph\",\n"
"                     \"Flame Chart\")\n"
"  --subtitle TEXT    second title line\n"
"  --width PX         image width (default 1200)\n"
"  --height PX        frame height (default 16)\n"
"  --minwidth PX|N%   leave out frames narrower than PX pixels (default\n"
"                     0.1) or N% of the total\n"
"  --fonttype FONT    font family (default Verdana)\n"
"  --fontsize PX      font size (default 12)\n"
"  --fontwidth F      average character width, in font sizes (0.59)\n"
"  --countname TEXT   what the counts are (default \"samples\")\n"
"  --nametype TEXT    what the names are (default \"Function:\")\n"
"  --colors PALETTE   hot (default), mem, io, wakeup, chain, java, js,\n"
"                     perl, red, green, blue, aqua, yellow, purple, orange,\n"
"                     hotcold (on-CPU hot, off-CPU cold: chosen for input\n"
"                     with [off-cpu] stacks)\n"
"  --bgcolors COLOR   yellow, blue, green, grey, or #rrggbb\n"
"  --hash             shade by flamegraph.pl's name hash\n"
"  --random           random shades (differ from run to run)\n"
"  --cp               keep colours per name in palette.map, for graphs\n"
"                     that colour alike\n"
"  --palfile FILE     --cp with FILE instead of palette.map\n"
"  --nameattr FILE    per-name title, href, target, class (tab-separated)\n"
"  --gzip             write gzip-compressed SVG (.svgz)\n"
"  --plain            ignored (the script and data are always as they are)\n"
"  --reverse          merge stacks from the leaf (stack-reversed graph)\n"
"  --inverted         icicle graph: root at the top\n"
"  --flamechart       keep input order (time); merge only neighbours\n"
"  --negate           swap the differential colours\n"
"  --notes TEXT       a note inside the SVG (its <desc>)\n"
"  --encoding UTF-8   flamegraph.pl's; the SVG is UTF-8 (no other)\n"
"  --total N          draw against a total of N (if above the sum)\n"
"  --factor F         multiply counts by F in the texts\n"
"  --sort name|weight callees in name order (default, flamegraph.pl's) or\n"
"                     heaviest first\n"
"  --timeline         draw a timeline even without the spanlayout header\n"
"  --diff             BEFORE against AFTER (two folded files, or one of\n"
"                     \"STACK BEFORE AFTER\" lines): every frame of both,\n"
"                     coloured by the change of its self share\n"
"  --diff-width=SIDE  widths by after (default), before, or max of both\n"
"  --diff-palette=P   rg: green less, red more (default); cb: blue less,\n"
"                     orange more\n"
"  --diff-clamp PCT   change drawn at full colour (default 100)\n"
"  --normalize        --diff: compare shares of each total (default)\n"
"  --no-normalize     --diff: compare raw counts\n"
"  -NAME              a long option after one dash, as flamegraph.pl takes\n"
"                     it (-width=800)\n"
"  -h, --help         show this help and exit\n"
"  -V, --version      show the version and exit\n";

static double
number_arg(const char *opt, const char *s, double min)
{
	char *end;
	double v = strtod(s, &end);

	if (*s == '\0' || *end != '\0' || !(v >= min) || !isfinite(v))
		die(EXIT_USAGE, "%s takes a number of at least %g, not \"%s\"",
		    opt, min, s);
	return v;
}

/*
 * A number greater than 0, what being the kind ("a number"): for the
 * options that divide by theirs, where number_arg's "at least" is wrong.
 */
static double
positive_arg(const char *opt, const char *what, const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (*s == '\0' || *end != '\0' || !(v > 0) || !isfinite(v))
		die(EXIT_USAGE, "%s takes %s greater than 0, not \"%s\"", opt,
		    what, s);
	return v;
}

/* flame_read's take for a flame graph: every valid line is kept. */
static int
keep_line(void *f, const char *s, size_t n, const struct folded *fl,
    const char **why)
{
	(void)why;
	flame_add_line(f, s, n, fl);
	return 0;
}

/*
 * Timeline mode: one spanlayout(1) file, already open and recognized.
 * The command the trace recorded is the default subtitle.  Skipped span
 * lines make the exit status 1: the picture lacks them.
 */
static int
timeline(struct input *in, struct svg_opts *o)
{
	struct timeline t;
	size_t elided;
	int status = 0;

	timeline_init(&t);
	if (timeline_read(&t, in) < 0)
		status = EXIT_INPUT;
	input_close(in);
	if (status == 0 && t.n == 0) {
		warn_msg("no spans found");
		svg_write_empty(o);
		out_flush();
		status = EXIT_USAGE;
	}
	if (status) {
		timeline_free(&t);
		return status;
	}
	if (o->title == NULL)
		o->title = "Timeline";
	if ((o->subtitle == NULL || *o->subtitle == '\0') && t.command)
		o->subtitle = t.command;
	elided = timeline_write(&t, o);
	out_flush();
	if (elided)
		warn_msg("left out of the static picture %zu span%s narrower than "
		    "--minwidth (the script draws them all)", elided,
		    elided == 1 ? "" : "s");
	/* The picture is drawn, but without the spans that were skipped. */
	status = t.nbad ? EXIT_INPUT : 0;
	timeline_free(&t);
	return status;
}

/* What the command line asks for, beyond the SVG's own options. */
struct opts {
	struct svg_opts svg;
	struct flame_opts flame;
	struct diff_opts diff;
	const char *bg, *palfile, *nameattr_file;
	int gzip, force_timeline;
	int is_diff;		/* --diff */
	int pal_set, countname_set;	/* --colors, --countname were given */
	int diff_opt;		/* a --diff-* or --[no-]normalize was given */
};

enum {
	O_TITLE = 256, O_SUBTITLE, O_WIDTH, O_HEIGHT, O_MINWIDTH,
	O_FONTTYPE, O_FONTSIZE, O_FONTWIDTH, O_COUNTNAME, O_NAMETYPE,
	O_COLORS, O_BGCOLORS, O_HASH, O_RANDOM, O_REVERSE, O_INVERTED,
	O_FLAMECHART, O_NEGATE, O_NOTES, O_TOTAL, O_FACTOR, O_SORT,
	O_CP, O_PALFILE, O_NAMEATTR, O_GZIP, O_PLAIN, O_TIMELINE, O_DIFF,
	O_DIFF_CLAMP, O_DIFF_PALETTE, O_DIFF_WIDTH, O_NORMALIZE, O_NO_NORMALIZE,
	O_ENCODING,
};

static const struct option longopts[] = {
	{ "bgcolors", required_argument, NULL, O_BGCOLORS },
	{ "colors", required_argument, NULL, O_COLORS },
	{ "countname", required_argument, NULL, O_COUNTNAME },
	{ "cp", no_argument, NULL, O_CP },
	{ "diff", no_argument, NULL, O_DIFF },
	{ "diff-clamp", required_argument, NULL, O_DIFF_CLAMP },
	{ "diff-palette", required_argument, NULL, O_DIFF_PALETTE },
	{ "diff-width", required_argument, NULL, O_DIFF_WIDTH },
	{ "encoding", required_argument, NULL, O_ENCODING },
	{ "factor", required_argument, NULL, O_FACTOR },
	{ "flamechart", no_argument, NULL, O_FLAMECHART },
	{ "fontsize", required_argument, NULL, O_FONTSIZE },
	{ "fonttype", required_argument, NULL, O_FONTTYPE },
	{ "fontwidth", required_argument, NULL, O_FONTWIDTH },
	{ "gzip", no_argument, NULL, O_GZIP },
	{ "hash", no_argument, NULL, O_HASH },
	{ "height", required_argument, NULL, O_HEIGHT },
	{ "help", no_argument, NULL, 'h' },
	{ "inverted", no_argument, NULL, O_INVERTED },
	{ "minwidth", required_argument, NULL, O_MINWIDTH },
	{ "nameattr", required_argument, NULL, O_NAMEATTR },
	{ "nametype", required_argument, NULL, O_NAMETYPE },
	{ "negate", no_argument, NULL, O_NEGATE },
	{ "no-normalize", no_argument, NULL, O_NO_NORMALIZE },
	{ "normalize", no_argument, NULL, O_NORMALIZE },
	{ "notes", required_argument, NULL, O_NOTES },
	{ "palfile", required_argument, NULL, O_PALFILE },
	{ "plain", no_argument, NULL, O_PLAIN },
	{ "random", no_argument, NULL, O_RANDOM },
	{ "reverse", no_argument, NULL, O_REVERSE },
	{ "sort", required_argument, NULL, O_SORT },
	{ "subtitle", required_argument, NULL, O_SUBTITLE },
	{ "timeline", no_argument, NULL, O_TIMELINE },
	{ "title", required_argument, NULL, O_TITLE },
	{ "total", required_argument, NULL, O_TOTAL },
	{ "version", no_argument, NULL, 'V' },
	{ "width", required_argument, NULL, O_WIDTH },
	{ NULL, 0, NULL, 0 },
};

/* --minwidth PX or N%. */
static void
minwidth_arg(struct svg_opts *o, const char *arg)
{
	size_t n = strlen(arg);
	char buf[64];

	o->minwidth_pct = n > 0 && arg[n - 1] == '%';
	if (n >= sizeof buf)
		die(EXIT_USAGE, "--minwidth: \"%s\" is too long", arg);
	memcpy(buf, arg, n + 1);
	if (o->minwidth_pct)
		buf[n - 1] = '\0';
	o->minwidth = number_arg("--minwidth", buf, 0);
}

/*
 * The options into op, checked as they come (a usage error exits 2);
 * --help and --version exit here.  Leaves optind at the first operand.
 */
static void
parse_options(int argc, char **argv, struct opts *op)
{
	struct svg_opts *o = &op->svg;
	int ch;

	opt_one_dash(argc, argv, longopts);	/* flamegraph.pl -width=800 */
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":hV", longopts, NULL)) != -1) {
		switch (ch) {
		case O_BGCOLORS:
			op->bg = optarg;
			break;
		case O_COLORS:
			if ((o->pal = color_palette(optarg)) < 0)
				die(EXIT_USAGE, "unknown palette \"%s\" (hot, mem, io, "
				    "wakeup, chain, java, js, perl, red, green, blue, "
				    "aqua, yellow, purple, orange, hotcold)", optarg);
			op->pal_set = 1;
			break;
		case O_CP:
			op->palfile = op->palfile ? op->palfile : "palette.map";
			break;
		case O_PALFILE:
			op->palfile = optarg;
			break;
		case O_NAMEATTR:
			op->nameattr_file = optarg;
			break;
		case O_DIFF:
			op->is_diff = 1;
			break;
		case O_DIFF_CLAMP:
			/* 0 would make every change infinitely strong */
			op->diff.clamp = positive_arg("--diff-clamp",
			    "a percentage", optarg);
			op->diff_opt = 1;
			break;
		case O_DIFF_PALETTE:
			if (strcmp(optarg, "rg") == 0)
				op->diff.palette = DIFF_RG;
			else if (strcmp(optarg, "cb") == 0)
				op->diff.palette = DIFF_CB;
			else
				die(EXIT_USAGE, "--diff-palette takes rg or cb, not "
				    "\"%s\"", optarg);
			op->diff_opt = 1;
			break;
		case O_DIFF_WIDTH:
			if (strcmp(optarg, "after") == 0)
				op->diff.width = DIFF_AFTER;
			else if (strcmp(optarg, "before") == 0)
				op->diff.width = DIFF_BEFORE;
			else if (strcmp(optarg, "max") == 0)
				op->diff.width = DIFF_MAX;
			else
				die(EXIT_USAGE, "--diff-width takes after, before or "
				    "max, not \"%s\"", optarg);
			op->diff_opt = 1;
			break;
		case O_NORMALIZE:
		case O_NO_NORMALIZE:
			op->diff.normalize = ch == O_NORMALIZE;
			op->diff_opt = 1;
			break;
		case O_COUNTNAME:
			o->countname = optarg;
			op->countname_set = 1;
			break;
		case O_FACTOR:
			/* 0 would make every percentage 0/0 */
			o->factor = positive_arg("--factor", "a number",
			    optarg);
			break;
		case O_FLAMECHART:
			op->flame.order = ORDER_INPUT;
			break;
		case O_FONTSIZE:
			o->fontsize = number_arg("--fontsize", optarg, 0.1);
			break;
		case O_FONTTYPE:
			o->fonttype = optarg;
			break;
		case O_FONTWIDTH:
			o->fontwidth = number_arg("--fontwidth", optarg, 0.01);
			break;
		case O_GZIP:
			op->gzip = 1;
			break;
		case O_PLAIN:	/* what every graph now is; kept for old scripts */
			break;
		case O_HASH:
			o->shade = SHADE_HASH;
			break;
		case O_HEIGHT:
			o->frameheight = number_arg("--height", optarg, 1);
			break;
		case O_INVERTED:
			o->inverted = 1;
			break;
		case O_MINWIDTH:
			minwidth_arg(o, optarg);
			break;
		case O_NAMETYPE:
			o->nametype = optarg;
			break;
		case O_NEGATE:
			o->negate = 1;
			break;
		case O_NOTES:
			o->notes = optarg;
			break;
		case O_ENCODING:
			/*
			 * flamegraph.pl's: the encoding its XML declaration
			 * names, the names' bytes passed through.  Ours is
			 * always UTF-8 (XML's default, names checked), so
			 * only that is the same thing.
			 */
			if (strcmp(optarg, "UTF-8") != 0 &&
			    strcmp(optarg, "utf-8") != 0 &&
			    strcmp(optarg, "UTF8") != 0 &&
			    strcmp(optarg, "utf8") != 0)
				die(EXIT_USAGE, "--encoding: the SVG is UTF-8, "
				    "not \"%s\" (convert the input: iconv -f %s "
				    "-t UTF-8)", optarg, optarg);
			break;
		case O_RANDOM:
			o->shade = SHADE_RANDOM;
			break;
		case O_REVERSE:
			op->flame.reverse = 1;
			break;
		case O_SORT:
			if (strcmp(optarg, "weight") == 0)
				o->sort_weight = 1;
			else if (strcmp(optarg, "name") == 0)
				o->sort_weight = 0;
			else
				die(EXIT_USAGE, "--sort takes name or weight, not \"%s\"",
				    optarg);
			break;
		case O_SUBTITLE:
			o->subtitle = optarg;
			break;
		case O_TIMELINE:
			op->force_timeline = 1;
			break;
		case O_TITLE:
			o->title = optarg;
			break;
		case O_TOTAL:
			o->total = number_arg("--total", optarg, 0);
			break;
		case O_WIDTH:
			o->width = number_arg("--width", optarg, 21);
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(fflush(stdout) == 0 ? 0 : EXIT_INPUT);
		case 'V':
			puts("flamegraph-svg (flametools) " FT_VERSION);
			exit(fflush(stdout) == 0 ? 0 : EXIT_INPUT);
		default:
			opt_fail(ch, argv, usage_text);
		}
	}
	if (op->diff_opt && !op->is_diff)
		die(EXIT_USAGE, "--diff-width, --diff-palette, --diff-clamp and "
		    "--[no-]normalize go with --diff");
	if (op->is_diff && (op->force_timeline ||
	    op->flame.order == ORDER_INPUT))
		die(EXIT_USAGE, "--diff draws a flame graph: not with --timeline "
		    "or --flamechart");
}

/* --bgcolors' names: flamegraph.pl's gradients. */
static const struct background {
	const char *name, *bg1, *bg2;
} backgrounds[] = {
	{ "yellow", "#eeeeee", "#eeeeb0" },
	{ "blue", "#eeeeee", "#e0e0ff" },
	{ "green", "#eef2ee", "#e0ffe0" },
	{ "grey", "#f8f8f8", "#e8e8e8" },
};

/*
 * The background: --bgcolors, or the palette's as flamegraph.pl picks
 * it; a name above or one #rrggbb for both ends.
 */
static void
set_background(struct svg_opts *o, const char *bg)
{
	if (bg == NULL)
		bg = o->pal == PAL_MEM ? "green" : (o->pal == PAL_IO ||
		    o->pal == PAL_WAKEUP || o->pal == PAL_CHAIN) ? "blue" :
		    o->pal >= PAL_RED && o->pal != PAL_HOTCOLD ? "grey" : "yellow";
	for (size_t i = 0; i < sizeof backgrounds / sizeof backgrounds[0]; i++)
		if (strcmp(bg, backgrounds[i].name) == 0) {
			o->bg1 = backgrounds[i].bg1, o->bg2 = backgrounds[i].bg2;
			return;
		}
	if (bg[0] == '#' && strlen(bg) == 7 &&
	    strspn(bg + 1, "0123456789abcdefABCDEF") == 6) {
		o->bg1 = o->bg2 = bg;
		return;
	}
	die(EXIT_USAGE, "unknown background \"%s\" (yellow, blue, green, "
	    "grey, or #rrggbb)", bg);
}

/*
 * Flame graph mode's first input when it is another step's (sniff.h):
 * said with what to run, 1; else 0.
 */
static int
wrong_step(const struct input *in, const char *p, size_t n)
{
	char q[SNIFF_NAME_MAX];
	unsigned long long line;

	switch (sniff_head(p, n, &line)) {
	case SNIFF_PERF_DATA:
		warn_at(in->name, 0, "this is perf.data, not folded stacks: run "
		    "perf script -i %s | stackcollapse | flamegraph-svg",
		    sniff_perf_name(q, in->name));
		return 1;
	case SNIFF_SPANS:
		warn_at(in->name, line, "this is a spans file (spans(5)): lay "
		    "it out with spanlayout first (a timeline), or fold it with "
		    "spanlayout --fold (a flame graph)");
		return 1;
	case SNIFF_CHROME_TRACE:
		warn_at(in->name, line, "this is a Chrome trace: lay it out "
		    "with spanlayout first (a timeline), or fold it with "
		    "spanlayout --fold (a flame graph)");
		return 1;
	case SNIFF_CHROME_PROFILE:
		warn_at(in->name, line, "this is a Chrome CPU profile: fold it "
		    "with stackcollapse first");
		return 1;
	case SNIFF_PERF_SCRIPT:
		warn_at(in->name, line, "this is perf script text: fold it with "
		    "stackcollapse first");
		return 1;
	default:
		return 0;
	}
}

/*
 * Flame graph mode: every input's folded lines (the first already open
 * as in), merged into frames and drawn.  An input that cannot be read
 * makes the status 1 but the graph is drawn from the others.
 */
static int
flame_graph(struct input *in, int argc, char **argv, struct opts *op)
{
	struct svg_opts *o = &op->svg;
	struct flame f;
	uint64_t nbad = 0;
	size_t elided;
	int status = 0;
	static char unit[FOLDED_UNIT_MAX + 1];	/* the input's "# unit:" */

	flame_init(&f);
	f.in_order = op->flame.order == ORDER_INPUT;
	f.rewrites = op->flame.reverse || op->flame.chain;
	/* one mapped file: its lines are kept in place until the build */
	if (argc <= 1 && input_keep(in)) {
		f.kept = in->map;
		f.keptlen = in->maplen;
	}
	for (int i = 0; i < (argc ? argc : 1); i++) {
		if (i && input_open(in, argv[i], "\n") < 0) {
			status = EXIT_INPUT;
			continue;
		}
		if (flame_read(in, &f.kind, &nbad, keep_line, &f, unit) < 0)
			status = EXIT_INPUT;
		if (!f.kept)
			input_close(in);
	}
	if (o->title == NULL)
		o->title = op->flame.order == ORDER_INPUT ? "Flame Chart" :
		    o->inverted ? "Icicle Graph" : "Flame Graph";
	/* a wall-clock profile (folded(5)'s off-CPU mark): hot/cold, in ns */
	if (f.offcpu && !op->pal_set && f.kind == FOLDED_ONE)
		o->pal = PAL_HOTCOLD;
	op->flame.hotcold = o->pal == PAL_HOTCOLD && f.kind == FOLDED_ONE;
	if (op->flame.hotcold && !op->countname_set)
		o->countname = "ns";
	/* the input says what its counts are, unless --countname did */
	if (unit[0] && !op->countname_set)
		o->countname = unit;
	/* the frames too narrow to draw are left out as they are made */
	op->flame.narrow = svg_narrow;
	op->flame.narrow_ctx = o;
	if (flame_build(&f, &op->flame) < 0)
		die(EXIT_INPUT, "the counts add up to 2^64 or more");
	if (f.kept) {
		if (input_intact(in) < 0)
			status = EXIT_INPUT;
		input_close(in);
	}
	if (f.total <= 0) {
		warn_msg("no stack counts found");
		svg_write_empty(o);
		out_flush();
		flame_free(&f);
		return status ? status : EXIT_USAGE;	/* an error said first wins */
	}
	elided = svg_write(&f, o);
	out_flush();
	if (op->palfile && palmap_write(o->palmap, op->palfile) < 0)
		status = EXIT_INPUT;
	if (elided)
		warn_msg("left out %zu frame%s narrower than --minwidth", elided,
		    elided == 1 ? "" : "s");
	flame_free(&f);
	return status;
}

/*
 * --diff: BEFORE and AFTER (two operands), or one file (or standard
 * input) of "STACK BEFORE AFTER" lines, merged and drawn (diff.h).  The
 * first input is already open as in.
 */
static int
diff_graph(struct input *in, int argc, char **argv, struct opts *op)
{
	struct svg_opts *o = &op->svg;
	struct flame f;
	struct diff d;
	uint64_t nbad = 0;
	size_t elided;
	int status = 0, r;
	static char unit[2][FOLDED_UNIT_MAX + 1];	/* each input's "# unit:" */

	if (argc > 2)
		die(EXIT_USAGE, "--diff takes BEFORE and AFTER, or one file of "
		    "\"STACK BEFORE AFTER\" lines, not %d files", argc);
	diff_init(&d, &op->diff);
	for (int i = 0; i < (argc ? argc : 1); i++) {
		if (i && input_open(in, argv[i], "\n") < 0) {
			status = EXIT_INPUT;
			continue;
		}
		if (diff_read(&d, in, argc == 2 ? i : DIFF_BOTH, &nbad, unit[i]) < 0)
			status = EXIT_INPUT;
		input_close(in);
	}
	/* what the counts are, when both sides say the same, unless --countname did */
	if (unit[0][0] && (argc < 2 || strcmp(unit[0], unit[1]) == 0) &&
	    !op->countname_set)
		o->countname = unit[0];
	flame_init(&f);
	if (o->title == NULL)
		o->title = o->inverted ? "Differential Icicle Graph" :
		    "Differential Flame Graph";
	if ((r = diff_build(&d, &f, op->flame.reverse)) < 0)
		die(EXIT_INPUT, "the counts of one side add up to 2^64 or more");
	if (r > 0)
		warn_msg("%s is empty: widths by the larger of both",
		    op->diff.width == DIFF_AFTER ? "AFTER" : "BEFORE");
	if (f.total <= 0) {
		warn_msg("no stack counts found");
		svg_write_empty(o);
		out_flush();
		flame_free(&f);
		diff_free(&d);
		return status ? status : EXIT_USAGE;
	}
	diff_summary(&d, o);
	o->subtitle = d.summary;
	f.diff = &d;
	elided = svg_write(&f, o);
	out_flush();
	if (elided)
		warn_msg("left out %zu frame%s narrower than --minwidth", elided,
		    elided == 1 ? "" : "s");
	flame_free(&f);
	diff_free(&d);
	return status;
}

int
main(int argc, char **argv)
{
	struct opts op = {
		.svg = {
			.title = NULL, .subtitle = "", .nametype = "Function:",
			.countname = "samples", .fonttype = "Verdana",
			.notes = "", .width = 1200, .frameheight = 16,
			.fontsize = 12, .fontwidth = 0.59, .minwidth = 0.1,
			.pal = PAL_HOT, .shade = SHADE_NAME, .factor = 1,
		},
		.flame = { ORDER_NAME, 0, 0, NULL, NULL, 0 },
		.diff = { DIFF_AFTER, DIFF_RG, 1, 100 },
	};
	struct palmap pm;
	struct nameattr na;
	struct input in;
	const char *head;
	size_t headlen;
	int status;

	/*
	 * A graph's run is a few milliseconds: glibc's malloc gave the
	 * kernel back the memory of every large block freed (munmap, and
	 * trimming the heap's top), which exit does at once: 45 us of
	 * gcc-sqlite3's 3.3 ms at --minwidth 0.01%, and a system-wide
	 * graph 12.7 ms to 12.3 (perf stat -e task-clock).
	 */
#ifdef __GLIBC__
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
	err_init(argv[0]);
	out_init();
	parse_options(argc, argv, &op);
	argc -= optind;
	argv += optind;
	op.flame.chain = op.svg.pal == PAL_CHAIN;
	set_background(&op.svg, op.bg);
	if (op.gzip && out_gzip() < 0)
		die(EXIT_USAGE, "--gzip needs a build with zlib");
	if (op.palfile) {
		if (palmap_read(&pm, op.palfile) < 0)
			return EXIT_INPUT;
		op.svg.palmap = &pm;
	}
	if (op.nameattr_file) {
		if (nameattr_read(&na, op.nameattr_file) < 0)
			return EXIT_INPUT;
		op.svg.nameattr = &na;
	}
	/*
	 * The first input says which mode: "# spanlayout v1" is a timeline;
	 * a file of another step (perf.data, spans) is an error.
	 */
	if (input_open(&in, argc ? argv[0] : "-", "\n") < 0)
		return EXIT_INPUT;
	if (input_head(&in, SNIFF_HEAD, &head, &headlen) < 0) {
		input_close(&in);
		return EXIT_INPUT;
	}
	if (!op.is_diff && (op.force_timeline ||
	    timeline_detect(head, headlen))) {
		if (argc > 1)
			die(EXIT_USAGE, "a timeline is drawn from one file, not %d",
			    argc);
		return timeline(&in, &op.svg);
	}
	if (!op.is_diff && wrong_step(&in, head, headlen)) {
		input_close(&in);
		return EXIT_INPUT;
	}
	status = op.is_diff ? diff_graph(&in, argc, argv, &op) :
	    flame_graph(&in, argc, argv, &op);
	if (op.palfile)
		palmap_free(&pm);
	if (op.nameattr_file)
		nameattr_free(&na);
	return status;
}
