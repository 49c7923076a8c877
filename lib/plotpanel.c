/* plotpanel.c: panels of a page: axes, and the data drawn in them
 * (plot.h). */
#ifdef SPS_HAVE_CAIRO
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "plot.h"
#include "plotpage.h"

static const double ink[][3] = {
	[SPS_INK] = { 0, 0, 0 },
	[SPS_INK_GREY] = { 0.55, 0.55, 0.55 },
	[SPS_INK_RED] = { 0.84, 0.15, 0.16 },
	[SPS_INK_BLUE] = { 0.12, 0.35, 0.71 }
};

static void
set_ink(cairo_t *cr, enum sps_plot_colour c, double alpha)
{
	cairo_set_source_rgba(cr, ink[c][0], ink[c][1], ink[c][2], alpha);
}

/* An axis whose range is empty or inverted gets one around its value. */
static void
widen(struct sps_plot_axis *a)
{
	double pad;

	if (!isfinite(a->lo) || !isfinite(a->hi)) {
		a->lo = 0;
		a->hi = 1;
	}
	if (a->hi > a->lo)
		return;
	pad = fabs(a->lo) > 0 ? fabs(a->lo) * 0.1 : 1;
	a->lo -= pad;
	a->hi += pad;
}

struct sps_plot_box
sps_plot_box_at(const struct sps_plot *p, double x0, double y0, double x1,
    double y1)
{
	struct sps_plot_box b = { x0 * p->width, y0 * p->height,
	    (x1 - x0) * p->width, (y1 - y0) * p->height };

	return b;
}

struct sps_plot_axis
sps_plot_axis_of(double lo, double hi, const char *label, int ticks,
    int numbers)
{
	struct sps_plot_axis a = { lo, hi, label, ticks, numbers };

	return a;
}

void
sps_plot_panel_init(struct sps_plot_panel *pn, struct sps_plot *p,
    struct sps_plot_box box, struct sps_plot_axis x, struct sps_plot_axis y)
{
	pn->plot = p;
	pn->box = box;
	pn->x = x;
	pn->y = y;
	widen(&pn->x);
	widen(&pn->y);
}

double
sps_plot_px(const struct sps_plot_panel *pn, double x)
{
	return pn->box.x + (x - pn->x.lo) / (pn->x.hi - pn->x.lo) * pn->box.w;
}

double
sps_plot_py(const struct sps_plot_panel *pn, double y)
{
	return pn->box.y + pn->box.h - (y - pn->y.lo) / (pn->y.hi - pn->y.lo) *
	    pn->box.h;
}

static void
clip_to_box(const struct sps_plot_panel *pn)
{
	cairo_t *cr = pn->plot->cr;

	cairo_save(cr);
	cairo_rectangle(cr, pn->box.x, pn->box.y, pn->box.w, pn->box.h);
	cairo_clip(cr);
}

/* Ticks and numbers along the bottom (x) or the left (y) side. */
static void
axis_ticks(const struct sps_plot_panel *pn, int is_x)
{
	const struct sps_plot_axis *a = is_x ? &pn->x : &pn->y;
	struct sps_plot *p = pn->plot;
	double ticks[SPS_PLOT_MAXTICKS], step, len = p->font * 0.45;
	char label[32];
	int i, n = sps_plot_ticks(a->lo, a->hi, a->ticks, ticks, &step);

	cairo_set_source_rgb(p->cr, 0, 0, 0);
	for (i = 0; i < n; i++) {
		double at = is_x ? sps_plot_px(pn, ticks[i]) :
		    sps_plot_py(pn, ticks[i]);

		if (is_x) {
			cairo_move_to(p->cr, at, pn->box.y + pn->box.h);
			cairo_rel_line_to(p->cr, 0, -len);
			cairo_move_to(p->cr, at, pn->box.y);
			cairo_rel_line_to(p->cr, 0, len);
		} else {
			cairo_move_to(p->cr, pn->box.x, at);
			cairo_rel_line_to(p->cr, len, 0);
			cairo_move_to(p->cr, pn->box.x + pn->box.w, at);
			cairo_rel_line_to(p->cr, -len, 0);
		}
		cairo_stroke(p->cr);
		if (!a->numbers)
			continue;
		sps_plot_tick_label(label, sizeof(label), ticks[i], step);
		if (is_x)
			sps_plot_text(p, at, pn->box.y + pn->box.h + p->font * 1.3,
			    label, p->font, 1, 0);
		else
			sps_plot_text(p, pn->box.x - p->font * 0.4, at +
			    p->font * 0.35, label, p->font, 2, 0);
	}
}

