/*
 * Replays fuzz inputs through a fuzz target without a fuzzer, so that
 * `make test` catches regressions on the saved corpus (and any crash the
 * fuzzer found, once its input is added there).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL;
		size_t n = 0, cap = 0, r;

		if (f == NULL) {
			perror(argv[i]);
			return 1;
		}
		do {
			if (n == cap) {
				cap = cap ? cap * 2 : 65536;
				if ((buf = realloc(buf, cap)) == NULL)
					return 1;
			}
			r = fread(buf + n, 1, cap - n, f);
			n += r;
		} while (r > 0);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
		free(buf);
	}
	return 0;
}
