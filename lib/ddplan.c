/* ddplan.c: PRESTO's DDplan.py (ddplan.h). */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ddplan.h"

static const double ddplan_steps[] = {
	0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0, 2.0, 3.0, 5.0,
	10.0, 20.0, 30.0, 50.0, 100.0, 200.0, 300.0
};
#define NDDPLAN_STEPS	((int)(sizeof(ddplan_steps) / sizeof(ddplan_steps[0])))
#define DDPLAN_FF	1.2	/* DDplan's "fudge factor" */

/* DDplan's delay, s: PRESTO's constant 1/0.000241. */
static double
dd_delay(double dm, double f)
{
	return dm / (0.000241 * f * f);
}

/* Smearing in ms across bw MHz centred on fctr, as delay differences. */
static double
dd_smear(double dm, double bw, double fctr)
{
	return 1000.0 * (dd_delay(dm, fctr - bw / 2) -
	    dd_delay(dm, fctr + bw / 2));
}

int
sps_ddplan_downsamps(int blocklen, int *out)
{
	int x[SPS_DDPLAN_MAXDS], nx = 0, n = 0, i, m, r, ratio_small = 0;

	for (i = 1; i <= SPS_DDPLAN_MAXDS; i++)
		if (blocklen % i == 0)
			x[nx++] = i;
	for (i = 1; i < nx; i++)
		if ((double)x[i] / x[i - 1] < 1.5)
			ratio_small = 1;
	if (!ratio_small) {
		memcpy(out, x, nx * sizeof(int));
		return nx;
	}
	out[n++] = 1;
	if (blocklen % 2 == 0)
		out[n++] = 2;
	if (blocklen % 3 == 0)
		out[n++] = 3;
	for (m = out[n - 1]; m < x[nx - 1]; m = out[n - 1]) {
		r = (int)lround(1.5 * m + 1e-7);
		if (r <= SPS_DDPLAN_MAXDS && blocklen % r == 0)
			out[n++] = r;
		else if (2 * m <= SPS_DDPLAN_MAXDS && blocklen % (2 * m) == 0)
			out[n++] = 2 * m;
		else if (x[nx - 1] > 1.5 * m) {
			for (i = 0; x[i] <= 1.5 * m; i++)
				continue;
			out[n++] = x[i];
		} else
			break;
	}
	return n;
}

/* One line of the plan from (downsamp, ddm, lodm): dedisp_method. */
static enum sps_err
dd_line(const struct sps_ddplan_obs *obs, const struct sps_ddplan_opts *o,
    int downsamp, double lodm, double ddm, struct sps_ddplan_line *l)
{
	double t0 = 1000.0 * obs->dt, chanbw = obs->bw / obs->numchan;
	double tstep, tsub, other, cross, n;
	int k = 0, calls = 0, procs = o->numprocs;
	long numdms;

	tstep = dd_smear(ddm / 2, obs->bw, obs->fctr);
	tsub = 0;
	l->dsubdm = ddm;
	if (o->numsub > 0) {
		for (k = 2; dd_smear((k + 2) * ddm / 2, obs->bw / o->numsub,
		    obs->fctr) <= 0.8 * fmin(tstep, t0 * downsamp); k += 2)
			if (k > INT_MAX / 4)
				return sps_fail(SPS_EVALUE, "DDplan: no "
				    "sub-band DM step fits at DM %g", lodm);
		l->dsubdm = k * ddm;
		tsub = dd_smear(l->dsubdm / 2, obs->bw / o->numsub, obs->fctr);
	}
	other = sqrt(t0 * t0 + (t0 * downsamp) * (t0 * downsamp) +
	    tstep * tstep + tsub * tsub);
	cross = 2.0 * 0.001 * other / chanbw * 0.0001205 *
	    pow(obs->fctr, 3.0) + o->cohdm;
	if (cross > o->hidm)
		cross = o->hidm;
	n = ceil((cross - lodm) / ddm);
	if (!(fabs(n) < INT_MAX / 4))
		return sps_fail(SPS_EVALUE, "DDplan: %g DMs in one line at DM "
		    "%g", n, lodm);
	numdms = (long)n;
	if (o->numsub > 0) {
		calls = (int)ceil(numdms * ddm / l->dsubdm);
		if (procs > 1 && calls % procs != 0) {
			calls = (calls / procs + 1) * procs;
			while (k > 1 && (long)calls * k > numdms)
				k--;
		}
		numdms = (long)calls * k;
	}
	if (procs > 1 && numdms % procs != 0)
		numdms = (numdms / procs + 1) * procs;
	l->lodm = lodm;
	l->ddm = ddm;
	l->downsamp = downsamp;
	l->numdms = (int)numdms;
	l->dms_per_call = k;
	l->calls = calls;
	l->hidm = lodm + numdms * ddm;
	return SPS_OK;
}

