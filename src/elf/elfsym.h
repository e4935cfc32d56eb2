/*
 * elfsym.h: function names for file offsets of ELF files, from their
 * symbol tables (elfimg.h reads the sections).
 */
#ifndef FT_ELFSYM_H
#define FT_ELFSYM_H

#include <stddef.h>
#include <stdint.h>

struct elffile;

/*
 * The symbols of the ELF file at path, read once and kept for the life
 * of the process; NULL only when out of memory (a file that cannot be
 * read simply has no symbols).  Not thread-safe.
 */
struct elffile	*elffile_get(const char *path);

/* The same for an image in memory (taken: freed with the result). */
struct elffile	*elffile_parse(char *image, size_t len);
void		 elffile_free(struct elffile *f);

/*
 * The function holding the byte at file offset off of f (as a mapping
 * with that offset puts it in memory), or NULL; *symoff is then off's
 * distance from the function's start.  The name lives as long as f.
 */
const char	*elffile_lookup(const struct elffile *f, uint64_t off,
		    uint64_t *symoff);

#endif
