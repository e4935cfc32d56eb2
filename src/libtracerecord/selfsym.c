/*
 * selfsym.c: address to function name, for -finstrument-functions spans.
 *
 * /proc/self/maps gives each executable mapping's file and offset; the
 * address becomes a file offset, which the file's symbols name
 * (elfsym.c).  Maps are reread when an address falls outside every known
 * mapping (a library loaded later).  Failures just mean "no name".
 */
#include "selfsym.h"

#include <stdio.h>
#include <stdlib.h>

#include "../elf/elfsym.h"

#define NOINST	__attribute__((no_instrument_function))

struct map {
	uint64_t	 start, end, off;
	struct elffile	*file;
};

static struct map *maps;
static size_t nmaps;

static NOINST void
maps_read(void)
{
	FILE *fp = fopen("/proc/self/maps", "re");
	char line[4096 + 256], perm[8], path[4096];
	unsigned long long start, end, off;

	free(maps);
	maps = NULL;
	nmaps = 0;
	if (fp == NULL)
		return;
	while (fgets(line, sizeof line, fp)) {
		struct map *nm;

		path[0] = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095[^\n]", &start, &end,
		    perm, &off, path) < 4 || perm[2] != 'x' || path[0] != '/')
			continue;
		if ((nm = realloc(maps, (nmaps + 1) * sizeof *maps)) == NULL)
			break;
		maps = nm;
		maps[nmaps].start = start;
		maps[nmaps].end = end;
		maps[nmaps].off = off;
		maps[nmaps].file = elffile_get(path);
		nmaps++;
	}
	fclose(fp);
}

static NOINST const struct map *
map_find(uint64_t a)
{
	size_t i;

	for (i = 0; i < nmaps; i++)
		if (maps[i].start <= a && a < maps[i].end)
			return &maps[i];
	return NULL;
}

NOINST const char *
selfsym_lookup(uintptr_t addr)
{
	const struct map *m = map_find(addr);
	uint64_t symoff;

	if (m == NULL) {
		maps_read();
		m = map_find(addr);
	}
	if (m == NULL)
		return NULL;
	return elffile_lookup(m->file, addr - m->start + m->off, &symoff);
}
