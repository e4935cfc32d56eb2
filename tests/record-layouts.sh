#!/bin/sh
# Record the perf script field layouts of tests/data/layouts: one run of
# spin.c under `perf record -e cpu-clock -g`, written by `perf script -F`
# with each layout below (a callchain with or without dso, sym, symoff,
# time, pid/tid, event, period, srcline).  Not part of `make test`; needs
# perf, gcc and permission to record (perf_event_paranoid 2 or less).
# The goldens o21-layout-* and o21-layouts-perl read these files; after
# recording, regenerate o21-layouts-perl/out with tests/record-options.sh
# and review the o21-layout-* outputs by hand.
#
# For --inline (o21-inline), the program is kept as spin.bin and the
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
perf record -q -e cpu-clock -F 199 -g -o "$tmp/perf.data" "$tmp/spin" > /dev/null
while read -r name fields; do
	perf script -i "$tmp/perf.data" -F "$fields" 2> /dev/null |
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
LAYOUTS
cp "$tmp/spin" spin.bin
perf script -i "$tmp/perf.data" 2> /dev/null |
    sed "s|$tmp/spin|../../data/layouts/spin.bin|; s|(/[^ ]*/libc[.]so[.]6)|(/nonexistent/libc.so.6)|" > inline.txt
