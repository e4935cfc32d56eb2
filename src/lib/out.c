/*
 * out: see out.h for the design note.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "num.h"
#include "out.h"

#define OUT_BUF (1u << 20)

static char buf[OUT_BUF];
static size_t used;

void
out_init(void)
{
	signal(SIGPIPE, SIG_DFL);
}

static void
write_all(const char *p, size_t n)
{
	while (n) {
		ssize_t r = write(STDOUT_FILENO, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EPIPE) {
			signal(SIGPIPE, SIG_DFL);
			raise(SIGPIPE);
			_exit(EXIT_INPUT);
		}
		if (r <= 0)
			die(EXIT_INPUT, "write error:");
		p += r;
		n -= (size_t)r;
	}
}

void
out_flush(void)
{
	write_all(buf, used);
	used = 0;
}

void
out_write(const void *p, size_t n)
{
	if (n > OUT_BUF - used) {
		out_flush();
		if (n >= OUT_BUF) {
			write_all(p, n);
			return;
		}
	}
	memcpy(buf + used, p, n);
	used += n;
}

void
out_char(char c)
{
	if (used == OUT_BUF)
		out_flush();
	buf[used++] = c;
}

void
out_u64(uint64_t v)
{
	char tmp[NUM_U64_MAX];

	out_write(tmp, num_fmt_u64(tmp, v));
}
