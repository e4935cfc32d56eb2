/*
 * guard.c: the ELF files trace-record maps (CFI while the program runs,
 * symbols at the report) guarded with src/lib's busguard.  A library
 * truncated meanwhile (upgraded in place, or by the program) raised
 * SIGBUS at the next read of a lost page, and trace-record died with
 * every sample unwritten.  Guarded, the lost pages read as zeros, which
 * the ELF readers take as a damaged file (a walk ends, a name is not
 * found), and the file is named on stderr: its frames may be cut short
 * or unnamed.
 */
#include "guard.h"

#include <stdlib.h>
#include <string.h>

#include "../elf/elfimg.h"
#include "../lib/busguard.h"
#include "../lib/err.h"

/* By busguard handle: the path mapped there, NULL when none. */
static char **paths;
static size_t npaths;
/* The paths already said. */
static char **said;
static size_t nsaid, capsaid;

static char *
copy(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

static void
say(int h)
{
	const char *path = paths[h];

	if (path == NULL || !busguard_hit(h))
		return;
	for (size_t i = 0; i < nsaid; i++)
		if (strcmp(said[i], path) == 0)
			return;
	warn_at(path, 0, "truncated while trace-record read it: frames in it "
	    "may be cut short or unnamed");
	said = xgrow(said, &capsaid, nsaid + 1, sizeof *said);
	said[nsaid++] = copy(path);
}

static int
add(const void *p, size_t len, const char *path)
{
	int h = busguard_add(p, len);

	if (h < 0)
		return -1;
	if ((size_t)h >= npaths) {
		size_t old = npaths;

		paths = xgrow(paths, &npaths, (size_t)h + 1, sizeof *paths);
		memset(paths + old, 0, (npaths - old) * sizeof *paths);
	}
	paths[h] = copy(path);
	return h;
}

static void
del(int h)
{
	say(h);
	free(paths[h]);
	paths[h] = NULL;
	busguard_remove(h);
}

void
guard_files(void)
{
	elfimg_set_guard(add, del);
}

void
guard_files_said(void)
{
	for (size_t h = 0; h < npaths; h++)
		say((int)h);
}
