/*
 * trunclib.c: the library trunc.c truncates: a frame of it stays on the
 * stack below the code that runs, so that each sample's unwind goes
 * through it.
 */
void through(void (*f)(const char *), const char *arg);

static volatile int sink;

void
through(void (*f)(const char *), const char *arg)
{
	f(arg);
	sink++;		/* work after the call: not a tail call */
}
