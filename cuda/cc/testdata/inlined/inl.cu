__device__ __forceinline__ void put(int *p, int v) { p[0] = v; }
__device__ __forceinline__ void outer(int *p, int v) { put(p, v + 1); }
__global__ void k(int *p) { __shared__ int s[32]; outer(s, threadIdx.x); __syncthreads(); p[threadIdx.x] = s[0]; }
