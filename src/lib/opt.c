/*
 * opt: see opt.h.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

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
