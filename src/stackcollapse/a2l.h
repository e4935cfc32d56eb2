/*
 * a2l: stackcollapse-perf.pl's --inline, the functions inlined at a
 * frame's address as addr2line names them, for perf.c.
 */
#ifndef SC_A2L_H
#define SC_A2L_H

#include <stddef.h>

/* Whether an addr2line program is in PATH. */
int a2l_available(void);

/*
 * The frames at address pc[0..pcn) (hex, as perf prints it) of the file
 * mod[0..modn), outermost first, joined with ';': each a function name,
 * or with context "function:file:line".  func[0..funcn) is perf's
 * symbol for the frame, "name+0xOFF", for nm's help where addr2line
 * places nothing at pc.  Returns the length of the
 * string in *out (malloc'd, the caller frees), or 0 with *out NULL when
 * addr2line gave nothing usable (no output, or only "??"), where the
 * caller keeps perf's symbol as the Perl script does.
 */
size_t a2l_frames(const char *pc, size_t pcn, const char *mod, size_t modn,
    const char *func, size_t funcn, int context, char **out);

#endif
