// stsconf2_mb: what bank-conflicted shared stores cost, with stores ptxas
// cannot remove (issue 19, seventeenth round). stsconf_mb's `war` and
// `indep` stored to one address eight times a step, and ptxas kept only the
// last of the eight (its SASS has one STS a loop body; Nsight Compute counts
// one store's wavefronts a step), so those rows timed an eighth of the
// stores. Here step k of a body stores to word k of the lane's row (new
// addresses, which ptxas keeps), or to one address with st.volatile (which
// ptxas keeps, to see whether the hardware combines them).
// One block of `warps` warps; lane l of warp w stores to word
// (l*stride + w*1024 + k) % 8192 of a 32 KiB array: `stride`-way conflicted
// wavefronts for stride 1, 2, 8, 32. Warp 0's clock64 brackets ITERS loop
// bodies of 8 steps; every warp runs the same loop.
//   mode 0 (war):    st.shared [a+4k], v; v = v*3+1 (the next instruction
//                    rewrites the stored register)
//   mode 1 (indep):  8 stores of 8 registers to a+4k back to back, then the
//                    8 updates
//   mode 2 (vol):    st.volatile.shared [a], v; v = v*3+1 (one address)
//   mode 3 (lddep):  st.shared [a+4k], v; x = ld.shared [b] (conflict-free);
//                    v += x (the load behind the store's wavefronts, and the
//                    next store waits for it)
//   mode 4 (ldind):  st.shared [a+4k], v_k; x_k = ld.shared [b+4k]; the 8
//                    loads summed after the body (nothing waits for a load
//                    inside the body)
//   mode 5 (v4):     st.shared.v4.u32 [a4+16k], {v,v,v,v}; v = v*3+1; lane l
//                    at 16-byte slot (l*stride + k) (stride 1: 4 wavefronts,
//                    the quarter warps; 2: 8; 8 and 32: 32)
//   mode 6 (bare):   v = v*3+1 only
// Output (one line a case): mode stride warps cycles-per-step (median).
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

constexpr int ITERS = 256;

__device__ __forceinline__ void sts(unsigned a, unsigned v) {
  asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
}
__device__ __forceinline__ void stsv(unsigned a, unsigned v) {
  asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
}
__device__ __forceinline__ void sts4(unsigned a, unsigned v) {
  asm volatile("st.shared.v4.u32 [%0], {%1, %1, %1, %1};" ::"r"(a), "r"(v) : "memory");
}
__device__ __forceinline__ unsigned lds(unsigned a) {
  unsigned v;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
  return v;
}

template <int MODE>
__global__ void stsconf2(int stride, long long* cyc, unsigned* out) {
  __shared__ __align__(16) unsigned s[8192];
  int l = threadIdx.x & 31, w = threadIdx.x >> 5;
  for (int i = threadIdx.x; i < 8192; i += blockDim.x) s[i] = 0;
  __syncthreads();
  unsigned base = (unsigned)__cvta_generic_to_shared(s);
  unsigned a = base + 4u * ((unsigned)(l * stride + w * 1024) & 8191u);
  unsigned a4 = base + 16u * ((unsigned)(l * stride + w * 64) & 2047u);
  unsigned b = base + 4u * ((unsigned)(l + 32 * w + 4096) & 8191u);
  unsigned v = threadIdx.x, v1 = v + 1, v2 = v + 2, v3 = v + 3, v4 = v + 4, v5 = v + 5, v6 = v + 6, v7 = v + 7;
  long long t0 = clock64();
#pragma unroll 1
  for (int it = 0; it < ITERS; it++) {
    if (MODE == 0) {
#pragma unroll
      for (int k = 0; k < 8; k++) { sts(a + 4 * k, v); v = v * 3u + 1u; }
    } else if (MODE == 1) {
      sts(a, v); sts(a + 4, v1); sts(a + 8, v2); sts(a + 12, v3);
      sts(a + 16, v4); sts(a + 20, v5); sts(a + 24, v6); sts(a + 28, v7);
      v = v * 3u + 1u; v1 = v1 * 3u + 1u; v2 = v2 * 3u + 1u; v3 = v3 * 3u + 1u;
      v4 = v4 * 3u + 1u; v5 = v5 * 3u + 1u; v6 = v6 * 3u + 1u; v7 = v7 * 3u + 1u;
    } else if (MODE == 2) {
#pragma unroll
      for (int k = 0; k < 8; k++) { stsv(a, v); v = v * 3u + 1u; }
    } else if (MODE == 3) {
#pragma unroll
      for (int k = 0; k < 8; k++) { sts(a + 4 * k, v); v += lds(b); }
    } else if (MODE == 4) {
      unsigned x0, x1, x2, x3, x4, x5, x6, x7;
      sts(a, v); x0 = lds(b); sts(a + 4, v1); x1 = lds(b + 4);
      sts(a + 8, v2); x2 = lds(b + 8); sts(a + 12, v3); x3 = lds(b + 12);
      sts(a + 16, v4); x4 = lds(b + 16); sts(a + 20, v5); x5 = lds(b + 20);
      sts(a + 24, v6); x6 = lds(b + 24); sts(a + 28, v7); x7 = lds(b + 28);
      v += x0 ^ x1 ^ x2 ^ x3 ^ x4 ^ x5 ^ x6 ^ x7;
    } else if (MODE == 5) {
#pragma unroll
      for (int k = 0; k < 8; k++) { sts4(a4 + 16 * k, v); v = v * 3u + 1u; }
    } else {
#pragma unroll
      for (int k = 0; k < 8; k++) v = v * 3u + 1u;
    }
  }
  long long t1 = clock64();
  out[threadIdx.x] = v ^ v1 ^ v2 ^ v3 ^ v4 ^ v5 ^ v6 ^ v7;
  if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

typedef void (*kern)(int, long long*, unsigned*);
static const kern kerns[7] = {stsconf2<0>, stsconf2<1>, stsconf2<2>, stsconf2<3>, stsconf2<4>, stsconf2<5>, stsconf2<6>};
static const char* names[7] = {"war", "indep", "vol", "lddep", "ldind", "v4", "bare"};

int main(int argc, char** argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 5;
  long long* cyc; unsigned* out;
  CHECK(cudaMalloc(&cyc, 8)); CHECK(cudaMalloc(&out, 4096));
  printf("mode\tstride\twarps\tcycles_per_step\n");
  for (int m = 0; m < 7; m++)
    for (int warps : {1, 4, 16})
      for (int stride : {1, 2, 8, 32}) {
        if (m == 6 && stride != 1) continue;
        std::vector<long long> c;
        for (int r = 0; r < reps; r++) {
          kerns[m]<<<1, 32 * warps>>>(stride, cyc, out);
          CHECK(cudaGetLastError());
          long long x; CHECK(cudaMemcpy(&x, cyc, sizeof x, cudaMemcpyDeviceToHost));
          c.push_back(x);
        }
        std::sort(c.begin(), c.end());
        printf("%s\t%d\t%d\t%.2f\n", names[m], stride, warps, (double)c[c.size() / 2] / (ITERS * 8));
      }
  return 0;
}
