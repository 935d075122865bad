// A graph built node by node: memset, memcpy, kernel, host and empty
// nodes, a child graph, dependencies queried back, cudaGraphExecUpdate (a
// parameter change, then a topology change), per-node exec updates, clone.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void addk(int *p, int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += k;
}
__global__ void square(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * p[i];
}

static int hostCalls = 0;
static void CUDART_CB onHost(void *arg) {
  hostCalls++;
  printf("host node: arg %d call %d\n", *(int *)arg, hostCalls);
}

static const char *ntype(cudaGraphNodeType t) {
  switch (t) {
  case cudaGraphNodeTypeKernel: return "kernel";
  case cudaGraphNodeTypeMemcpy: return "memcpy";
  case cudaGraphNodeTypeMemset: return "memset";
  case cudaGraphNodeTypeHost: return "host";
  case cudaGraphNodeTypeGraph: return "graph";
  case cudaGraphNodeTypeEmpty: return "empty";
  default: return "other";
  }
}

static const char *uresult(cudaGraphExecUpdateResult r) {
  switch (r) {
  case cudaGraphExecUpdateSuccess: return "Success";
  case cudaGraphExecUpdateError: return "Error";
  case cudaGraphExecUpdateErrorTopologyChanged: return "TopologyChanged";
  case cudaGraphExecUpdateErrorNodeTypeChanged: return "NodeTypeChanged";
  case cudaGraphExecUpdateErrorFunctionChanged: return "FunctionChanged";
  case cudaGraphExecUpdateErrorParametersChanged: return "ParametersChanged";
  case cudaGraphExecUpdateErrorNotSupported: return "NotSupported";
  case cudaGraphExecUpdateErrorUnsupportedFunctionChange: return "UnsupportedFunctionChange";
  case cudaGraphExecUpdateErrorAttributesChanged: return "AttributesChanged";
  }
  return "?";
}

