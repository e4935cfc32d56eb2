/*
 * outfile.h: -o, for spans and for samples alike.  The file is opened
 * before the run, so that a path that cannot be written costs no run, but
 * emptied only once there is something to write in it: a run that does
 * not happen (no such program, no such -p process) leaves the file as it
 * was, and removes one it created.  Not a temporary file renamed into
 * place: that would break -o /dev/stdout, FIFOs and links, and lose the
 * file's owner and mode.
 */
#ifndef TR_OUTFILE_H
#define TR_OUTFILE_H

struct outfile {
	const char	*path;
	int		 fd, created;
};

/* Open path for writing, without emptying it (NULL: standard output). */
void	output_open(struct outfile *of, const char *path);
/* The run did not happen: remove the file if output_open created it. */
void	output_abandon(const struct outfile *of);
/* Standard output to the file, emptied first if it is a regular file. */
void	output_start(const struct outfile *of);

#endif
