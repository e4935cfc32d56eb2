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

#include <getopt.h>
#include <stdnoreturn.h>

/* Report getopt_long's result ch (':' or '?') for argv, print usage, exit 2. */
noreturn void opt_fail(int ch, char **argv, const char *usage);

/*
 * The long options of names (ended by a NULL name) written after one dash,
 * as Getopt::Long lets FlameGraph's Perl scripts be called (-pid,
 * -width=800): each argument before "--" that is such a name, alone or
 * with "=value", gets a second dash, so that getopt_long reads it.  One
 * letter after the dash stays a short option (-s, -j4).  Call it before
 * getopt_long; the new arguments live as long as the program.
 */
void opt_one_dash(int argc, char **argv, const struct option *names);

#endif
