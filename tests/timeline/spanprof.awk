# spanprof.awk: a span profile (spans(5) revision 3) of N requests as
# tests/sample/spanprof.c makes them, without recording one: each request
# 10 ms with parse, query and render, 12 samples (3, 5 and 2 in the
# spans, 2 on another thread outside every span), stacks as recorded.
# For measuring a timeline's size and open time:
#   awk -v N=2500 -f spanprof.awk | spanlayout | flamegraph-svg > t.svg
BEGIN {
	print "# spans v1"; print "# spans-revision: 3"
	id = 1; t = 1000000
	for (r = 0; r < N; r++) {
		rq = id++; printf "%d\t0\t%d\t10000000\ttid:1\trequest\n", rq, t
		p = id++; printf "%d\t%d\t%d\t3000000\ttid:1\tparse\n", p, rq, t
		q = id++; printf "%d\t%d\t%d\t5000000\ttid:1\tquery\n", q, rq, t + 3000000
		d = id++; printf "%d\t%d\t%d\t2000000\ttid:1\trender\n", d, rq, t + 8000000
		for (k = 0; k < 3; k++) s[n++] = sprintf("# sample\t%d\t%d\ttid:1\t1001001\tcpu-clock\tspanprof;__libc_start_call_main;main;parse_work;burn%s", p, t + k * 1000000 + 500000, k == 2 ? ";clock_gettime;__vdso_clock_gettime;entry_SYSCALL_64_after_hwframe_[k];do_syscall_64_[k]" : "")
		for (k = 0; k < 5; k++) s[n++] = sprintf("# sample\t%d\t%d\ttid:1\t1001001\t%s\tspanprof;__libc_start_call_main;main;%s", q, t + 3000000 + k * 1000000 + 500000, k < 4 ? "offcpu-time" : "cpu-clock", k < 4 ? "query_wait;clock_nanosleep;[off-cpu]" : "query_cpu;burn")
		for (k = 0; k < 2; k++) s[n++] = sprintf("# sample\t%d\t%d\ttid:1\t1001001\tcpu-clock\tspanprof;__libc_start_call_main;main;render_work;burn", d, t + 8000000 + k * 1000000 + 500000)
		for (k = 0; k < 2; k++) s[n++] = sprintf("# sample\t%d\t%d\ttid:2\t1001001\tcpu-clock\tspanprof;worker;poll;fn%d", 0, t + k * 5000000, r % 50)
		t += 10500000
	}
	for (i = 0; i < n; i++) print s[i]
}
