/*
 * perf-sched: time off CPU from scheduler events, as
 * stackcollapse-perf-sched.awk folds them.
 *
 *	perf record -g -e sched:sched_switch -e sched:sched_stat_sleep \
 *	    -e sched:sched_stat_blocked -p PID -- sleep 1
 *	perf script -F time,comm,pid,tid,event,ip,sym,dso,trace |
 *	    stackcollapse --format=perf-sched
 *
 * A sched_switch event and its callchain are where a thread went to sleep
 * (prev_pid); the next sched_stat_sleep or sched_stat_blocked event for
 * that thread (pid=, in the waker's context) says how long it slept
 * (delay=, nanoseconds): the sleep stack, rooted at the sleeper's comm,
 * weighs that long.  The stacks are written in microseconds, summed first
 * and cut to whole ones; a stack under 1 us is left out (with
 * --no-aggregate, each sleep is cut alone: its lines can sum to less).  The script's awk
 * variables are options: --record_wake_stack appends the waker's stack
 * (top first) and name, --record_tid names threads comm-PID, --recurse
 * chains the waker's own last sleep stack after "-".
 *
 * The script is read as gawk runs it, rule by rule on every line (mawk
 * reads its \s as 's' and finds no frames): an event line that starts
 * with a blank is a frame too, its pid values are strings ("0" is the
 * only pid that means none), "comm=" is the first one in the line (in a
 * switch event, prev_comm=).  Where awk takes a missing or malformed
 * delay= as 0, it is an error here, as is a sum past 2^64 ns.  Not
 * recognized from its head: the same lines are perf's.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/intern.h"
#include "../lib/num.h"
#include "../lib/scan.h"
#include "formats.h"

static struct {
	int record_tid;		/* comm-PID names */
	int record_wake_stack;	/* the waker's stack and name after the sleep */
	int recurse;		/* and the waker's last sleep, after "-" */
} opt;

/*
 * Whether awk takes the value of -v NAME=VALUE as true: a number that is
 * not 0, or a string that is not empty ("0.0" is false, "no" true).
 * Hexadecimal, inf and nan are strings to awk, not numbers.
 */
static int
awk_true(const char *v)
{
	char *e;
	double d;

	if (*v == '\0')
		return 0;
	if (strpbrk(v, "xXiInN") != NULL)
		return 1;
	d = strtod(v, &e);
	if (e == v)
		return 1;
	while (*e == ' ' || *e == '\t' || *e == '\n')
		e++;
	return *e != '\0' || d != 0;
}

/*
 * -v NAME=VALUE, as the script is run (stackcollapse-perf-sched.awk -v
 * recurse=1): one of its three variables, true or false as awk reads it.
 */
static void
set_awk_var(char *arg)
{
	static const struct {
		const char *name;
		int *var;
	} vars[] = {
		{ "record_tid", &opt.record_tid },
		{ "record_wake_stack", &opt.record_wake_stack },
		{ "recurse", &opt.recurse },
	};
	const char *eq = strchr(arg, '=');

	for (size_t i = 0; eq != NULL && i < sizeof vars / sizeof vars[0]; i++)
		if (strlen(vars[i].name) == (size_t)(eq - arg) &&
		    memcmp(arg, vars[i].name, (size_t)(eq - arg)) == 0) {
			*vars[i].var = awk_true(eq + 1);
			return;
		}
	die(EXIT_USAGE, "-v takes record_tid=, record_wake_stack= or "
	    "recurse= and a value (stackcollapse-perf-sched.awk's variables), "
	    "not \"%s\"", arg);
}

static const struct fmt_option perfsched_options[] = {
	{ "record_tid", &opt.record_tid, 1, NULL },
	{ "record_wake_stack", &opt.record_wake_stack, 1, NULL },
	{ "recurse", &opt.recurse, 1, NULL },
	{ "v", NULL, 0, set_awk_var },	/* -v NAME=VALUE (main.c) */
	{ NULL, NULL, 0, NULL },
};

/* An awk string. */
struct str {
	char *s;
	size_t n, cap;
};

static void
str_set(struct str *d, const char *s, size_t n)
{
	d->s = xgrow(d->s, &d->cap, n + 1, 1);
	if (n)			/* s may be an empty str's NULL */
		memcpy(d->s, s, n);
	d->n = n;
}

static void
str_cat(struct str *d, const char *s, size_t n)
{
	d->s = xgrow(d->s, &d->cap, d->n + n + 1, 1);
	if (n)
		memcpy(d->s + d->n, s, n);
	d->n += n;
}

static void
str_prepend(struct str *d, const char *s, size_t n)
{
	d->s = xgrow(d->s, &d->cap, d->n + n + 1, 1);
	if (n) {
		memmove(d->s + n, d->s, d->n);
		memcpy(d->s, s, n);
	}
	d->n += n;
}

/* What the script keeps per pid (its arrays' subscripts). */
struct pid {
	struct str sw;		/* switch_stacks[pid] */
	int has_sw;
	struct str last_sw;	/* last_switch_stacks[pid] */
	struct str wake_time;	/* last_wake_time[pid] */
};

