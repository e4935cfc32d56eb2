/*
 * input: hands a file to a parser as large blocks of whole lines.
 *
 * A regular uncompressed file is mapped and handed out in windows of about
 * INPUT_MAPWIN bytes without a copy; the pages of a window are dropped
 * (MADV_DONTNEED) once the next is asked for, so resident memory does not
 * grow with the file.  A pipe, a terminal or a gzip file (detected by its
 * magic bytes, not its name) is read through a buffer that starts at
 * INPUT_WINDOW bytes.  Rejected: read() for files too; the copy cost a
 * third of the two-thread speed-up.
 * A file that shrinks under its mapping (a log rotated, a capture
 * rewritten) raises SIGBUS in whichever thread touches a lost page.  The
 * mapping is guarded (busguard.h): the pages from there to the mapping's
 * end read as zeros, that thread goes on, and the next input_next reports
 * "the file shrank" (-1: exit 1, never a signal); a parser may meet zero
 * bytes in the block it holds, as in any damaged input.  Rejected: read()
 * (the copy, above); checking the size with fstat before each window (a
 * shrink after the check still faults).
 * Blocks end just after the last occurrence of a caller-chosen boundary
 * string in the window ("\n\n" between perf samples, "\n" for line formats,
 * "" for any byte: a JSON reader that carries split tokens itself),
 * so a parser can split a block between threads without cutting a record.
 * When a window holds no boundary the buffer grows, up to INPUT_MAXWIN, after
 * which a block ends at the last newline instead (at_boundary is then 0),
 * and INPUT_MAXWIN bytes without a newline are an error ("file:N: line
 * longer than the limit"), mapped or not: memory stays bounded by the
 * window, whatever the input, and no parser sees a line of 64 MiB or more.
 * The number N comes from the reader, who counts lines anyway: input_getline
 * counts the lines it hands out, and a block reader sets lines to its own
 * count before each input_next (0, and so line 1, when it keeps none); a
 * mapping counts the newlines before the line only when the error comes.
 * Rejected: counting every buffered block's newlines here, which cost
 * half a second per GB on one thread for an error that almost never
 * comes.  The last block of a file may end without a newline.
 *
 * Memory: the block pointer is valid until the next input_next or
 * input_close.  The input owns its buffers.
 */
#ifndef FT_INPUT_H
#define FT_INPUT_H

#include <stddef.h>
#include <string.h>

#define INPUT_WINDOW (8u << 20)
/* The largest buffer, and so the cap on a line (newline included). */
#define INPUT_MAXWIN (64u << 20)
/* Windows of a mapped file: large enough that a thread per part pays off. */
#define INPUT_MAPWIN (32u << 20)

struct input {
	const char *name;	/* for messages: the path, or "<stdin>" */
	int fd;
	int eof;		/* no more bytes to read from fd */
	char *map;		/* the whole file, when mapped */
	int slot;		/* the mapping's busguard handle */
	size_t maplen, dropped;	/* map[0..dropped) released */
	char *buf;		/* decoded bytes (read or inflated) */
	size_t cap, start, len;	/* live bytes are buf[start..len) */
	void *gz;		/* z_stream when the input is gzip */
	unsigned char *raw;	/* compressed bytes waiting for inflate */
	size_t rawcap, rawlen, rawpos;
	int raweof;		/* fd exhausted (gzip) */
	int inmember;		/* inside a gzip member: EOF now is truncation */
	int inpadding;		/* in zeros after a member: only zeros follow */
	const char *boundary;
	size_t boundlen;
	const char *lp, *lend;	/* input_getline: rest of the current block */
	unsigned long long lines; /* newlines handed out, by the reader's count */
	int keep;		/* input_keep: mapped pages not dropped */
};

/* 1 when the library was built with zlib. */
int input_has_zlib(void);

/*
 * Open path ("-" is standard input) for reading blocks that end after
 * boundary.  On failure prints "prog: path: why" and returns -1.
 */
int input_open(struct input *in, const char *path, const char *boundary);

/*
 * The same for an open descriptor, which the input then owns (closes),
 * unless it is standard input; name is for messages and must outlive it.
 */
int input_fdopen(struct input *in, int fd, const char *name,
    const char *boundary);

/*
 * The next block: returns 1 with *p, *n and *at_boundary set, 0 at end of
 * input, -1 on a read or decompression error (already reported).
 */
int input_next(struct input *in, const char **p, size_t *n, int *at_boundary);

/*
 * The first byte that is not white space, without consuming anything, so
 * that a reader can tell formats apart on a pipe too: -1 when the input
 * is empty (or the first window blank), -2 on a read error (reported).
 * Call before the first input_next; the boundary may be changed after.
 */
int input_peek(struct input *in);

/* Change where blocks end; before the first input_next. */
void input_set_boundary(struct input *in, const char *boundary);

/*
 * The first bytes of the input, at least want of them unless the input is
 * shorter (or the first window is full), without consuming anything: for
 * format detection that needs whole lines.  Returns 0 with *p and *n set,
 * or -1 on a read error (reported).  Call before the first input_next.
 */
int input_head(struct input *in, size_t want, const char **p, size_t *n);

/* input_getline once the block is used up: the next, and its first line. */
int input_getline_next(struct input *in, const char **line, size_t *len);

/*
 * The next line, without its newline (and without a '\r' before it), for
 * readers that want lines rather than blocks: returns 1 with *line and
 * *len set, 0 at end of input, -1 on an error (reported).  The line is
 * valid until the next call.  Use either this or input_next, not both.
 * Inline: the call cost a tenth of a line's parse in the fast formats.
 */
static inline int
input_getline(struct input *in, const char **line, size_t *len)
{
	const char *nl, *e;

	if (in->lp == in->lend)
		return input_getline_next(in, line, len);
	nl = memchr(in->lp, '\n', (size_t)(in->lend - in->lp));
	e = nl ? nl : in->lend;
	*line = in->lp;
	*len = (size_t)(e - in->lp);
	in->lines += nl != NULL;
	if (*len && e[-1] == '\r')
		(*len)--;
	in->lp = nl ? nl + 1 : in->lend;
	return 1;
}

/* Close and free; safe to call twice. */
void input_close(struct input *in);

/*
 * For a reader that keeps pointers to the bytes, not copies: the pages of
 * a mapped input are not dropped after each block, so all the bytes
 * handed out stay valid until input_close.  Returns 1 when the input is
 * mapped (its bytes are map[0..maplen)), else 0 (buffers are reused:
 * copy).  input_intact then says, reported, whether the file shrank or
 * changed while they were kept (its pages read as zeros then): -1 if so.
 */
int input_keep(struct input *in);
int input_intact(const struct input *in);

#endif
