# score.awk ORIG BACK: the share of ORIG's weight that BACK has on the same stacks
FNR == NR { n = $NF; $NF = ""; o[$0] += n; t += n; next }
{ n = $NF; $NF = ""; b[$0] += n; tb += n }
END { for (s in o) if (s in b) ok += (o[s] < b[s] ? o[s] : b[s]); printf "%.4f%% right, total %s vs %s\n", 100 * ok / t, t, tb }
