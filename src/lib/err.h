/*
 * err: the one error grammar of flametools.
 *
 * Every message goes to stderr as "prog: what" or "prog: file:line: what",
 * lowercase, no full stop.  A format ending in ':' gets ": strerror(errno)"
 * appended, as git's usage.c and sbase's eprintf.c do.  Allocation failure
 * is fatal here so that call sites carry no NULL checks.
 *
 * Exit status convention, shared by every program:
 *   0 success, 1 bad input or I/O error, 2 usage error.
 */
#ifndef FT_ERR_H
#define FT_ERR_H

#include <stddef.h>
#include <stdnoreturn.h>

/* printf-style checking where the compiler has it (gcc, clang). */
#if defined(__GNUC__)
#define PRINTFLIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTFLIKE(f, a)
#endif

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

/* Set the program name used as the message prefix (basename of argv0). */
void err_init(const char *argv0);

/*
 * The status die(EXIT_INPUT, ...) exits with (out of memory, a write
 * error): trace-record's is not 1, which belongs to the program it runs.
 */
void err_input_status(int status);

/* "prog: msg" on stderr. */
void warn_msg(const char *fmt, ...) PRINTFLIKE(1, 2);
/* "prog: file:line: msg" on stderr; line 0 prints "prog: file: msg". */
void warn_at(const char *file, unsigned long long line, const char *fmt, ...)
	PRINTFLIKE(3, 4);
/* warn_msg, then exit(status). */
noreturn void die(int status, const char *fmt, ...)
	PRINTFLIKE(2, 3);

/*
 * Copy at most max bytes of s into a static-free caller buffer as a quoted,
 * printable string: control bytes and bytes >= 0x7f become \xHH, quotes and
 * backslashes are escaped, and a cut string ends in "...".  buf must hold
 * 4 * max + 8 bytes.  Returns buf.
 */
char *err_quote(char *buf, const char *s, size_t len, size_t max);

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
/*
 * A hash table's slots, zeroed by writing them now: calloc's fresh pages
 * stay the shared zero page until written, so slots probed before they
 * are filled fault twice, the second time a copy-on-write that shoots
 * down the TLB of every CPU the process runs on (stackcollapse's threads).
 */
void *xzalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* Grow an array so that it holds at least need elements of size sz. */
void *xgrow(void *p, size_t *cap, size_t need, size_t sz);

#endif
