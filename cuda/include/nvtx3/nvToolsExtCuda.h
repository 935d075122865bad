/* warpsim: NVTX's CUDA resource naming; the no-op calls are in nvToolsExt.h. */
#include "nvToolsExt.h"
