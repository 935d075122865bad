// plain and memcheck: block 1 of a 2-block cluster exits right after a
// cluster.sync(); block 0 waits DELAY cycles (clock64), then, by OP,
// writes block 1's shared memory (w), writes it and reads it back (wr), or
// reads it (r), through map_shared_rank. Block 1 had filled its buffer
// with 100 + t before the sync. Usage: dsmem_late OP DELAY.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
namespace cg = cooperative_groups;
#define REPORT(call) do { cudaError_t e_ = (call); \
  printf("%s -> %s\n", #call, cudaGetErrorName(e_)); } while (0)

__global__ void __cluster_dims__(2, 1, 1) late(int *out, int op, long long delay) {
  __shared__ int box[32];
  cg::cluster_group cluster = cg::this_cluster();
  int t = threadIdx.x;
  box[t] = 100 + t;
  cluster.sync();
  if (cluster.block_rank() == 1)
    return;
  long long start = clock64();
  while (clock64() - start < delay) {
  }
  volatile int *remote = cluster.map_shared_rank(box, 1);
  int v = -1;
  if (op != 2)  // w, wr: write
    remote[t] = t + 1;
  if (op != 0)  // wr, r: read
    v = remote[t];
  out[t] = v;
}

int main(int argc, char **argv) {
  const char *ops = argc > 1 ? argv[1] : "w";
  long long delay = argc > 2 ? atoll(argv[2]) : 0;
  int op = strcmp(ops, "w") == 0 ? 0 : strcmp(ops, "wr") == 0 ? 1 : 2;
  int *out, h[32];
  cudaMalloc(&out, sizeof h);
  cudaMemset(out, 0xff, sizeof h);
  late<<<2, 32>>>(out, op, delay);
  REPORT(cudaGetLastError());
  REPORT(cudaDeviceSynchronize());
  cudaError_t e = cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("cudaMemcpy -> %s\n", cudaGetErrorName(e));
  if (e == cudaSuccess)
    printf("out[0] %d out[1] %d out[31] %d\n", h[0], h[1], h[31]);
  return 0;
}
