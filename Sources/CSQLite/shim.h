#ifndef SENSORPIPE_CSQLITE_SHIM_H
#define SENSORPIPE_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
