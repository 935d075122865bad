// part.cu (warpsim, helper shortocc2): which L2 partition is the home of each 4 KiB page of
// cudaMalloc'd buffers, seen from one SM. One thread of one block (block `which` of a 132-block
// grid; the others exit) chases through a buffer's pages, one cold load (ld.global.cg) at the
// start of each page, the next address depending on the loaded value (0: the buffers are zeroed),
// and keeps each step's clock64 difference in shared memory. The L2 is flushed before every launch
// (a 128 MiB write). A page whose home is the partition far from the SM takes about 150 cycles
// more (testdata/timing/shortocc). Printed: every buffer's device pointer, the SM (%smid), each
// page's cycles.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x)                                                                              \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) printf("ERR %s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
  } while (0)

__device__ __forceinline__ long long clk() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

__global__ void chase(const unsigned *buf, int pages, int which, unsigned *out, unsigned *smout) {
  extern __shared__ unsigned st[];
  __shared__ volatile unsigned sink;
  if (blockIdx.x != which || threadIdx.x != 0) return;
  unsigned smid;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  unsigned v = 0;
  long long prev = clk();
  for (int p = 0; p < pages; p++) {
    const unsigned *a = buf + (size_t)p * 1024 + v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(a) : "memory");
    sink = v;  // waits for the load (in-order issue) before the clock is read
    long long now = clk();
    st[p] = (unsigned)(now - prev);
    prev = now;
  }
  for (int p = 0; p < pages; p++) out[p] = st[p];
  *smout = smid;
}

int main() {
  const size_t big = 32u << 20, small = 256u << 10;
  const char *names[] = {"A", "B", "C", "D"};
  size_t sizes[] = {big, big, small, small};
  unsigned *bufs[4];
  for (int i = 0; i < 4; i++) {
    CK(cudaMalloc(&bufs[i], sizes[i]));
    CK(cudaMemset(bufs[i], 0, sizes[i]));
    printf("alloc %s ptr %p bytes %zu\n", names[i], (void *)bufs[i], sizes[i]);
  }
  void *scratch;
  CK(cudaMalloc(&scratch, 128u << 20));
  printf("alloc scratch ptr %p bytes %u\n", scratch, 128u << 20);
  unsigned *out, *smout;
  CK(cudaMalloc(&out, 8192 * 4));
  CK(cudaMalloc(&smout, 4));
  CK(cudaFuncSetAttribute(chase, cudaFuncAttributeMaxDynamicSharedMemorySize, 8192 * 4));
  unsigned *h = (unsigned *)malloc(8192 * 4);
  const int whiches[] = {0, 5, 40, 100};
  for (int b = 0; b < 4; b++) {
    int pages = (int)(sizes[b] / 4096);
    for (int w = 0; w < 4; w++) {
      CK(cudaMemset(scratch, w + 1, 128u << 20));  // flush the L2
      CK(cudaDeviceSynchronize());
      chase<<<132, 32, pages * 4>>>(bufs[b], pages, whiches[w], out, smout);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      unsigned sm = 0;
      CK(cudaMemcpy(&sm, smout, 4, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(h, out, pages * 4, cudaMemcpyDeviceToHost));
      printf("run buf %s ptr %p pages %d which %d smid %u\nlat", names[b], (void *)bufs[b], pages, whiches[w], sm);
      for (int p = 0; p < pages; p++) printf(" %u", h[p]);
      printf("\n");
    }
  }
  printf("done\n");
  return 0;
}