static void
axis_labels(const struct sps_plot_panel *pn)
{
	struct sps_plot *p = pn->plot;

	if (pn->x.label != NULL)
		sps_plot_text(p, pn->box.x + pn->box.w / 2, pn->box.y +
		    pn->box.h + p->font * (pn->x.numbers ? 2.7 : 1.4),
		    pn->x.label, p->font, 1, 0);
	if (pn->y.label == NULL)
		return;
	cairo_save(p->cr);
	cairo_translate(p->cr, pn->box.x - p->font * (pn->y.numbers ? 4.2 :
	    0.8), pn->box.y + pn->box.h / 2);
	cairo_rotate(p->cr, -M_PI / 2);
	sps_plot_text(p, 0, 0, pn->y.label, p->font, 1, 0);
	cairo_restore(p->cr);
}

void
sps_plot_frame(const struct sps_plot_panel *pn)
{
	cairo_t *cr = pn->plot->cr;

	cairo_save(cr);
	cairo_set_line_width(cr, 1);
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_rectangle(cr, pn->box.x + 0.5, pn->box.y + 0.5, pn->box.w - 1,
	    pn->box.h - 1);
	cairo_stroke(cr);
	axis_ticks(pn, 1);
	axis_ticks(pn, 0);
	axis_labels(pn);
	cairo_restore(cr);
}

static uint32_t
cell_colour(enum sps_plot_cmap cmap, double t)
{
	double rgb[3];

	sps_plot_cmap_rgb(cmap, t, rgb);
	return (uint32_t)lround(rgb[0] * 255) << 16 |
	    (uint32_t)lround(rgb[1] * 255) << 8 | (uint32_t)lround(rgb[2] * 255);
}

/* Diagonal hatching over the rows of no data, in the panel's clip. */
static void
hatch_rows(const struct sps_plot_panel *pn, int ny, const float *values,
    int nx, const unsigned char *masked)
{
	cairo_t *cr = pn->plot->cr;
	double rowh = pn->box.h / ny, cellw = pn->box.w / nx, d;
	int i, j, any = 0;

	for (j = 0; j < ny; j++) {
		double top = pn->box.y + (ny - 1 - j) * rowh;

		if (masked != NULL && masked[j]) {
			cairo_rectangle(cr, pn->box.x, top, pn->box.w, rowh);
			any = 1;
			continue;
		}
		for (i = 0; i < nx; i++)
			if (isnan(values[(size_t)j * nx + i])) {
				cairo_rectangle(cr, pn->box.x + i * cellw, top,
				    cellw, rowh);
				any = 1;
			}
	}
	if (!any)
		return;
	cairo_save(cr);
	cairo_clip_preserve(cr);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_fill(cr);
	cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
	cairo_set_line_width(cr, 1);
	for (d = -pn->box.h; d < pn->box.w; d += 6) {
		cairo_move_to(cr, pn->box.x + d, pn->box.y + pn->box.h);
		cairo_rel_line_to(cr, pn->box.h, -pn->box.h);
	}
	cairo_stroke(cr);
	cairo_restore(cr);
}

