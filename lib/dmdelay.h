/* dmdelay.h: the one dispersion constant and delay function of sps. */
#ifndef SPS_DMDELAY_H
#define SPS_DMDELAY_H

/* k_DM in MHz^2 pc^-1 cm^3 s (Barsdell et al. 2012, eq. 1). */
#define SPS_KDM 4.148808e3

/* Delay in seconds of frequency f_mhz behind the reference frequency
 * fref_mhz for dispersion measure dm (pc cm^-3).  Positive when f_mhz is
 * below fref_mhz. */
double sps_dm_delay(double dm, double f_mhz, double fref_mhz);

/* The same delay in samples of tsamp seconds, rounded to nearest. */
long sps_dm_delay_samples(double dm, double f_mhz, double fref_mhz,
    double tsamp);

/* Dispersion smearing in seconds across one channel of width foff_mhz
 * centred on f_mhz (Barsdell eq. 5 without the sample term). */
double sps_dm_smear(double dm, double f_mhz, double foff_mhz);

#endif
