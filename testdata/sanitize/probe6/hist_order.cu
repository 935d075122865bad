// racecheck: probe5's hist_shared_race (an 8-bin shared histogram updated
// with a plain increment by 2 warps), with one warp held back: warp DELAYED
// spins for about 2M cycles before its load and store, so the other warp
// loads and stores the bins first. Does racecheck report the hazards the
// accesses allow (whatever the order they ran in) or those the order made?
#include <cstdio>
#include <cstdlib>
#define REPORT(call) do { cudaError_t e_ = (call); \
  printf("%s -> %s\n", #call, cudaGetErrorName(e_)); } while (0)

__global__ void hist(const int *in, int *out, int delayed) {
  __shared__ int bins[8];
  int t = threadIdx.x;
  if (t < 8)
    bins[t] = 0;
  __syncthreads();
  if (t / 32 == delayed) {
    long long t0 = clock64();
    while (clock64() - t0 < 2000000)
      ;
  }
  bins[in[t] & 7] += 1;  // bug: not atomicAdd(&bins[...], 1)
  __syncthreads();
  if (t < 8)
    out[t] = bins[t];
}

int main(int argc, char **argv) {
  int delayed = argc > 1 ? atoi(argv[1]) : 1;
  int h[64], *in, *out;
  for (int i = 0; i < 64; i++)
    h[i] = (i * 5) % 8;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, 8 * sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  hist<<<1, 64>>>(in, out, delayed);
  REPORT(cudaDeviceSynchronize());
  cudaMemcpy(h, out, 8 * sizeof(int), cudaMemcpyDeviceToHost);
  int total = 0;
  for (int i = 0; i < 8; i++)
    total += h[i];
  printf("bins sum to %d (64 without lost updates)\n", total);
  return 0;
}
