/*
 * guard.h: the ELF files trace-record maps, kept from killing it when one
 * is truncated while mapped.
 */
#ifndef TR_GUARD_H
#define TR_GUARD_H

/* Guard every file src/elf maps from now on. */
void	guard_files(void);

/* Say on stderr each file truncated under its mapping, once. */
void	guard_files_said(void);

#endif
