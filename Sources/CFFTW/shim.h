#ifndef SENSORPIPE_CFFTW_SHIM_H
#define SENSORPIPE_CFFTW_SHIM_H
// FFTW 3 (double: fftw_*, single: fftwf_*), Debian package libfftw3-dev.
#include <fftw3.h>
#endif
