/* plot.c: a page of cairo drawing written as PNG, PDF or SVG through
 * writer.h (plot.h). */
#ifdef SPS_HAVE_CAIRO
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "plotpage.h"

static cairo_status_t
write_bytes(void *closure, const unsigned char *data, unsigned int length)
{
	struct sps_writer *w = closure;

	return sps_writer_raw(w, data, length) == SPS_OK ?
	    CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static cairo_surface_t *
make_surface(struct sps_plot *p, int width, int height)
{
	switch (p->format) {
	case SPS_PLOT_PDF:
		return cairo_pdf_surface_create_for_stream(write_bytes, &p->out,
		    width, height);
	case SPS_PLOT_SVG:
		return cairo_svg_surface_create_for_stream(write_bytes, &p->out,
		    width, height);
	default:
		return cairo_image_surface_create(CAIRO_FORMAT_RGB24, width,
		    height);
	}
}

static enum sps_err
start_page(struct sps_plot *p, int width, int height)
{
	p->surface = make_surface(p, width, height);
	if (cairo_surface_status(p->surface) != CAIRO_STATUS_SUCCESS)
		return sps_fail(SPS_ENOMEM, "cannot make a page of %d x %d: %s",
		    width, height, cairo_status_to_string(
		    cairo_surface_status(p->surface)));
	p->cr = cairo_create(p->surface);
	cairo_set_source_rgb(p->cr, 1, 1, 1);
	cairo_paint(p->cr);
	p->width = width;
	p->height = height;
	p->font = 12.0 * width / 1200;
	if (p->font < 9)
		p->font = 9;
	return SPS_OK;
}

enum sps_err
sps_plot_open(struct sps_plot **pp, const char *path, int width, int height)
{
	struct sps_plot *p;
	enum sps_err e;

	*pp = NULL;
	if (width < 100 || height < 100 || width > 20000 || height > 20000)
		return sps_fail(SPS_EVALUE, "page of %d x %d: each side must be "
		    "100 to 20000", width, height);
	if ((p = calloc(1, sizeof(*p))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	if (strcmp(path, "-") == 0)
		p->format = SPS_PLOT_PNG;
	else if ((e = sps_plot_format_of(path, &p->format)) != SPS_OK) {
		free(p);
		return e;
	}
	if ((e = sps_writer_open(&p->out, path)) != SPS_OK) {
		free(p);
		return e;
	}
	if ((e = start_page(p, width, height)) != SPS_OK) {
		sps_plot_abort(p);
		return e;
	}
	*pp = p;
	return SPS_OK;
}

static void
release(struct sps_plot *p)
{
	if (p->cr != NULL)
		cairo_destroy(p->cr);
	if (p->surface != NULL)
		cairo_surface_destroy(p->surface);
	free(p);
}

/* Draw what is pending and write it out: a PNG now, a PDF or SVG as
 * cairo finishes it. */
static cairo_status_t
finish_page(struct sps_plot *p)
{
	cairo_status_t s = cairo_status(p->cr);

	if (s != CAIRO_STATUS_SUCCESS)
		return s;
	if (p->format == SPS_PLOT_PNG)
		return cairo_surface_write_to_png_stream(p->surface, write_bytes,
		    &p->out);
	cairo_surface_finish(p->surface);
	return cairo_surface_status(p->surface);
}

enum sps_err
sps_plot_close(struct sps_plot *p)
{
	cairo_status_t s = finish_page(p);
	enum sps_err e;

	if (s == CAIRO_STATUS_WRITE_ERROR) {
		/* sps_writer_raw's reason is the message */
		sps_plot_abort(p);
		return SPS_EIO;
	}
	if (s != CAIRO_STATUS_SUCCESS) {
		e = sps_fail(SPS_EIO, "%s: %s", p->out.path != NULL ?
		    p->out.path : "stdout", cairo_status_to_string(s));
		sps_plot_abort(p);
		return e;
	}
	e = sps_writer_close(&p->out);
	release(p);
	return e;
}

void
sps_plot_abort(struct sps_plot *p)
{
	if (p == NULL)
		return;
	if (p->cr != NULL)
		cairo_destroy(p->cr);
	p->cr = NULL;
	if (p->surface != NULL) {
		/* a PDF or SVG is finished into the writer here, so
		 * before the writer goes */
		cairo_surface_destroy(p->surface);
		p->surface = NULL;
	}
	sps_writer_abort(&p->out);
	release(p);
}

void
sps_plot_release_fonts(void)
{
	cairo_debug_reset_static_data();
	FcFini();
}

double
sps_plot_font(const struct sps_plot *p)
{
	return p->font;
}

void
sps_plot_text(struct sps_plot *p, double x, double y, const char *text,
    double size, int align, int bold)
{
	cairo_text_extents_t ext;

	cairo_save(p->cr);
	cairo_select_font_face(p->cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
	    bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(p->cr, size);
	cairo_text_extents(p->cr, text, &ext);
	cairo_move_to(p->cr, x - align * 0.5 * ext.x_advance, y);
	cairo_set_source_rgb(p->cr, 0, 0, 0);
	cairo_show_text(p->cr, text);
	cairo_restore(p->cr);
}
#endif
