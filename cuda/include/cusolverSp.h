/* warpsim: cusolverSp.h belongs to one of NVIDIA's closed libraries, which warpsim
 * does not offer (only the CUDA runtime, its headers, and the open-source
 * CCCL: Thrust, CUB, libcu++). This file stands in front of a CUDA
 * toolkit's copy, so that one is never picked up. */
#error "cusolverSp.h: NVIDIA's closed libraries (cuBLAS, cuFFT, cuRAND, cuSPARSE, cuSOLVER, NVRTC, NPP, nvJPEG, cuDNN, NVML) are not available with warpsim cc"
