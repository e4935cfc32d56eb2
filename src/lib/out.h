/*
 * out: buffered, checked writing to standard output.
 *
 * One 1 MiB buffer flushed with write(2).  A write error is reported once
 * ("prog: write error: No space left on device") and exits 1, so no program
 * can finish with a truncated result and status 0.  EPIPE means the reader
 * left (| head): SIGPIPE is restored to its default and raised, so the
 * program dies quietly as git's write_or_die does, even when the parent had
 * SIGPIPE ignored.  Not thread-safe: only the main thread writes output.
 * With gzip, deflate runs on a second thread, a buffer behind the first,
 * so compressing overlaps making the output (same bytes as one thread);
 * what fails there is reported by the main thread, as above.
 */
#ifndef FT_OUT_H
#define FT_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "err.h"

/* Call once at start-up: restores SIGPIPE's default action. */
void out_init(void);
/*
 * The buffer, for the writers below, inline: a flame graph's frame is
 * twenty pieces of a few bytes, and a call each was a fifth of writing
 * it.  Only out.c changes them, but for the copy here.
 */
extern char *out_buf;
extern size_t out_used, out_lim;
void out_write_slow(const void *p, size_t n);

static inline void
out_write(const void *p, size_t n)
{
	if (n <= out_lim - out_used) {
		memcpy(out_buf + out_used, p, n);
		out_used += n;
	} else
		out_write_slow(p, n);
}

static inline void
out_char(char c)
{
	if (out_used < out_lim)
		out_buf[out_used++] = c;
	else
		out_write_slow(&c, 1);
}

void out_u64(uint64_t v);
void out_i64(int64_t v);
/* A NUL-terminated string (a literal's length is a constant). */
static inline void
out_str(const char *s)
{
	out_write(s, strlen(s));
}
/* printf-style; any length (longer than the stack buffer is allocated). */
void out_fmt(const char *fmt, ...) PRINTFLIKE(1, 2);
/* Flush everything; exits on error.  Call before returning from main. */
void out_flush(void);

/*
 * From now on compress the output with gzip (svgz).  Returns -1 when the
 * build has no zlib.  out_flush then also ends the gzip stream, so call it
 * once, at the end.
 */
int out_gzip(void);
/*
 * The same at zlib's level 1 (fastest) to 9 (smallest; out_gzip's): a
 * profile written for a server (pprof) wants speed, as Go's own writer.
 */
int out_gzip_level(int level);
#endif
