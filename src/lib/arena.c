/*
 * arena: see arena.h for the design note.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "err.h"

struct arena_block {
	struct arena_block *next;
	max_align_t data[];
};

void
arena_init(struct arena *a)
{
	a->head = NULL;
	a->cur = a->end = NULL;
	a->total = 0;
}

void *
arena_alloc(struct arena *a, size_t n)
{
	struct arena_block *b;
	size_t size;
	char *p;

	n = (n + 7) & ~(size_t)7;
	if (n == 0)
		n = 8;
	if ((size_t)(a->end - a->cur) < n) {
		size = n > ARENA_BLOCK ? n : ARENA_BLOCK;
		if (size > SIZE_MAX - sizeof *b)
			die(EXIT_INPUT, "out of memory");
		b = xmalloc(sizeof *b + size);
		b->next = a->head;
		a->head = b;
		a->cur = (char *)b->data;
		a->end = a->cur + size;
	}
	p = a->cur;
	a->cur += n;
	a->total += n;
	return p;
}

char *
arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	if (n)
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void
arena_free(struct arena *a)
{
	struct arena_block *b, *next;

	for (b = a->head; b; b = next) {
		next = b->next;
		free(b);
	}
	arena_init(a);
}
