/* warpsim: host_defines.h — the execution-space macros. */
#include "__warpsim_defines.h"
