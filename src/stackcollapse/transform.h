/*
 * transform: the stack transforms of stackcollapse(1) (TRANSFORMS), pprof's
 * refine options and the Firefox Profiler's transforms on folded stacks.
 *
 * A chain of steps, in command-line order, maps each stack (frames root
 * first, ';'-separated) to a stack or to nothing:
 *
 *	--focus=RE		keep the stack if a frame matches, else drop it
 *	--ignore=RE		drop the stack if a frame matches
 *	--hide=RE		remove the matching frames (their time goes to
 *				the caller); a stack left with none is dropped
 *				and counted (xform_end says how many)
 *	--show-from=RE		drop the frames before the first (outermost)
 *				match; drop the stack if none matches
 *	--prune-from=RE		drop the frames after the first match
 *	--collapse-recursion	a run of equal frames becomes one (a;b;b;c is
 *				a;b;c), --recursive's old meaning
 *	--invert		the frames in reverse order, leaf first
 *
 * Each step sees the stack as the step before left it: after --invert,
 * the "first" frame of --show-from is the leaf.  A RE is a POSIX extended
 * regular expression (regcomp REG_EXTENDED) searched anywhere in a frame's
 * name, as grep -E searches a line; a frame is its bytes between two ';'
 * (an empty stack has none; "a;;b" has an empty one), matched up to a
 * NUL byte, in the C locale's bytes.
 *
 * Where: stacks are transformed once summed (xform_sum: each distinct
 * stack once, and formats that set totals rather than add them are
 * unaffected), then summed again, since stacks that become equal must be
 * one; or line by line with --no-aggregate (xform_write).  Rejected:
 * transforming in each format's sink_put, a call per sample instead of
 * per distinct stack.
 */
#ifndef SC_TRANSFORM_H
#define SC_TRANSFORM_H

#include <stddef.h>

#include "../lib/count.h"
#include "../lib/folded.h"

enum xform_kind {
	XF_FOCUS, XF_IGNORE, XF_HIDE, XF_SHOW_FROM, XF_PRUNE_FROM,
	XF_COLLAPSE_RECURSION, XF_INVERT
};

struct xform_step;
struct xform_frame;

/* The chain and its scratch space; owned by the caller, one per run. */
struct xform {
	struct xform_step *step;
	size_t n, cap;
	char *buf;		/* the stack being transformed, frames NUL-ended */
	size_t bufcap;
	struct xform_frame *fr;	/* its frames, in their current order */
	size_t frcap;
	char *out;		/* the transformed stack, joined with ';' */
	size_t outcap;
	unsigned long long emptied;	/* stacks --hide left without frames */
};

void xform_init(struct xform *x);

/*
 * Append a step of kind to the chain; re is its regular expression (NULL
 * for --collapse-recursion and --invert) and opt the option's name for
 * the message, "--hide", when re does not compile: that is said as
 * "stackcollapse: --hide: what regcomp said: "RE"" with exit 2.
 */
void xform_add(struct xform *x, enum xform_kind kind, const char *opt,
    const char *re);

/* Whether the chain has a step (else every stack stays as it is). */
static inline int
xform_any(const struct xform *x)
{
	return x != NULL && x->n > 0;
}

/*
 * Transform s[0..n): 1 with the stack in *out[0..*outn) (valid until the
 * next call), or 0 when the chain drops it.
 */
int xform_stack(struct xform *x, const char *s, size_t n, const char **out,
    size_t *outn);

/*
 * Replace the stacks of *a by their transforms, summed, both columns.
 * Returns 0, or -1 when a sum would be 2^64 or more (a is then left as
 * it was, for the caller to report).
 */
int xform_sum(struct xform *x, struct folded_sum *a);

/*
 * --no-aggregate: write stack s[0..n) with its count (folded_write), as
 * the chain makes it, or nothing when it drops it.  x may be NULL.
 */
void xform_write(struct xform *x, const char *s, size_t n,
    const struct count *c);

/* Say how many stacks --hide left empty (if any) and free the chain. */
void xform_end(struct xform *x);

#endif
