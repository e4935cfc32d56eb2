/*
 * clock.c: is the TSC usable, how fast does it tick, do the CPUs agree.
 *
 * Usable: CPUID's invariant-TSC bit (leaf 0x80000007, EDX bit 8) or, where
 * a hypervisor hides that leaf, /proc/cpuinfo's constant_tsc and
 * nonstop_tsc; and the kernel must still list "tsc" among its clock
 * sources (it drops a TSC it found unstable).
 *
 * Rate: pairs of (TSC, CLOCK_MONOTONIC) readings, each bracketed by two
 * monotonic reads and kept from the tightest of several tries, taken
 * over windows of 10 ms, then 20, 40 ... until two estimates agree within
 * 10 ppm.  A TSC that went backwards in a window means that window is
 * measured again; differences are checked before they are used.
 *
 * Offsets: as TiKV's minstant does, one thread pinned to each CPU in turn
 * takes pairs, and with the calibrated rate as slope each CPU's intercept
 * is fitted; the differences of intercepts are the offsets.  All within
 * the measurement's own noise: plain rdtsc.  Otherwise rdtscp, whose
 * TSC_AUX names the CPU, and the library subtracts that CPU's offset.
 */
#include "clock.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

#include "../libtracerecord/proto.h"

#define PPM_GOAL	10.0
#define WINDOW_NS	10000000LL
#define WINDOW_MAX	(16 * WINDOW_NS)
#define TRIES		16

int64_t
clock_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t
clock_real(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

#ifdef HAVE_TSC
/*
 * One (tsc, mono) pair, from the tightest of TRIES brackets; returns the
 * bracket's width in nanoseconds.
 */
static int64_t
pair(uint64_t *tsc, int64_t *mono)
{
	int64_t best = INT64_MAX;

	for (int i = 0; i < TRIES; i++) {
		int64_t a = clock_mono();
		uint64_t t = __rdtsc();
		int64_t b = clock_mono();

		if (b - a < best) {
			best = b - a;
			*tsc = t;
			*mono = a + (b - a) / 2;
		}
	}
	return best;
}

static int
file_has(const char *path, const char *word)
{
	FILE *fp = fopen(path, "re");
	char line[4096];
	int found = 0;
	size_t n = strlen(word);

	if (fp == NULL)
		return -1;
	while (!found && fgets(line, sizeof line, fp))
		for (char *p = line; (p = strstr(p, word)) != NULL; p += n)
			if ((p == line || p[-1] == ' ' || p[-1] == '\t') &&
			    (p[n] == ' ' || p[n] == '\n' || p[n] == '\0')) {
				found = 1;
				break;
			}
	fclose(fp);
	return found;
}

/* Whether the TSC can be trusted here, and why (or why not). */
static int
tsc_usable(char *why, size_t n)
{
	unsigned a, b, c, d;
	int inv = 0, leaf = 0;

	if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000007 &&
	    __get_cpuid(0x80000007, &a, &b, &c, &d)) {
		leaf = 1;
		inv = (d >> 8) & 1;
	}
	int cons = file_has("/proc/cpuinfo", "constant_tsc") == 1;
	int nonstop = file_has("/proc/cpuinfo", "nonstop_tsc") == 1;
	int listed = file_has("/sys/devices/system/clocksource/clocksource0/"
	    "available_clocksource", "tsc");

	if (listed == 0) {
		snprintf(why, n, "the kernel dropped the TSC as a clock source");
		return 0;
	}
	if (inv) {
		snprintf(why, n, "invariant TSC (CPUID)");
		return 1;
	}
	if (cons && nonstop) {
		snprintf(why, n, "constant_tsc and nonstop_tsc%s",
		    leaf ? "" : " (no CPUID power leaf)");
		return 1;
	}
	snprintf(why, n, "TSC not invariant (CPUID%s)",
	    cons ? ", no nonstop_tsc" : ", no constant_tsc");
	return 0;
}

/* Ticks per ns over one window; 0 if the TSC went backwards. */
static double
window(int64_t ns, int64_t *noise)
{
	uint64_t t0, t1;
	int64_t m0, m1, w0, w1;
	struct timespec nap = { 0, 0 };

	w0 = pair(&t0, &m0);
	nap.tv_sec = ns / 1000000000;
	nap.tv_nsec = ns % 1000000000;
	while (nanosleep(&nap, &nap) < 0 && errno == EINTR)
		;
	w1 = pair(&t1, &m1);
	*noise = w0 + w1;
	if (t1 <= t0 || m1 <= m0)
		return 0;
	return (double)(t1 - t0) / (double)(m1 - m0);
}

static void
calibrate(struct clockcal *c)
{
	FILE *fp = fopen("/sys/devices/system/cpu/cpu0/tsc_freq_khz", "re");
	unsigned long khz = 0;
	double prev = 0, est = 0;
	int64_t ns = WINDOW_NS, noise;

	if (fp) {
		if (fscanf(fp, "%lu", &khz) != 1)
			khz = 0;
		fclose(fp);
	}
	if (khz > 0) {
		c->ticks_per_ns = (double)khz / 1e6;
		snprintf(c->source, sizeof c->source, "tsc_freq_khz");
		return;
	}
	for (int tries = 0; tries < 24; tries++) {
		est = window(ns, &noise);
		if (est == 0)
			continue;	/* went backwards: measure again */
		c->windows++;
		if (prev > 0) {
			c->ppm = 1e6 * (est > prev ? est - prev : prev - est) / est;
			if (c->ppm <= PPM_GOAL)
				break;
		}
		prev = est;
		if (ns < WINDOW_MAX)
			ns *= 2;
	}
	c->ticks_per_ns = est;
	snprintf(c->source, sizeof c->source, "%d windows, %.1f ppm apart",
	    c->windows, c->ppm);
}

