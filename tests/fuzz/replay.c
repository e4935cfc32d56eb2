/*
 * Replays fuzz inputs through a fuzz target without a fuzzer, so that
 * `make test` catches regressions on the saved corpus (and any crash the
 * fuzzer found, once its input is added there).  Each input is handed over
 * in a heap block of exactly its size, as libFuzzer does, so that
 * AddressSanitizer sees a read one byte past its end.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL, *exact;
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
		if ((exact = malloc(n ? n : 1)) == NULL)
			return 1;
		memcpy(exact, buf, n);
		free(buf);
		LLVMFuzzerTestOneInput(exact, n);
		free(exact);
	}
	return 0;
}
