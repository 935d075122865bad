// Beyond compute-sanitizer (--check-global-races): every block stores its
// index to the same word of global memory; nothing orders the stores.
#include <cstdio>

__global__ void lastBlock(int *winner) {
  if (threadIdx.x == 0)
    *winner = blockIdx.x;
}

int main() {
  int *w, h;
  cudaMalloc(&w, sizeof(int));
  lastBlock<<<4, 32>>>(w);
  cudaMemcpy(&h, w, sizeof h, cudaMemcpyDeviceToHost);
  printf("winner %d\n", h);
  cudaFree(w);
  return 0;
}