static enum sps_err
dd_check(const struct sps_ddplan_obs *obs, const struct sps_ddplan_opts *o)
{
	if (!(obs->dt > 0) || !(obs->bw > 0) || obs->numchan < 1 ||
	    !(obs->fctr - obs->bw / 2 > 0) || !isfinite(obs->fctr) ||
	    !isfinite(obs->dt) || !isfinite(obs->bw))
		return sps_fail(SPS_EVALUE, "DDplan: dt %g s, fctr %g MHz, bw "
		    "%g MHz, %d channels is not an observation", obs->dt,
		    obs->fctr, obs->bw, obs->numchan);
	if (!(o->lodm >= 0) || !(o->hidm > o->lodm) || !isfinite(o->hidm))
		return sps_fail(SPS_EVALUE, "DDplan: DM range %g to %g: need 0 "
		    "<= low DM < high DM", o->lodm, o->hidm);
	if (o->blocklen < 1 || o->numsub < 0 || o->numprocs < 1 ||
	    !(o->res >= 0) || !isfinite(o->cohdm) || o->cohdm < 0)
		return sps_fail(SPS_EVALUE, "DDplan: blocklen %d, subbands %d, "
		    "procs %d, res %g, cohdm %g: out of range", o->blocklen,
		    o->numsub, o->numprocs, o->res, o->cohdm);
	return SPS_OK;
}

void
sps_ddplan_defaults(struct sps_ddplan_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->lodm = 0;
	o->hidm = 1000;
	o->blocklen = 1024;
	o->numprocs = 1;
}

void
sps_ddplan_obs_from_header(struct sps_ddplan_obs *obs,
    const struct sps_header *h)
{
	/* as DDplan.py reads a filterbank file */
	obs->dt = h->tsamp;
	obs->numchan = h->nchans;
	obs->bw = fabs(h->foff) * h->nchans;
	obs->fctr = h->fch1 + 0.5 * h->foff * h->nchans - 0.5 * h->foff;
}

void
sps_ddplan_default_header(struct sps_header *h)
{
	h->nchans = 1024;
	h->foff = -300.0 / 1024;
	h->fch1 = 1400 - 0.5 * h->foff * (h->nchans - 1);
	h->tsamp = 64e-6;
}

void
sps_ddplan_obs_apply(struct sps_header *h, const struct sps_ddplan_obs *set,
    unsigned given)
{
	struct sps_ddplan_obs d;
	double sign = h->foff > 0 ? 1 : -1;

	sps_ddplan_obs_from_header(&d, h);
	if (given & SPS_DDPLAN_FCTR)
		d.fctr = set->fctr;
	if (given & SPS_DDPLAN_BW)
		d.bw = set->bw;
	if (given & SPS_DDPLAN_NUMCHAN)
		d.numchan = set->numchan;
	if (given & SPS_DDPLAN_DT)
		d.dt = set->dt;
	h->nchans = d.numchan;
	h->foff = sign * d.bw / d.numchan;
	h->fch1 = d.fctr - 0.5 * h->foff * (h->nchans - 1);
	h->tsamp = d.dt;
}

/* DDplan's floor on the smearing and the first downsampling index. */
static int
dd_first_downsamp(const struct sps_ddplan_obs *obs,
    const struct sps_ddplan_opts *o, const int *ds, int nds)
{
	double t0 = 1000.0 * obs->dt, minchan = INFINITY, ok, okval, dm;
	int i, idx = 0;

	for (i = 0; i < 10000; i++) {
		dm = o->lodm + i * ((o->hidm - o->lodm) / 9999);
		minchan = fmin(minchan, dd_smear(fabs(dm - o->cohdm),
		    obs->bw / obs->numchan, obs->fctr));
	}
	ok = fmax(fmax(o->res, minchan), fmax(dd_smear(ddplan_steps[0] / 2,
	    obs->bw, obs->fctr), t0));
	if (DDPLAN_FF * minchan > t0 || ok > t0) {
		okval = ok > DDPLAN_FF * minchan ? ok : DDPLAN_FF * minchan;
		while (idx + 1 < nds && t0 * ds[idx + 1] < okval)
			idx++;
	}
	return idx;
}

