/* warpsim: NVTX, the NVIDIA Tools Extension (open source), as no-op ranges
 * and marks: what a CPU run with no profiling tool attached does. The same
 * calls as nvtx3/nvToolsExt.h, which this includes. */
#include "nvtx3/nvToolsExt.h"
