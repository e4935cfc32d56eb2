/*
 * elfsym.c: address to function name, for -finstrument-functions spans.
 *
 * dladdr only sees dynamic symbols, so the static functions of an
 * executable linked without -rdynamic would stay addresses.  Instead, as
 * perf and uftrace do, read the symbol tables of the files mapped into
 * the process: /proc/self/maps gives each mapping's file and offset; an
 * address becomes a file offset, the PT_LOAD segment holding that offset
 * turns it into the address the symbol table uses (this covers PIE,
 * shared objects and fixed executables alike), and a binary search over
 * the file's function symbols (.symtab, else .dynsym) finds the name.
 *
 * elffile_get and elffile_lookup are the file half, which trace-record
 * --sample uses for other processes' addresses.
 *
 * Files are read once, with plain reads into memory the process keeps:
 * names handed out stay valid.  Only ELF64 of the host's byte order.
 * Maps are reread when an address falls outside every known mapping
 * (a library loaded later).  Failures just mean "no name".
 */
#include "elfsym.h"

#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NOINST	__attribute__((no_instrument_function))

struct sym {
	uint64_t	 addr, size;
	const char	*name;
	int		 rank;		/* among aliases, the highest is named */
};

struct elffile {
	char		*path;
	char		*image, *debug;	/* the files read; names point into them */
	struct sym	*syms;
	size_t		 nsyms;
	Elf64_Phdr	*ph;
	size_t		 nph;
	int		 ok;
};

struct map {
	uint64_t	 start, end, off;
	struct elffile	*file;
};

static struct elffile **files;
static size_t nfiles;
static struct map *maps;
static size_t nmaps;

static NOINST char *
slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	char *p = NULL;
	size_t got = 0;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && (p = malloc((size_t)st.st_size)) != NULL)
		while (got < (size_t)st.st_size) {
			ssize_t r = read(fd, p + got, (size_t)st.st_size - got);

			if (r <= 0)
				break;
			got += (size_t)r;
		}
	close(fd);
	if (p && got != (size_t)st.st_size) {
		free(p);
		return NULL;
	}
	*len = got;
	return p;
}

/*
 * Which of several names for one address to show, as perf chooses: one
 * with a size, then not weak, then global, then fewer leading
 * underscores ("malloc", not "__libc_malloc"), then the longer name.
 */
static NOINST int
rank(const Elf64_Sym *s, const char *name)
{
	int r = 0, u = 0;

	while (name[u] == '_' && u < 15)
		u++;
	r += s->st_size ? 1 << 12 : 0;
	r += ELF64_ST_BIND(s->st_info) != STB_WEAK ? 1 << 11 : 0;
	r += ELF64_ST_BIND(s->st_info) == STB_GLOBAL ? 1 << 10 : 0;
	r += (15 - u) << 6;
	return r;
}

/* By address; at one address the best name last, where lookups land. */
static NOINST int
by_addr(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	size_t nx = strlen(x->name), ny = strlen(y->name);

	if (nx != ny)
		return nx < ny ? -1 : 1;
	return strcmp(x->name, y->name);
}

static NOINST const Elf64_Ehdr *
elf_check(const char *p, size_t len)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)p;

	if (p == NULL || len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    eh->e_shoff > len || eh->e_shnum > (len - eh->e_shoff) / sizeof(Elf64_Shdr) ||
	    eh->e_phoff > len || eh->e_phnum > (len - eh->e_phoff) / sizeof(Elf64_Phdr) ||
	    eh->e_shoff % 8 || eh->e_phoff % 8)
		return NULL;
	return eh;
}

/* The section of this type, or NULL; bounds checked. */
static NOINST const Elf64_Shdr *
section(const char *p, size_t len, uint32_t type)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)p;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(p + eh->e_shoff);

	for (size_t i = 0; i < eh->e_shnum; i++)
		if (sh[i].sh_type == type && sh[i].sh_offset <= len &&
		    sh[i].sh_size <= len - sh[i].sh_offset && sh[i].sh_offset % 8 == 0)
			return &sh[i];
	return NULL;
}

