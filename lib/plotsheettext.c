/* plotsheettext.c: the text block of a candidate's sheet (plotsheet.h). */
#ifdef SPS_HAVE_CAIRO
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "plot.h"
#include "plotsheet.h"

struct block {
	struct sps_plot	*plot;
	double		 x, y, width, font;
	size_t		 chars;	/* that fit in a line of the block */
};

static void
heading(struct block *b, const char *text)
{
	b->y += b->font * 0.6;
	sps_plot_text(b->plot, b->x, b->y, text, b->font * 1.1, 0, 1);
	b->y += b->font * 1.45;
}

/* One line "key  value"; a value too long keeps its end, after "…". */
__attribute__((format(printf, 3, 4)))
static void
fact(struct block *b, const char *key, const char *fmt, ...)
{
	size_t room = b->chars > 12 ? b->chars - 12 : 8, len;
	char value[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(value, sizeof(value), fmt, ap);
	va_end(ap);
	sps_plot_text(b->plot, b->x, b->y, key, b->font, 0, 0);
	len = strlen(value);
	if (len > room)
		memcpy(value + len - room, "...", 3);
	sps_plot_text(b->plot, b->x + b->font * 6.6, b->y, len > room ?
	    value + len - room : value, b->font, 0, 0);
	b->y += b->font * 1.4;
}

/* Words of text over as many lines as they need. */
static void
wrapped(struct block *b, const char *text)
{
	char line[512];
	size_t n = 0, word;

	while (*text != '\0') {
		word = strcspn(text, " ");
		if (n > 0 && (n + 1 + word > b->chars || n + 1 + word >=
		    sizeof(line))) {
			line[n] = '\0';
			sps_plot_text(b->plot, b->x, b->y, line, b->font, 0, 0);
			b->y += b->font * 1.4;
			n = 0;
		}
		if (n > 0)
			line[n++] = ' ';
		if (word >= sizeof(line) - n)
			word = sizeof(line) - n - 1;
		memcpy(line + n, text, word);
		n += word;
		text += word;
		text += strspn(text, " ");
	}
	line[n] = '\0';
	if (n > 0)
		sps_plot_text(b->plot, b->x, b->y, line, b->font, 0, 0);
	b->y += b->font * 1.4;
}

static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

static void
pulse_facts(struct block *b, const struct sps_candview *v,
    const struct sps_sheet *s)
{
	const struct sps_cand *c = v->cand;
	double tsamp = v->tbin / v->decimate;
	double centre = (double)(c->best.sample + (uint64_t)(c->best.width /
	    2)) * tsamp;

	heading(b, "Pulse");
	fact(b, "MJD", "%.9f", s->hdr->tstart + centre / 86400);
	fact(b, "time", "%.6f s (centre)", centre);
	fact(b, "sample", "%llu (boxcar start)",
	    (unsigned long long)c->best.sample);
	fact(b, "DM", "%.3f pc cm⁻³", c->best.dm);
	if (c->dm_max > c->dm_min)
		fact(b, "", "cluster %.2f to %.2f", c->dm_min, c->dm_max);
	fact(b, "width", "%d samples, %.3f ms", c->best.width,
	    c->best.width * tsamp * 1e3);
	fact(b, "S/N", "%.2f", c->best.snr);
	if (c->members > 1)
		fact(b, "events", "%llu", (unsigned long long)c->members);
}

static void
data_facts(struct block *b, const struct sps_candview *v,
    const struct sps_sheet *s)
{
	const struct sps_header *h = s->hdr;
	int k, masked = 0;

	heading(b, "Data");
	fact(b, "file", "%s", base_name(s->data_name));
	if (s->cand_name != NULL)
		fact(b, "list", "%s", base_name(s->cand_name));
	fact(b, "source", "%s", h->source_name[0] != '\0' ? h->source_name :
	    "(none)");
	fact(b, "band", "%d x %.4g MHz from %.6g", h->nchans, h->foff,
	    h->fch1);
	fact(b, "sampling", "%.6g us, %d bits", h->tsamp * 1e6, h->nbits);
	for (k = 0; k < h->nchans; k++)
		masked += v->chan_masked[k] != 0;
	heading(b, "View");
	fact(b, "sub-bands", "%d (%d channels masked)", v->nsub, masked);
	fact(b, "bins", "%d of %d samples (%.3g ms)", v->nbins, v->decimate,
	    v->tbin * 1e3);
	fact(b, "DM trials", "%d, %.4g to %.4g", v->ndm, v->dms[0],
	    v->dms[v->ndm - 1]);
}

void
sps_sheet_text(struct sps_plot *p, const struct sps_candview *v,
    const struct sps_sheet *s, double x, double y, double width)
{
	struct block b = { p, x, y, width, sps_plot_font(p), 0 };

	b.chars = (size_t)(width / (b.font * 0.56));
	pulse_facts(&b, v, s);
	data_facts(&b, v, s);
	heading(&b, "Search");
	wrapped(&b, s->settings != NULL ? s->settings :
	    "not known (from a candidate file)");
}
#endif
