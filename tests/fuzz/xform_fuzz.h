/*
 * Two transform chains (transform.h) for the fuzz targets of
 * stackcollapse, so that every step runs on the stacks a parser makes:
 * chain 0 keeps most stacks (recursion collapsed, digits hidden, cut at a
 * frame ending in x, inverted), chain 1 drops many (focus, ignore,
 * show-from, then the same).  The caller ends it with xform_end.
 */
#ifndef FUZZ_XFORM_H
#define FUZZ_XFORM_H

#include "stackcollapse/transform.h"

static void
fuzz_xform(struct xform *x, int which)
{
	xform_init(x);
	if (which) {
		xform_add(x, XF_FOCUS, "--focus", "[a-z]");
		xform_add(x, XF_IGNORE, "--ignore", "^q");
		xform_add(x, XF_SHOW_FROM, "--show-from", "[a-m]");
	}
	xform_add(x, XF_COLLAPSE_RECURSION, "--collapse-recursion", NULL);
	xform_add(x, XF_HIDE, "--hide", "^[0-9]+$");
	xform_add(x, XF_PRUNE_FROM, "--prune-from", "x$");
	xform_add(x, XF_INVERT, "--invert", NULL);
}

#endif
