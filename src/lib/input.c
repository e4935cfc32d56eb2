/*
 * input: see input.h for the design note.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include "busguard.h"
#include "compat.h"
#include "err.h"
#include "input.h"

int
input_has_zlib(void)
{
#ifdef HAVE_ZLIB
	return 1;
#else
	return 0;
#endif
}

static int
is_gzip(const unsigned char *p, size_t n)
{
	return n >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

/*
 * Pages already parsed leave memory at once where MADV_DONTNEED exists;
 * posix_madvise's DONTNEED is only advice (glibc ignores it).
 */
static void
drop_pages(void *p, size_t n)
{
#ifdef MADV_DONTNEED
	madvise(p, n, MADV_DONTNEED);
#else
	posix_madvise(p, n, POSIX_MADV_DONTNEED);
#endif
}

/*
 * 1, reported, when a page of the mapping could not be read: the file
 * shrank under it, or (its size whole again) it was rewritten or the disk
 * failed.
 */
static int
map_shrunk(const struct input *in)
{
	struct stat st;

	if (!busguard_hit(in->slot))
		return 0;
	if (fstat(in->fd, &st) == 0 && (size_t)st.st_size >= in->maplen)
		warn_at(in->name, 0, "the file changed while it was read, or a "
		    "page of it could not be read");
	else
		warn_at(in->name, 0, "the file shrank while it was read");
	return 1;
}

int
input_open(struct input *in, const char *path, const char *boundary)
{
	int fd = STDIN_FILENO;

	if (strcmp(path, "-") == 0)
		return input_fdopen(in, fd, "<stdin>", boundary);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		warn_at(path, 0, "cannot open:");
		return -1;
	}
	return input_fdopen(in, fd, path, boundary);
}

int
input_fdopen(struct input *in, int fd, const char *name, const char *boundary)
{
	struct stat st;
	unsigned char magic[2];
	ssize_t r;

	memset(in, 0, sizeof *in);
	in->name = name;
	in->boundary = boundary;
	in->boundlen = strlen(boundary);
	in->fd = fd;
	if (fstat(in->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		warn_at(in->name, 0, "cannot read:");
		input_close(in);
		return -1;
	}
	if (fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    pread(in->fd, magic, 2, 0) == 2 && !is_gzip(magic, 2)) {
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
		    in->fd, 0);

		if (m != MAP_FAILED &&
		    (in->slot = busguard_add(m, (size_t)st.st_size)) >= 0) {
			posix_madvise(m, (size_t)st.st_size, POSIX_MADV_SEQUENTIAL);
			in->map = m;
			in->maplen = (size_t)st.st_size;
			in->eof = 1;
			return 0;
		}
		if (m != MAP_FAILED)
			munmap(m, (size_t)st.st_size);
	}
#ifdef F_SETPIPE_SZ
	/*
	 * A 64 KiB pipe makes writer and reader take turns every 64 KiB; a
	 * larger one (up to the system's limit, so failure is fine) lets
	 * them run side by side.
	 */
	if (fstat(in->fd, &st) == 0 && S_ISFIFO(st.st_mode))
		(void)fcntl(in->fd, F_SETPIPE_SZ, 1 << 20);
#endif
	in->cap = INPUT_WINDOW;
	in->buf = xmalloc(in->cap);
	/* Sniff the magic from the first read; a short first read is fine. */
	in->rawcap = 1u << 16;
	in->raw = xmalloc(in->rawcap);
	do
		r = read(in->fd, in->raw, in->rawcap);
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		warn_at(in->name, 0, "read error:");
		input_close(in);
		return -1;
	}
	in->rawlen = (size_t)r;
	if (r == 0)
		in->eof = in->raweof = 1;
	if (is_gzip(in->raw, in->rawlen)) {
#ifdef HAVE_ZLIB
		z_stream *z = xcalloc(1, sizeof *z);

		if (inflateInit2(z, 15 + 32) != Z_OK) {
			warn_at(in->name, 0, "cannot start gzip decoder");
			free(z);
			input_close(in);
			return -1;
		}
		in->gz = z;
		in->eof = 0;
#else
		warn_at(in->name, 0, "input is gzip-compressed, but this build has "
		    "no zlib (decompress it with gzip -dc)");
		input_close(in);
		return -1;
#endif
	} else {
		/* Plain stream: the sniffed bytes are the first data. */
		memcpy(in->buf, in->raw, in->rawlen);
		in->len = in->rawlen;
		in->rawlen = 0;
	}
	return 0;
}

/*
 * Read or inflate more bytes into buf[len..cap).  Sets in->eof once nothing
 * more can come.  Returns 0, or -1 on an error (reported).
 */
