/*
 * The demangler against its reference (tests/record-demangle.sh): each
 * line of the file is "MANGLED<TAB>EXPECTED".  A name is right when
 * demangle() gives EXPECTED, or declines (NULL: shown mangled) where
 * EXPECTED is a name; anything else, a wrong name, is printed.  Prints
 * "N exact, M declined, K wrong" and exits 1 when a name is wrong or more
 * than the floor given (per mille) is declined.
 *	check FILE PERMILLE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/demangle.h"

int
main(int argc, char **argv)
{
	static char line[1 << 20];
	long exact = 0, declined = 0, wrong = 0;
	FILE *f;

	if (argc != 3 || (f = fopen(argv[1], "r")) == NULL) {
		fprintf(stderr, "usage: check FILE PERMILLE\n");
		return 2;
	}
	while (fgets(line, sizeof line, f)) {
		size_t n = strlen(line);
		char *tab = strchr(line, '\t'), *r;

		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		if (tab == NULL)
			continue;
		*tab = '\0';
		r = demangle(line, (size_t)(tab - line));
		if (r && strcmp(r, tab + 1) == 0) {
			exact++;
		} else if (r == NULL) {
			declined++;
			if (strcmp(line, tab + 1) == 0)	/* the reference declines too */
				exact++, declined--;
		} else {
			wrong++;
			printf("wrong: %s\n  want %s\n  got  %s\n", line, tab + 1, r);
		}
		free(r);
	}
	fclose(f);
	printf("%ld exact, %ld declined, %ld wrong\n", exact, declined, wrong);
	return wrong || declined * 1000 > atol(argv[2]) * (exact + declined);
}
