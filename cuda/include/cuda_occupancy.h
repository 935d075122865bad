/* warpsim: cuda_occupancy.h. NVIDIA's is a header-only occupancy
 * calculator; programs (and Thrust, which includes it) reach the same
 * answers through the runtime's cudaOccupancy* functions, which warpsim
 * answers from its arch presets. */
#ifndef __WARPSIM_CUDA_OCCUPANCY_H__
#define __WARPSIM_CUDA_OCCUPANCY_H__
#define __cuda_occupancy_h__
#include "cuda_runtime.h"
#endif
