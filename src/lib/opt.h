/*
 * opt: what every program does with getopt_long's complaints, said once.
 *
 * Programs call getopt_long with opterr = 0 and an optstring starting
 * with ':', and hand any ':' or '?' to opt_fail, so that all of them word
 * a bad command line alike ("prog: unknown option "--x"") and exit 2
 * after the usage text.
 */
#ifndef FT_OPT_H
#define FT_OPT_H

#include <stdnoreturn.h>

/* Report getopt_long's result ch (':' or '?') for argv, print usage, exit 2. */
noreturn void opt_fail(int ch, char **argv, const char *usage);

#endif
