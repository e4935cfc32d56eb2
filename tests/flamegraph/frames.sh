#!/bin/sh
# The frames of a flame graph SVG, one per line, sorted: title text, x, y,
# width, tab-separated, numbers as "%.1f" and XML entities decoded, so that
# flamegraph.pl's SVG and ours compare as data.  Ours puts the frames of a
# depth in <g transform="translate(0 Y)"> and leaves y out of the rects.
# Reads the SVG on standard input.
awk '
function attr(s, name,    m) {
	if (match(s, " " name "=\"[^\"]*\"")) {
		m = substr(s, RSTART + length(name) + 3, RLENGTH - length(name) - 4)
		return m
	}
	return ""
}
{
	line = $0
	while (1) {
		t = match(line, /<g transform="translate\(0 [^)]*\)">|<title>[^<]*<\/title><rect [^>]*>/)
		if (!t) break
		piece = substr(line, RSTART, RLENGTH)
		line = substr(line, RSTART + RLENGTH)
		if (piece ~ /^<g transform/) {
			sub(/^<g transform="translate\(0 /, "", piece)
			sub(/\)">$/, "", piece)
			rowy = piece
			continue
		}
		title = piece
		sub(/^<title>/, "", title)
		sub(/<\/title>.*/, "", title)
		rect = piece
		sub(/^.*<\/title>/, "", rect)
		y = attr(rect, "y")
		if (y == "") y = rowy
		printf "%s\t%.1f\t%.1f\t%.1f\n", title, attr(rect, "x"), y, attr(rect, "width")
	}
}' |
    sed 's/&quot;/"/g; s/&#39;/'"'"'/g; s/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g' |
    LC_ALL=C sort
