/* omp1.c: OpenMP's answers for one thread (include/omp.h says why). */
#include <omp.h>

int
omp_get_max_threads(void)
{
	return 1;
}

int
omp_get_thread_num(void)
{
	return 0;
}
