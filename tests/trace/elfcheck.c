/*
 * elfcheck FILE: what src/elf/elfimg.c finds in FILE, in the words
 * readelf uses, for run.sh to compare with readelf's own reading: each
 * section the unwinder and the symbol reader ask for by name, with its
 * type, file offset and size; the build-id; the debuglink.
 */
#include <stdio.h>

#include "elf/elfimg.h"

int
main(int argc, char **argv)
{
	static const char *const names[] = {
		".eh_frame", ".eh_frame_hdr", ".debug_frame", ".symtab", ".dynsym",
		".gnu_debuglink",
	};
	struct elfimg img;
	const unsigned char *id;
	const char *link;
	uint32_t crc;
	size_t n;

	if (argc != 2 || elfimg_open(&img, argv[1]) != 0) {
		fprintf(stderr, "elfcheck: cannot read %s\n", argc == 2 ? argv[1] : "?");
		return 1;
	}
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		const Elf64_Shdr *s = elfimg_section_name(&img, names[i]);

		if (s)
			printf("%s %u %llx %llx\n", names[i], s->sh_type,
			    (unsigned long long)s->sh_offset, (unsigned long long)s->sh_size);
	}
	if ((n = elfimg_build_id(&img, &id)) > 0) {
		printf("build-id ");
		for (size_t i = 0; i < n; i++)
			printf("%02x", id[i]);
		printf("\n");
	}
	if ((link = elfimg_debuglink(&img, &crc)) != NULL)
		printf("debuglink %s %08x\n", link, (unsigned)crc);
	elfimg_close(&img);
	return 0;
}
