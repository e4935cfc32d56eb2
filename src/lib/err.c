/*
 * err: see err.h.  Messages are formatted into one buffer and written with
 * a single fputs so that lines from concurrent threads never interleave
 * mid-line.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

static const char *prog = "flametools";

void
err_init(const char *argv0)
{
	const char *p;

	if (argv0 == NULL || *argv0 == '\0')
		return;
	p = strrchr(argv0, '/');
	prog = p ? p + 1 : argv0;
}

static void vmsg(const char *, unsigned long long, const char *, va_list)
	PRINTFLIKE(3, 0);

static void
vmsg(const char *file, unsigned long long line, const char *fmt, va_list ap)
{
	char buf[4096];
	size_t n = 0, flen;
	int saved = errno, r;

	if (file && line)
		r = snprintf(buf, sizeof buf, "%s: %s:%llu: ", prog, file, line);
	else if (file)
		r = snprintf(buf, sizeof buf, "%s: %s: ", prog, file);
	else
		r = snprintf(buf, sizeof buf, "%s: ", prog);
	if (r > 0)
		n = (size_t)r < sizeof buf ? (size_t)r : sizeof buf - 1;
	r = vsnprintf(buf + n, sizeof buf - n, fmt, ap);
	if (r > 0)
		n += (size_t)r < sizeof buf - n ? (size_t)r : sizeof buf - n - 1;
	flen = strlen(fmt);
	if (flen && fmt[flen - 1] == ':' && n < sizeof buf - 1) {
		r = snprintf(buf + n, sizeof buf - n, " %s", strerror(saved));
		if (r > 0)
			n += (size_t)r < sizeof buf - n ? (size_t)r : sizeof buf - n - 1;
	}
	if (n > sizeof buf - 2)
		n = sizeof buf - 2;
	buf[n++] = '\n';
	buf[n] = '\0';
	fputs(buf, stderr);
}

void
warn_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(NULL, 0, fmt, ap);
	va_end(ap);
}

void
warn_at(const char *file, unsigned long long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(file ? file : "-", line, fmt, ap);
	va_end(ap);
}

static int input_status = EXIT_INPUT;

void
err_input_status(int status)
{
	input_status = status;
}

void
die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(NULL, 0, fmt, ap);
	va_end(ap);
	exit(status == EXIT_INPUT ? input_status : status);
}

char *
err_quote(char *buf, const char *s, size_t len, size_t max)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, n = 0;

	buf[n++] = '"';
	for (i = 0; i < len && i < max; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\') {
			buf[n++] = '\\';
			buf[n++] = (char)c;
		} else if (c < 0x20 || c >= 0x7f) {
			buf[n++] = '\\';
			buf[n++] = 'x';
			buf[n++] = hex[c >> 4];
			buf[n++] = hex[c & 15];
		} else {
			buf[n++] = (char)c;
		}
	}
	buf[n++] = '"';
	if (len > max) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
	return buf;
}

static void *
nomem(void)
{
	die(EXIT_INPUT, "out of memory");
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	return p ? p : nomem();
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	return p ? p : nomem();
}

void *
xzalloc(size_t n, size_t size)
{
	void *p;

	if (size != 0 && n > SIZE_MAX / size)
		return nomem();
	p = xmalloc(n * size);
	memset(p, 0, n * size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	return p ? p : nomem();
}

void *
xgrow(void *p, size_t *cap, size_t need, size_t sz)
{
	size_t c = *cap ? *cap : 16;

	if (need <= *cap)
		return p;
	while (c < need) {
		if (c > ((size_t)-1) / 2 / sz)
			return nomem();
		c *= 2;
	}
	*cap = c;
	return xrealloc(p, c * sz);
}
