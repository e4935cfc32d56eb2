/* A small program for perf captures: two call paths, one inlined helper. */
#include <stdio.h>
static volatile unsigned long sink;
static inline unsigned long mix(unsigned long x) { return x * 2654435761u ^ (x >> 7); }
__attribute__((noinline)) static void leaf_a(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += mix(i); }
__attribute__((noinline)) static void leaf_b(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink ^= mix(i + sink); }
__attribute__((noinline)) static void middle(int k) { if (k & 1) leaf_a(200000); else leaf_b(300000); }
int main(void) { for (int k = 0; k < 400; k++) middle(k); printf("%lu\n", sink); return 0; }
