/*
 * elfsym.h: function names for addresses in this process, from the ELF
 * symbol tables of the files mapped into it.
 */
#ifndef TR_ELFSYM_H
#define TR_ELFSYM_H

#include <stddef.h>
#include <stdint.h>

struct elffile;

/*
 * The symbols of the ELF file at path, read once and kept for the life
 * of the process; NULL only when out of memory (a file that cannot be
 * read simply has no symbols).
 */
struct elffile	*elffile_get(const char *path);

/* The same for an image in memory (taken: freed with the result). */
struct elffile	*elffile_parse(char *image, size_t len);
void		 elffile_free(struct elffile *f);

/*
 * The function holding the byte at file offset off of f (as a mapping
 * with that offset puts it in memory), or NULL; *symoff is then off's
 * distance from the function's start.
 */
const char	*elffile_lookup(const struct elffile *f, uint64_t off,
		    uint64_t *symoff);

/*
 * The name of the function at addr, or NULL.  The string lives as long
 * as the process.  Not async-signal-safe; not thread-safe (the writer
 * thread is its only caller).
 */
const char	*elfsym_lookup(uintptr_t addr);

#endif
