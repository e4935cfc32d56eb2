/*
 * outfile.h: -o, for spans and for samples alike.  The file is opened
 * before the run, so that a path that cannot be written costs no run, but
 * emptied only once there is something to write in it: a run that does
 * not happen (no such program, no such -p process) leaves the file as it
 * was, and removes one it created.  Not a temporary file renamed into
 * place: that would break -o /dev/stdout, FIFOs and links, and lose the
 * file's owner and mode.
 *
 * Without -o the data is trace-record's standard output, and the program
 * inherits that descriptor: what it prints would land between the data
 * (`trace-record ./prog | spanlayout`).  So standard output is moved
 * aside for the run (a close-on-exec duplicate keeps it) and descriptor 1
 * made a copy of standard error, which the program inherits; the data's
 * descriptor goes back to 1 only when the run is over.  Rejected: the
 * data on another descriptor (the pipeline is the interface), or the
 * program's output discarded (it is often what the user wants to see).
 * With -o the program's standard output is left as it was.
 */
#ifndef TR_OUTFILE_H
#define TR_OUTFILE_H

struct outfile {
	const char	*path;
	int		 fd, created;
};

/*
 * Open path for writing, without emptying it; NULL: standard output, and
 * descriptor 1 becomes standard error's until output_start or
 * output_abandon.
 */
void	output_open(struct outfile *of, const char *path);
/* The run did not happen: remove the file if output_open created it
 * (standard output is put back). */
void	output_abandon(const struct outfile *of);
/* Standard output to the file, emptied first if it is a regular file. */
void	output_start(const struct outfile *of);

#endif
