/* warpsim: cudaProfilerStart/Stop (declared in cuda_runtime_api.h). */
#include "cuda_runtime_api.h"
