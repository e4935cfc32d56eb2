/*
 * bydepth: the last name read at each depth of a call tree whose lines
 * give their depth and may skip some (instruments, vtune-mc: the
 * FlameGraph scripts' @stack).  A node's stack is the names at every
 * lesser depth and its own; a depth never set is an empty frame, as Perl
 * prints undef, and a deeper name stays when a shallower node comes, until
 * a node of its depth replaces it.  The caller owns the struct, zeroed to
 * start, and frees it with bd_free.
 */
#ifndef SC_BYDEPTH_H
#define SC_BYDEPTH_H

#include <stddef.h>

struct fstack;

struct bydepth {
	struct bd_name {
		char *s;	/* NULL: never set */
		size_t n, cap;
	} *d;
	size_t n, cap;
};

/*
 * Room for the name at depth, of n bytes, to be written there: it replaces
 * the one before.
 */
char *bd_set(struct bydepth *b, size_t depth, size_t n);
/* fs made the stack of the names at depths 0 to depth, one bd_set has set. */
void bd_stack(const struct bydepth *b, size_t depth, struct fstack *fs);
void bd_free(struct bydepth *b);

#endif