enum sps_err
sps_plot_image(const struct sps_plot_panel *pn, const float *values, int nx,
    int ny, double vlo, double vhi, enum sps_plot_cmap cmap,
    const unsigned char *masked)
{
	cairo_t *cr = pn->plot->cr;
	cairo_surface_t *img;
	unsigned char *pixels;
	double span = vhi > vlo ? vhi - vlo : 1;
	int i, j, stride;

	img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, nx, ny);
	if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(img);
		return sps_fail(SPS_ENOMEM, "image of %d x %d: out of memory",
		    nx, ny);
	}
	cairo_surface_flush(img);
	pixels = cairo_image_surface_get_data(img);
	stride = cairo_image_surface_get_stride(img);
	for (j = 0; j < ny; j++) {
		uint32_t *row = (uint32_t *)(void *)(pixels +
		    (size_t)(ny - 1 - j) * stride);

		for (i = 0; i < nx; i++)
			row[i] = cell_colour(cmap, (values[(size_t)j * nx + i] -
			    vlo) / span);
	}
	cairo_surface_mark_dirty(img);
	clip_to_box(pn);
	cairo_translate(cr, pn->box.x, pn->box.y);
	cairo_scale(cr, pn->box.w / nx, pn->box.h / ny);
	cairo_set_source_surface(cr, img, 0, 0);
	cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
	cairo_paint(cr);
	cairo_restore(cr);
	cairo_surface_destroy(img);
	clip_to_box(pn);
	hatch_rows(pn, ny, values, nx, masked);
	cairo_restore(cr);
	return SPS_OK;
}

void
sps_plot_colourbar(struct sps_plot *p, struct sps_plot_box box, double vlo,
    double vhi, enum sps_plot_cmap cmap, const char *label)
{
	struct sps_plot_axis none = { 0, 1, NULL, 0, 0 };
	struct sps_plot_axis values = { vlo, vhi, label, 4, 1 };
	struct sps_plot_panel pn;
	float ramp[64];
	int j;

	for (j = 0; j < 64; j++)
		ramp[j] = (float)(vlo + (vhi - vlo) * (j + 0.5) / 64);
	sps_plot_panel_init(&pn, p, box, none, values);
	sps_plot_image(&pn, ramp, 1, 64, vlo, vhi, cmap, NULL);
	sps_plot_frame(&pn);
}

static void
stroke_in_box(const struct sps_plot_panel *pn, enum sps_plot_colour c,
    double width)
{
	set_ink(pn->plot->cr, c, 1);
	cairo_set_line_width(pn->plot->cr, width);
	cairo_stroke(pn->plot->cr);
	cairo_restore(pn->plot->cr);
}

void
sps_plot_line(const struct sps_plot_panel *pn, const double *x,
    const double *y, size_t n, enum sps_plot_colour c, double width)
{
	cairo_t *cr = pn->plot->cr;
	int pen_down = 0;
	size_t i;

	clip_to_box(pn);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]) || !isfinite(y[i])) {
			pen_down = 0;
			continue;
		}
		if (pen_down)
			cairo_line_to(cr, sps_plot_px(pn, x[i]),
			    sps_plot_py(pn, y[i]));
		else
			cairo_move_to(cr, sps_plot_px(pn, x[i]),
			    sps_plot_py(pn, y[i]));
		pen_down = 1;
	}
	stroke_in_box(pn, c, width);
}

void
sps_plot_steps(const struct sps_plot_panel *pn, double x0, double dx,
    const double *y, size_t n, enum sps_plot_colour c)
{
	cairo_t *cr = pn->plot->cr;
	size_t i;

	if (n == 0)
		return;
	clip_to_box(pn);
	cairo_move_to(cr, sps_plot_px(pn, x0), sps_plot_py(pn, y[0]));
	for (i = 0; i < n; i++) {
		cairo_line_to(cr, sps_plot_px(pn, x0 + i * dx),
		    sps_plot_py(pn, y[i]));
		cairo_line_to(cr, sps_plot_px(pn, x0 + (i + 1) * dx),
		    sps_plot_py(pn, y[i]));
	}
	stroke_in_box(pn, c, 1.2);
}

