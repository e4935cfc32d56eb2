/*
 * flame: folded lines to the frames of a flame graph.
 *
 * Frames come out exactly where flamegraph.pl puts them: the lines are
 * sorted as whole strings (or kept in input order for a flame chart), and
 * each line merges only with the line before it, frame by frame from the
 * root, as flamegraph.pl's flow() does.  So two runs of equal stacks that
 * sorting leaves apart ("a;b 5", "a;b-x 3", "a;b;c 2") stay two frames.
 * Times are long double: exact for integer counts below 2^64 (where
 * flame_build leaves out narrow frames, it counts in uint64_t, the same
 * values, and converts those of the frames it keeps).
 */
#ifndef FG_FLAME_H
#define FG_FLAME_H

#include <stddef.h>
#include <stdint.h>

#include "../lib/arena.h"
#include "../lib/folded.h"
#include "../lib/intern.h"

/* The long doubles first: no padding, 64 bytes where 80 were. */
struct frame {
	long double stime, etime;
	union {
		long double delta;	/* differential: after - before */
		long double off;	/* hot/cold: its off-CPU time (the
					 * two never meet: flame_opts) */
	};
	uint32_t name;		/* id in flame.names; "" is the root */
	uint32_t depth;		/* 0 is the root */
	int has_delta;
	uint32_t diff;		/* --diff: 1 + index in diff->fr; 0 for none */
};

/*
 * Where split_frames (flame.c) is in a run of lines: the stack split
 * last, its name ids (a run as line_ref.ids), and its scratch.
 */
struct flame_split {
	const char *prev;
	size_t prevn;
	const uint32_t *previds;
	uint32_t *ids;
	size_t *ends;
	size_t idscap, endscap;
};

struct flame {
	struct intern names;
	struct frame *frames;
	size_t nframes, cap;
	/*
	 * pre[k]: the index in frames of the k-th frame opened, so in order
	 * of start, then depth, as the function table walks them (scriptdata.c),
	 * with no sort; NULL once frames are reordered (flame_sort).
	 */
	uint32_t *pre;
	/*
	 * With flame_opts.narrow, the frames flame_build left out (not in
	 * frames nor pre), and table: per name id, the self (2 * id) and
	 * total (2 * id + 1) of every frame, those left out too, the root
	 * not, as scriptdata.c's sd_name_table sums them; NULL when none was left out
	 * this way.  Free table with the flame or take it.
	 */
	size_t nelided;
	long double *table;
	long double total;	/* sum of the counts (the after counts) */
	long double maxdelta;	/* largest |delta| of a line, at least 1 */
	int differential;
	int offcpu;		/* a line ends in folded(5)'s off-CPU mark */
	int kind;		/* the input's (folded.h): its first line's */
	const struct diff *diff;	/* --diff (diff.h), or NULL */
	/*
	 * The lines, kept until flame_build: each distinct line once, with
	 * how many times it was read, so that memory grows with the
	 * distinct lines, not with the input (78 million lines of "a;b 1"
	 * took 2.3 GB).  Only equal lines are one: two lines of a stack
	 * with other counts may sort apart (the note above).  While the
	 * lines come sorted (stackcollapse writes them so), an equal line
	 * can only be the one before; from the first that does not, they
	 * are found by hash in slots (flame.c's line_slot; nslots a power
	 * of two, 0 before).  For a flame chart set in_order before adding
	 * lines: input order is kept, and a line is merged only into an
	 * equal one just before it.
	 *
	 * Copies, but those within kept[0..keptlen), a mapped input that
	 * stays open, its pages in memory, until then (the copies were 61
	 * page faults of 367 and 2% of the run on gcc-sqlite3-O2-fp at
	 * --minwidth 0.01%).
	 */
	struct arena lines_arena;
	const char *kept;
	size_t keptlen;
	uint64_t *slots;
	size_t nslots;
	int in_order;
	/*
	 * Each distinct line is split into frames, and its frames named,
	 * as it is kept, while its bytes are in cache: flame_build then
	 * merges the lines by their name ids and reads none of them again
	 * (in sorted order they were scattered over the input: a cache
	 * miss or more a line, a sixth of a graph of 100,000 stacks of
	 * 465 bytes).  The ids live in ids_arena; split is the state of
	 * the split, which reuses the ids of the line before for the
	 * frames it has byte for byte (sorted input: most of them).  Set
	 * rewrites before adding lines when flame_build is to rewrite the
	 * stacks (--reverse, chain): it splits them then, and these
	 * lines are not split at all.
	 */
	struct arena ids_arena;
	uint32_t *sorted_ids;	/* the ids once sort_lines gathered them */
	struct flame_split split;
	int rewrites;
	/*
	 * with a line's parse when it is one whole count (most are), so that
	 * flame_build need not parse it again (the second parse was 6% of
	 * the instructions of a graph of gcc-sqlite3-O2-fp): its stack's
	 * length, or NOSTACKLEN to parse again, and the count
	 */
	struct line_ref {
		const char *s;
		uint32_t n, stacklen;
		uint64_t whole;
		uint64_t times;		/* lines read that are this one */
		/*
		 * how many ids, then the name ids of its frames, the root's
		 * ("") first; NULL for a line that is not split (rewrites)
		 */
		const uint32_t *ids;
	} *lines;
	size_t nlines, linescap;
	/* their counts' sum, exactly and for layout, and whether all are whole */
	struct count lsum;
	long double ltotal;
	int lwhole;
};

