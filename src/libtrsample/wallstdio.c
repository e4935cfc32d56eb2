/*
 * wallstdio.c: stdio's and readdir's blocking, for --wall with the
 * signal mechanism (wall.c times libc's other blocking calls).
 *
 * Contract.  glibc's stdio reads and writes through its internal __read
 * and __write, and readdir through getdents, past the functions wall.c
 * wraps: a thread blocked in fgets on a pipe was in no sample, its time
 * said on stderr as blocked past libc's functions.  So the stdio
 * functions that can wait on their stream are wrapped too, each timed
 * as wall.c times its calls (wall.h's macros; the leaf is the function
 * called): getc, fgetc, getchar, fgets, fread, getline, getdelim, the
 * _unlocked and fortified (_chk) forms libc exports, and __uflow, which
 * the inline getc_unlocked calls when the buffer is empty; putc, fputc,
 * putchar, fputs, puts, fwrite and their _unlocked forms, and
 * __overflow, the inline putc_unlocked's; fflush, fclose; readdir,
 * readdir64, scandir, scandir64.
 *
 * Most stdio calls are served by the stream's buffer and never wait; a
 * getc costs a few nanoseconds and two clock reads would make it
 * several times slower.  So, with glibc, a call is timed only when the
 * buffer cannot serve it, as read from the public FILE fields: a read
 * when the bytes buffered (_IO_read_ptr to _IO_read_end) are fewer than
 * it wants and hold no newline (or delimiter) that ends it early; a
 * write when the bytes do not fit before _IO_write_end, or, on a
 * line-buffered stream (glibc's flag 0x200, with 0x800, writing: libio's
 * _IO_LINE_BUF and _IO_CURRENTLY_PUTTING, unchanged since glibc 2.1),
 * before _IO_buf_end or if they hold a newline, which flushes it.  A
 * stream another thread holds locked makes the call wait for it, so it
 * is timed too (glibc's lock, _IO_lock_t: its futex word then the owner,
 * unchanged since NPTL, read without taking it).  These functions use
 * that byte buffer on a wide-oriented stream too.  With other C
 * libraries every call is timed, and so are fflush, fclose and the
 * directory functions (DIR is opaque).  The fields are read without the
 * stream's lock, so another thread using the same stream may change
 * them between the check and the call: at worst a wait then goes
 * untimed (told on stderr as before) or a call that did not wait is
 * timed (its interval near 0).  The cost, a getc loop over 200 MB: 347
 * ms of CPU time alone, 471 under --wall (3929 with every getc timed);
 * fgets over 3.3 million lines, 83 and 96 ms.
 *
 * A stdio function does not call the wrapped read or write (glibc calls
 * __read and __write, inside itself), and a wrapped call nested in a
 * timed one is not timed (wall_enter): a wait is counted once.  Not
 * seen still: printf, scanf and the other formatted functions (how many
 * bytes they read or write is not known before the call), the wide
 * functions (fgetwc, fputws...), gets, getw and putw.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "wall.h"

/* libc's fortified forms, which programs built with _FORTIFY_SOURCE
 * call instead of fgets and fread. */
char	*__fgets_chk(char *s, size_t size, int n, FILE *f);
char	*__fgets_unlocked_chk(char *s, size_t size, int n, FILE *f);
size_t	 __fread_chk(void *p, size_t size_p, size_t size, size_t n, FILE *f);
size_t	 __fread_unlocked_chk(void *p, size_t size_p, size_t size, size_t n, FILE *f);

#define EOF_	(errno = ENOSYS, EOF)
#define NULL_	(errno = ENOSYS, NULL)
#define ZERO_	(errno = ENOSYS, 0)

#ifdef __GLIBC__
#define LINE_BUF	0x0200
#define PUTTING		0x0800

struct iolock {
	int	 lock;
	int	 cnt;
	void	*owner;
};

/* Whether f's lock is another thread's: a call on f waits for it. */
static inline int
busy(FILE *f)
{
	const struct iolock *l = (const struct iolock *)f->_lock;

	return l && __atomic_load_n(&l->lock, __ATOMIC_RELAXED) != 0 &&
	    __atomic_load_n(&l->owner, __ATOMIC_RELAXED) != (void *)pthread_self();
}