void
sps_plot_bars(const struct sps_plot_panel *pn, double x0, double dx,
    const double *y, size_t n, enum sps_plot_colour c)
{
	cairo_t *cr = pn->plot->cr;
	double base = sps_plot_py(pn, pn->y.lo > 0 ? pn->y.lo : 0);
	size_t i;

	clip_to_box(pn);
	for (i = 0; i < n; i++) {
		double left = sps_plot_px(pn, x0 + i * dx);
		double top = sps_plot_py(pn, y[i]);

		if (y[i] > 0)
			cairo_rectangle(cr, left, top, sps_plot_px(pn, x0 +
			    (i + 1) * dx) - left, base - top);
	}
	set_ink(cr, c, 0.35);
	cairo_fill_preserve(cr);
	stroke_in_box(pn, c, 1);
}

void
sps_plot_markers(const struct sps_plot_panel *pn, const double *x,
    const double *y, const double *r, size_t n, enum sps_plot_colour c)
{
	cairo_t *cr = pn->plot->cr;
	size_t i;

	clip_to_box(pn);
	for (i = 0; i < n; i++) {
		double px = sps_plot_px(pn, x[i]), py = sps_plot_py(pn, y[i]);
		double radius = r != NULL ? r[i] : 3;

		if (!isfinite(px) || !isfinite(py))
			continue;
		cairo_new_sub_path(cr);
		cairo_arc(cr, px, py, radius, 0, 2 * M_PI);
	}
	set_ink(cr, c, 0.15);
	cairo_fill_preserve(cr);
	stroke_in_box(pn, c, 1);
}

void
sps_plot_mark(const struct sps_plot_panel *pn, double v, int vertical,
    enum sps_plot_colour c)
{
	cairo_t *cr = pn->plot->cr;
	double dash = 4;

	clip_to_box(pn);
	if (vertical) {
		cairo_move_to(cr, sps_plot_px(pn, v), pn->box.y);
		cairo_rel_line_to(cr, 0, pn->box.h);
	} else {
		cairo_move_to(cr, pn->box.x, sps_plot_py(pn, v));
		cairo_rel_line_to(cr, pn->box.w, 0);
	}
	cairo_set_dash(cr, &dash, 1, 0);
	stroke_in_box(pn, c, 1);
}

void
sps_plot_span(const struct sps_plot_panel *pn, double x0, double x1)
{
	cairo_t *cr = pn->plot->cr;
	double left = sps_plot_px(pn, x0), right = sps_plot_px(pn, x1);
	double tick = pn->plot->font * 0.8, top = pn->box.y;
	double bottom = pn->box.y + pn->box.h;

	clip_to_box(pn);
	cairo_move_to(cr, left, top + tick);
	cairo_line_to(cr, left, top);
	cairo_line_to(cr, right, top);
	cairo_line_to(cr, right, top + tick);
	cairo_move_to(cr, left, bottom - tick);
	cairo_line_to(cr, left, bottom);
	cairo_line_to(cr, right, bottom);
	cairo_line_to(cr, right, bottom - tick);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_set_line_width(cr, 3);
	cairo_stroke(cr);
	cairo_restore(cr);
}

void
sps_plot_band(const struct sps_plot_panel *pn, double x0, double x1,
    enum sps_plot_colour c)
{
	cairo_t *cr = pn->plot->cr;

	clip_to_box(pn);
	cairo_rectangle(cr, sps_plot_px(pn, x0), pn->box.y, sps_plot_px(pn, x1) -
	    sps_plot_px(pn, x0), pn->box.h);
	set_ink(cr, c, 0.12);
	cairo_fill(cr);
	cairo_restore(cr);
}

void
sps_plot_note(const struct sps_plot_panel *pn, const char *text, int corner)
{
	struct sps_plot *p = pn->plot;
	double pad = p->font * 0.5;

	sps_plot_text(p, corner ? pn->box.x + pn->box.w - pad : pn->box.x + pad,
	    pn->box.y + pad + p->font, text, p->font, corner ? 2 : 0, 0);
}
#endif
