/* warpsim: cuda_fp8.h is part of the CUDA toolkit that warpsim's headers do not
 * offer yet (tensor-core fragments, asynchronous pipelines and barriers,
 * 8-bit and narrower floats). This file stands in front of a CUDA
 * toolkit's copy, so that one is never picked up. */
#error "cuda_fp8.h is not offered by warpsim's CUDA headers yet"
