// stsconf_mb: what a bank-conflicted shared store costs the warp that issues
// it (issue 19, sixteenth round; written, not yet recorded). One block of
// `warps` warps; lane l of warp w stores to word (l*stride + w*4096) % 8192
// of a 32 KiB array, so a warp's store takes `stride`-way conflicted
// wavefronts for stride 1, 2, 4, 8, 16, 32 (1 for stride 1). Warp 0's clock64
// brackets ITERS iterations of 8 steps; every warp runs the same loop.
//   mode 0 (war):   st.shared [a], v; v = v*3+1  — the next instruction writes
//                   the register the store reads (SASS: STS then IMAD on its
//                   data register): when does the store release it?
//   mode 1 (indep): st.shared [a], v_k for 8 registers, then the 8 updates:
//                   one warp's conflicted stores back to back (issue rate,
//                   mio_throttle).
//   mode 2 (ld):    st.shared [a], v; x = ld.shared [b] (conflict-free); v += x
//                   — a load behind the store's wavefronts.
//   mode 3 (bare):  v = v*3+1 only (the loop without stores).
// Output (one line a case): mode stride warps cycles-per-step (median of reps).
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
__device__ __forceinline__ unsigned lds(unsigned a) {
  unsigned v;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
  return v;
}

template <int MODE>
__global__ void stsconf(int stride, long long* cyc, unsigned* out) {
  __shared__ unsigned s[8192];
  int l = threadIdx.x & 31, w = threadIdx.x >> 5;
  for (int i = threadIdx.x; i < 8192; i += blockDim.x) s[i] = 0;
  __syncthreads();
  unsigned base = (unsigned)__cvta_generic_to_shared(s);
  unsigned a = base + 4u * ((unsigned)(l * stride + w * 4096) & 8191u);
  unsigned b = base + 4u * ((unsigned)(l + 32 * w + 2048) & 8191u);
  unsigned v = threadIdx.x, v1 = v + 1, v2 = v + 2, v3 = v + 3, v4 = v + 4, v5 = v + 5, v6 = v + 6, v7 = v + 7;
  long long t0 = clock64();
#pragma unroll 1
  for (int it = 0; it < ITERS; it++) {
    if (MODE == 0) {
#pragma unroll
      for (int k = 0; k < 8; k++) { sts(a, v); v = v * 3u + 1u; }
    } else if (MODE == 1) {
      sts(a, v); sts(a, v1); sts(a, v2); sts(a, v3); sts(a, v4); sts(a, v5); sts(a, v6); sts(a, v7);
      v = v * 3u + 1u; v1 = v1 * 3u + 1u; v2 = v2 * 3u + 1u; v3 = v3 * 3u + 1u;
      v4 = v4 * 3u + 1u; v5 = v5 * 3u + 1u; v6 = v6 * 3u + 1u; v7 = v7 * 3u + 1u;
    } else if (MODE == 2) {
#pragma unroll
      for (int k = 0; k < 8; k++) { sts(a, v); v += lds(b); }
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
static const kern kerns[4] = {stsconf<0>, stsconf<1>, stsconf<2>, stsconf<3>};
static const char* names[4] = {"war", "indep", "ld", "bare"};

int main(int argc, char** argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 5;
  long long* cyc; unsigned* out;
  CHECK(cudaMalloc(&cyc, 8)); CHECK(cudaMalloc(&out, 4096));
  printf("mode\tstride\twarps\tcycles_per_step\n");
  for (int m = 0; m < 4; m++)
    for (int warps : {1, 4, 16})
      for (int stride : {1, 2, 4, 8, 16, 32}) {
        if (m == 3 && stride != 1) continue;
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
