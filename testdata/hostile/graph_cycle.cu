// Issue 16 #3: a graph with a cycle, and the CUDA 13 edge-data signatures of
// cudaGraphAddDependencies / RemoveDependencies / GetEdges.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void k(int *p) { atomicAdd(p, 1); }
#if CUDART_VERSION >= 13000  // CUDA 13: edge data in every edge call
#define ADD(g, a, b) cudaGraphAddDependencies(g, a, b, NULL, 1)
#define REMOVE(g, a, b) cudaGraphRemoveDependencies(g, a, b, NULL, 1)
#define EDGES(g, f, t, e, n) cudaGraphGetEdges(g, f, t, e, n)
#else
#define ADD(g, a, b) cudaGraphAddDependencies(g, a, b, 1)
#define REMOVE(g, a, b) cudaGraphRemoveDependencies(g, a, b, 1)
#define EDGES(g, f, t, e, n) cudaGraphGetEdges_v2(g, f, t, e, n)
#endif
static void report(const char *what, cudaError_t e) { printf("%s: %s\n", what, cudaGetErrorName(e)); }
int main() {
  printf("CUDART_VERSION %d\n", CUDART_VERSION);
  int *d;
  cudaMalloc(&d, 4);
  cudaMemset(d, 0, 4);
  for (int shape = 0; shape < 3; shape++) {
    cudaGraph_t g;
    cudaGraphCreate(&g, 0);
    cudaGraphNode_t n[3];
    cudaKernelNodeParams kp = {};
    void *args[] = {&d};
    kp.func = (void *)k; kp.gridDim = dim3(1); kp.blockDim = dim3(1); kp.kernelParams = args;
    for (int i = 0; i < 3; i++) cudaGraphAddKernelNode(&n[i], g, NULL, 0, &kp);
    printf("shape %d (%s)\n", shape, shape == 0 ? "a->b, b->a" : shape == 1 ? "a->b->c->a" : "a->a");
    if (shape == 0) {
      report("add a->b", ADD(g, &n[0], &n[1]));
      report("add b->a", ADD(g, &n[1], &n[0]));
    } else if (shape == 1) {
      report("add a->b", ADD(g, &n[0], &n[1]));
      report("add b->c", ADD(g, &n[1], &n[2]));
      report("add c->a", ADD(g, &n[2], &n[0]));
    } else {
      report("add a->a", ADD(g, &n[0], &n[0]));
    }
    size_t ne = 0;
    report("get edges count", EDGES(g, NULL, NULL, NULL, &ne));
    printf("edges %zu\n", ne);
    cudaGraphExec_t x;
    cudaError_t e = cudaGraphInstantiate(&x, g, 0);
    report("instantiate", e);
    report("last error", cudaGetLastError());
    if (e == cudaSuccess) {
      report("launch", cudaGraphLaunch(x, 0));
      report("sync", cudaDeviceSynchronize());
      cudaGraphExecDestroy(x);
    }
    if (shape == 0) {
      report("remove b->a", REMOVE(g, &n[1], &n[0]));
      e = cudaGraphInstantiate(&x, g, 0);
      report("instantiate after remove", e);
      if (e == cudaSuccess) {
        report("launch", cudaGraphLaunch(x, 0));
        report("sync", cudaDeviceSynchronize());
      }
      cudaGraphEdgeData ed[4] = {};
      cudaGraphNode_t from[4], to[4];
      ne = 4;
      report("get edges", EDGES(g, from, to, ed, &ne));
      printf("edges %zu first %s type %d\n", ne, ne && from[0] == n[0] && to[0] == n[1] ? "a->b" : "?", ne ? (int)ed[0].type : -1);
    }
    cudaGraphDestroy(g);
  }
  int h = 0;
  cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost);
  printf("kernel ran %d times\n", h);
  return 0;
}
