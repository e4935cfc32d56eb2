/*
 * jspack: a build tool.  Reads a script's body as jsmin.awk writes it and
 * writes a C header with it as strings named after argv[1]:
 *
 *   NAME       the script to embed as it is: the body as a function of
 *              me (its <script>) and J (the data's JSON, undefined here:
 *              the body reads it from the page), run at once; then the
 *              <svg> gets data-ready, which tests wait for.
 *   NAME_body  with -b: the body alone, which svg.c packs with the data
 *              (pack.h) for its loader, which runs it as that function.
 *
 *   awk -f jsmin.awk ui.js flame.js | jspack -b flame_js > flame_js.h
 *
 * Built and run on the build machine; C, not awk, for the quoting (awks
 * differ on backslashes) and the lines a compiler takes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	char *body = NULL, *all;
	size_t n = 0, cap = 0, r;
	int alone = argc > 2 && strcmp(argv[1], "-b") == 0;
	const char *name = argv[argc - 1];

	if (argc < 2 || argc > 3 || (argc == 3 && !alone)) {
		fputs("usage: jspack [-b] NAME < body.js > NAME.h\n", stderr);
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
	if (alone) {
		printf("static const char %s_body[] =\n", name);
		cstring(body, n);
		puts(";");
	}
	free(all);
	free(body);
	return ferror(stdout) || fclose(stdout) ? 1 : 0;
}
