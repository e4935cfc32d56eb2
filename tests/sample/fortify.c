/*
 * fortify.c: a read and a poll that, built with -O2 -D_FORTIFY_SOURCE=2,
 * call glibc's checking forms __read_chk and __poll_chk, for
 * trace-record --wall's signal mechanism (wallfort.c).
 *
 *	fortify MS	blocks MS ms in read on a pipe, then MS ms in poll
 *			on another; a thread writes to each when its time
 *			is up
 *
 * The lengths are read from volatiles: with a length the compiler can
 * prove safe, the fortified headers call plain read and poll.
 */
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long ms;
static int a[2], b[2];

static void
nap(long t)
{
	struct timespec ts = { t / 1000, t % 1000 * 1000000 };

	while (nanosleep(&ts, &ts) != 0)
		;
}

/* Each pipe its byte, MS ms apart. */
static void *
waker(void *arg)
{
	(void)arg;
	nap(ms);
	if (write(a[1], "x", 1) != 1)
		exit(3);
	nap(ms);
	if (write(b[1], "y", 1) != 1)
		exit(3);
	return NULL;
}

int
main(int argc, char **argv)
{
	volatile size_t len = 1;
	volatile nfds_t n = 1;
	char c[4];
	struct pollfd p = { .events = POLLIN };
	pthread_t t;

	ms = argc > 1 ? atol(argv[1]) : 1000;
	if (pipe(a) != 0 || pipe(b) != 0 || pthread_create(&t, NULL, waker, NULL) != 0)
		return 2;
	if (read(a[0], c, len) != 1)
		return 3;
	p.fd = b[0];
	if (poll(&p, n, -1) != 1)
		return 3;
	pthread_join(t, NULL);
	return 0;
}
