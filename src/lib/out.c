/*
 * out: see out.h for the design note.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include "err.h"
#include "num.h"
#include "out.h"

#define OUT_BUF (1u << 20)

static char buf[OUT_BUF];
static size_t used;
/* while held (out_hold): what was drained, kept */
static int holding;
static char *held;
static size_t nheld, capheld;
#ifdef HAVE_ZLIB
static z_stream *gz;
#endif

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

#ifdef HAVE_ZLIB
/* Compress buf[0..used), finishing the stream when end is set. */
static void
deflate_out(int end)
{
	unsigned char z[1 << 16];
	int r;

	gz->next_in = (unsigned char *)buf;
	gz->avail_in = (uInt)used;
	do {
		gz->next_out = z;
		gz->avail_out = sizeof z;
		r = deflate(gz, end ? Z_FINISH : Z_NO_FLUSH);
		if (r == Z_STREAM_ERROR)
			die(EXIT_INPUT, "gzip compression failed");
		write_all((const char *)z, sizeof z - gz->avail_out);
	} while (gz->avail_out == 0 || (end && r != Z_STREAM_END));
	used = 0;
}
#endif

/* Write what is buffered (compressed when out_gzip was called). */
static void
drain(int end)
{
	if (holding) {
		if (nheld + used + 1 > capheld) {
			capheld = 2 * (nheld + used + 1);
			held = xrealloc(held, capheld);
		}
		memcpy(held + nheld, buf, used);
		nheld += used;
		used = 0;
		return;
	}
#ifdef HAVE_ZLIB
	if (gz) {
		deflate_out(end);
		return;
	}
#endif
	(void)end;
	write_all(buf, used);
	used = 0;
}

void
out_flush(void)
{
	drain(1);
}

void
out_hold(void)
{
	drain(0);
	holding = 1;
	held = NULL;
	nheld = capheld = 0;
}

char *
out_release(size_t *n)
{
	char *s;

	drain(0);	/* allocates held, so there is room for the NUL */
	held[nheld] = '\0';
	s = held;
	*n = nheld;
	holding = 0;
	held = NULL;
	return s;
}

int
out_gzip(void)
{
	return out_gzip_level(9);
}

int
out_gzip_level(int level)
{
#ifdef HAVE_ZLIB
	gz = xcalloc(1, sizeof *gz);
	/* 15 + 16: a gzip wrapper, so the file is a .svgz browsers open. */
	if (deflateInit2(gz, level, Z_DEFLATED, 15 + 16, 9,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		die(EXIT_INPUT, "cannot start gzip compression");
	return 0;
#else
	(void)level;
	return -1;
#endif
}

void
out_write(const void *p, size_t n)
{
	while (n > OUT_BUF - used) {
		size_t k = OUT_BUF - used;

		memcpy(buf + used, p, k);
		used += k;
		drain(0);
		p = (const char *)p + k;
		n -= k;
	}
	memcpy(buf + used, p, n);
	used += n;
}

void
out_char(char c)
{
	if (used == OUT_BUF)
		drain(0);
	buf[used++] = c;
}

void
out_u64(uint64_t v)
{
	char tmp[NUM_U64_MAX];

	out_write(tmp, num_fmt_u64(tmp, v));
}

void
out_i64(int64_t v)
{
	if (v < 0) {
		out_char('-');
		out_u64((uint64_t)0 - (uint64_t)v);
	} else
		out_u64((uint64_t)v);
}

void
out_str(const char *s)
{
	out_write(s, strlen(s));
}

void
out_fmt(const char *fmt, ...)
{
	char small[512], *big;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		out_write(small, (size_t)n);
		return;
	}
	big = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	out_write(big, (size_t)n);
	free(big);
}