enum sps_err
sps_ddplan(const struct sps_ddplan_obs *obs, const struct sps_ddplan_opts *o,
    struct sps_ddplan_line **lines, int *nlines)
{
	int ds[SPS_DDPLAN_MAXDS], nds, ids, istep = 0, n = 0, i;
	double guess, sum = 0, t0 = 1000.0 * obs->dt;
	struct sps_ddplan_line *l;
	enum sps_err e;

	*lines = NULL;
	*nlines = 0;
	if ((e = dd_check(obs, o)) != SPS_OK)
		return e;
	nds = sps_ddplan_downsamps(o->blocklen, ds);
	if ((l = calloc(nds, sizeof(*l))) == NULL)
		return sps_fail(SPS_ENOMEM, "out of memory");
	ids = dd_first_downsamp(obs, o, ds, nds);
	/* the DM whose smearing across the band is dt * D, doubled */
	guess = 2.0 * obs->dt * ds[ids] /
	    (dd_smear(1.0, obs->bw, obs->fctr) / 1000.0);
	while (istep + 1 < NDDPLAN_STEPS &&
	    ddplan_steps[istep + 1] < DDPLAN_FF * guess)
		istep++;
	e = dd_line(obs, o, ds[ids], o->lodm, ddplan_steps[istep], &l[n++]);
	while (e == SPS_OK && l[n - 1].hidm < o->hidm) {
		if (++ids >= nds) {
			e = sps_fail(SPS_EVALUE, "DDplan: no downsampling factor "
			    "above %d left for DMs above %g (blocklen %d); "
			    "give a larger --blocklen or a lower high DM",
			    ds[nds - 1], l[n - 1].hidm, o->blocklen);
			break;
		}
		while (istep + 1 < NDDPLAN_STEPS && dd_smear(ddplan_steps[
		    istep + 1] / 2, obs->bw, obs->fctr) < DDPLAN_FF * (t0 *
		    ds[ids]))
			istep++;
		e = dd_line(obs, o, ds[ids], l[n - 1].hidm, ddplan_steps[istep],
		    &l[n]);
		n++;
	}
	if (e != SPS_OK) {
		free(l);
		return e;
	}
	for (i = 0; i < n; i++)
		sum += (double)l[i].numdms / l[i].downsamp;
	for (i = 0; i < n; i++)
		l[i].work_fract = (double)l[i].numdms / l[i].downsamp / sum;
	*lines = l;
	*nlines = n;
	return SPS_OK;
}

void
sps_ddplan_print(FILE *f, const struct sps_ddplan_line *lines, int n,
    int numsub)
{
	const struct sps_ddplan_line *l = lines;
	int i;

	if (numsub > 0)
		fprintf(f, "\n  Low DM    High DM     dDM  DownSamp  dsubDM"
		    "   #DMs  DMs/call  calls  WorkFract\n");
	else
		fprintf(f, "\n  Low DM    High DM     dDM  DownSamp   #DMs"
		    "  WorkFract\n");
	for (i = 0; i < n; i++, l++)
		if (numsub > 0)
			fprintf(f, "%9.3f  %9.3f  %6.2f    %4d  %6.2f  %6d"
			    "  %6d  %6d    %.4g\n", l->lodm, l->hidm, l->ddm,
			    l->downsamp, l->dsubdm, l->numdms, l->dms_per_call,
			    l->calls, l->work_fract);
		else
			fprintf(f, "%9.3f  %9.3f  %6.2f    %4d  %6d   "
			    "%.4g\n", l->lodm, l->hidm, l->ddm, l->downsamp,
			    l->numdms, l->work_fract);
	fprintf(f, "\n");
}

void
sps_ddplan_json(FILE *f, const struct sps_ddplan_line *lines, int n)
{
	const struct sps_ddplan_line *l = lines;
	int i;

	fputc('[', f);
	for (i = 0; i < n; i++, l++)
		fprintf(f, "%s{\"lodm\": %.10g, \"hidm\": %.10g, \"ddm\": %g, "
		    "\"downsamp\": %d, \"dsubdm\": %g, \"numdms\": %d, "
		    "\"dms_per_call\": %d, \"calls\": %d, \"work_fract\": "
		    "%.6g}", i > 0 ? ",\n  " : "\n  ", l->lodm, l->hidm, l->ddm,
		    l->downsamp, l->dsubdm, l->numdms, l->dms_per_call,
		    l->calls, l->work_fract);
	fputc(']', f);
}
