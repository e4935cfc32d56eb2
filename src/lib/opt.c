/*
 * opt: see opt.h.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "opt.h"

void
opt_fail(int ch, char **argv, const char *usage)
{
	if (ch == ':')
		warn_msg("option \"%s\" needs an argument", argv[optind - 1]);
	else if (optopt && optopt < 256)
		warn_msg("unknown option \"-%c\"", optopt);
	else
		warn_msg("unknown option \"%s\"", argv[optind - 1]);
	fputs(usage, stderr);
	exit(EXIT_USAGE);
}

void
opt_one_dash(int argc, char **argv, const struct option *names)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		const char *a = argv[i];
		size_t n = strcspn(a + 1, "=");
		char *b;

		if (a[0] != '-' || a[1] == '-' || n < 2)
			continue;
		for (const struct option *o = names; o->name != NULL; o++)
			if (strlen(o->name) == n &&
			    memcmp(o->name, a + 1, n) == 0) {
				b = xmalloc(strlen(a) + 2);
				b[0] = '-';
				strcpy(b + 1, a);
				argv[i] = b;
				break;
			}
	}
}