/* Add the function symbols of table tab of the ELF image p to f. */
static NOINST int
add_syms(struct elffile *f, const char *p, size_t len, const Elf64_Shdr *tab)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)p;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(p + eh->e_shoff);

	if (tab->sh_link >= eh->e_shnum)
		return -1;
	const Elf64_Shdr *str = &sh[tab->sh_link];

	if (str->sh_offset > len || str->sh_size > len - str->sh_offset)
		return -1;
	const Elf64_Sym *sy = (const Elf64_Sym *)(p + tab->sh_offset);
	size_t n = tab->sh_size / sizeof *sy;

	f->syms = malloc((n ? n : 1) * sizeof *f->syms);
	if (f->syms == NULL)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (ELF64_ST_TYPE(sy[i].st_info) != STT_FUNC || sy[i].st_value == 0 ||
		    sy[i].st_shndx == SHN_UNDEF || sy[i].st_name >= str->sh_size)
			continue;
		const char *name = p + str->sh_offset + sy[i].st_name;

		if (memchr(name, '\0', str->sh_size - sy[i].st_name) == NULL)
			continue;
		f->syms[f->nsyms].addr = sy[i].st_value;
		f->syms[f->nsyms].size = sy[i].st_size;
		f->syms[f->nsyms].name = name;
		f->syms[f->nsyms].rank = rank(&sy[i], name);
		f->nsyms++;
	}
	qsort(f->syms, f->nsyms, sizeof *f->syms, by_addr);
	return 0;
}

/*
 * A stripped file's full symbol table, where distributions put it:
 * /usr/lib/debug/.build-id/xx/yyyy.debug, named by the build-id note.
 * The debug file's sections are empty but for symbols and debug data;
 * its addresses are the stripped file's.
 */
static NOINST char *
debug_file(const char *p, size_t len, size_t *dlen)
{
	const Elf64_Shdr *nt = section(p, len, SHT_NOTE);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)p;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(p + eh->e_shoff);

	for (size_t i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_NOTE || sh[i].sh_offset > len ||
		    sh[i].sh_size > len - sh[i].sh_offset)
			continue;
		nt = &sh[i];
		const unsigned char *q = (const unsigned char *)p + nt->sh_offset;
		const unsigned char *e = q + nt->sh_size;

		while ((size_t)(e - q) >= sizeof(Elf64_Nhdr)) {
			Elf64_Nhdr note;
			const Elf64_Nhdr *nh = &note;

			memcpy(&note, q, sizeof note);
			size_t nsz = (nh->n_namesz + 3) & ~3u, dsz = (nh->n_descsz + 3) & ~3u;

			q += sizeof note;
			if (nsz > (size_t)(e - q) || dsz > (size_t)(e - q - nsz))
				break;
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    memcmp(q, "GNU", 4) == 0 && nh->n_descsz >= 2 &&
			    nh->n_descsz <= 64) {
				char path[200];
				const unsigned char *id = q + nsz;
				int k = snprintf(path, sizeof path,
				    "/usr/lib/debug/.build-id/%02x/", id[0]);

				for (size_t j = 1; j < nh->n_descsz; j++)
					k += snprintf(path + k, sizeof path - (size_t)k, "%02x",
					    id[j]);
				snprintf(path + k, sizeof path - (size_t)k, ".debug");
				return slurp(path, dlen);
			}
			q += nsz + dsz;
		}
	}
	return NULL;
}

/* The function symbols and load segments of the ELF image p (taken). */
static NOINST void
image_load(struct elffile *f, char *p, size_t len)
{
	size_t dlen;
	char *d;
	const Elf64_Ehdr *eh = elf_check(p, len);
	const Elf64_Shdr *tab;

	f->image = p;
	if (eh == NULL)
		return;
	f->ph = malloc((eh->e_phnum ? eh->e_phnum : 1) * sizeof *f->ph);
	if (f->ph == NULL)
		return;
	memcpy(f->ph, p + eh->e_phoff, eh->e_phnum * sizeof *f->ph);
	f->nph = eh->e_phnum;
	if ((tab = section(p, len, SHT_SYMTAB)) == NULL &&
	    (d = debug_file(p, len, &dlen)) != NULL) {
		f->debug = d;
		if (elf_check(d, dlen) && (tab = section(d, dlen, SHT_SYMTAB)) != NULL &&
		    add_syms(f, d, dlen, tab) == 0) {
			f->ok = 1;
			return;
		}
		tab = NULL;
	}
	if (tab == NULL)
		tab = section(p, len, SHT_DYNSYM);
	if (tab && add_syms(f, p, len, tab) == 0)
		f->ok = 1;
}

