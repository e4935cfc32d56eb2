/*
 * spawn.c: exec the program, or tell the parent why it could not be.
 *
 * A fork's child can only report an exec failure by its exit status,
 * which the program could return too; so the errno travels through a
 * close-on-exec pipe instead: end of file means the exec happened.
 */
#include "spawn.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/err.h"

void
spawn_exec(char **argv, int report)
{
	int e;

	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	execvp(argv[0], argv);
	e = errno;
	if (write(report, &e, sizeof e) < 0)
		_exit(EXIT_SELF);
	_exit(e == ENOENT ? EXIT_NOTFOUND : EXIT_NOEXEC);
}

int
spawn_failed(pid_t child, int report, char **argv)
{
	char q[512];
	int e;
	ssize_t n = read(report, &e, sizeof e);

	close(report);
	if (n != (ssize_t)sizeof e)
		return 0;
	waitpid(child, NULL, 0);
	warn_msg("cannot run %s: %s", err_quote(q, argv[0], strlen(argv[0]), 100),
	    strerror(e));
	return e == ENOENT ? EXIT_NOTFOUND : EXIT_NOEXEC;
}