static int
fill(struct input *in)
{
	ssize_t r;

	if (!in->gz) {
		do
			r = read(in->fd, in->buf + in->len, in->cap - in->len);
		while (r < 0 && errno == EINTR);
		if (r < 0) {
			warn_at(in->name, 0, "read error:");
			return -1;
		}
		if (r == 0)
			in->eof = 1;
		in->len += (size_t)r;
		return 0;
	}
#ifdef HAVE_ZLIB
	for (;;) {
		z_stream *z = in->gz;
		size_t before = in->len;
		int zr;

		if (in->rawpos == in->rawlen && !in->raweof) {
			do
				r = read(in->fd, in->raw, in->rawcap);
			while (r < 0 && errno == EINTR);
			if (r < 0) {
				warn_at(in->name, 0, "read error:");
				return -1;
			}
			in->rawlen = (size_t)r;
			in->rawpos = 0;
			if (r == 0)
				in->raweof = 1;
		}
		/*
		 * Zeros after a member are tape or block padding, which gzip
		 * -d ignores too (no member starts with one: its magic is
		 * 0x1f 0x8b); they run to the end, or the data is corrupt.
		 */
		if (!in->inmember && in->rawpos < in->rawlen &&
		    in->raw[in->rawpos] == 0)
			in->inpadding = 1;
		if (in->inpadding) {
			for (; in->rawpos < in->rawlen; in->rawpos++)
				if (in->raw[in->rawpos] != 0) {
					warn_at(in->name, 0, "corrupt gzip data: "
					    "a nonzero byte in the zero padding "
					    "after a member");
					return -1;
				}
			if (in->raweof) {
				in->eof = 1;
				return 0;
			}
			continue;
		}
		z->next_in = in->raw + in->rawpos;
		z->avail_in = (uInt)(in->rawlen - in->rawpos);
		z->next_out = (unsigned char *)in->buf + in->len;
		z->avail_out = (uInt)(in->cap - in->len);
		zr = inflate(z, Z_NO_FLUSH);
		in->rawpos = in->rawlen - z->avail_in;
		in->len = in->cap - z->avail_out;
		if (zr == Z_STREAM_END) {
			/* Concatenated members (cat a.gz b.gz) go on. */
			inflateReset(z);
			in->inmember = 0;
		} else if (zr == Z_OK) {
			in->inmember = 1;
		} else if (zr != Z_BUF_ERROR) {
			warn_at(in->name, 0, "corrupt gzip data: %s",
			    z->msg ? z->msg : "inflate failed");
			return -1;
		}
		if (in->len > before)
			return 0;
		if (in->raweof && in->rawpos == in->rawlen) {
			if (in->inmember) {
				warn_at(in->name, 0, "gzip data is truncated");
				return -1;
			}
			in->eof = 1;
			return 0;
		}
	}
#else
	return -1;
#endif
}

/* End of the last boundary in p[0..n), or 0 when there is none. */
static size_t
last_boundary(const struct input *in, const char *p, size_t n)
{
	size_t k = in->boundlen, lim = n;
	char last;

	if (k == 0)
		return n;
	last = in->boundary[k - 1];
	while (lim >= k) {
		const char *q = memrchr(p + k - 1, last, lim - (k - 1));
		size_t end;

		if (q == NULL)
			return 0;
		end = (size_t)(q - p) + 1;
		if (memcmp(q + 1 - k, in->boundary, k) == 0)
			return end;
		lim = end - 1;
	}
	return 0;
}

/* The number of newlines in p[0..n), eight bytes at a time. */
static unsigned long long
count_nl(const char *p, size_t n)
{
	const uint64_t ones = 0x0101010101010101ull, low7 = 0x7f7f7f7f7f7f7f7full;
	unsigned long long c = 0;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		w ^= ones * '\n';
		/* 1 in each byte that was a newline (no carry between bytes). */
		w = ~(((w & low7) + low7) | w | low7) >> 7;
		c += (w * ones) >> 56;
	}
	for (; i < n; i++)
		c += p[i] == '\n';
	return c;
}

/* Report the line at p, numbered line, that has no newline in the cap. */
static int
too_long(const struct input *in, unsigned long long line, const char *p)
{
	char q[4 * 16 + 8];

	warn_at(in->name, line, "line longer than the limit of %u MiB: %s",
	    INPUT_MAXWIN >> 20, err_quote(q, p, 17, 16));
	return -1;
}

/*
 * The mapped file in windows: a block ends at the last boundary within
 * INPUT_MAPWIN bytes (the window doubles while it holds none, up to
 * INPUT_MAXWIN), and the pages of the previous block are dropped, so
 * resident memory stays near the window's size however large the file.
 */
