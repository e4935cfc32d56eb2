/*
 * pltcheck FILE: the names src/elf/elfsym.c gives each address read from
 * standard input (hex, as objdump prints them) and the address 15 bytes
 * on (a 16-byte stub's last), one "ADDR NAME+0 NAME+15" line each, for
 * run.sh to compare with objdump's "<name@plt>" labels.  The
 * address is turned into the file offset a mapping would have, through
 * the PT_LOAD segment holding it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "elf/elfimg.h"
#include "elf/elfsym.h"

int
main(int argc, char **argv)
{
	struct elfimg img;
	struct elffile *f;
	unsigned long long va;

	if (argc != 2 || elfimg_open(&img, argv[1]) != 0 ||
	    (f = elffile_get(argv[1])) == NULL) {
		fprintf(stderr, "pltcheck: cannot read %s\n", argc == 2 ? argv[1] : "?");
		return 1;
	}
	while (scanf("%llx", &va) == 1) {
		printf("%llx", va);
		for (unsigned k = 0; k < 16; k += 15) {
			const char *name = NULL;
			uint64_t off = 0, a = va + k;

			for (size_t i = 0; i < img.nph; i++)
				if (img.ph[i].p_type == PT_LOAD && img.ph[i].p_vaddr <= a &&
				    a < img.ph[i].p_vaddr + img.ph[i].p_filesz)
					name = elffile_lookup(f, a - img.ph[i].p_vaddr +
					    img.ph[i].p_offset, &off);
			printf(" %s+%llu", name ? name : "(none)", (unsigned long long)off);
		}
		putchar('\n');
	}
	return 0;
}
