// Bitonic sort of 2^15 keys: a shared-memory kernel sorts 1024-key chunks
// (alternating directions), then global merge steps for the large strides
// and a shared-memory merge for strides below the chunk; key-value pairs,
// descending and ascending, with a float-key variant including -0.0, NaN-free.
#include <cstdio>
#include <cstdlib>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
#define SHARED_SIZE 1024

template <typename K>
__device__ inline void cmpSwap(K& a, K& b, unsigned& va, unsigned& vb, bool dir) {
  if ((a > b) == dir) { K t = a; a = b; b = t; unsigned u = va; va = vb; vb = u; }
}

template <typename K>
__global__ void bitonicSortShared(K* keys, unsigned* vals, unsigned dir) {
  __shared__ K sk[SHARED_SIZE];
  __shared__ unsigned sv[SHARED_SIZE];
  keys += blockIdx.x * SHARED_SIZE; vals += blockIdx.x * SHARED_SIZE;
  sk[threadIdx.x] = keys[threadIdx.x]; sv[threadIdx.x] = vals[threadIdx.x];
  sk[threadIdx.x + SHARED_SIZE / 2] = keys[threadIdx.x + SHARED_SIZE / 2];
  sv[threadIdx.x + SHARED_SIZE / 2] = vals[threadIdx.x + SHARED_SIZE / 2];
  for (unsigned size = 2; size < SHARED_SIZE; size <<= 1) {
    unsigned ddd = dir ^ ((threadIdx.x & (size / 2)) != 0);
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      cmpSwap(sk[pos], sk[pos + stride], sv[pos], sv[pos + stride], ddd);
    }
  }
  unsigned ddd = blockIdx.x & 1;
  for (unsigned stride = SHARED_SIZE / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
    cmpSwap(sk[pos], sk[pos + stride], sv[pos], sv[pos + stride], ddd);
  }
  __syncthreads();
  keys[threadIdx.x] = sk[threadIdx.x]; vals[threadIdx.x] = sv[threadIdx.x];
  keys[threadIdx.x + SHARED_SIZE / 2] = sk[threadIdx.x + SHARED_SIZE / 2];
  vals[threadIdx.x + SHARED_SIZE / 2] = sv[threadIdx.x + SHARED_SIZE / 2];
}

template <typename K>
__global__ void bitonicMergeGlobal(K* keys, unsigned* vals, unsigned arrayLength, unsigned size, unsigned stride, unsigned dir) {
  unsigned global_comparatorI = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned comparatorI = global_comparatorI & (arrayLength / 2 - 1);
  unsigned ddd = dir ^ ((comparatorI & (size / 2)) != 0);
  unsigned pos = 2 * global_comparatorI - (global_comparatorI & (stride - 1));
  K a = keys[pos], b = keys[pos + stride];
  unsigned va = vals[pos], vb = vals[pos + stride];
  cmpSwap(a, b, va, vb, ddd);
  keys[pos] = a; keys[pos + stride] = b; vals[pos] = va; vals[pos + stride] = vb;
}

template <typename K>
__global__ void bitonicMergeShared(K* keys, unsigned* vals, unsigned arrayLength, unsigned size, unsigned dir) {
  __shared__ K sk[SHARED_SIZE];
  __shared__ unsigned sv[SHARED_SIZE];
  keys += blockIdx.x * SHARED_SIZE; vals += blockIdx.x * SHARED_SIZE;
  sk[threadIdx.x] = keys[threadIdx.x]; sv[threadIdx.x] = vals[threadIdx.x];
  sk[threadIdx.x + SHARED_SIZE / 2] = keys[threadIdx.x + SHARED_SIZE / 2];
  sv[threadIdx.x + SHARED_SIZE / 2] = vals[threadIdx.x + SHARED_SIZE / 2];
  unsigned comparatorI = (blockIdx.x * blockDim.x + threadIdx.x) & ((arrayLength / 2) - 1);
  unsigned ddd = dir ^ ((comparatorI & (size / 2)) != 0);
  for (unsigned stride = SHARED_SIZE / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
    cmpSwap(sk[pos], sk[pos + stride], sv[pos], sv[pos + stride], ddd);
  }
  __syncthreads();
  keys[threadIdx.x] = sk[threadIdx.x]; vals[threadIdx.x] = sv[threadIdx.x];
  keys[threadIdx.x + SHARED_SIZE / 2] = sk[threadIdx.x + SHARED_SIZE / 2];
  vals[threadIdx.x + SHARED_SIZE / 2] = sv[threadIdx.x + SHARED_SIZE / 2];
}