void flame_init(struct flame *f);
void flame_free(struct flame *f);
struct input;

/*
 * What flame_read does with a valid line s[0..n), fl its parse: returns
 * 0 to go on; 1 when the line is not of the shape the input should have,
 * to be counted and shown as invalid, with *why after it (or NULL); -1
 * for an error to stop at, said as *why and the line.
 */
typedef int flame_take_fn(void *ctx, const char *s, size_t n,
    const struct folded *fl, const char **why);

/*
 * Read input in's folded lines (folded.h), each valid one given to take;
 * the invalid ones counted, added to *nbad, and the first few shown,
 * "skipped invalid line", with their number at the end; empty lines
 * skipped.  *kind is the input's kind (folded_next's: FOLDED_UNSEEN
 * before its first line; kept across the inputs of one graph).  Returns
 * 0, or -1 on an error said: a count out of range, or take's.  A first
 * line "# unit: NAME" (folded.h) is not a stack: its NAME goes to unit
 * (FOLDED_UNIT_MAX + 1 bytes), when unit is not NULL.
 * flamegraph-svg's one reader of folded lines, --diff's too.
 */
int flame_read(struct input *in, int *kind, uint64_t *nbad,
    flame_take_fn *take, void *ctx, char *unit);

/*
 * Keep a valid folded line (copied, or counted again if kept already),
 * fl its parse (folded.h).
 */
void flame_add_line(struct flame *f, const char *s, size_t n,
    const struct folded *fl);

enum flame_order { ORDER_NAME, ORDER_INPUT };

struct flame_opts {
	enum flame_order order;	/* sorted, or input order (flame chart) */
	int reverse;		/* --reverse: leaf first */
	int chain;		/* --colors=chain: mark waker frames _[w] */
	/*
	 * When not NULL: the width below which a frame is not drawn, for
	 * a graph of this total (flamesvg.c: --minwidth).  flame_build then
	 * leaves those frames out as they close, when every count is
	 * whole: a system-wide profile has twenty times more of them than
	 * frames drawn, and storing them, sorting them and tabling them
	 * took most of a run.  With a fraction the sums could round
	 * otherwise in another order: all frames are kept, as before.
	 */
	long double (*narrow)(long double total, const void *ctx);
	const void *narrow_ctx;
	/*
	 * Hot/cold: each frame's off-CPU time, the counts of the lines under
	 * it that end in the off-CPU mark (leaf first with reverse), in its
	 * frame.off; for an input of one count a line, not differential.
	 */
	int hotcold;
};

/*
 * The ';'-separated frames of s[0..n) in reverse order, written to r (n
 * bytes); returns the length, n.  s has no trailing ';' (Perl's split
 * drops empty trailing fields), as --reverse draws it, --diff too.
 */
size_t flame_reverse(char *r, const char *s, size_t n);

/* Merge the lines into frames.  Returns -1 when the total overflows. */
int flame_build(struct flame *f, const struct flame_opts *o);

/* Order the frames by depth, then start: the order svg_write draws. */
void flame_sort(struct flame *f);

/*
 * --sort=weight: reorder each frame's callees heaviest first (ties by
 * name), moving their whole subtrees.  f->frames must be sorted by depth,
 * then start, as svg_write sorts them.
 */
void flame_sort_weight(struct flame *f);

/*
 * The length of name s[0..n) as titles show it: without a trailing
 * annotation _[k] _[w] _[i] _[j].
 */
size_t flame_shown(const char *s, size_t n);

#endif
