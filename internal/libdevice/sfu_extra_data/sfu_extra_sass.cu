// One kernel per PTX instruction form; cuobjdump -sass shows ptxas's expansion.
#include <cstdint>
extern "C" __global__ void k_sqrt(float *o, const float *a) { float r; asm volatile("sqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(a[threadIdx.x])); o[threadIdx.x] = r; }
extern "C" __global__ void k_sqrt_ftz(float *o, const float *a) { float r; asm volatile("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(a[threadIdx.x])); o[threadIdx.x] = r; }
extern "C" __global__ void k_div_full(float *o, const float *a, const float *b) { float r; asm volatile("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(a[threadIdx.x]), "f"(b[threadIdx.x])); o[threadIdx.x] = r; }
extern "C" __global__ void k_div_full_ftz(float *o, const float *a, const float *b) { float r; asm volatile("div.full.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(a[threadIdx.x]), "f"(b[threadIdx.x])); o[threadIdx.x] = r; }
extern "C" __global__ void k_tanh(float *o, const float *a) { float r; asm volatile("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(a[threadIdx.x])); o[threadIdx.x] = r; }
extern "C" __global__ void k_tanh_f16(uint16_t *o, const uint16_t *a) { uint16_t r; asm volatile("tanh.approx.f16 %0, %1;" : "=h"(r) : "h"(a[threadIdx.x])); o[threadIdx.x] = r; }
extern "C" __global__ void k_tanh_f16x2(uint32_t *o, const uint32_t *a) { uint32_t r; asm volatile("tanh.approx.f16x2 %0, %1;" : "=r"(r) : "r"(a[threadIdx.x])); o[threadIdx.x] = r; }
extern "C" __global__ void k_tanh_bf16(uint16_t *o, const uint16_t *a) { uint16_t r; asm volatile("tanh.approx.bf16 %0, %1;" : "=h"(r) : "h"(a[threadIdx.x])); o[threadIdx.x] = r; }
extern "C" __global__ void k_tanh_bf16x2(uint32_t *o, const uint32_t *a) { uint32_t r; asm volatile("tanh.approx.bf16x2 %0, %1;" : "=r"(r) : "r"(a[threadIdx.x])); o[threadIdx.x] = r; }