struct ps {
	struct intern pids;
	struct pid *p;
	size_t pcap;
	struct intern stacks;	/* stack_times' subscripts */
	uint64_t *ns;
	size_t nscap;
	/* The switch event being read: switchpid, switchtime, switchstack. */
	struct str swpid, swtime, swstack;
	int in_switch;		/* switchpid != 0 */
	/* The stat event: wakecommand, wakepid, waketime, stat_next_... */
	struct str wcomm, wpid, wtime, comm, spid, wstack;
	uint64_t delay;
	int in_stat;		/* stat_next_pid != 0 */
	struct str fn, key;
};

/* awk's [[:space:]] and \s, in the C locale. */
static int
space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* awk's default field separators. */
static int
fs_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* The index of a pid's subscript, added when new. */
static struct pid *
pid(struct ps *s, const struct str *k)
{
	int isnew;
	uint32_t id = intern_put(&s->pids, k->s ? k->s : "", k->n, &isnew);

	if (isnew) {
		s->p = xgrow(s->p, &s->pcap, (size_t)id + 1, sizeof *s->p);
		memset(&s->p[id], 0, sizeof s->p[id]);
	}
	return &s->p[id];
}

/*
 * get_perf_captured_variable: the value after the first "NAME=" that a
 * non-blank follows, or empty.
 */
static void
captured(struct str *d, const char *l, size_t n, const char *name)
{
	size_t k = strlen(name), i = 0, j;
	const char *at;

	d->n = 0;
	while ((at = scan_mem(l + i, n - i, name, k)) != NULL) {
		i = (size_t)(at - l);
		j = i + k;
		if (j + 1 < n && l[j] == '=' && !space(l[j + 1])) {
			for (j++; j < n && !space(l[j]); j++)
				;
			str_set(d, l + i + k + 1, j - (i + k + 1));
			return;
		}
		i++;
	}
}

/* get_perf_timestamp: the first " WORD:" with no blank or ':' in WORD. */
static void
timestamp(struct str *d, const char *l, size_t n)
{
	d->n = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j = i + 1;

		if (l[i] != ' ')
			continue;
		while (j < n && l[j] != ' ' && l[j] != ':')
			j++;
		if (j > i + 1 && j < n && l[j] == ':') {
			str_set(d, l + i + 1, j - i - 1);
			return;
		}
	}
}

/* get_function_name: fields 2 to NF - 1 joined by blanks (or $2 alone). */
static void
function_name(struct str *d, const char *l, size_t n)
{
	const char *f[3], *e = l + n, *p = l;
	size_t nf = 0, fl[3];

	/* Fields 2.. as they come, each written once the next is seen. */
	d->n = 0;
	for (;;) {
		while (p < e && fs_blank(*p))
			p++;
		if (p == e)
			break;
		f[nf % 3] = p;
		while (p < e && !fs_blank(*p))
			p++;
		fl[nf % 3] = (size_t)(p - f[nf % 3]);
		nf++;
		/* Field nf - 1 is not the last: write it if it is 2.. */
		if (nf >= 3) {
			size_t k = (nf - 2) % 3;

			if (nf > 3)
				str_cat(d, " ", 1);
			str_cat(d, f[k], fl[k]);
		}
	}
	if (nf == 2)
		str_set(d, f[1], fl[1]);
}

/* Whether s holds the string awk compares unequal to the number 0. */
static int
nonzero(const struct str *s)
{
	return !(s->n == 1 && s->s[0] == '0');
}

/* The end of a stat event: its sleeper's switch stack weighs the delay. */
static int
wake(struct reader *r, struct ps *s)
{
	struct pid *sl = pid(s, &s->spid), *wk;
	struct str *k = &s->key;
	int isnew;
	uint32_t id;

	if (!sl->has_sw)
		return 0;
	str_set(&sl->wake_time, s->wtime.s, s->wtime.n);
	str_set(k, sl->sw.s, sl->sw.n);
	if (opt.recurse || opt.record_wake_stack) {
		str_cat(k, ";", 1);
		str_cat(k, s->wstack.s, s->wstack.n);
		str_cat(k, ";", 1);
		str_cat(k, s->wcomm.s, s->wcomm.n);
		if (opt.record_tid) {
			str_cat(k, "-", 1);
			str_cat(k, s->wpid.s, s->wpid.n);
		}
	}
	if (opt.recurse) {
		wk = pid(s, &s->wpid);
		sl = pid(s, &s->spid);	/* the table may have moved */
		/* A time compared with the never set last_switch_time. */
		if (wk->wake_time.n) {
			str_cat(k, ";-;", 3);
			str_cat(k, wk->last_sw.s, wk->last_sw.n);
		}
		str_set(&sl->last_sw, k->s, k->n);
	}
	sl->has_sw = 0;
	str_prepend(k, ";", 1);
	if (opt.record_tid) {
		str_prepend(k, s->spid.s, s->spid.n);
		str_prepend(k, "-", 1);
	}
	str_prepend(k, s->comm.s, s->comm.n);
	if (r->sink->noagg) {
		if (s->delay >= 1000)
			sink_put(r->sink, k->s, k->n, s->delay / 1000, 0);
		return 0;
	}
	id = intern_put(&s->stacks, k->s, k->n, &isnew);
	if (isnew) {
		s->ns = xgrow(s->ns, &s->nscap, (size_t)id + 1, sizeof *s->ns);
		s->ns[id] = 0;
	}
	if (s->ns[id] > UINT64_MAX - s->delay)
		return rd_fail(r, "off-CPU time of a stack passes 2^64 ns");
	s->ns[id] += s->delay;
	return 0;
}

