/*
 * elfsym.c: file offset to function name, from an ELF file's symbols.
 *
 * dladdr only sees dynamic symbols, so the static functions of an
 * executable linked without -rdynamic would stay addresses.  Instead, as
 * perf and uftrace do, read the symbol tables: a mapping's file offset
 * goes through the PT_LOAD segment holding it to the address the symbol
 * table uses (this covers PIE, shared objects and fixed executables
 * alike), and a binary search over the file's function symbols (.symtab,
 * else that of the debug file the build-id names, else .dynsym) finds
 * the name.  libtracerecord (selfsym.c) names its own process's
 * addresses so, trace-record --sample other processes'.
 *
 * Files are mapped once (elfimg.c) and kept for the life of the process:
 * names handed out point into the mappings and stay valid.  Only ELF64
 * of the host's byte order.  Failures just mean "no name".
 */
#include "elfsym.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfimg.h"

/* Out of -finstrument-functions: libtracerecord runs this code. */
#define NOINST	__attribute__((no_instrument_function))

struct sym {
	uint64_t	 addr, size;
	const char	*name;
	int		 rank;		/* among aliases, the highest is named */
};

struct elffile {
	char		*path;
	char		*owned;		/* elffile_parse's image */
	struct elfimg	 img, debug;	/* names point into one of them */
	struct sym	*syms;
	size_t		 nsyms;
	char		*plt;		/* the "name@plt" strings */
	int		 ok;
};

static struct elffile **files;
static size_t nfiles;

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

/* Add the function symbols of table tab of img to f. */
static NOINST int
add_syms(struct elffile *f, const struct elfimg *img, const Elf64_Shdr *tab)
{
	if (tab->sh_link >= img->nsh)
		return -1;
	const Elf64_Shdr *str = &img->sh[tab->sh_link];
	const char *strs = elfimg_data(img, str);

	if (strs == NULL)
		return -1;
	const Elf64_Sym *sy = elfimg_data(img, tab);
	size_t n = tab->sh_size / sizeof *sy;

	f->syms = malloc((n ? n : 1) * sizeof *f->syms);
	if (f->syms == NULL)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (ELF64_ST_TYPE(sy[i].st_info) != STT_FUNC || sy[i].st_value == 0 ||
		    sy[i].st_shndx == SHN_UNDEF || sy[i].st_name >= str->sh_size)
			continue;
		const char *name = strs + sy[i].st_name;

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
 * A stripped file's full symbol table, in its debug file (elfimg.h).
 * Mapped into f->debug; 0 when its symbols are f's.
 */
static NOINST int
debug_syms(struct elffile *f)
{
	const Elf64_Shdr *tab;

	if (elfimg_open_build_id(&f->debug, &f->img) != 0)
		return -1;
	if ((tab = elfimg_section_type(&f->debug, SHT_SYMTAB)) != NULL &&
	    add_syms(f, &f->debug, tab) == 0)
		return 0;
	elfimg_close(&f->debug);
	return -1;
}

/*
 * PLT stubs, named "name@plt" as perf names them: the stubs have no
 * symbols, but the i-th stub jumps through the GOT slot of the i-th
 * relocation of .rela.plt, whose symbol is the function called.  The
 * stubs are .plt.sec's when the file has one (x86-64 with IBT: .plt then
 * only holds the lazy-binding halves), else .plt's after its header.
 * Each is PLT_ENTRY bytes.  Relocations without a symbol (IRELATIVE)
 * take a stub and get no name.  Read with memcpy: a hostile file's
 * sections need not be aligned.
 */
#define PLT_ENTRY	16

static NOINST void
plt_syms(struct elffile *f)
{
	const struct elfimg *img = &f->img;
	const Elf64_Shdr *rel = elfimg_section_name(img, ".rela.plt"), *sec, *dsym, *dstr;
	const unsigned char *r, *sy;
	const char *str;
	uint64_t base, header;
	size_t n, k, used = 0, cap = 0;
	struct sym *v;

	if (img->eh->e_machine == EM_X86_64)
		header = 16;
	else if (img->eh->e_machine == EM_AARCH64)
		header = 32;
	else
		return;
	if ((sec = elfimg_section_name(img, ".plt.sec")) != NULL)
		header = 0;
	else if ((sec = elfimg_section_name(img, ".plt")) == NULL)
		return;
	if (rel == NULL || (r = elfimg_data(img, rel)) == NULL || rel->sh_link >= img->nsh)
		return;
	dsym = &img->sh[rel->sh_link];
	if (dsym->sh_link >= img->nsh)
		return;
	dstr = &img->sh[dsym->sh_link];
	if ((sy = elfimg_data(img, dsym)) == NULL || (str = elfimg_data(img, dstr)) == NULL)
		return;
	base = sec->sh_addr + header;
	n = rel->sh_size / sizeof(Elf64_Rela);
	if (sec->sh_size < header || n > (sec->sh_size - header) / PLT_ENTRY)
		n = (sec->sh_size - (sec->sh_size < header ? sec->sh_size : header)) / PLT_ENTRY;
	/* the names' bytes first, so that the strings never move */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < n; i++) {
			Elf64_Rela ra;
			Elf64_Sym es;
			uint64_t si;

			memcpy(&ra, r + i * sizeof ra, sizeof ra);
			si = ELF64_R_SYM(ra.r_info);
			if (si == 0 || si >= dsym->sh_size / sizeof es)
				continue;
			memcpy(&es, sy + si * sizeof es, sizeof es);
			if (es.st_name >= dstr->sh_size)
				continue;
			const char *nm = str + es.st_name;
			const char *nul = memchr(nm, '\0', dstr->sh_size - es.st_name);

			if (nul == NULL || nul == nm)
				continue;
			k = (size_t)(nul - nm);
			if (pass == 0) {
				cap += k + 5;
				continue;
			}
			memcpy(f->plt + used, nm, k);
			memcpy(f->plt + used + k, "@plt", 5);
			f->syms[f->nsyms].addr = base + i * PLT_ENTRY;
			f->syms[f->nsyms].size = PLT_ENTRY;
			f->syms[f->nsyms].name = f->plt + used;
			f->syms[f->nsyms].rank = 0;
			f->nsyms++;
			used += k + 5;
		}
		if (pass == 0) {
			if (cap == 0 || (f->plt = malloc(cap)) == NULL)
				return;
			if ((v = realloc(f->syms, (f->nsyms + n) * sizeof *v)) == NULL) {
				free(f->plt);
				f->plt = NULL;
				return;
			}
			f->syms = v;
		}
	}
	qsort(f->syms, f->nsyms, sizeof *f->syms, by_addr);
}

