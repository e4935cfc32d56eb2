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
#include <pthread.h>
#include <zlib.h>
#endif

#include "err.h"
#include "num.h"
#include "out.h"

#define OUT_BUF (1u << 20)
/*
 * Plain output drains at 64 KiB (a pipe's capacity), so that only those
 * pages of the buffer are ever touched: on a VM a page fault costs tens
 * of microseconds, and a graph of 200 KB touched 50 pages where 16 do
 * (flamegraph-svg on gcc-sqlite3-O2-fp: 326 faults, 7.5 ms task-clock,
 * to 295 and 6.9: perf stat -e task-clock,page-faults -r 50).
 */
#define OUT_PLAIN (1u << 16)

static char bufs[2][OUT_BUF];
/* bufs[0], or either while gzip alternates them, is the one filled */
/* the buffer being filled, and how much of it (out.h's inline writers) */
char *out_buf = bufs[0];
size_t out_used;
/* drain when this much is buffered; less while gzip overlaps (see below) */
size_t out_lim = OUT_PLAIN;
#ifdef HAVE_ZLIB
static z_stream *gz;
/*
 * Deflate runs on a thread of its own, one buffer behind: the main thread
 * fills one buffer while the other is compressed and written, so a
 * profile's compression overlaps its making.  One stream, fed the same
 * chunks in the same order, so the bytes are those of one thread.  The
 * chunks are a quarter of the buffer, so that the last one, which
 * nothing overlaps, is short.
 */
#define GZ_CHUNK (OUT_BUF / 4)
static pthread_t zthread;
static pthread_mutex_t zlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t zcond = PTHREAD_COND_INITIALIZER;
static const char *zjob;	/* the chunk handed over, or NULL when idle */
static size_t zlen;
static int zend;
/*
 * What failed on the deflate thread (write_all's code), reported by the
 * main thread at its next handover: exit() from a second thread would run
 * the exit handlers while the main thread still makes output.
 */
static int zfail;
#endif

void
out_init(void)
{
	signal(SIGPIPE, SIG_DFL);
}

/* What write_all and deflate_out return when deflate itself failed. */
#define GZ_BROKEN (-1)

/* Write p[0..n); 0, or the errno of the write that failed. */
static int
write_all(const char *p, size_t n)
{
	while (n) {
		ssize_t r = write(STDOUT_FILENO, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? errno : EIO;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/* Report a failed write (write_all's code) and exit; on the main thread. */
static void
write_failed(int err)
{
	if (err == EPIPE) {
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
		_exit(EXIT_INPUT);
	}
	if (err == GZ_BROKEN)
		die(EXIT_INPUT, "gzip compression failed");
	errno = err;
	die(EXIT_INPUT, "write error:");
}

#ifdef HAVE_ZLIB
/*
 * Compress p[0..n), finishing the stream when end is set; 0, or what
 * failed (write_all's code, or GZ_BROKEN).
 */
static int
deflate_out(const char *p, size_t n, int end)
{
	unsigned char z[1 << 16];
	int r, err;

	gz->next_in = (unsigned char *)(uintptr_t)p;
	gz->avail_in = (uInt)n;
	do {
		gz->next_out = z;
		gz->avail_out = sizeof z;
		r = deflate(gz, end ? Z_FINISH : Z_NO_FLUSH);
		if (r == Z_STREAM_ERROR)
			return GZ_BROKEN;
		if ((err = write_all((const char *)z, sizeof z - gz->avail_out)))
			return err;
	} while (gz->avail_out == 0 || (end && r != Z_STREAM_END));
	return 0;
}

/*
 * The deflate thread: each chunk handed over, until the last, or until
 * one fails (what is left is not written: the main thread exits).
 */
static void *
deflate_loop(void *arg)
{
	int end, err;

	(void)arg;
	do {
		pthread_mutex_lock(&zlock);
		while (zjob == NULL)
			pthread_cond_wait(&zcond, &zlock);
		pthread_mutex_unlock(&zlock);
		err = deflate_out(zjob, zlen, zend);
		end = zend || err;
		pthread_mutex_lock(&zlock);
		zfail = err;
		zjob = NULL;
		pthread_cond_broadcast(&zcond);
		pthread_mutex_unlock(&zlock);
	} while (!end);
	return NULL;
}

/*
 * Hand out_buf[0..out_used) to the deflate thread, once it is done with the
 * other buffer, and fill that one meanwhile; at the end, wait for it.
 * What failed on the thread is reported here.
 */
static void
deflate_handover(int end)
{
	int err;

	pthread_mutex_lock(&zlock);
	while (zjob != NULL)
		pthread_cond_wait(&zcond, &zlock);
	if ((err = zfail) != 0) {
		pthread_mutex_unlock(&zlock);
		pthread_join(zthread, NULL);
		write_failed(err);
	}
	zjob = out_buf;
	zlen = out_used;
	zend = end;
	pthread_cond_broadcast(&zcond);
	pthread_mutex_unlock(&zlock);
	out_buf = out_buf == bufs[0] ? bufs[1] : bufs[0];
	out_used = 0;
	if (end) {
		pthread_join(zthread, NULL);
		if (zfail)
			write_failed(zfail);
		deflateEnd(gz);
		free(gz);
		gz = NULL;
		out_buf = bufs[0];
		out_lim = OUT_PLAIN;
	}
}
#endif

/* Write what is buffered (compressed when out_gzip was called). */
static void
drain(int end)
{
	int err;

#ifdef HAVE_ZLIB
	if (gz) {
		deflate_handover(end);
		return;
	}
#endif
	(void)end;
	if ((err = write_all(out_buf, out_used)) != 0)
		write_failed(err);
	out_used = 0;
}

void
out_flush(void)
{
	drain(1);
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
	if (pthread_create(&zthread, NULL, deflate_loop, NULL) != 0)
		die(EXIT_INPUT, "cannot start gzip compression:");
	out_lim = GZ_CHUNK;
	return 0;
#else
	(void)level;
	return -1;
#endif
}

void
out_write_slow(const void *p, size_t n)
{
	while (n > out_lim - out_used) {
		size_t k = out_lim - out_used;

		memcpy(out_buf + out_used, p, k);
		out_used += k;
		drain(0);
		p = (const char *)p + k;
		n -= k;
	}
	memcpy(out_buf + out_used, p, n);
	out_used += n;
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
