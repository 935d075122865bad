/* warpsim: device_types.h — the execution-space macros (CUDA's rounding-mode enum is not needed by warpsim's headers). */
#include "__warpsim_defines.h"