/* One line, through the script's rules in their order. */
static int
line(struct reader *r, struct ps *s, const char *l, size_t n)
{
	int comment = n && l[0] == '#', lead = n && space(l[0]);
	struct str d = { 0 };

	if (!comment && scan_mem(l, n, "sched:sched_switch", 18)) {
		captured(&s->swpid, l, n, "prev_pid");
		timestamp(&s->swtime, l, n);
		s->swstack.n = 0;
		s->in_switch = nonzero(&s->swpid);
	}
	if (s->in_switch && lead) {
		function_name(&s->fn, l, n);
		if (s->swstack.n == 0)
			str_set(&s->swstack, s->fn.s, s->fn.n);
		else {
			str_prepend(&s->swstack, ";", 1);
			str_prepend(&s->swstack, s->fn.s, s->fn.n);
		}
	}
	if (s->in_switch && n == 0) {
		struct pid *p = pid(s, &s->swpid);

		str_set(&p->sw, s->swstack.s, s->swstack.n);
		p->has_sw = 1;
		p->last_sw.n = 0;
		s->in_switch = 0;
		s->swstack.n = 0;
	}
	if (!comment && (scan_mem(l, n, "sched:sched_stat_sleep", 22) ||
	    scan_mem(l, n, "sched:sched_stat_blocked", 24))) {
		const char *p = l, *e = l + n, *f;

		/* $1 and $2. */
		s->wcomm.n = s->wpid.n = 0;
		for (int k = 0; k < 2; k++) {
			while (p < e && fs_blank(*p))
				p++;
			for (f = p; p < e && !fs_blank(*p); p++)
				;
			str_set(k ? &s->wpid : &s->wcomm, f, (size_t)(p - f));
		}
		timestamp(&s->wtime, l, n);
		captured(&s->comm, l, n, "comm");
		captured(&s->spid, l, n, "pid");
		captured(&d, l, n, "delay");
		if (!fmt_all_digits(d.s, d.n) ||
		    num_parse_u64(d.s, d.n, &s->delay) < 0) {
			free(d.s);
			return rd_fail(r, "%s event without a delay= of "
			    "whole nanoseconds", scan_mem(l, n,
			    "sched:sched_stat_sleep", 22) ? "sched_stat_sleep" :
			    "sched_stat_blocked");
		}
		free(d.s);
		s->wstack.n = 0;
		s->in_stat = nonzero(&s->spid);
	}
	if (s->in_stat && lead) {
		function_name(&s->fn, l, n);
		if (s->wstack.n)
			str_cat(&s->wstack, ";", 1);
		str_cat(&s->wstack, s->fn.s, s->fn.n);
	}
	if (s->in_stat && n == 0) {
		if (wake(r, s) < 0)
			return -1;
		s->in_stat = 0;
	}
	return 0;
}

static void
ps_free(struct ps *s)
{
	struct str *all[] = { &s->swpid, &s->swtime, &s->swstack, &s->wcomm,
	    &s->wpid, &s->wtime, &s->comm, &s->spid, &s->wstack, &s->fn,
	    &s->key };

	for (size_t i = 0; i < intern_count(&s->pids); i++) {
		free(s->p[i].sw.s);
		free(s->p[i].last_sw.s);
		free(s->p[i].wake_time.s);
	}
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		free(all[i]->s);
	free(s->p);
	free(s->ns);
	intern_free(&s->pids);
	intern_free(&s->stacks);
}

static int
perfsched_collapse(struct reader *r)
{
	struct ps s = { 0 };
	const char *l;
	size_t n;
	int ret;

	intern_init(&s.pids);
	intern_init(&s.stacks);
	while ((ret = rd_line(r, &l, &n)) > 0)
		if (line(r, &s, l, n) < 0) {
			ret = -1;
			break;
		}
	if (ret == 0)
		for (uint32_t id = 0; id < intern_count(&s.stacks); id++)
			if (s.ns[id] >= 1000)
				sink_put(r->sink, intern_str(&s.stacks, id),
				    intern_len(&s.stacks, id), s.ns[id] / 1000, 0);
	ps_free(&s);
	return ret;
}

/* Never guessed: these are perf script lines, perf's to read. */
static int
perfsched_detect(const char *p, size_t n)
{
	(void)p;
	(void)n;
	return 0;
}

const struct format perfsched_format = {
	.name = "perf-sched",
	.detect = perfsched_detect,
	.collapse = perfsched_collapse,
	.options = perfsched_options,
	.all_or_nothing = 1,
};
