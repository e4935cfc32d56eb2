/*
 * The demangler against its references: each line of the file is
 * "MANGLED<TAB>NAME<TAB>WHOLE", what libiberty makes of MANGLED without
 * and with its parameters (tests/record-demangle.sh), or
 * "MANGLED<TAB>WHOLE", what __cxa_demangle makes of it with them
 * (tests/record-demangle-cxa.sh).  A name is right when demangle() gives
 * the reference's text, or declines (NULL: shown mangled); anything
 * else, a wrong name, is printed.  KNOWN, if given, lists the names
 * where the reference is not what we print on purpose, each
 * "MANGLED<TAB>OURS" after a "#" line that says why: ours must then be
 * OURS exactly, so that those stay pinned too.  Prints "N exact, M
 * declined, K wrong" over all forms and exits 1 when a name is wrong or
 * more than the floor given (per mille) is declined.
 *	check FILE PERMILLE [KNOWN]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/demangle.h"

static char	**known;	/* MANGLED, OURS pairs */
static char	 *used;		/* met in FILE: one not met is stale */
static size_t	 nknown;

static char *
dup(const char *s)
{
	char *r = malloc(strlen(s) + 1);

	if (r == NULL)
		abort();
	return strcpy(r, s);
}

static void
load_known(FILE *f)
{
	static char line[1 << 16];

	while (fgets(line, sizeof line, f)) {
		char *tab;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || (tab = strchr(line, '\t')) == NULL)
			continue;
		*tab = '\0';
		if ((known = realloc(known, (nknown + 1) * 2 * sizeof *known)) == NULL ||
		    (used = realloc(used, nknown + 1)) == NULL)
			abort();
		known[2 * nknown] = dup(line);
		known[2 * nknown + 1] = dup(tab + 1);
		used[nknown] = 0;
		nknown++;
	}
}

static const char *
ours_known(const char *sym)
{
	for (size_t i = 0; i < nknown; i++)
		if (strcmp(known[2 * i], sym) == 0) {
			used[i] = 1;
			return known[2 * i + 1];
		}
	return NULL;
}

int
main(int argc, char **argv)
{
	static char line[1 << 20];
	long exact = 0, declined = 0, wrong = 0;
	FILE *f, *kf = NULL;

	if ((argc != 3 && argc != 4) || (f = fopen(argv[1], "r")) == NULL ||
	    (argc == 4 && (kf = fopen(argv[3], "r")) == NULL)) {
		fprintf(stderr, "usage: check FILE PERMILLE [KNOWN]\n");
		return 2;
	}
	if (kf) {
		load_known(kf);
		fclose(kf);
	}
	while (fgets(line, sizeof line, f)) {
		size_t n = strlen(line);
		char *want[2], *tab;
		const char *kn;

		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		if ((tab = strchr(line, '\t')) == NULL)
			continue;
		*tab = '\0';
		want[0] = tab + 1;
		if ((tab = strchr(want[0], '\t')) == NULL) {
			want[1] = want[0];	/* the whole form alone */
			want[0] = NULL;
		} else {
			*tab = '\0';
			want[1] = tab + 1;
		}
		if ((kn = ours_known(line)) != NULL)
			want[1] = (char *)kn;
		for (int k = 0; k < 2; k++) {
			if (want[k] == NULL)
				continue;
			char *r = demangle(line, strlen(line), k ? DEMANGLE_PARAMS : 0);

			if (r ? strcmp(r, want[k]) == 0 : strcmp(line, want[k]) == 0) {
				exact++;	/* the same, or both decline */
			} else if (r == NULL && !(k && kn)) {
				declined++;
			} else {
				wrong++;
				printf("wrong%s: %s\n  want %s\n  got  %s\n", k ? " (whole)" : "",
				    line, want[k], r ? r : line);
			}
			free(r);
		}
	}
	fclose(f);
	for (size_t i = 0; i < nknown; i++)
		if (!used[i]) {
			wrong++;
			printf("known but not in %s: %s\n", argv[1], known[2 * i]);
		}
	printf("%ld exact, %ld declined, %ld wrong\n", exact, declined, wrong);
	return wrong || declined * 1000 > atol(argv[2]) * (exact + declined);
}