/* Whether f's buffer holds a byte to read: getc's test, inline, as it
 * is most of getc's work. */
static inline int
readable(FILE *f)
{
	return f->_IO_read_ptr < f->_IO_read_end && !busy(f);
}

/* Whether c goes into f's buffer with no write: putc's, inline. */
static inline int
writable(FILE *f, int c)
{
	if (!(f->_flags & LINE_BUF))
		return f->_IO_write_ptr < f->_IO_write_end && !busy(f);
	return (f->_flags & PUTTING) && f->_IO_write_ptr != NULL &&
	    f->_IO_write_ptr < f->_IO_buf_end && (char)c != '\n' && !busy(f);
}

/* Whether f's buffer holds n bytes to read, or fewer ending with delim
 * (-1: none ends it). */
static int
holds(FILE *f, size_t n, int delim)
{
	if (!readable(f))
		return 0;
	size_t k = (size_t)(f->_IO_read_end - f->_IO_read_ptr);

	return k >= n || (delim >= 0 && memchr(f->_IO_read_ptr, delim, k) != NULL);
}

/* Whether the n bytes at p go into f's buffer with no write. */
static int
fits(FILE *f, const void *p, size_t n)
{
	if (busy(f) || f->_IO_write_ptr == NULL)
		return 0;
	if (!(f->_flags & LINE_BUF))
		return f->_IO_write_ptr < f->_IO_write_end &&
		    (size_t)(f->_IO_write_end - f->_IO_write_ptr) >= n;
	return (f->_flags & PUTTING) && f->_IO_write_ptr < f->_IO_buf_end &&
	    (size_t)(f->_IO_buf_end - f->_IO_write_ptr) >= n && memchr(p, '\n', n) == NULL;
}

/* Whether f writes at each newline: puts's always flushes it. */
static int
linebuf(FILE *f)
{
	return (f->_flags & LINE_BUF) != 0;
}
#else
/* FILE is opaque: every call timed. */
#define readable(f)	((void)(f), 0)
#define writable(f, c)	((void)(f), (void)(c), 0)
#define holds(f, n, d)	((void)(f), (void)(n), (void)(d), 0)
#define fits(f, p, n)	((void)(f), (void)(p), (void)(n), 0)
#define linebuf(f)	((void)(f), 1)
#endif

/* size * n bytes, or SIZE_MAX where that overflows (never buffered). */
static size_t
bytes(size_t size, size_t n)
{
	return size && n > SIZE_MAX / size ? SIZE_MAX : size * n;
}

/* fgets's wants: n - 1 bytes, or a line; none when n is 1 or less. */
static size_t
want(int n)
{
	return n > 1 ? (size_t)n - 1 : 0;
}

/*
 * BUFFERED(type, name, params, args, fail, served): WRAP's call, not
 * timed when served says the buffer serves it.  The name in brackets:
 * glibc makes fread_unlocked and fwrite_unlocked macros too.
 */
#define BUFFERED(type, name, params, args, fail, served) \
FIND(name) \
EXPORT type \
(name) params \
{ \
	REAL(name, fail); \
	if (served) \
		return real args; \
	TIMED(type, real args); \
}

BUFFERED(int, getc, (FILE *f), (f), EOF_, readable(f))
BUFFERED(int, fgetc, (FILE *f), (f), EOF_, readable(f))
BUFFERED(int, getc_unlocked, (FILE *f), (f), EOF_, readable(f))
BUFFERED(int, fgetc_unlocked, (FILE *f), (f), EOF_, readable(f))
BUFFERED(int, getchar, (void), (), EOF_, readable(stdin))
BUFFERED(int, getchar_unlocked, (void), (), EOF_, readable(stdin))
BUFFERED(int, __uflow, (FILE *f), (f), EOF_, readable(f))

BUFFERED(char *, fgets, (char *s, int n, FILE *f), (s, n, f), NULL_,
    holds(f, want(n), '\n'))
BUFFERED(char *, fgets_unlocked, (char *s, int n, FILE *f), (s, n, f), NULL_,
    holds(f, want(n), '\n'))
BUFFERED(char *, __fgets_chk, (char *s, size_t size, int n, FILE *f), (s, size, n, f),
    NULL_, holds(f, want(n), '\n'))
