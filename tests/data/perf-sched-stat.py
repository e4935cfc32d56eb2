#!/usr/bin/env python3
# Turn the sched_wakeup events of `perf script -F time,comm,pid,tid,event,
# ip,sym,dso,trace` into the sched_stat_sleep and sched_stat_blocked events
# stackcollapse-perf-sched.awk reads, for kernels without CONFIG_SCHEDSTATS
# (no sched_stat_* tracepoints).  A wakeup fires where the kernel emits
# sched_stat_* (try_to_wake_up, in the waker, with the waker's callchain);
# its delay is the time since the wakee's last sched_switch, whose
# prev_state says sleep (S) or blocked (D).  Everything else is kept as is.
#
#   perf record -g -e sched:sched_switch -e sched:sched_wakeup -- CMD
#   perf script -F time,comm,pid,tid,event,ip,sym,dso,trace |
#       python3 tests/data/perf-sched-stat.py > capture.txt
import re, sys

last = {}  # pid -> (time in us, prev_state)
for line in sys.stdin:
    m = re.search(r' (\d+)\.(\d{6}): sched:(sched_switch|sched_wakeup): (.*)', line)
    if m and m.group(3) == 'sched_switch':
        t = int(m.group(1)) * 1000000 + int(m.group(2))
        f = dict(kv.split('=', 1) for kv in m.group(4).split() if '=' in kv)
        last[f['prev_pid']] = (t, f['prev_state'])
    elif m:
        t = int(m.group(1)) * 1000000 + int(m.group(2))
        f = dict(kv.split('=', 1) for kv in m.group(4).split() if '=' in kv)
        if f['pid'] in last and last[f['pid']][1][0] in 'SD':
            ts, state = last.pop(f['pid'])
            ev = 'sched_stat_sleep' if state[0] == 'S' else 'sched_stat_blocked'
            line = '%s %s.%s: sched:%s: comm=%s pid=%s delay=%d [ns]\n' % (
                line[:m.start()], m.group(1), m.group(2), ev, f['comm'],
                f['pid'], (t - ts) * 1000)
    sys.stdout.write(line)
