// mma.sync through inline PTX, fed by ldmatrix from XOR-swizzled shared
// memory, as hand-written Ampere/Hopper GEMM kernels do:
//  - C(16x32) = A(16x32) * B(32x32), f16 inputs, f32 accumulators, m16n8k16;
//    A read with ldmatrix.x4, B (row-major K x N) with ldmatrix.x4.trans.
//  - the same data with bf16 inputs (m16n8k16 bf16).
//  - an e4m3 m16n8k32 MMA on raw register bit patterns (wide exponent
//    spreads, NaN, saturating values), outputs printed in hex.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

__device__ __forceinline__ int swz(int r, int c) {  // 32 elements (4 x 16 B) per row
  return r * 32 + (((c >> 3) ^ (r & 3)) << 3) + (c & 7);
}

template <bool BF16>
__global__ void mma_ldsm(const uint16_t* A, const uint16_t* B, float* C) {
  __shared__ __align__(128) uint16_t sA[16 * 32];
  __shared__ __align__(128) uint16_t sB[32 * 32];
  int lane = threadIdx.x;
  for (int i = lane; i < 16 * 4; i += 32) {
    int r = i / 4, c = (i % 4) * 8;
    *(uint4*)&sA[swz(r, c)] = *(const uint4*)&A[r * 32 + c];
  }
  for (int i = lane; i < 32 * 4; i += 32) {
    int r = i / 4, c = (i % 4) * 8;
    *(uint4*)&sB[swz(r, c)] = *(const uint4*)&B[r * 32 + c];
  }
  __syncthreads();
  float acc[4][4] = {};
  for (int kk = 0; kk < 32; kk += 16) {
    uint32_t a[4];
    uint32_t aaddr = (uint32_t)__cvta_generic_to_shared(&sA[swz(lane % 16, kk + (lane / 16) * 8)]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(aaddr));
    for (int np = 0; np < 2; np++) {  // two pairs of n8 tiles
      uint32_t b[4];
      uint32_t baddr = (uint32_t)__cvta_generic_to_shared(&sB[swz(kk + lane % 16, np * 16 + (lane / 16) * 8)]);
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                   : "=r"(b[0]), "=r"(b[1]), "=r"(b[2]), "=r"(b[3]) : "r"(baddr));
      for (int h = 0; h < 2; h++) {
        float* d = acc[np * 2 + h];
        if (BF16)
          asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                       : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                       : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[2 * h]), "r"(b[2 * h + 1]));
        else
          asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                       : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                       : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[2 * h]), "r"(b[2 * h + 1]));
      }
    }
  }
  int g = lane / 4, t = lane % 4;
  for (int nt = 0; nt < 4; nt++) {
    C[g * 32 + nt * 8 + 2 * t] = acc[nt][0];
    C[g * 32 + nt * 8 + 2 * t + 1] = acc[nt][1];
    C[(g + 8) * 32 + nt * 8 + 2 * t] = acc[nt][2];
    C[(g + 8) * 32 + nt * 8 + 2 * t + 1] = acc[nt][3];
  }
}

__global__ void mma_e4m3(const uint32_t* A, const uint32_t* B, const float* Cin, float* D) {
  int l = threadIdx.x;
  float d0 = Cin[l * 4], d1 = Cin[l * 4 + 1], d2 = Cin[l * 4 + 2], d3 = Cin[l * 4 + 3];
  asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
               : "r"(A[l * 4]), "r"(A[l * 4 + 1]), "r"(A[l * 4 + 2]), "r"(A[l * 4 + 3]), "r"(B[l * 2]), "r"(B[l * 2 + 1]));
  D[l * 4] = d0; D[l * 4 + 1] = d1; D[l * 4 + 2] = d2; D[l * 4 + 3] = d3;
}

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint32_t hashf(const float* p, int n) { uint32_t h = 2166136261u; for (int i = 0; i < n; i++) h = (h ^ fbits(p[i])) * 16777619u; return h; }