static NOINST void
file_load(struct elffile *f)
{
	size_t len = 0;
	char *p = slurp(f->path, &len);

	image_load(f, p, len);
}

NOINST struct elffile *
elffile_parse(char *p, size_t len)
{
	struct elffile *f = calloc(1, sizeof *f);

	if (f == NULL) {
		free(p);
		return NULL;
	}
	image_load(f, p, len);
	return f;
}

NOINST void
elffile_free(struct elffile *f)
{
	if (f == NULL)
		return;
	free(f->image);
	free(f->debug);
	free(f->syms);
	free(f->ph);
	free(f->path);
	free(f);
}

NOINST struct elffile *
elffile_get(const char *path)
{
	size_t i;
	struct elffile *f, **nf;

	for (i = 0; i < nfiles; i++)
		if (strcmp(files[i]->path, path) == 0)
			return files[i];
	if ((f = calloc(1, sizeof *f)) == NULL || (f->path = strdup(path)) == NULL ||
	    (nf = realloc(files, (nfiles + 1) * sizeof *files)) == NULL) {
		free(f);
		return NULL;
	}
	files = nf;
	files[nfiles++] = f;
	file_load(f);
	return f;
}

static NOINST void
maps_read(void)
{
	FILE *fp = fopen("/proc/self/maps", "re");
	char line[4096 + 256], perm[8], path[4096];
	unsigned long long start, end, off;

	free(maps);
	maps = NULL;
	nmaps = 0;
	if (fp == NULL)
		return;
	while (fgets(line, sizeof line, fp)) {
		struct map *nm;

		path[0] = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095[^\n]", &start, &end,
		    perm, &off, path) < 4 || perm[2] != 'x' || path[0] != '/')
			continue;
		if ((nm = realloc(maps, (nmaps + 1) * sizeof *maps)) == NULL)
			break;
		maps = nm;
		maps[nmaps].start = start;
		maps[nmaps].end = end;
		maps[nmaps].off = off;
		maps[nmaps].file = elffile_get(path);
		nmaps++;
	}
	fclose(fp);
}

static NOINST const struct map *
map_find(uint64_t a)
{
	size_t i;

	for (i = 0; i < nmaps; i++)
		if (maps[i].start <= a && a < maps[i].end)
			return &maps[i];
	return NULL;
}

NOINST const char *
elffile_lookup(const struct elffile *f, uint64_t off, uint64_t *symoff)
{
	uint64_t va = 0;
	size_t i, lo, hi;
	int found = 0;

	if (f == NULL || !f->ok)
		return NULL;
	for (i = 0; i < f->nph; i++)
		if (f->ph[i].p_type == PT_LOAD && f->ph[i].p_offset <= off &&
		    off < f->ph[i].p_offset + f->ph[i].p_filesz) {
			va = f->ph[i].p_vaddr + (off - f->ph[i].p_offset);
			found = 1;
			break;
		}
	if (!found)
		return NULL;
	/* The last symbol at or before va. */
	lo = 0;
	hi = f->nsyms;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (f->syms[mid].addr <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	const struct sym *s = &f->syms[lo - 1];

	if (va >= s->addr + (s->size ? s->size : 1))
		return NULL;
	*symoff = va - s->addr;
	return s->name;
}

const char *
elfsym_lookup(uintptr_t addr)
{
	const struct map *m = map_find(addr);
	uint64_t symoff;

	if (m == NULL) {
		maps_read();
		m = map_find(addr);
	}
	if (m == NULL)
		return NULL;
	return elffile_lookup(m->file, addr - m->start + m->off, &symoff);
}
