# score.awk ORIG BACK: how much of ORIG's weight BACK has on the same
# stacks, and whether the totals agree.  flamegraph.pl's SVG read back must
# keep the total exactly and put at least 99% of the weight on the right
# stacks (issue 35): the exit status says whether it did.  Whole counts
# (the captures') sum exactly in double up to 2^53.
FNR == NR { n = $NF; $NF = ""; o[$0] += n; t += n; next }
{ n = $NF; $NF = ""; b[$0] += n; tb += n }
END {
	for (s in o)
		if (s in b)
			ok += o[s] < b[s] ? o[s] : b[s]
	share = t > 0 ? 100 * ok / t : 100
	printf "%.4f%% right, total %.0f vs %.0f\n", share, t, tb
	exit !(share >= 99 && t == tb)
}
