/*
 * jspack: a build tool.  Reads a script's body as jsmin.awk writes it and
 * writes a C header with it as strings named after argv[1]:
 *
 *   NAME     the script to embed as it is: the body as a function of me
 *            (its <script>) and J (the data's JSON, undefined here: the
 *            body reads it from the page), run at once; then the <svg>
 *            gets data-ready, which tests wait for.
 *   NAME_z   with -z and a build with zlib: the body packed (pack.h), for
 *            svg.c's loader to unpack and run; NAME_Z is defined then.
 *
 *   awk -f jsmin.awk ui.js flame.js | jspack -z flame_js > flame_js.h
 *
 * Built and run on the build machine, with pack.c and zlib when the
 * Makefile found it; without zlib there is no NAME_z, and the script is
 * embedded as it is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../pack.h"

/* s[0..n) as C string literals, a line of source each. */
static void
cstring(const char *s, size_t n)
{
	size_t i, col = 0;

	putchar('"');
	for (i = 0; i < n; i++) {
		/* '?' too: "??(" would be a trigraph under -std=c11 */
		if (s[i] == '\\' || s[i] == '"' || s[i] == '?')
			putchar('\\');
		if (s[i] == '\n')
			fputs("\\n\"\n\"", stdout);
		else
			putchar(s[i]);
		/* packed text has no newline: break it for the compiler */
		if (s[i] != '\n' && ++col >= 4000) {
			fputs("\"\n\"", stdout);
			col = 0;
		} else if (s[i] == '\n')
			col = 0;
	}
	puts("\"");
}

int
main(int argc, char **argv)
{
	const char *pre = "(function(me,J){", *post =
	    "})(document.currentScript);"
	    "document.currentScript.parentNode.setAttribute(\"data-ready\",\"\")\n";
	char *body = NULL, *all, *z;
	size_t n = 0, cap = 0, r, zn;
	int compress = argc > 2 && strcmp(argv[1], "-z") == 0;
	const char *name = argv[argc - 1];

	if (argc < 2 || argc > 3) {
		fputs("usage: jspack [-z] NAME < body.js > NAME.h\n", stderr);
		return 2;
	}
	do {
		if (n + 4096 > cap && !(body = realloc(body, cap = 2 * cap + 4096)))
			return 1;
		r = fread(body + n, 1, cap - n, stdin);
		n += r;
	} while (r > 0);
	if (!(all = malloc(strlen(pre) + n + strlen(post) + 1)))
		return 1;
	memcpy(all, pre, strlen(pre));
	memcpy(all + strlen(pre), body, n);
	strcpy(all + strlen(pre) + n, post);
	printf("static const char %s[] =\n", name);
	cstring(all, strlen(all));
	puts(";");
	if (compress && (z = pack(body, n, &zn)) != NULL) {
		printf("#define %s_Z 1\nstatic const char %s_z[] =\n", name, name);
		cstring(z, zn);
		puts(";");
		free(z);
	}
	free(all);
	free(body);
	return ferror(stdout) || fclose(stdout) ? 1 : 0;
}
