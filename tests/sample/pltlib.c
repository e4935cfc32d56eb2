/*
 * pltlib.c: the shared library plt.c calls, so that its calls go through
 * PLT stubs.  Tiny on purpose: a good part of the time is in the stubs.
 */
int plt_add(int x);
int plt_got(int x);

int
plt_add(int x)
{
	return x + 1;
}

int
plt_got(int x)
{
	return x ^ 3;
}
