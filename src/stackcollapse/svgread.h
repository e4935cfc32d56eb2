/*
 * svgread: what the SVG reader (svgread.c) lends the timeline's reader
 * (tlread.c): an SVG read whole and its XML checked as for a flame graph
 * (nesting, entities, no DOCTYPE declarations), and the JSON block that
 * flamegraph-svg embeds for its script, left to the caller to parse.
 * One scanner for both, so that a hostile SVG meets the same checks
 * whichever way it is read.
 */
#ifndef SC_SVGREAD_H
#define SC_SVGREAD_H

#include <stddef.h>
#include <stdint.h>

#include "formats.h"

struct svg_block {
	char *file;		/* the input, whole: the caller frees it */
	const char *data;	/* the data block's JSON, in file; or NULL */
	size_t n;
	uint64_t line;		/* of the block's first byte */
	uint64_t off;		/* its byte offset in file */
	int timeline;		/* its id is a timeline's ("tl...-data") */
};

/*
 * Read r's input whole into b and scan it; 0, or -1 after a reported
 * error ("file:line: what").  b->file is set either way.
 */
int svg_block_read(struct reader *r, struct svg_block *b);

#endif
