#!/bin/sh
# The frames of a flamegraph-svg --diff SVG, one per line in file order
# (rows root first, frames left to right): title text, x, width and
# fill, tab-separated, as the file writes them.  Then "legend" and the
# legend's gradient stops.  Reads the SVG on standard input.
sed '/<script><!\[CDATA\[/,$d' |
    grep -o '<title>[^<]*</title><rect [^>]*>\|<stop offset=[^>]*>' |
    sed 's|^<title>\(.*\)</title><rect x="\([^"]*\)" width="\([^"]*\)" fill="\([^"]*\)"/>$|\1	\2	\3	\4|
	s|^<stop offset="\([^"]*\)" stop-color="\([^"]*\)"/>$|stop	\1	\2|'