int main() {
  uint16_t hA[16 * 32], hB[32 * 32], hA2[16 * 32], hB2[32 * 32];
  for (int i = 0; i < 16 * 32; i++) {
    float v = ((i * 37) % 101 - 50) / 16.0f;
    if (i == 3) v = 60000.0f;          // large, cancelled below
    if (i == 4) v = -60000.0f;
    if (i == 40) v = 1.0f / 16384.0f;  // tiny beside them
    __half h = __float2half(v); memcpy(&hA[i], &h, 2);
    __nv_bfloat16 b = __float2bfloat16(v * 1e20f); memcpy(&hA2[i], &b, 2);
  }
  for (int i = 0; i < 32 * 32; i++) {
    float v = ((i * 53) % 67 - 33) / 8.0f;
    __half h = __float2half(v); memcpy(&hB[i], &h, 2);
    __nv_bfloat16 b = __float2bfloat16(v * 1e-19f); memcpy(&hB2[i], &b, 2);
  }
  uint16_t *dA, *dB; float *dC; float hC[16 * 32];
  CHECK(cudaMalloc(&dA, sizeof hA)); CHECK(cudaMalloc(&dB, sizeof hB)); CHECK(cudaMalloc(&dC, sizeof hC));
  CHECK(cudaMemcpy(dA, hA, sizeof hA, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, hB, sizeof hB, cudaMemcpyHostToDevice));
  mma_ldsm<false><<<1, 32>>>(dA, dB, dC);
  CHECK(cudaMemcpy(hC, dC, sizeof hC, cudaMemcpyDeviceToHost));
  // host check: exact f32 products of halves, summed in double
  int close = 0;
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 32; j++) {
      double r = 0;
      for (int k = 0; k < 32; k++) { __half a, b; memcpy(&a, &hA[i * 32 + k], 2); memcpy(&b, &hB[k * 32 + j], 2); r += (double)__half2float(a) * __half2float(b); }
      if (fabs(r - hC[i * 32 + j]) <= 1e-2 * (1 + fabs(r))) close++;
    }
  printf("f16 mma+ldmatrix: %d/512 close to the double reference, hash %08x\n", close, hashf(hC, 512));
  printf("  C[0][0..3] = %08x %08x %08x %08x\n", fbits(hC[0]), fbits(hC[1]), fbits(hC[2]), fbits(hC[3]));
  CHECK(cudaMemcpy(dA, hA2, sizeof hA2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, hB2, sizeof hB2, cudaMemcpyHostToDevice));
  mma_ldsm<true><<<1, 32>>>(dA, dB, dC);
  CHECK(cudaMemcpy(hC, dC, sizeof hC, cudaMemcpyDeviceToHost));
  printf("bf16 mma+ldmatrix: hash %08x C[0][0]=%08x C[5][17]=%08x C[15][31]=%08x\n", hashf(hC, 512), fbits(hC[0]), fbits(hC[5 * 32 + 17]), fbits(hC[511]));

  // e4m3: fragment registers straight from bit patterns
  uint32_t eA[128], eB[64]; float eC[128], eD[128];
  uint32_t s = 0x9e3779b9u;
  for (int i = 0; i < 128; i++) { s ^= s << 13; s ^= s >> 17; s ^= s << 5; eA[i] = s & 0x7e7e7e7eu; }  // no NaN (0x7f/0xff)
  for (int i = 0; i < 64; i++) { s ^= s << 13; s ^= s >> 17; s ^= s << 5; eB[i] = s & 0xf7f7f7f7u; }
  for (int i = 0; i < 128; i++) eC[i] = (i % 3 == 0) ? 0.0f : (float)(i - 64) * 0.125f;
  eA[0] = 0x7e7e7e7eu; eB[0] = 0x7e7e7e7eu;   // 448*448 products, four in a row
  eA[4] = 0x01800001u; eB[1] = 0x7f000000u;   // subnormals; a NaN in B
  eC[5] = 3.0e38f;                             // near f32 overflow
  uint32_t *deA, *deB; float *deC, *deD;
  CHECK(cudaMalloc(&deA, sizeof eA)); CHECK(cudaMalloc(&deB, sizeof eB));
  CHECK(cudaMalloc(&deC, sizeof eC)); CHECK(cudaMalloc(&deD, sizeof eD));
  CHECK(cudaMemcpy(deA, eA, sizeof eA, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(deB, eB, sizeof eB, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(deC, eC, sizeof eC, cudaMemcpyHostToDevice));
  mma_e4m3<<<1, 32>>>(deA, deB, deC, deD);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(eD, deD, sizeof eD, cudaMemcpyDeviceToHost));
  printf("e4m3 m16n8k32: hash %08x\n", hashf(eD, 128));
  for (int i = 0; i < 128; i += 8)
    printf("  %08x %08x %08x %08x %08x %08x %08x %08x\n", fbits(eD[i]), fbits(eD[i + 1]), fbits(eD[i + 2]), fbits(eD[i + 3]),
           fbits(eD[i + 4]), fbits(eD[i + 5]), fbits(eD[i + 6]), fbits(eD[i + 7]));
  return 0;
}
