/* omp.h for the fuzzing build: the harnesses run lib/ in one thread,
 * without an OpenMP runtime, so that the fuzz binaries need no OpenMP
 * library where they run and every run of an input is the same.  The
 * parallel pragmas are ignored (-fopenmp is not given); these are the
 * two calls lib/ makes, answered as a one-thread runtime answers them
 * (test/fuzz/omp1.c). */
#ifndef SPS_FUZZ_OMP_H
#define SPS_FUZZ_OMP_H

int omp_get_max_threads(void);
int omp_get_thread_num(void);

#endif