static int
next_mapped(struct input *in, const char **p, size_t *n, int *at_boundary)
{
	size_t avail = in->maplen - in->start, win = INPUT_MAPWIN, e;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), done;

	done = in->start / page * page;
	if (done > in->dropped && !in->keep) {
		drop_pages(in->map + in->dropped, done - in->dropped);
		in->dropped = done;
	}
	/* The previous block's parse may have met the shrink. */
	if (map_shrunk(in))
		return -1;
	if (avail == 0)
		return 0;
	for (;;) {
		if (win >= avail) {
			e = last_boundary(in, in->map + in->start, avail);
			*at_boundary = e == avail;
			e = e && e < avail ? e : avail;
			break;
		}
		if ((e = last_boundary(in, in->map + in->start, win)) != 0) {
			*at_boundary = 1;
			break;
		}
		if (win >= INPUT_MAXWIN) {
			/* As a buffer would: cut at a newline, never past the cap. */
			const char *s = in->map + in->start;
			const char *nl = memrchr(s, '\n', win);

			if (nl == NULL)
				return map_shrunk(in) ? -1 : too_long(in,
				    count_nl(in->map, in->start) + 1, s);
			e = (size_t)(nl - s) + 1;
			*at_boundary = 0;
			break;
		}
		win *= 2;
	}
	if (map_shrunk(in))
		return -1;
	*p = in->map + in->start;
	*n = e;
	in->start += e;
	return 1;
}

int
input_next(struct input *in, const char **p, size_t *n, int *at_boundary)
{
	size_t e;

	if (in->map)
		return next_mapped(in, p, n, at_boundary);
	if (in->start) {
		memmove(in->buf, in->buf + in->start, in->len - in->start);
		in->len -= in->start;
		in->start = 0;
	}
	for (;;) {
		while (!in->eof && in->len < in->cap)
			if (fill(in) < 0)
				return -1;
		if (in->len == 0)
			return 0;
		e = last_boundary(in, in->buf, in->len);
		*at_boundary = e != 0;
		if (e == 0 && in->eof)
			e = in->len;
		if (e == 0 && in->cap >= INPUT_MAXWIN) {
			const char *nl = memrchr(in->buf, '\n', in->len);

			if (nl == NULL)
				return too_long(in, in->lines + 1, in->buf);
			e = (size_t)(nl - in->buf) + 1;
		}
		if (e) {
			*p = in->buf;
			*n = e;
			in->start = e;
			return 1;
		}
		in->cap *= 2;
		in->buf = xrealloc(in->buf, in->cap);
	}
}

int
input_peek(struct input *in)
{
	size_t i = in->start;

	for (;;) {
		const char *p = in->map ? in->map : in->buf;
		size_t n = in->map ? in->maplen : in->len;

		for (; i < n; i++)
			if (p[i] != ' ' && p[i] != '\t' && p[i] != '\n' && p[i] != '\r')
				return (unsigned char)p[i];
		if (in->eof || in->map || in->len == in->cap)
			return -1;
		if (fill(in) < 0)
			return -2;
	}
}

void
input_set_boundary(struct input *in, const char *boundary)
{
	in->boundary = boundary;
	in->boundlen = strlen(boundary);
}

int
input_head(struct input *in, size_t want, const char **p, size_t *n)
{
	if (in->map) {
		*p = in->map;
		*n = in->maplen < want ? in->maplen : want;
		return 0;
	}
	while (in->len - in->start < want && !in->eof && in->len < in->cap)
		if (fill(in) < 0)
			return -1;
	*p = in->buf + in->start;
	*n = in->len - in->start;
	return 0;
}

int
input_getline_next(struct input *in, const char **line, size_t *len)
{
	const char *p;
	size_t n;
	int atb, r = input_next(in, &p, &n, &atb);

	if (r <= 0)
		return r;
	in->lp = p;
	in->lend = p + n;
	return input_getline(in, line, len);
}

int
input_keep(struct input *in)
{
	in->keep = 1;
	return in->map != NULL;
}

int
input_intact(const struct input *in)
{
	return in->map && map_shrunk(in) ? -1 : 0;
}

void
input_close(struct input *in)
{
#ifdef HAVE_ZLIB
	if (in->gz) {
		inflateEnd(in->gz);
		free(in->gz);
	}
#endif
	if (in->fd > STDIN_FILENO)
		close(in->fd);
	if (in->map) {
		busguard_remove(in->slot);
		munmap(in->map, in->maplen);
	}
	free(in->buf);
	free(in->raw);
	memset(in, 0, sizeof *in);
	in->fd = -1;
}
