// A graph's allocation node keeps its address across launches, even when
// the program frees the memory outside the graph after each launch (as
// cuda-samples' graphMemoryNodes does); graph memory attributes follow.
#include <cstdio>
int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.bytesize = 1 << 20;
  cudaGraphNode_t an, ms, cp;
  printf("alloc node: %s\n", cudaGetErrorName(cudaGraphAddMemAllocNode(&an, g, nullptr, 0, &ap)));
  cudaMemsetParams mp = {ap.dptr, 0, 7, 1, 1 << 20, 1};
  cudaGraphAddMemsetNode(&ms, g, &an, 1, &mp);
  static unsigned char h[1 << 20];
  cudaGraphAddMemcpyNode1D(&cp, g, &ms, 1, h, ap.dptr, 1 << 20, cudaMemcpyDeviceToHost);
  cudaGraphExec_t x;
  cudaGraphInstantiate(&x, g, 0);
  unsigned long long used = 0;
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used);
  printf("graph memory in use: %llu\n", used);
  for (int r = 0; r < 2; r++) {
    h[0] = h[(1 << 20) - 1] = 0;
    cudaError_t e = cudaGraphLaunch(x, s);
    cudaError_t f = cudaFreeAsync(ap.dptr, s);
    cudaError_t y = cudaStreamSynchronize(s);
    printf("launch %d: %s, free outside the graph %s, sync %s: %d %d\n", r, cudaGetErrorName(e), cudaGetErrorName(f), cudaGetErrorName(y), h[0], h[(1 << 20) - 1]);
  }
  cudaGraphExecDestroy(x);
  cudaGraphDestroy(g);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used);
  printf("after destroying the graph: %llu\n", used);
  return 0;
}
