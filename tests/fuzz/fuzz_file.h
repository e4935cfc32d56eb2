/*
 * What the fuzz targets share: standard output sent to /dev/null (the
 * writers run, their output does not matter; warnings stay on stderr,
 * where the sanitizers report), and the input bytes as a memory file, so
 * that a reader opens, maps and reads them through its own path as it
 * would a regular file.
 */
#ifndef FUZZ_FILE_H
#define FUZZ_FILE_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* Standard output to /dev/null, the first time only. */
static inline void
fuzz_quiet(void)
{
	static int done;

	if (!done) {
		int nul = open("/dev/null", O_WRONLY);

		if (nul >= 0)
			dup2(nul, STDOUT_FILENO);
		done = 1;
	}
}

/*
 * The bytes in a memory file, its "/proc/self/fd/N" name in path.
 * Returns the descriptor to close, or -1.
 */
static inline int
fuzz_file(const uint8_t *data, size_t size, char path[64])
{
	int fd = memfd_create("fuzz", 0);

	if (fd < 0)
		return -1;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, 64, "/proc/self/fd/%d", fd);
	return fd;
}

#endif
