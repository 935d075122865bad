// Conditional graph nodes (CUDA 12.4+): an IF node and a WHILE node whose
// handles kernels set with cudaGraphSetConditional, graph memory nodes
// (cudaGraphAddMemAllocNode/FreeNode), instantiate flags, upload, and the
// device's graph-memory attributes.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void setCond(cudaGraphConditionalHandle h, const int *flag) {
  if (threadIdx.x == 0) cudaGraphSetConditional(h, *flag != 0);
}
__global__ void bump(int *counter) {
  if (threadIdx.x == 0) atomicAdd(counter, 1);
}
// WHILE body: count down, keep looping while the count is positive.
__global__ void loopBody(cudaGraphConditionalHandle h, int *count, int *iters) {
  if (threadIdx.x == 0) {
    (*iters)++;
    int c = --(*count);
    cudaGraphSetConditional(h, c > 0);
  }
}
__global__ void fill(int *p, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}
__global__ void sum(const int *p, int n, int *out) {
  int s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += p[i];
  atomicAdd(out, s);
}

int main() {
  int *flag, *counter, *count, *iters, *out;
  cudaMalloc(&flag, 4);
  cudaMalloc(&counter, 4);
  cudaMalloc(&count, 4);
  cudaMalloc(&iters, 4);
  cudaMalloc(&out, 4);
  cudaMemset(counter, 0, 4);
  cudaStream_t s;
  cudaStreamCreate(&s);

  // IF node.
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphConditionalHandle h;
  cudaError_t e = cudaGraphConditionalHandleCreate(&h, g, 0, 0);
  printf("handle create: %s\n", cudaGetErrorName(e));
  cudaGraphNode_t nset, nif;
  void *a1[] = {&h, &flag};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)setCond;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(32);
  kp.kernelParams = a1;
  cudaGraphAddKernelNode(&nset, g, nullptr, 0, &kp);
  cudaGraphNodeParams cp = {};
  cp.type = cudaGraphNodeTypeConditional;
  cp.conditional.handle = h;
  cp.conditional.type = cudaGraphCondTypeIf;
  cp.conditional.size = 1;
  e = cudaGraphAddNode(&nif, g, &nset, nullptr, 1, &cp);
  printf("IF node: %s body %s\n", cudaGetErrorName(e), cp.conditional.phGraph_out ? "set" : "null");
  cudaGraph_t body = cp.conditional.phGraph_out[0];
  cudaGraphNode_t nb;
  void *a2[] = {&counter};
  cudaKernelNodeParams kb = kp;
  kb.func = (void *)bump;
  kb.kernelParams = a2;
  e = cudaGraphAddKernelNode(&nb, body, nullptr, 0, &kb);
  printf("body kernel: %s\n", cudaGetErrorName(e));
  cudaGraphExec_t ge;
  e = cudaGraphInstantiate(&ge, g, 0);
  printf("instantiate IF graph: %s\n", cudaGetErrorName(e));
  for (int v = 0; v < 4; v++) {
    int hv = v & 1;
    cudaMemcpy(flag, &hv, 4, cudaMemcpyHostToDevice);
    e = cudaGraphLaunch(ge, s);
    cudaStreamSynchronize(s);
    int c;
    cudaMemcpy(&c, counter, 4, cudaMemcpyDeviceToHost);
    printf("IF launch flag=%d: %s counter %d\n", hv, cudaGetErrorName(e), c);
  }

  // WHILE node, default value 1: the body runs until the count reaches 0.
  cudaGraph_t gw;
  cudaGraphCreate(&gw, 0);
  cudaGraphConditionalHandle hw;
  e = cudaGraphConditionalHandleCreate(&hw, gw, 1, cudaGraphCondAssignDefault);
  printf("while handle create: %s\n", cudaGetErrorName(e));
  cudaGraphNodeParams wp = {};
  wp.type = cudaGraphNodeTypeConditional;
  wp.conditional.handle = hw;
  wp.conditional.type = cudaGraphCondTypeWhile;
  wp.conditional.size = 1;
  cudaGraphNode_t nw;
  e = cudaGraphAddNode(&nw, gw, nullptr, nullptr, 0, &wp);
  printf("WHILE node: %s\n", cudaGetErrorName(e));
  cudaGraphNode_t nl;
  void *a3[] = {&hw, &count, &iters};
  cudaKernelNodeParams kl = kp;
  kl.func = (void *)loopBody;
  kl.kernelParams = a3;
  cudaGraphAddKernelNode(&nl, wp.conditional.phGraph_out[0], nullptr, 0, &kl);
  cudaGraphExec_t gwe;
  e = cudaGraphInstantiate(&gwe, gw, 0);
  printf("instantiate WHILE graph: %s\n", cudaGetErrorName(e));
  const int starts[] = {5, 1, 0};
  for (int start : starts) {
    cudaMemcpy(count, &start, 4, cudaMemcpyHostToDevice);
    cudaMemset(iters, 0, 4);
    e = cudaGraphLaunch(gwe, s);
    cudaStreamSynchronize(s);
    int it, c;
    cudaMemcpy(&it, iters, 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(&c, count, 4, cudaMemcpyDeviceToHost);
    printf("WHILE start %d: %s iterations %d count %d\n", start, cudaGetErrorName(e), it, c);
  }

  // Graph memory nodes: alloc, fill, sum, free.
  cudaGraph_t gm;
  cudaGraphCreate(&gm, 0);
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = 1 << 20;
  cudaGraphNode_t nalloc, nfill, nsum, nfree;
  e = cudaGraphAddMemAllocNode(&nalloc, gm, nullptr, 0, &ap);
  printf("mem alloc node: %s ptr %s\n", cudaGetErrorName(e), ap.dptr ? "set" : "null");
  int *buf = (int *)ap.dptr;
  int nElem = 1000, base = 3;
  void *a4[] = {&buf, &base, &nElem};
  cudaKernelNodeParams kf = kp;
  kf.func = (void *)fill;
  kf.gridDim = dim3(4);
  kf.blockDim = dim3(256);
  kf.kernelParams = a4;
  cudaGraphAddKernelNode(&nfill, gm, &nalloc, 1, &kf);
  void *a5[] = {&buf, &nElem, &out};
  cudaKernelNodeParams ks = kf;
  ks.func = (void *)sum;
  ks.gridDim = dim3(1);
  ks.kernelParams = a5;
  cudaGraphAddKernelNode(&nsum, gm, &nfill, 1, &ks);
  e = cudaGraphAddMemFreeNode(&nfree, gm, &nsum, 1, ap.dptr);
  printf("mem free node: %s\n", cudaGetErrorName(e));
  cudaGraphExec_t gme;
  e = cudaGraphInstantiate(&gme, gm, cudaGraphInstantiateFlagAutoFreeOnLaunch);
  printf("instantiate (auto free on launch): %s\n", cudaGetErrorName(e));
  unsigned long long flags = 0;
  cudaGraphExecGetFlags(gme, &flags);
  printf("exec flags: %llu\n", flags);
  e = cudaGraphUpload(gme, s);
  printf("upload: %s\n", cudaGetErrorName(e));
  for (int it = 0; it < 2; it++) {
    cudaMemset(out, 0, 4);
    e = cudaGraphLaunch(gme, s);
    cudaStreamSynchronize(s);
    int r;
    cudaMemcpy(&r, out, 4, cudaMemcpyDeviceToHost);
    printf("mem graph launch %d: %s sum %d\n", it, cudaGetErrorName(e), r);
  }
  size_t used = 0, reserved = 0;
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &reserved);
  printf("graph mem used %zu reserved %zu\n", used, reserved);
  e = cudaDeviceGraphMemTrim(0);
  printf("graph mem trim: %s\n", cudaGetErrorName(e));

  // A graph with a memory node cannot be instantiated for device launch
  // twice... and a kernel-only graph can.
  cudaGraphExec_t gd;
  e = cudaGraphInstantiate(&gd, g, cudaGraphInstantiateFlagDeviceLaunch);
  printf("instantiate IF graph for device launch: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaGraphInstantiate(&gd, gm, cudaGraphInstantiateFlagUseNodePriority);
  printf("instantiate with node priority: %s\n", cudaGetErrorName(e));
  cudaGetLastError();

  cudaGraphExecDestroy(gme);
  cudaGraphExecDestroy(gwe);
  cudaGraphExecDestroy(ge);
  cudaGraphDestroy(gm);
  cudaGraphDestroy(gw);
  cudaGraphDestroy(g);
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
