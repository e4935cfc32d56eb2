/*
 * elfimg: see elfimg.h for the design note.
 *
 * Every function is kept out of -finstrument-functions (NOINST): it runs
 * inside libtracerecord, where an instrumented call would record itself.
 */
#include "elfimg.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define NOINST	__attribute__((no_instrument_function))

static int (*guard_add)(const void *, size_t, const char *);
static void (*guard_del)(int);

NOINST void
elfimg_set_guard(int (*add)(const void *p, size_t len, const char *path),
    void (*del)(int handle))
{
	guard_add = add;
	guard_del = del;
}

NOINST int
elfimg_init(struct elfimg *img, const void *p, size_t len)
{
	const Elf64_Ehdr *eh = p;

	memset(img, 0, sizeof *img);
	if (p == NULL || len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    eh->e_shoff > len || eh->e_shnum > (len - eh->e_shoff) / sizeof(Elf64_Shdr) ||
	    eh->e_phoff > len || eh->e_phnum > (len - eh->e_phoff) / sizeof(Elf64_Phdr) ||
	    eh->e_shoff % 8 || eh->e_phoff % 8)
		return -1;
	img->base = p;
	img->len = len;
	img->eh = eh;
	img->sh = (const Elf64_Shdr *)(img->base + eh->e_shoff);
	img->nsh = eh->e_shnum;
	img->ph = (const Elf64_Phdr *)(img->base + eh->e_phoff);
	img->nph = eh->e_phnum;
	img->guard = -1;
	return 0;
}

NOINST int
elfimg_open(struct elfimg *img, const char *path)
{
	/* O_NONBLOCK: a FIFO named like a library must not hang the open. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), guard;
	struct stat st;
	void *p;

	memset(img, 0, sizeof *img);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size > SIZE_MAX) {
		close(fd);
		return -1;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -1;
	/* Guarded before elfimg_init reads it: it may be shrinking now. */
	guard = guard_add ? guard_add(p, (size_t)st.st_size, path) : -1;
	if (elfimg_init(img, p, (size_t)st.st_size) != 0) {
		if (guard >= 0)
			guard_del(guard);
		munmap(p, (size_t)st.st_size);
		return -1;
	}
	img->mapped = 1;
	img->guard = guard;
	return 0;
}

NOINST void
elfimg_close(struct elfimg *img)
{
	if (img->mapped) {
		if (img->guard >= 0)
			guard_del(img->guard);
		munmap((void *)img->base, img->len);
	}
	memset(img, 0, sizeof *img);
}

/* Whether section s's data lies inside the image. */
static NOINST int
inside(const struct elfimg *img, const Elf64_Shdr *s)
{
	return s->sh_offset <= img->len && s->sh_size <= img->len - s->sh_offset;
}

NOINST const Elf64_Shdr *
elfimg_section_type(const struct elfimg *img, uint32_t type)
{
	for (size_t i = 0; i < img->nsh; i++)
		if (img->sh[i].sh_type == type && inside(img, &img->sh[i]) &&
		    img->sh[i].sh_offset % 8 == 0)
			return &img->sh[i];
	return NULL;
}

NOINST const Elf64_Shdr *
elfimg_section_name(const struct elfimg *img, const char *name)
{
	size_t want = strlen(name) + 1, k;

	if (img->nsh == 0)
		return NULL;
	/* Past SHN_LORESERVE, the index of the names is in section 0. */
	k = img->eh->e_shstrndx == SHN_XINDEX ? img->sh[0].sh_link : img->eh->e_shstrndx;
	if (k >= img->nsh || !inside(img, &img->sh[k]))
		return NULL;
	const Elf64_Shdr *str = &img->sh[k];
	const char *names = (const char *)img->base + str->sh_offset;

	for (size_t i = 0; i < img->nsh; i++) {
		uint32_t at = img->sh[i].sh_name;

		if (at < str->sh_size && want <= str->sh_size - at &&
		    memcmp(names + at, name, want) == 0 && inside(img, &img->sh[i]))
			return &img->sh[i];
	}
	return NULL;
}

NOINST const void *
elfimg_data(const struct elfimg *img, const Elf64_Shdr *s)
{
	return s && inside(img, s) ? img->base + s->sh_offset : NULL;
}

NOINST size_t
elfimg_build_id(const struct elfimg *img, const unsigned char **id)
{
	for (size_t i = 0; i < img->nsh; i++) {
		if (img->sh[i].sh_type != SHT_NOTE || !inside(img, &img->sh[i]))
			continue;
		const unsigned char *q = img->base + img->sh[i].sh_offset;
		const unsigned char *e = q + img->sh[i].sh_size;

		/* Notes need not be aligned in the image: copied out. */
		while ((size_t)(e - q) >= sizeof(Elf64_Nhdr)) {
			Elf64_Nhdr nh;

			memcpy(&nh, q, sizeof nh);
			size_t nsz = (nh.n_namesz + 3) & ~3u, dsz = (nh.n_descsz + 3) & ~3u;

			q += sizeof nh;
			if (nsz > (size_t)(e - q) || dsz > (size_t)(e - q - nsz))
				break;
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    memcmp(q, "GNU", 4) == 0 && nh.n_descsz >= 2 &&
			    nh.n_descsz <= 64) {
				*id = q + nsz;
				return nh.n_descsz;
			}
			q += nsz + dsz;
		}
	}
	return 0;
}

NOINST const char *
elfimg_debuglink(const struct elfimg *img, uint32_t *crc)
{
	const Elf64_Shdr *s = elfimg_section_name(img, ".gnu_debuglink");
	const char *d = elfimg_data(img, s);
	const char *nul;

	if (d == NULL || (nul = memchr(d, '\0', s->sh_size)) == NULL)
		return NULL;
	/* The name, NUL, padding to 4 bytes, then the CRC. */
	size_t at = ((size_t)(nul - d) + 1 + 3) & ~(size_t)3;

	if (at > s->sh_size || s->sh_size - at < 4)
		return NULL;
	memcpy(crc, d + at, 4);
	return d;
}

NOINST int
elfimg_open_build_id(struct elfimg *debug, const struct elfimg *img)
{
	const unsigned char *id;
	size_t n = elfimg_build_id(img, &id);
	char path[200];
	int k;

	memset(debug, 0, sizeof *debug);
	if (n == 0)
		return -1;
	k = snprintf(path, sizeof path, "/usr/lib/debug/.build-id/%02x/", id[0]);
	for (size_t j = 1; j < n; j++)
		k += snprintf(path + k, sizeof path - (size_t)k, "%02x", id[j]);
	snprintf(path + k, sizeof path - (size_t)k, ".debug");
	return elfimg_open(debug, path);
}
