/*
 * outfile.c: see outfile.h.
 */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/err.h"
#include "spawn.h"

void
output_open(struct outfile *of, const char *path)
{
	of->path = path;
	of->created = 0;
	if (path == NULL) {
		if ((of->fd = fcntl(1, F_DUPFD_CLOEXEC, 3)) < 0 || dup2(2, 1) < 0)
			die(EXIT_SELF, "standard output:");
		return;
	}
	of->fd = open(path, O_WRONLY | O_CLOEXEC);
	if (of->fd < 0 && errno == ENOENT &&
	    (of->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666)) >= 0)
		of->created = 1;
	else if (of->fd < 0 && errno == EEXIST)	/* a dangling link, or a race */
		of->fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
	if (of->fd < 0)
		die(EXIT_SELF, "%s:", path);
}

void
output_abandon(const struct outfile *of)
{
	if (of->path == NULL)
		output_start(of);
	else if (of->created)
		unlink(of->path);
}

void
output_start(const struct outfile *of)
{
	struct stat st;

	if (of->path == NULL) {
		if (dup2(of->fd, 1) < 0)
			die(EXIT_SELF, "standard output:");
		close(of->fd);
		return;
	}
	if (fstat(of->fd, &st) != 0 ||
	    (S_ISREG(st.st_mode) && ftruncate(of->fd, 0) != 0) || dup2(of->fd, 1) < 0)
		die(EXIT_SELF, "%s:", of->path);
	close(of->fd);
}

