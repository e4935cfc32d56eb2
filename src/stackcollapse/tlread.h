/*
 * tlread: a timeline SVG of flamegraph-svg read back into laid-out spans
 * (spans(5), "# spanlayout v1"): stackcollapse --to=spans.  The design
 * note is at the top of tlread.c.
 */
#ifndef SC_TLREAD_H
#define SC_TLREAD_H

#include "formats.h"

/*
 * Read r's input, a timeline SVG, and write its spans to standard output
 * (out.h); nothing is written unless every span reads.  0, or -1 after
 * a reported error ("file:line: what", or "file: byte N: what").
 */
int tlread_spans(struct reader *r);

#endif
