/*
 * hotcold: see hotcold.h for the design note.
 */
#include "hotcold.h"

#include <string.h>

#include "../lib/num.h"
#include "../lib/out.h"

/* Of the frame's time, the share off the CPU, 0 to 1. */
static double
off_share(const struct frame *fr)
{
	long double w = fr->etime - fr->stime;

	if (w <= 0 || fr->off <= 0)
		return 0;
	return fr->off >= w ? 1 : (double)(fr->off / w);
}

struct rgb
hotcold_color(const struct frame *fr, enum shade shade, const char *name, size_t n)
{
	struct rgb h = color_frame(PAL_HOT, shade, name, n);
	struct rgb c = color_frame(PAL_BLUE, shade, name, n);
	double k = off_share(fr);

	return (struct rgb){ (int)(h.r + (c.r - h.r) * k + 0.5),
	    (int)(h.g + (c.g - h.g) * k + 0.5), (int)(h.b + (c.b - h.b) * k + 0.5) };
}

void
hotcold_title(const struct frame *fr)
{
	char b[32];

	out_str("; off-CPU ");
	out_write(b, num_fmt_fixed(b, 100 * off_share(fr), 2));
	out_char('%');
}

void
hotcold_legend(const struct svg_opts *o, const char *id, double y)
{
	struct rgb h = { 230, 60, 20 }, c = { 110, 110, 230 };
	double fs = o->fontsize, x = 10;
	static const char on[] = "on-CPU", off[] = "off-CPU (blocked)";

	out_fmt("<defs><linearGradient id=\"%s-hc\"><stop offset=\"0%%\" "
	    "stop-color=\"#%02x%02x%02x\"/><stop offset=\"100%%\" "
	    "stop-color=\"#%02x%02x%02x\"/></linearGradient></defs>\n",
	    id, h.r, h.g, h.b, c.r, c.g, c.b);
	out_str("<g class=\"dl\"><title>colour: the share of a frame's time "
	    "spent off the CPU, hot (none) to cold (all)</title>");
	out_fmt("<text x=\"%.15g\" y=\"%.15g\">%s</text>", x, y, on);
	x += (double)strlen(on) * fs * o->fontwidth + fs / 2;
	out_fmt("<rect x=\"%.15g\" y=\"%.15g\" width=\"%.15g\" height=\"%.15g\" "
	    "fill=\"url(#%s-hc)\"/>", x, y - fs, fs * 10, fs, id);
	x += fs * 10 + fs / 2;
	out_fmt("<text x=\"%.15g\" y=\"%.15g\">%s</text></g>\n", x, y, off);
}
