#ifndef SENSORPIPE_CZLIB_SHIM_H
#define SENSORPIPE_CZLIB_SHIM_H
#include <zlib.h>
#endif
