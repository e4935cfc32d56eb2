/*
 * Fuzz target for the ELF reader trace-record --sample and
 * -finstrument-functions names addresses with (src/elf/elfsym.c): the input is
 * an ELF image (section and program headers, symbol and string tables,
 * notes), then every eighth offset up to its size is looked up, as
 * sampled addresses would be.
 *
 *   make fuzz && build/fuzz/fuzz_elfsym tests/fuzz/corpus/elfsym
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "elf/elfsym.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *p = malloc(size ? size : 1);
	struct elffile *f;
	uint64_t off, symoff;
	volatile size_t sink = 0;

	if (p == NULL)
		return 0;
	memcpy(p, data, size);
	if ((f = elffile_parse(p, size)) == NULL)
		return 0;
	for (off = 0; off < size + 64; off += 8) {
		const char *name = elffile_lookup(f, off, &symoff);

		if (name)
			sink += strlen(name) + symoff;
	}
	elffile_free(f);
	return 0;
}
