/*
 * elfimg.h: an ELF file's headers and sections, for the readers built on
 * it (elfsym.c's symbols; the unwinder's .eh_frame, .eh_frame_hdr and
 * .debug_frame).
 *
 * An elfimg is a view of one image: a file mapped read-only (shared
 * page cache, not a copy in the process's heap: libtracerecord runs
 * inside traced programs), or bytes the caller holds.  elfimg_init
 * checks the ELF header once and the section and program header tables
 * lie inside the image; every accessor then bounds-checks what it hands
 * out, so a truncated or hostile file gives "not there", never a read
 * outside the image.  Only ELF64 of the host's byte order.
 *
 * Why a folder of its own, not src/lib: both sides link it, trace-record
 * and libtracerecord, which runs inside traced programs.  The library
 * must never exit or print for them, while libft's helpers die on
 * failure (xmalloc, err.c), and libft is built without -fPIC.  So
 * src/elf uses libc alone, reports failure as "not there", and is built
 * once, position-independent, for both (Makefile: uses_trace-record).
 * Named elfimg, not elf: traced programs may link libelf, whose
 * namespace elf_ is.
 */
#ifndef FT_ELFIMG_H
#define FT_ELFIMG_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

struct elfimg {
	const unsigned char	*base;	/* the image's first byte */
	size_t			 len;
	const Elf64_Ehdr	*eh;
	const Elf64_Shdr	*sh;	/* e_shnum entries, inside the image */
	const Elf64_Phdr	*ph;	/* e_phnum entries, inside the image */
	size_t			 nsh, nph;
	int			 mapped;	/* elfimg_close unmaps base */
	int			 guard;		/* the guard's handle, or -1 */
};

/*
 * Map the regular file at path and check it as elfimg_init does.
 * Returns 0, or -1 (nothing to close) when it cannot be opened or
 * mapped or is not an ELF64 file.  A file truncated while mapped
 * faults on access, as under every mmap-based reader (perf, libelf),
 * unless a guard is set.
 */
int			 elfimg_open(struct elfimg *img, const char *path);

/*
 * Guards for what elfimg_open maps, set by a program that must outlive a
 * file truncated while it reads it (trace-record, with src/lib's
 * busguard: the lost pages read as zeros, which the readers take as a
 * damaged file): add is told of each mapping and its path and returns a
 * handle (-1: none), del is given it before the unmap.  Not set by
 * libtracerecord or the preloaded sampler, which live in other programs:
 * no signal handler is installed here.
 */
void			 elfimg_set_guard(int (*add)(const void *p, size_t len,
			    const char *path), void (*del)(int handle));

/*
 * A view of the image p[0..len) (not copied: it must outlive img).
 * Returns 0, or -1 when it is not ELF64 of the host's byte order with
 * aligned header tables inside it.
 */
int			 elfimg_init(struct elfimg *img, const void *p, size_t len);

/* Unmap what elfimg_open mapped; nothing for elfimg_init's views. */
void			 elfimg_close(struct elfimg *img);

/*
 * The first section of this type whose data lies inside the image at
 * an 8-byte-aligned offset (symbol tables are read in place), or NULL.
 */
const Elf64_Shdr	*elfimg_section_type(const struct elfimg *img, uint32_t type);

/* The section called name (".eh_frame"), data inside the image, or NULL. */
const Elf64_Shdr	*elfimg_section_name(const struct elfimg *img, const char *name);

/* The data of section s (of img), or NULL when it is not in the file. */
const void		*elfimg_data(const struct elfimg *img, const Elf64_Shdr *s);

/*
 * The GNU build-id (2 to 64 bytes, from the first SHT_NOTE section
 * holding one): its length, and *id pointing into the image; 0 if none.
 */
size_t			 elfimg_build_id(const struct elfimg *img,
			    const unsigned char **id);

/*
 * Map img's separate debug file, where distributions put it:
 * /usr/lib/debug/.build-id/xx/yyyy.debug, named by the build-id note.
 * Its sections are empty but for symbols and debug data (.symtab,
 * .debug_frame); its addresses are img's.  0, or -1 when there is none.
 */
int			 elfimg_open_build_id(struct elfimg *debug,
			    const struct elfimg *img);

/*
 * The file name .gnu_debuglink names (a NUL-terminated string in the
 * image) and its CRC-32 in *crc, or NULL.
 */
const char		*elfimg_debuglink(const struct elfimg *img, uint32_t *crc);

#endif
