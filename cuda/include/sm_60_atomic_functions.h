/* warpsim: scoped atomics live in device_functions.h. */
#include "device_functions.h"
