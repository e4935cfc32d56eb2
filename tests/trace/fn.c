/* fn: built with -finstrument-functions, no -rdynamic: static functions
 * must be named from the symbol table. */
#include <stdio.h>

static int
fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static void
report(int v)
{
	printf("%d\n", v);
}

int
main(void)
{
	report(fib(6));
	return 0;
}
