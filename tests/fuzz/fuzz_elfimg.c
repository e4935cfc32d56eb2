/*
 * Fuzz target for the ELF section layer (src/elf/elfimg.c), which the
 * symbol reader and the unwinder read sections through: the input is an
 * ELF image; every section is looked up by its type and by the names the
 * readers ask for, its data taken, and the build-id and debuglink read.
 *
 *   make fuzz && build/fuzz/fuzz_elfimg tests/fuzz/corpus/elfimg
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "elf/elfimg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Touch both ends of s's data, so a bad bound is a read out of the image. */
static size_t
touch(const struct elfimg *img, const Elf64_Shdr *s)
{
	const unsigned char *d = elfimg_data(img, s);

	return d && s->sh_size ? d[0] + d[s->sh_size - 1] : 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {
		".eh_frame", ".eh_frame_hdr", ".debug_frame", ".symtab", ".dynsym",
		".strtab", ".text", ".gnu_debuglink", "", ".no such section",
	};
	/* A heap copy: aligned as a mapping or malloc'd image would be. */
	char *p = malloc(size ? size : 1);
	struct elfimg img;
	const unsigned char *id;
	const char *link;
	uint32_t crc;
	volatile size_t sink = 0;

	if (p == NULL)
		return 0;
	memcpy(p, data, size);
	if (elfimg_init(&img, p, size) == 0) {
		for (size_t i = 0; i < img.nsh; i++) {
			sink += touch(&img, elfimg_section_type(&img, img.sh[i].sh_type));
			sink += touch(&img, &img.sh[i]);
		}
		for (size_t i = 0; i < sizeof names / sizeof *names; i++)
			sink += touch(&img, elfimg_section_name(&img, names[i]));
		for (size_t n = elfimg_build_id(&img, &id); n > 0; n--)
			sink += id[n - 1];
		if ((link = elfimg_debuglink(&img, &crc)) != NULL)
			sink += strlen(link) + crc;
		elfimg_close(&img);
	}
	free(p);
	return 0;
}