/* Pinned to each CPU in turn: intercepts, against the first CPU's. */
static void
offsets(struct clockcal *c)
{
	cpu_set_t orig, one;
	double icpt0 = 0;
	int64_t worst = 0;

	if (sched_getaffinity(0, sizeof orig, &orig) != 0)
		return;
	for (int cpu = 0; cpu < CPU_SETSIZE && c->ncpus < CLOCK_MAX_CPUS; cpu++) {
		if (!CPU_ISSET(cpu, &orig))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof one, &one) != 0)
			continue;
		double sum = 0;
		int64_t w = 0;

		for (int k = 0; k < 4; k++) {
			uint64_t t;
			int64_t m, b = pair(&t, &m);

			w = b > w ? b : w;
			sum += (double)t - c->ticks_per_ns * (double)m;
		}
		double icpt = sum / 4;

		if (c->ncpus == 0)
			icpt0 = icpt;
		c->cpu[c->ncpus] = cpu;
		c->offset[c->ncpus] = (int64_t)(icpt - icpt0);
		c->ncpus++;
		worst = w > worst ? w : worst;
	}
	/* The anchor is taken on the first CPU, which all offsets are against. */
	if (c->ncpus > 0) {
		CPU_ZERO(&one);
		CPU_SET(c->cpu[0], &one);
		sched_setaffinity(0, sizeof one, &one);
	}
	c->bound = (int64_t)(c->ticks_per_ns * (double)(4 * worst)) + 200;
}
#endif

static void
anchor(struct clockcal *c)
{
	int64_t best = INT64_MAX;

	for (int i = 0; i < TRIES; i++) {
		int64_t a = clock_mono(), r = clock_real(), b = clock_mono();

		if (b - a < best) {
			best = b - a;
			c->mono_to_real = r - (a + (b - a) / 2);
		}
	}
#ifdef HAVE_TSC
	if (c->mode != TR_CLOCK_MONO) {
		int64_t m;

		pair(&c->tick0, &m);
		c->real0 = m + c->mono_to_real;
	}
#endif
}

int
clock_choose(struct clockcal *c, const char *force)
{
	memset(c, 0, sizeof *c);
	c->mode = TR_CLOCK_MONO;
	if (force && strcmp(force, "mono") == 0) {
		snprintf(c->why, sizeof c->why, "CLOCK_MONOTONIC, as asked");
		anchor(c);
		return 0;
	}
#ifdef HAVE_TSC
	char why[128];
	int ok = tsc_usable(why, sizeof why);
	int forced = force && strcmp(force, "auto") != 0;

	if (!ok && !forced) {
		snprintf(c->why, sizeof c->why, "CLOCK_MONOTONIC: %s", why);
		anchor(c);
		return 0;
	}
	cpu_set_t orig;
	int have = sched_getaffinity(0, sizeof orig, &orig) == 0;

	calibrate(c);
	offsets(c);
	int64_t spread = 0;

	for (int i = 0; i < c->ncpus; i++) {
		int64_t o = c->offset[i] < 0 ? -c->offset[i] : c->offset[i];

		spread = o > spread ? o : spread;
	}
	if (forced && strcmp(force, "tscp") == 0)
		c->mode = TR_CLOCK_TSCP;
	else if (forced && strcmp(force, "tsc") == 0)
		c->mode = TR_CLOCK_TSC;
	else
		c->mode = spread <= c->bound ? TR_CLOCK_TSC : TR_CLOCK_TSCP;
	snprintf(c->why, sizeof c->why, "%s; %s; CPU offsets within %lld ticks "
	    "(noise bound %lld)%s", c->mode == TR_CLOCK_TSC ? "rdtsc" : "rdtscp "
	    "with per-CPU offsets", why, (long long)spread, (long long)c->bound,
	    forced ? ", as asked" : "");
	anchor(c);
	if (have)
		sched_setaffinity(0, sizeof orig, &orig);
	return 0;
#else
	if (force && strcmp(force, "auto") != 0) {
		snprintf(c->why, sizeof c->why, "no TSC on this machine");
		return -1;
	}
	snprintf(c->why, sizeof c->why, "CLOCK_MONOTONIC: no TSC on this machine");
	anchor(c);
	return 0;
#endif
}

int64_t
clock_to_ns(const struct clockcal *c, uint64_t raw)
{
	/* raw comes from the traced program: wrap, saturate, never overflow. */
	if (c->mode == TR_CLOCK_MONO)
		return (int64_t)(raw + (uint64_t)c->mono_to_real);
	/* Signed: a value a CPU offset puts before the anchor is fine. */
	long double q = (long double)(int64_t)(raw - c->tick0) / (long double)c->ticks_per_ns;
	int64_t ns;

	if (q >= 0x1p63L || q <= -0x1p63L || __builtin_add_overflow(c->real0, (int64_t)q, &ns))
		return q < 0 ? INT64_MIN : INT64_MAX;
	return ns;
}

uint64_t
clock_raw(const struct clockcal *c)
{
#ifdef HAVE_TSC
	if (c->mode == TR_CLOCK_TSC)
		return __rdtsc();
	if (c->mode == TR_CLOCK_TSCP) {
		unsigned aux;
		uint64_t t = __rdtscp(&aux);

		for (int i = 0; i < c->ncpus; i++)
			if (c->cpu[i] == (int)(aux & 0xfff))
				return t - (uint64_t)c->offset[i];
		return t;
	}
#else
	(void)c;
#endif
	return (uint64_t)clock_mono();
}
