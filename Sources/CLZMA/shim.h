#ifndef SENSORPIPE_CLZMA_SHIM_H
#define SENSORPIPE_CLZMA_SHIM_H
#include <lzma.h>
#endif
