# The transforms of stackcollapse (issue 34), written again from the
# issue's text alone, for tests/run.sh to compare with the program's, stack
# for stack.  Reads folded lines "STACK COUNT" (one count, whole numbers),
# writes each transformed stack with its summed count, unsorted; a first
# line "# unit: U" (folded(5)) is no stack and is passed on.  The chain
# is the environment's XF_STEPS, one step a line: "focus<TAB>RE", "ignore",
# "hide", "show-from", "prune-from", or "collapse-recursion", "invert"
# alone; (the environment, since awk -v would read a RE's backslashes).
#
#   stackcollapse x.perf | XF_STEPS="$(printf 'hide\t^_\ninvert')" \
#       awk -f transform-ref.awk | LC_ALL=C sort
#
# From the text: a RE is searched anywhere in a frame's name, as grep -E
# does; steps apply left to right, then stacks are summed.
#   focus       keeps stacks that have a matching frame
#   ignore      drops them
#   hide        removes matching frames; a stack left empty is dropped
#   show-from   re-roots each stack at its outermost match and drops
#               stacks without one
#   prune-from  cuts each stack after its outermost match
#   collapse-recursion  a run of the same frame becomes one frame
#   invert      puts the leaf first
BEGIN {
	nsteps = split(ENVIRON["XF_STEPS"], line, "\n")
	for (s = 1; s <= nsteps; s++) {
		t = index(line[s], "\t")
		kind[s] = t ? substr(line[s], 1, t - 1) : line[s]
		re[s] = t ? substr(line[s], t + 1) : ""
	}
}

NR == 1 && /^# unit: / { print; next }

{
	count = $NF
	nf = split(substr($0, 1, length($0) - length(count) - 1), f, ";")
	keep = 1
	for (s = 1; s <= nsteps && keep; s++) {
		k = kind[s]
		if (k == "focus" || k == "ignore") {
			hit = 0
			for (i = 1; i <= nf; i++)
				if (f[i] ~ re[s])
					hit = 1
			keep = (k == "focus") ? hit : !hit
		} else if (k == "hide") {
			w = 0
			for (i = 1; i <= nf; i++)
				if (!(f[i] ~ re[s]))
					f[++w] = f[i]
			if (w == 0 && nf > 0) {
				keep = 0
				emptied++
			}
			nf = w
		} else if (k == "show-from") {
			for (i = 1; i <= nf && !(f[i] ~ re[s]); i++)
				;
			if (i > nf)
				keep = 0
			for (j = i; j <= nf; j++)
				f[j - i + 1] = f[j]
			nf = nf - i + 1
		} else if (k == "prune-from") {
			for (i = 1; i <= nf; i++)
				if (f[i] ~ re[s]) {
					nf = i
					break
				}
		} else if (k == "collapse-recursion") {
			w = 0
			for (i = 1; i <= nf; i++)
				if (w == 0 || f[i] "" != f[w] "")
					f[++w] = f[i]
			nf = w
		} else if (k == "invert") {
			for (i = 1; i <= nf / 2; i++) {
				t = f[i]
				f[i] = f[nf + 1 - i]
				f[nf + 1 - i] = t
			}
		} else {
			print "transform-ref.awk: unknown step " k > "/dev/stderr"
			exit 2
		}
	}
	if (!keep)
		next
	out = nf > 0 ? f[1] : ""
	for (i = 2; i <= nf; i++)
		out = out ";" f[i]
	sum[out] += count
}

END {
	for (st in sum)
		printf "%s %.0f\n", st, sum[st]
	if (emptied)
		printf "hide left %d stacks empty\n", emptied > "/dev/stderr"
}
