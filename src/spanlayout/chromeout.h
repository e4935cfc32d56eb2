/*
 * chromeout: spanlayout --to=chrome, the spans as Chrome's Trace Event
 * Format, the JSON that Perfetto's UI, chrome://tracing and speedscope
 * open, so that a trace recorded by trace-record is seen there.
 */
#ifndef SL_CHROMEOUT_H
#define SL_CHROMEOUT_H

#include "layout.h"
#include "spanset.h"

/*
 * Write every span of s, in the order read, to standard output:
 *
 *	{"displayTimeUnit":"ns",
 *	"traceEvents":[
 *	{"ph":"M","name":"spanlayout","pid":1,"tid":0,"args":{
 *	 "time-origin-ns":"NS","comments":"LINE\nLINE"}},	(comments if any)
 *	{"ph":"M","name":"thread_name","pid":1,"tid":T,"args":{"name":TRACK}},
 *	{"ph":"X","name":NAME,"pid":1,"tid":T,"ts":US,"dur":US,
 *	 "args":{KEY:VALUE,...},			(its properties, if any)
 *	 "spanlayout":{"id":ID,"parent":PARENT,"track":TRACK}},
 *	{"ph":"i","s":"t","name":EVENT,"pid":1,"tid":T,"ts":US,
 *	 "spanlayout":{"id":ID}},			(its events)
 *	{"ph":"s",...,"id":ID,"tid":PARENT'S},{"ph":"f","bp":"e",...}
 *						(a parent on another track)
 *	...]}
 *
 * ts is from the earliest start (NS, as a string: it exceeds a double);
 * an integer property is a number within 2^53, a string beyond.
 *
 * one "X" (complete) event a span and a thread_name event a track: every
 * track is a thread of process 1, numbered from 1 in the order tracks
 * were first read.  ts and dur are microseconds, as the format has them,
 * written exactly: the nanoseconds are the three decimals (1000.5 is
 * 1000500 ns), trailing zeros dropped.  The span's own properties, which
 * the format has no field for, are in its member "spanlayout" (not in
 * args, which speedscope would append to the name): its id, its parent
 * as read (0 for a root; a cycle or a missing parent is left for the
 * reader to repair again), its track, and "open":true for a span still
 * open at the trace's end; spanlayout's Chrome reader (tracejson.c) takes
 * them back, so spans -> chrome -> spanlayout lays out as the spans did.
 * The comment lines (spans(5) metadata) are one string.  Names are JSON
 * strings as jsonesc.h writes them (invalid UTF-8 a U+FFFD a byte).
 */
void chrome_write(const struct spanset *s, const struct tree *t);

#endif
