// A cooperative launch: grid.sync() between the phases of a reduction and
// a normalisation, sized by the occupancy API as the samples do.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void phases(const float *in, float *partial, float *out, int n, unsigned *arrivals) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  extern __shared__ float sh[];
  float s = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) s += in[i];
  sh[block.thread_rank()] = s;
  block.sync();
  for (int st = block.size() / 2; st > 0; st >>= 1) {
    if (block.thread_rank() < st) sh[block.thread_rank()] += sh[block.thread_rank() + st];
    block.sync();
  }
  if (block.thread_rank() == 0) partial[block.group_index().x] = sh[0];
  grid.sync();
  if (grid.thread_rank() == 0) {
    float t = 0;
    for (unsigned b = 0; b < grid.group_dim().x; b++) t += partial[b];
    partial[grid.group_dim().x] = t;
  }
  grid.sync();
  float total = partial[grid.group_dim().x];
  for (int i = grid.thread_rank(); i < n; i += grid.size()) out[i] = in[i] / total;
  atomicAdd(arrivals, 1u);
  grid.sync();
  if (grid.thread_rank() == 0) arrivals[1] = arrivals[0] == grid.size();
}

int main() {
  int dev = 0, coop = 0, sms = 0, perSM = 0;
  cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  const int threads = 256;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, phases, threads, threads * sizeof(float));
  printf("cooperative %d, SMs %d, blocks per SM %d\n", coop, sms, perSM);
  int blocks = sms * 2;
  const int n = 1 << 18;
  float *in, *partial, *out;
  unsigned *arr;
  cudaMalloc(&in, n * 4); cudaMalloc(&out, n * 4); cudaMalloc(&partial, (blocks + 1) * 4);
  cudaMalloc(&arr, 8); cudaMemset(arr, 0, 8);
  float *h = new float[n];
  for (int i = 0; i < n; i++) h[i] = (float)((i * 2654435761u) >> 20) / 4096.0f;
  cudaMemcpy(in, h, n * 4, cudaMemcpyHostToDevice);
  int nn = n;
  void *args[] = {&in, &partial, &out, &nn, &arr};
  cudaError_t e = cudaLaunchCooperativeKernel((void *)phases, blocks, threads, args, threads * sizeof(float), 0);
  printf("launch %s\n", cudaGetErrorName(e));
  cudaError_t s = cudaDeviceSynchronize();
  printf("sync %s\n", cudaGetErrorName(s));
  float total;
  unsigned ha[2];
  cudaMemcpy(&total, partial + blocks, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(ha, arr, 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(h, out, n * 4, cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < n; i++) sum += h[i];
  printf("total %a arrivals %u all %u normalised sum %.9g out[7] %a\n", total, ha[0], ha[1], sum, h[7]);
  // too many blocks for a co-resident grid
  e = cudaLaunchCooperativeKernel((void *)phases, sms * perSM + 1, threads, args, threads * sizeof(float), 0);
  printf("oversized launch %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  delete[] h;
  return 0;
}
