/*
 * lifecycle: how a traced program can end.
 *	lifecycle crash     spans, one left open, then SIGSEGV
 *	lifecycle abort     the same with abort()
 *	lifecycle overflow  spans, then a stack overflow (SIGSEGV with no
 *	                    room on the stack for a handler)
 *	lifecycle ownstack  its own signal stack, set before any span, is
 *	                    still its own after spans: status 0, else 3
 *	lifecycle fork      a child forks (no exec) and makes spans, which it
 *	                    must not record; the parent records its own
 *	lifecycle exec      a child execs "lifecycle child", a second stream
 *	lifecycle child     one span, exit 0
 *	lifecycle orphan    a child execs "lifecycle late", which outlives it
 *	lifecycle late FD   close FD (its parent may go), then after a
 *	                    silence 100000 spans
 *	lifecycle orphan stop  the same, but once its parent is gone the
 *	                    child sends SIGTERM to trace-record and lives
 *	                    on until trace-record is gone
 *	lifecycle exit N    one span, exit status N
 *	lifecycle signal    kill itself with SIGTERM
 *	lifecycle stop SIG  signal its parent (trace-record) with SIG, as
 *	                    timeout(1) would, then wait to be killed
 *	lifecycle buffers   one span per 10 us for a long time: a full
 *	                    buffer pool, so spans are dropped and counted
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace_record.h"

/* Deeper until the stack runs out (n never gets below 0). */
static int
deep(int n)
{
	volatile char pad[1024];

	pad[n & 1023] = 1;
	return n < 0 ? 0 : deep(n + 1) + pad[0];
}

int
main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	static char own[1 << 16];

	if (strcmp(what, "ownstack") == 0) {
		stack_t ss = { .ss_sp = own, .ss_size = sizeof own };

		if (sigaltstack(&ss, NULL) != 0)
			return 1;
	}
	tr_span top = tr_begin(what);

	for (int i = 0; i < 3; i++) {
		TR_SCOPE("step");
	}
	if (strcmp(what, "crash") == 0) {
		tr_span open = tr_begin("left open");

		(void)open;
		tr_flush();
		*(volatile int *)(uintptr_t)8 = 1;
	}
	if (strcmp(what, "ownstack") == 0) {
		stack_t ss;

		if (sigaltstack(NULL, &ss) != 0 || ss.ss_sp != own)
			return 3;
	}
	if (strcmp(what, "overflow") == 0)
		return deep(0);
	if (strcmp(what, "abort") == 0) {
		tr_begin("left open");
		abort();
	}
	if (strcmp(what, "fork") == 0 || strcmp(what, "exec") == 0) {
		pid_t pid = fork();

		if (pid == 0) {
			if (strcmp(what, "exec") == 0)
				execl("/proc/self/exe", argv[0], "child", (char *)NULL);
			for (int i = 0; i < 5; i++) {
				TR_SCOPE("in forked child");
			}
			_exit(0);
		}
		int st;

		waitpid(pid, &st, 0);
		TR_SCOPE("after child");
	}
	if (strcmp(what, "orphan") == 0) {
		int p[2];
		char fd[16], b;

		if (pipe(p) < 0)
			return 1;
		char tr[16];

		snprintf(fd, sizeof fd, "%d", p[1]);
		snprintf(tr, sizeof tr, "%d", (int)getppid());
		if (fork() == 0) {
			close(p[0]);
			execl("/proc/self/exe", argv[0], "late", fd,
			    argc > 2 ? tr : (char *)NULL, (char *)NULL);
			_exit(127);
		}
		close(p[1]);
		/* Returns once the child has started recording (or failed). */
		if (read(p[0], &b, 1) < 0)
			return 1;
	}
	if (strcmp(what, "late") == 0 && argc > 3) {
		pid_t parent = getppid(), tr = (pid_t)atoi(argv[3]);

		close(atoi(argv[2]));
		while (getppid() == parent)
			usleep(1000);
		kill(tr, SIGTERM);
		while (kill(tr, 0) == 0)
			usleep(1000);
	} else if (strcmp(what, "late") == 0 && argc > 2) {
		close(atoi(argv[2]));
		/* Longer than trace-record waited in silence after the program. */
		sleep(1);
		for (int i = 0; i < 100000; i++) {
			TR_SCOPE("late");
		}
	}
	if (strcmp(what, "signal") == 0)
		raise(SIGTERM);
	if (strcmp(what, "stop") == 0 && argc > 2) {
		kill(getppid(), atoi(argv[2]));
		sleep(60);
	}
	if (strcmp(what, "buffers") == 0)
		for (long i = 0; i < 3000000; i++) {
			TR_SCOPE("many");
		}
	tr_end(top);
	return strcmp(what, "exit") == 0 && argc > 2 ? atoi(argv[2]) : 0;
}
