/*
 * hotcold: a hot/cold graph's (--colors=hotcold) part of a frame's
 * title, as hotcold.c writes it; scriptdata.c embeds this file only into
 * those graphs, whose frames have their off-CPU time (f.o).
 */
function offOf(f) {
	return "; off-CPU " + fixed(f.n > 0 ? 100 * Math.min(f.o / f.n, 1) : 0, 2) + "%";
}
