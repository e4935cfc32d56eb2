/*
 * jsparts: which parts of the flame graph's script (jsmin.awk's parts,
 * flame_js.h) only some graphs take (svg.c's script_needs): those from
 * FLAME_JS_OPT_FIRST to FLAME_JS_OPT_LAST.  The parts before them are in
 * every graph's script, and so are those after; host/jsz.c deflates the
 * script ahead for each set of these (pack.h), so they must be the run
 * of parts that jsmin.awk's file list in the Makefile puts together.
 * Include flame_js.h first.
 */
#ifndef FG_JSPARTS_H
#define FG_JSPARTS_H

#define FLAME_JS_OPT_FIRST flame_js_diffview
#define FLAME_JS_OPT_LAST flame_js_links

#endif