template <typename K>
void bitonicSort(K* keys, unsigned* vals, unsigned n, unsigned dir) {
  bitonicSortShared<K><<<n / SHARED_SIZE, SHARED_SIZE / 2>>>(keys, vals, dir);
  for (unsigned size = 2 * SHARED_SIZE; size <= n; size <<= 1)
    for (unsigned stride = size / 2; stride > 0; stride >>= 1)
      if (stride >= SHARED_SIZE) bitonicMergeGlobal<K><<<n / 512, 256>>>(keys, vals, n, size, stride, dir);
      else { bitonicMergeShared<K><<<n / SHARED_SIZE, SHARED_SIZE / 2>>>(keys, vals, n, size, dir); break; }
}

static unsigned lcg_state = 2718u;
static unsigned lcg() { lcg_state = lcg_state * 1664525u + 1013904223u; return lcg_state; }
static unsigned fnv(const void* p, size_t n) { const unsigned char* b = (const unsigned char*)p; unsigned h = 2166136261u; for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 16777619u; } return h; }

int main() {
  const unsigned n = 1 << 15;
  unsigned *hk = (unsigned*)malloc(n * 4), *hv = (unsigned*)malloc(n * 4);
  float* hf = (float*)malloc(n * 4);
  for (unsigned i = 0; i < n; i++) { hk[i] = lcg() % 100000; hv[i] = i; hf[i] = (float)((int)(lcg() >> 16) - 32768) * 0.25f; }
  hf[3] = -0.0f; hf[4] = 0.0f;
  unsigned *k, *v; float* f;
  CHECK(cudaMalloc(&k, n * 4)); CHECK(cudaMalloc(&v, n * 4)); CHECK(cudaMalloc(&f, n * 4));
  CHECK(cudaMemcpy(k, hk, n * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(v, hv, n * 4, cudaMemcpyHostToDevice));
  bitonicSort<unsigned>(k, v, n, 1);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hk, k, n * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(hv, v, n * 4, cudaMemcpyDeviceToHost));
  int ok = 1; for (unsigned i = 1; i < n; i++) if (hk[i - 1] > hk[i]) ok = 0;
  printf("ascending ok %d keys %08x vals %08x k[0] %u v[0] %u k[n-1] %u v[n-1] %u\n", ok, fnv(hk, n * 4), fnv(hv, n * 4), hk[0], hv[0], hk[n - 1], hv[n - 1]);
  for (unsigned i = 0; i < n; i++) hv[i] = i;
  CHECK(cudaMemcpy(f, hf, n * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(v, hv, n * 4, cudaMemcpyHostToDevice));
  bitonicSort<float>(f, v, n, 0);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hf, f, n * 4, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(hv, v, n * 4, cudaMemcpyDeviceToHost));
  ok = 1; for (unsigned i = 1; i < n; i++) if (hf[i - 1] < hf[i]) ok = 0;
  unsigned z = 0; for (unsigned i = 0; i < n; i++) if (hv[i] == 3 || hv[i] == 4) z = z * 100000 + i;
  printf("descending ok %d keys %08x vals %08x f[0] %a f[n-1] %a zeros at %u\n", ok, fnv(hf, n * 4), fnv(hv, n * 4), hf[0], hf[n - 1], z);
  return 0;
}
