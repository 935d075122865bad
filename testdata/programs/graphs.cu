// CUDA graphs: stream capture (one stream, and forked across two with
// events), the explicit API (kernel, memset, memcpy, host, child-graph,
// empty, event and memory nodes), parameter updates, cudaGraphExecUpdate,
// stream-ordered allocation and memory pools.
#include "check.h"

__global__ void addTo(int *p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += v;
}
__global__ void mulBy(int *p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= v;
}
static void countCall(void *p) { ++*(int *)p; }

static const int n = 1024;
static long total(const int *h) {
  long s = 0;
  for (int i = 0; i < n; i++) s += h[i];
  return s;
}

int main() {
  int *d, *h;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMallocHost(&h, n * sizeof(int)));
  cudaStream_t s, t;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaStreamCreate(&t));

  // Capture: set, add 3, multiply by 2, copy back, count on the host.
  int hostCalls = 0;
  for (int i = 0; i < n; i++) h[i] = i;
  cudaStreamCaptureStatus st;
  CHECK(cudaStreamIsCapturing(s, &st));
  printf("capturing before: %d\n", (int)st);
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaStreamIsCapturing(s, &st));
  unsigned long long id = 0;
  CHECK(cudaStreamGetCaptureInfo(s, &st, &id));
  printf("capturing during: %d, capture id set: %s\n", (int)st, id ? "yes" : "no");
  CHECK(cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, s));
  addTo<<<n / 256, 256, 0, s>>>(d, n, 3);
  mulBy<<<n / 256, 256, 0, s>>>(d, n, 2);
  CHECK(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaLaunchHostFunc(s, countCall, &hostCalls));
  cudaGraph_t g;
  CHECK(cudaStreamEndCapture(s, &g));
  CHECK(cudaStreamIsCapturing(s, &st));
  size_t count = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &count));
  printf("capturing after: %d; captured %zu nodes; host calls so far %d\n", (int)st, count, hostCalls);
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  for (int r = 0; r < 3; r++) {
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    printf("launch %d: sum %ld, h[5] %d, host calls %d\n", r, total(h), h[5], hostCalls);
  }
  CHECK(cudaGraphExecDestroy(x));
  CHECK(cudaGraphDestroy(g));

  // Fork and join: t joins the capture through an event, works in parallel, s waits for it.
  cudaEvent_t fork, join;
  CHECK(cudaEventCreate(&fork));
  CHECK(cudaEventCreate(&join));
  CHECK(cudaMemset(d, 0, n * sizeof(int)));
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaEventRecord(fork, s));
  CHECK(cudaStreamWaitEvent(t, fork, 0));
  addTo<<<n / 512, 256, 0, s>>>(d, n / 2, 1);
  addTo<<<n / 512, 256, 0, t>>>(d + n / 2, n / 2, 2);
  CHECK(cudaEventRecord(join, t));
  CHECK(cudaStreamWaitEvent(s, join, 0));
  mulBy<<<n / 256, 256, 0, s>>>(d, n, 10);
  CHECK(cudaStreamEndCapture(s, &g));
  CHECK(cudaGraphGetNodes(g, nullptr, &count));
  CHECK(cudaGraphInstantiate(&x, g, 0));
  CHECK(cudaGraphLaunch(x, s));
  CHECK(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  printf("fork/join capture: %zu nodes, sum %ld\n", count, total(h));
  CHECK(cudaGraphExecDestroy(x));
  CHECK(cudaGraphDestroy(g));

  // Explicit graph: memset, then two kernels in parallel, a child graph, a host node.
  cudaGraph_t eg, child;
  CHECK(cudaGraphCreate(&eg, 0));
  CHECK(cudaGraphCreate(&child, 0));
  cudaGraphNode_t ms, k1, k2, ch, host, empty, rec, cp;
  cudaMemsetParams mp = {};
  mp.dst = d;
  mp.value = 0;
  mp.elementSize = 4;
  mp.width = n;
  mp.height = 1;
  CHECK(cudaGraphAddMemsetNode(&ms, eg, nullptr, 0, &mp));
  int half = n / 2, one = 1, five = 5;
  int *d2 = d + n / 2;
  void *a1[] = {&d, &half, &one};
  void *a2[] = {&d2, &half, &five};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)addTo;
  kp.gridDim = dim3(n / 512);
  kp.blockDim = dim3(256);
  kp.kernelParams = a1;
  CHECK(cudaGraphAddKernelNode(&k1, eg, &ms, 1, &kp));
  kp.kernelParams = a2;
  CHECK(cudaGraphAddKernelNode(&k2, eg, &ms, 1, &kp));
  int whole = n, three = 3;
  void *a3[] = {&d, &whole, &three};
  cudaGraphNode_t cm;
  cudaKernelNodeParams cp3 = {};
  cp3.func = (void *)mulBy;
  cp3.gridDim = dim3(n / 256);
  cp3.blockDim = dim3(256);
  cp3.kernelParams = a3;
  CHECK(cudaGraphAddKernelNode(&cm, child, nullptr, 0, &cp3));
  cudaGraphNode_t both[] = {k1, k2};
  CHECK(cudaGraphAddChildGraphNode(&ch, eg, both, 2, child));
  CHECK(cudaGraphAddEmptyNode(&empty, eg, &ch, 1));
  CHECK(cudaGraphAddMemcpyNode1D(&cp, eg, &empty, 1, h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
  cudaEvent_t done;
  CHECK(cudaEventCreate(&done));
  CHECK(cudaGraphAddEventRecordNode(&rec, eg, &cp, 1, done));
  cudaHostNodeParams hp = {countCall, &hostCalls};
  CHECK(cudaGraphAddHostNode(&host, eg, &rec, 1, &hp));
  CHECK(cudaGraphGetNodes(eg, nullptr, &count));
  cudaGraphNodeType type;
  CHECK(cudaGraphNodeGetType(ch, &type));
  printf("explicit graph: %zu nodes, child node type %d\n", count, (int)type);
  CHECK(cudaGraphInstantiate(&x, eg, 0));
  CHECK(cudaGraphLaunch(x, s));
  CHECK(cudaEventSynchronize(done));
  CHECK(cudaStreamSynchronize(s));
  printf("explicit graph: sum %ld, h[0] %d, h[%d] %d, host calls %d\n", total(h), h[0], n - 1, h[n - 1], hostCalls);
  // New parameters for one kernel node of the instantiated graph.
  int seven = 7;
  void *a4[] = {&d, &half, &seven};
  kp.kernelParams = a4;
  CHECK(cudaGraphExecKernelNodeSetParams(x, k1, &kp));
  CHECK(cudaGraphLaunch(x, s));
  CHECK(cudaStreamSynchronize(s));
  printf("after cudaGraphExecKernelNodeSetParams: h[0] %d, h[%d] %d\n", h[0], n - 1, h[n - 1]);
  // Update from a graph of the same shape, then from one of another shape.
  cudaGraph_t same;
  CHECK(cudaGraphClone(&same, eg));
  cudaGraphExecUpdateResultInfo info;
  CHECK(cudaGraphExecUpdate(x, same, &info));
  CHECK(cudaGraphLaunch(x, s));
  CHECK(cudaStreamSynchronize(s));
  printf("cudaGraphExecUpdate from a clone: result %d, h[0] %d\n", (int)info.result, h[0]);
  cudaGraphNode_t extra;
  CHECK(cudaGraphAddEmptyNode(&extra, same, nullptr, 0));
  cudaError_t ue = cudaGraphExecUpdate(x, same, &info);
  printf("cudaGraphExecUpdate after adding a node: %s, result %d\n", cudaGetErrorName(ue), (int)info.result);
  cudaGetLastError();
  CHECK(cudaGraphExecDestroy(x));
  CHECK(cudaGraphDestroy(same));
  CHECK(cudaGraphDestroy(child));
  CHECK(cudaGraphDestroy(eg));

  // Memory nodes: the graph allocates, uses and frees its own buffer.
  cudaGraph_t mg;
  CHECK(cudaGraphCreate(&mg, 0));
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = n * sizeof(int);
  cudaGraphNode_t an, mz, mk, mc, fr;
  CHECK(cudaGraphAddMemAllocNode(&an, mg, nullptr, 0, &ap));
  int *buf = (int *)ap.dptr;
  printf("allocation node gave an address: %s\n", buf ? "yes" : "no");
  CHECK(cudaGraphAddMemsetNode(&mz, mg, &an, 1, &(mp = {buf, 0, 0, 4, (size_t)n, 1})));
  int nine = 9;
  void *a5[] = {&buf, &whole, &nine};
  kp.func = (void *)addTo;
  kp.gridDim = dim3(n / 256);
  kp.kernelParams = a5;
  CHECK(cudaGraphAddKernelNode(&mk, mg, &mz, 1, &kp));
  CHECK(cudaGraphAddMemcpyNode1D(&mc, mg, &mk, 1, h, buf, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaGraphAddMemFreeNode(&fr, mg, &mc, 1, buf));
  CHECK(cudaGraphInstantiate(&x, mg, 0));
  for (int r = 0; r < 2; r++) {
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    printf("memory-node graph launch %d: sum %ld\n", r, total(h));
  }
  CHECK(cudaGraphExecDestroy(x));
  CHECK(cudaGraphDestroy(mg));

  // Stream-ordered allocation from the default pool and from a pool of its own.
  cudaMemPool_t pool, mine;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  unsigned long long threshold = 1 << 20, back = 0;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &back));
  int *p1;
  CHECK(cudaMallocAsync(&p1, n * sizeof(int), s));
  CHECK(cudaMemsetAsync(p1, 0, n * sizeof(int), s));
  addTo<<<n / 256, 256, 0, s>>>(p1, n, 4);
  CHECK(cudaMemcpyAsync(h, p1, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  unsigned long long used = 0;
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
  CHECK(cudaFreeAsync(p1, s));
  CHECK(cudaStreamSynchronize(s));
  printf("cudaMallocAsync: sum %ld, release threshold %llu, pool in use >= the allocation: %s\n", total(h), back, used >= n * sizeof(int) ? "yes" : "no");
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  CHECK(cudaMemPoolCreate(&mine, &props));
  int *p2;
  CHECK(cudaMallocFromPoolAsync(&p2, n * sizeof(int), mine, s));
  CHECK(cudaMemsetAsync(p2, 1, n * sizeof(int), s));
  CHECK(cudaMemcpyAsync(h, p2, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaFreeAsync(p2, s));
  CHECK(cudaStreamSynchronize(s));
  printf("cudaMallocFromPoolAsync: h[0] = %#x\n", h[0]);
  CHECK(cudaMemPoolDestroy(mine));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaStreamDestroy(t));
  CHECK(cudaFree(d));
  CHECK(cudaFreeHost(h));
  printf("Test PASSED\n");
  return 0;
}
