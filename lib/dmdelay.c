/* dmdelay.c: the one delay function of the suite (Barsdell eq. 1, 4). */
#include <math.h>

#include "dmdelay.h"

double
sps_dm_delay(double dm, double f_mhz, double fref_mhz)
{
	return SPS_KDM * dm * (1.0 / (f_mhz * f_mhz) -
	    1.0 / (fref_mhz * fref_mhz));
}

long
sps_dm_delay_samples(double dm, double f_mhz, double fref_mhz, double tsamp)
{
	return lround(sps_dm_delay(dm, f_mhz, fref_mhz) / tsamp);
}

double
sps_dm_smear(double dm, double f_mhz, double foff_mhz)
{
	/* d/df of k dm / f^2 across the channel width */
	return 2.0 * SPS_KDM * dm * fabs(foff_mhz) / (f_mhz * f_mhz * f_mhz);
}