BUFFERED(char *, __fgets_unlocked_chk, (char *s, size_t size, int n, FILE *f),
    (s, size, n, f), NULL_, holds(f, want(n), '\n'))
BUFFERED(size_t, fread, (void *p, size_t size, size_t n, FILE *f), (p, size, n, f), ZERO_,
    holds(f, bytes(size, n), -1))
BUFFERED(size_t, fread_unlocked, (void *p, size_t size, size_t n, FILE *f), (p, size, n, f),
    ZERO_, holds(f, bytes(size, n), -1))
BUFFERED(size_t, __fread_chk, (void *p, size_t size_p, size_t size, size_t n, FILE *f),
    (p, size_p, size, n, f), ZERO_, holds(f, bytes(size, n), -1))
BUFFERED(size_t, __fread_unlocked_chk, (void *p, size_t size_p, size_t size, size_t n,
    FILE *f), (p, size_p, size, n, f), ZERO_, holds(f, bytes(size, n), -1))
/* getline is __getdelim inline where the program was optimized. */
BUFFERED(ssize_t, getline, (char **s, size_t *n, FILE *f), (s, n, f), ENOSYS_,
    holds(f, SIZE_MAX, '\n'))
BUFFERED(ssize_t, getdelim, (char **s, size_t *n, int delim, FILE *f), (s, n, delim, f),
    ENOSYS_, holds(f, SIZE_MAX, (unsigned char)delim))
BUFFERED(ssize_t, __getdelim, (char **s, size_t *n, int delim, FILE *f), (s, n, delim, f),
    ENOSYS_, holds(f, SIZE_MAX, (unsigned char)delim))

BUFFERED(int, putc, (int c, FILE *f), (c, f), EOF_, writable(f, c))
BUFFERED(int, fputc, (int c, FILE *f), (c, f), EOF_, writable(f, c))
BUFFERED(int, putc_unlocked, (int c, FILE *f), (c, f), EOF_, writable(f, c))
BUFFERED(int, fputc_unlocked, (int c, FILE *f), (c, f), EOF_, writable(f, c))
BUFFERED(int, putchar, (int c), (c), EOF_, writable(stdout, c))
BUFFERED(int, putchar_unlocked, (int c), (c), EOF_, writable(stdout, c))
/* __overflow(f, EOF) flushes f. */
BUFFERED(int, __overflow, (FILE *f, int c), (f, c), EOF_,
    c != EOF && writable(f, c))

BUFFERED(int, fputs, (const char *s, FILE *f), (s, f), EOF_, fits(f, s, strlen(s)))
BUFFERED(int, fputs_unlocked, (const char *s, FILE *f), (s, f), EOF_, fits(f, s, strlen(s)))
/* puts adds a newline: a byte more, and a flush of a line-buffered
 * stream. */
BUFFERED(int, puts, (const char *s), (s), EOF_,
    !linebuf(stdout) && fits(stdout, s, strlen(s) + 1))
BUFFERED(size_t, fwrite, (const void *p, size_t size, size_t n, FILE *f), (p, size, n, f),
    ZERO_, fits(f, p, bytes(size, n)))
BUFFERED(size_t, fwrite_unlocked, (const void *p, size_t size, size_t n, FILE *f),
    (p, size, n, f), ZERO_, fits(f, p, bytes(size, n)))

WRAP(int, fflush, (FILE *f), (f), EOF_)
WRAP(int, fflush_unlocked, (FILE *f), (f), EOF_)
WRAP(int, fclose, (FILE *f), (f), EOF_)

WRAP(struct dirent *, readdir, (DIR *d), (d), NULL_)
WRAP(struct dirent64 *, readdir64, (DIR *d), (d), NULL_)
WRAP(int, scandir, (const char *dir, struct dirent ***list,
    int (*sel)(const struct dirent *),
    int (*cmp)(const struct dirent **, const struct dirent **)), (dir, list, sel, cmp),
    ENOSYS_)
WRAP(int, scandir64, (const char *dir, struct dirent64 ***list,
    int (*sel)(const struct dirent64 *),
    int (*cmp)(const struct dirent64 **, const struct dirent64 **)),
    (dir, list, sel, cmp), ENOSYS_)
