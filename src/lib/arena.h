/*
 * arena: a bump allocator for data that lives as long as a run.
 *
 * Memory comes from a chain of blocks of at least ARENA_BLOCK bytes; an
 * allocation larger than that gets a block of its own.  Nothing is freed
 * individually: arena_free releases every block at once.  Pointers stay
 * valid until then (blocks never move), which is why the interning table
 * can hand out stable string pointers.  Rejected: a growable single buffer
 * (moves on growth, invalidating pointers) and per-object malloc (slow and
 * fragmenting for millions of small names).
 */
#ifndef FT_ARENA_H
#define FT_ARENA_H

#include <stddef.h>

#define ARENA_BLOCK (1u << 20)

struct arena_block;

struct arena {
	struct arena_block *head;
	char *cur, *end;
	size_t total;		/* bytes handed out, for statistics */
};

void arena_init(struct arena *a);
/* n bytes aligned to 8; never NULL (dies on exhaustion). */
void *arena_alloc(struct arena *a, size_t n);
/* A NUL-terminated copy of s[0..n). */
char *arena_strndup(struct arena *a, const char *s, size_t n);
void arena_free(struct arena *a);

#endif
