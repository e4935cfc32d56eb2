#!/bin/sh
# Record the perf script field layouts of tests/data/layouts: one run of
# spin.c under `perf record -e cpu-clock -g` (with the data address, the
# cpu and a clock sampled, for -F addr, cpu, phys_addr and tod), written
# by `perf script -F` with each layout below: a callchain with or without
# dso, sym, symoff, time, tod, pid/tid, cpu, event, period (with or
# without time), srcline, addr; the fields printed after the callchain
# with no blank line before the next sample (insn, data_page_size,
# phys_addr, srccode); perf's side-band records among the samples
# (--show-task-events, --show-mmap-events); and, from a C++ build,
# --no-demangle.  Not part of `make test`; needs perf, gcc, g++ and
# permission to record (perf_event_paranoid 2 or less).
# The goldens sc-perf-layouts and sc-perf-layouts-perl read these files;
# after recording, regenerate sc-perf-layouts-perl/out with
# tests/record-options.sh and review sc-perf-layouts/out by hand.
#
# For --inline (sc-perf-inline), the program is kept as spin.bin and the
# default layout written as inline.txt with its path as a case directory
# sees it; libc's path is made one that does not exist, so that the
# result does not depend on the libc (and debug files) of the machine:
# addr2line then fails there and the frame keeps perf's symbol.
#
#   sh tests/record-layouts.sh
set -eu
cd "$(dirname "$0")/data/layouts"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -o "$tmp/spin" spin.c
# Recorded again until a sample has a kernel frame (a timer interrupt
# that landed in the kernel; one run in a few has one): the --kernel and
# --all cases need one.
for try in 1 2 3 4 5 6 7 8 9 10; do
	perf record -q -e cpu-clock -F 199 -g -d --sample-cpu --data-page-size \
	    --phys-data -k CLOCK_MONOTONIC -o "$tmp/perf.data" "$tmp/spin" \
	    > /dev/null
	perf script -i "$tmp/perf.data" 2> /dev/null | grep -q kallsyms && break
	[ "$try" -lt 10 ] || { echo "no kernel frame in 10 runs" >&2; exit 1; }
done
# NAME FIELDS [PERF SCRIPT OPTIONS]
while read -r name fields opts; do
	# shellcheck disable=SC2086
	perf script -i "$tmp/perf.data" -F "$fields" $opts 2> /dev/null |
	    sed "s|$tmp/|/tmp/|g" > "$name.txt"
done <<'LAYOUTS'
full comm,tid,time,period,event,ip,sym,symoff,dso
srcline comm,tid,time,period,event,ip,sym,symoff,dso,srcline
pid-tid comm,pid,tid,time,event,period,ip,sym,symoff,dso
comm-pid-time-ip-sym comm,pid,time,ip,sym
comm-tid-ip-sym-dso comm,tid,ip,sym,dso
comm-tid-ip-sym-symoff comm,tid,ip,sym,symoff
comm-time-event-period-ip-sym comm,time,event,period,ip,sym,symoff
comm-ip-sym-symoff-dso comm,ip,sym,symoff,dso
comm-ip-sym-srcline comm,ip,sym,srcline
comm-ip-dso comm,ip,dso
comm-ip comm,ip
tid-time-event-period-ip-sym-dso tid,time,event,period,ip,sym,dso
pid-ip-sym pid,ip,sym
time-ip-sym time,ip,sym
ip-sym ip,sym
ip ip
comm-tid-ip-sym comm,tid,ip,sym
addr comm,tid,time,period,event,addr,ip,sym,symoff,dso
cpu comm,pid,tid,cpu,time,period,event,ip,sym,dso
cpu-ip-sym cpu,ip,sym
event-ip-sym event,ip,sym
flags comm,tid,time,period,event,flags,ip,sym,dso
insn comm,tid,time,period,event,ip,sym,dso,insn
data-page-size comm,tid,time,period,event,ip,sym,dso,data_page_size
srccode comm,tid,time,period,event,ip,sym,dso,srccode
task-events comm,tid,time,period,event,ip,sym,dso --show-task-events
mmap-events comm,tid,time,period,event,ip,sym,dso --show-mmap-events
comm-tid-period-event comm,tid,period,event,ip,sym
comm-pid-tid-cpu-period comm,pid,tid,cpu,period,event,ip,sym,dso
comm-cpu-period comm,cpu,period,ip,sym
tid-period tid,period,ip,sym
tid-cpu-period-event tid,cpu,period,event,ip,sym
phys-addr comm,tid,time,period,event,ip,sym,dso,phys_addr
tod comm,tid,cpu,tod,time,period,event,ip,sym
comm-cpu-tod comm,cpu,tod,ip,sym
tod-ip-sym tod,ip,sym
comm-tid-tod-period-event comm,tid,tod,period,event,ip,sym
time-period-event time,period,event,ip,sym
comm-tid-time-period comm,tid,time,period,ip,sym
comm-tid-event comm,tid,event,ip,sym
tid-event tid,event,ip,sym
comm-period comm,period,ip,sym
period period,ip,sym
pid-tid-time-tod pid,tid,time,tod,ip,sym
LAYOUTS
# --no-demangle: the program built as C++, recorded alone, its static
# functions' names left mangled (_ZL6leaf_am).
g++ -x c++ -O2 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls \
    -o "$tmp/spinxx" spin.c
perf record -q -e cpu-clock -F 199 -g -o "$tmp/xx.data" "$tmp/spinxx" > /dev/null
perf script -i "$tmp/xx.data" --no-demangle 2> /dev/null |
    sed "s|$tmp/|/tmp/|g" > no-demangle.txt
cp "$tmp/spin" spin.bin
perf script -i "$tmp/perf.data" 2> /dev/null |
    sed "s|$tmp/spin|../../data/layouts/spin.bin|; s|(/[^ ]*/libc[.]so[.]6)|(/nonexistent/libc.so.6)|" > inline.txt
