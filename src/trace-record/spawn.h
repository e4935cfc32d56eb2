/*
 * spawn.h: starting the program, for spans and for samples alike.
 */
#ifndef TR_SPAWN_H
#define TR_SPAWN_H

#include <stdnoreturn.h>
#include <sys/types.h>

/* trace-record's own failure, and the program's, as env(1) numbers them. */
enum { EXIT_SELF = 125, EXIT_NOEXEC = 126, EXIT_NOTFOUND = 127 };

/*
 * In the child: the signals trace-record ignores back to their default,
 * then exec argv; if that fails, errno goes to the parent through report
 * (a close-on-exec pipe, so a successful exec just closes it) and the
 * child exits 126 or 127.
 */
noreturn void	spawn_exec(char **argv, int report);

/*
 * In the parent, after closing its copy of the pipe's write end: 0 when
 * the program runs; else, having reaped the child and said why, the exit
 * status to return (126 or 127).  Closes report.
 */
int		spawn_failed(pid_t child, int report, char **argv);

#endif