int main() {
  const int n = 1000;
  int *d, h[n], src[n];
  cudaMalloc(&d, n * sizeof(int));
  for (int i = 0; i < n; i++) src[i] = i % 13;
  int hostArg = 7;

  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphNode_t nset, ncpy, nk1, nk2, nhost, nempty, nchild, nback;

  cudaMemsetParams ms = {};
  ms.dst = d;
  ms.value = 0;
  ms.elementSize = 4;
  ms.width = n;
  ms.height = 1;
  cudaError_t e = cudaGraphAddMemsetNode(&nset, g, nullptr, 0, &ms);
  printf("memset node: %s\n", cudaGetErrorName(e));
  e = cudaGraphAddMemcpyNode1D(&ncpy, g, &nset, 1, d, src, n * sizeof(int), cudaMemcpyHostToDevice);
  printf("memcpy node: %s\n", cudaGetErrorName(e));

  int k = 5, nn = n;
  void *args1[] = {&d, &k, &nn};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)addk;
  kp.gridDim = dim3((n + 127) / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = args1;
  e = cudaGraphAddKernelNode(&nk1, g, &ncpy, 1, &kp);
  printf("kernel node: %s\n", cudaGetErrorName(e));

  cudaHostNodeParams hp = {};
  hp.fn = onHost;
  hp.userData = &hostArg;
  e = cudaGraphAddHostNode(&nhost, g, &ncpy, 1, &hp);
  printf("host node: %s\n", cudaGetErrorName(e));
  cudaGraphNode_t both[] = {nk1, nhost};
  e = cudaGraphAddEmptyNode(&nempty, g, both, 2);
  printf("empty node: %s\n", cudaGetErrorName(e));

  // A child graph: square then add 1.
  cudaGraph_t child;
  cudaGraphCreate(&child, 0);
  void *args2[] = {&d, &nn};
  cudaKernelNodeParams kq = kp;
  kq.func = (void *)square;
  kq.kernelParams = args2;
  cudaGraphNode_t c1, c2;
  cudaGraphAddKernelNode(&c1, child, nullptr, 0, &kq);
  int one = 1;
  void *args3[] = {&d, &one, &nn};
  cudaKernelNodeParams kr = kp;
  kr.kernelParams = args3;
  cudaGraphAddKernelNode(&c2, child, &c1, 1, &kr);
  e = cudaGraphAddChildGraphNode(&nchild, g, &nempty, 1, child);
  printf("child graph node: %s\n", cudaGetErrorName(e));
  e = cudaGraphAddMemcpyNode1D(&nback, g, &nchild, 1, h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  printf("copy-back node: %s\n", cudaGetErrorName(e));

  size_t count = 0, edgesN = 0, roots = 0;
  cudaGraphGetNodes(g, nullptr, &count);
  cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edgesN);
  cudaGraphGetRootNodes(g, nullptr, &roots);
  printf("graph: %zu nodes %zu edges %zu roots\n", count, edgesN, roots);
  size_t nd = 0;
  cudaGraphNodeGetDependencies(nempty, nullptr, nullptr, &nd);
  size_t ndep = 0;
  cudaGraphNodeGetDependentNodes(ncpy, nullptr, nullptr, &ndep);
  printf("empty node has %zu dependencies; the copy has %zu dependents\n", nd, ndep);
  cudaGraphNode_t all[16];
  count = 16;
  cudaGraphGetNodes(g, all, &count);
  for (size_t i = 0; i < count; i++) {
    cudaGraphNodeType t;
    cudaGraphNodeGetType(all[i], &t);
    printf("  node %zu: %s\n", i, ntype(t));
  }

  cudaGraphExec_t ge;
  e = cudaGraphInstantiate(&ge, g, 0);
  printf("instantiate: %s\n", cudaGetErrorName(e));
  cudaStream_t s;
  cudaStreamCreate(&s);
  e = cudaGraphLaunch(ge, s);
  cudaStreamSynchronize(s);
  printf("launch 1: %s h[0]=%d h[1]=%d h[12]=%d h[999]=%d hostCalls %d\n", cudaGetErrorName(e), h[0], h[1], h[12],
         h[999], hostCalls);

  // Change the kernel's k in the graph, then update the exec.
  k = 10;
  cudaGraphKernelNodeSetParams(nk1, &kp);
  cudaGraphExecUpdateResultInfo info;
  e = cudaGraphExecUpdate(ge, g, &info);
  printf("exec update (params): %s result %s\n", cudaGetErrorName(e), uresult(info.result));
  cudaGraphLaunch(ge, s);
  cudaStreamSynchronize(s);
  printf("launch 2: h[0]=%d h[1]=%d h[999]=%d\n", h[0], h[1], h[999]);

  // Exec-only change: k = 20 in the exec, the graph keeps 10.
  k = 20;
  e = cudaGraphExecKernelNodeSetParams(ge, nk1, &kp);
  printf("exec kernel node set params: %s\n", cudaGetErrorName(e));
  hostArg = 8;
  cudaGraphLaunch(ge, s);
  cudaStreamSynchronize(s);
  printf("launch 3: h[0]=%d h[1]=%d\n", h[0], h[1]);

  // A topology change cannot be applied.
  cudaGraphNode_t extra;
  cudaGraphAddEmptyNode(&extra, g, &nback, 1);
  e = cudaGraphExecUpdate(ge, g, &info);
  printf("exec update (topology): %s result %s errorNode %s\n", cudaGetErrorName(e), uresult(info.result),
         info.errorNode ? "set" : "null");
  cudaGetLastError();

  // A different kernel in the same node: function change.
  cudaGraph_t g3;
  cudaGraphClone(&g3, g);
  size_t c3 = 0;
  cudaGraphGetNodes(g3, nullptr, &c3);
  printf("clone: %zu nodes\n", c3);
  cudaGraphExec_t ge3;
  cudaGraphInstantiate(&ge3, g3, 0);
  cudaGraphNode_t k3;
  cudaGraphNodeFindInClone(&k3, nk1, g3);
  cudaKernelNodeParams ks = kq;
  cudaGraphKernelNodeSetParams(k3, &ks);
  e = cudaGraphExecUpdate(ge3, g3, &info);
  printf("exec update (function): %s result %s\n", cudaGetErrorName(e), uresult(info.result));
  cudaGetLastError();
  e = cudaGraphLaunch(ge3, s);
  cudaStreamSynchronize(s);
  printf("launch clone: %s h[1]=%d h[2]=%d\n", cudaGetErrorName(e), h[1], h[2]);

  cudaKernelNodeParams back = {};
  e = cudaGraphKernelNodeGetParams(nk1, &back);
  printf("kernel node params: %s grid %u block %u same func %d\n", cudaGetErrorName(e), back.gridDim.x, back.blockDim.x,
         back.func == (void *)addk);
  e = cudaGraphAddKernelNode(&extra, g, &c1, 1, &kp);
  printf("dependency on another graph's node: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  cudaGraphExecDestroy(ge3);
  cudaGraphDestroy(g3);
  cudaGraphExecDestroy(ge);
  cudaGraphDestroy(child);
  cudaGraphDestroy(g);
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