/* The function symbols of f->img, checked already. */
static NOINST void
syms_load(struct elffile *f)
{
	const Elf64_Shdr *tab = elfimg_section_type(&f->img, SHT_SYMTAB);

	if (tab == NULL && debug_syms(f) == 0) {
		f->ok = 1;
	} else {
		if (tab == NULL)
			tab = elfimg_section_type(&f->img, SHT_DYNSYM);
		if (tab && add_syms(f, &f->img, tab) == 0)
			f->ok = 1;
	}
	if (f->ok)
		plt_syms(f);
}

NOINST struct elffile *
elffile_parse(char *p, size_t len)
{
	struct elffile *f = calloc(1, sizeof *f);

	if (f == NULL) {
		free(p);
		return NULL;
	}
	f->owned = p;
	if (elfimg_init(&f->img, p, len) == 0)
		syms_load(f);
	return f;
}

NOINST void
elffile_free(struct elffile *f)
{
	if (f == NULL)
		return;
	elfimg_close(&f->img);
	elfimg_close(&f->debug);
	free(f->owned);
	free(f->syms);
	free(f->plt);
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
	if (elfimg_open(&f->img, path) == 0)
		syms_load(f);
	return f;
}

NOINST const char *
elffile_lookup(const struct elffile *f, uint64_t off, uint64_t *symoff)
{
	const Elf64_Phdr *ph;
	uint64_t va = 0;
	size_t i, lo, hi;
	int found = 0;

	if (f == NULL || !f->ok)
		return NULL;
	for (i = 0, ph = f->img.ph; i < f->img.nph; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset <= off &&
		    off < ph[i].p_offset + ph[i].p_filesz) {
			va = ph[i].p_vaddr + (off - ph[i].p_offset);
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
