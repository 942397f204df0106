#ifndef SENSORPIPE_CLAPACKE_SHIM_H
#define SENSORPIPE_CLAPACKE_SHIM_H
// LAPACKE (liblapacke-dev) on OpenBLAS (libopenblas-dev). Complex types are declared as
// plain structs so that the Swift importer sees every prototype.
typedef struct { float real, imag; } sensorpipe_complex_float;
typedef struct { double real, imag; } sensorpipe_complex_double;
#define lapack_complex_float sensorpipe_complex_float
#define lapack_complex_double sensorpipe_complex_double
#include <lapacke.h>
// From OpenBLAS (cblas.h): limit OpenBLAS to one thread; the pipeline parallelises itself.
void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);
#endif
