// The two libdevice functions clang's PTX of half_bf16_math leaves as calls
// (__nv_sinf, __nv_cosf: warpsim's cuda_fp16.h computes hsin/hcos with them;
// __nv_sqrtf: sqrtf in stamps/h2stamps.cu),
// compiled by nvcc so that splice.py can put libdevice's code, as nvcc
// inlines it, in clang's PTX under those names.
extern "C" __device__ __noinline__ float ws_sinf(float x) { return sinf(x); }
extern "C" __device__ __noinline__ float ws_cosf(float x) { return cosf(x); }
extern "C" __device__ __noinline__ float ws_sqrtf(float x) { return sqrtf(x); }  // stamps/h2stamps.cu
