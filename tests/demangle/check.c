/*
 * The demangler against its references: each line of the file is
 * "MANGLED<TAB>NAME<TAB>WHOLE", what libiberty makes of MANGLED without
 * and with its parameters (tests/record-demangle.sh), or
 * "MANGLED<TAB>WHOLE", what __cxa_demangle makes of it with them
 * (tests/record-demangle-cxa.sh).  A name is right when demangle() gives
 * the reference's text, or declines (NULL: shown mangled); anything
 * else, a wrong name, is printed.  Prints "N exact, M declined, K wrong"
 * over all forms and exits 1 when a name is wrong or more than the floor
 * given (per mille) is declined.
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
		char *want[2], *tab;

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
		for (int k = 0; k < 2; k++) {
			if (want[k] == NULL)
				continue;
			char *r = demangle(line, strlen(line), k ? DEMANGLE_PARAMS : 0);

			if (r ? strcmp(r, want[k]) == 0 : strcmp(line, want[k]) == 0) {
				exact++;	/* the same, or both decline */
			} else if (r == NULL) {
				declined++;
			} else {
				wrong++;
				printf("wrong%s: %s\n  want %s\n  got  %s\n", k ? " (whole)" : "",
				    line, want[k], r);
			}
			free(r);
		}
	}
	fclose(f);
	printf("%ld exact, %ld declined, %ld wrong\n", exact, declined, wrong);
	return wrong || declined * 1000 > atol(argv[2]) * (exact + declined);
}
