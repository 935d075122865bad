// Stream capture: capture modes, cudaStreamIsCapturing and
// cudaStreamGetCaptureInfo, a fork/join across streams through events,
// calls that are illegal while capturing, and the captured graph launched
// several times.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void scale(float *y, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] *= s;
}

static const char *status(cudaStreamCaptureStatus s) {
  switch (s) {
  case cudaStreamCaptureStatusNone: return "none";
  case cudaStreamCaptureStatusActive: return "active";
  case cudaStreamCaptureStatusInvalidated: return "invalidated";
  }
  return "?";
}

static void show(const char *what, cudaStream_t s) {
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  cudaError_t e = cudaStreamIsCapturing(s, &st);
  printf("%-34s isCapturing %s %s\n", what, cudaGetErrorName(e), status(st));
}

int main() {
  const int n = 4096;
  float *x, *y, h[n];
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  for (int i = 0; i < n; i++) h[i] = (float)(i % 97) * 0.25f;
  cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(y, 0, n * sizeof(float));

  cudaStream_t s1, s2;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  cudaEvent_t fork, join;
  cudaEventCreateWithFlags(&fork, cudaEventDisableTiming);
  cudaEventCreateWithFlags(&join, cudaEventDisableTiming);

  show("before capture", s1);
  cudaError_t e = cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  printf("begin capture (global): %s\n", cudaGetErrorName(e));
  show("after begin", s1);
  show("other stream", s2);
  axpy<<<n / 256, 256, 0, s1>>>(2.0f, x, y, n);
  cudaEventRecord(fork, s1);
  cudaStreamWaitEvent(s2, fork, 0);
  show("s2 after waiting on fork", s2);
  scale<<<n / 256, 256, 0, s2>>>(y, 0.5f, n);
  cudaEventRecord(join, s2);
  cudaStreamWaitEvent(s1, join, 0);
  axpy<<<n / 256, 256, 0, s1>>>(1.0f, x, y, n);

  cudaStreamCaptureStatus st;
  unsigned long long id = 0;
  cudaGraph_t g0 = nullptr;
  const cudaGraphNode_t *deps = nullptr;
  const cudaGraphEdgeData *edges = nullptr;
  size_t ndeps = 99;
  e = cudaStreamGetCaptureInfo(s1, &st, &id, &g0, &deps, &edges, &ndeps);
  printf("capture info: %s status %s id>0 %d graph %s deps %zu\n", cudaGetErrorName(e), status(st), id > 0,
         g0 ? "set" : "null", ndeps);
  size_t nn = 0;
  cudaGraphGetNodes(g0, nullptr, &nn);
  printf("nodes so far: %zu\n", nn);

  // Illegal while a global-mode capture is active in this thread.
  float *tmp = nullptr;
  e = cudaMalloc(&tmp, 256);
  printf("cudaMalloc during global capture: %s\n", cudaGetErrorName(e));
  e = cudaStreamQuery(s1);
  printf("cudaStreamQuery on capturing stream: %s\n", cudaGetErrorName(e));
  show("after illegal calls", s1);
  cudaGraph_t g = nullptr;
  e = cudaStreamEndCapture(s1, &g);
  printf("end capture: %s graph %s\n", cudaGetErrorName(e), g ? "set" : "null");
  cudaGetLastError();
  if (tmp) cudaFree(tmp);

  // Again, cleanly, in relaxed mode (cudaMalloc is allowed there).
  e = cudaStreamBeginCapture(s1, cudaStreamCaptureModeRelaxed);
  printf("begin capture (relaxed): %s\n", cudaGetErrorName(e));
  axpy<<<n / 256, 256, 0, s1>>>(2.0f, x, y, n);
  cudaEventRecord(fork, s1);
  cudaStreamWaitEvent(s2, fork, 0);
  scale<<<n / 256, 256, 0, s2>>>(y, 0.5f, n);
  cudaEventRecord(join, s2);
  cudaStreamWaitEvent(s1, join, 0);
  e = cudaMalloc(&tmp, 256);
  printf("cudaMalloc during relaxed capture: %s\n", cudaGetErrorName(e));
  axpy<<<n / 256, 256, 0, s1>>>(1.0f, x, y, n);
  cudaMemcpyAsync(h, y, sizeof h, cudaMemcpyDeviceToHost, s1);
  e = cudaStreamEndCapture(s1, &g);
  printf("end capture: %s graph %s\n", cudaGetErrorName(e), g ? "set" : "null");
  cudaFree(tmp);
  cudaGraphGetNodes(g, nullptr, &nn);
  size_t ne = 0;
  cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &ne);
  size_t nr = 0;
  cudaGraphGetRootNodes(g, nullptr, &nr);
  printf("captured graph: %zu nodes %zu edges %zu roots\n", nn, ne, nr);
  cudaGraphNode_t nodes[16];
  nn = 16;
  cudaGraphGetNodes(g, nodes, &nn);
  int kinds[16] = {0};
  for (size_t i = 0; i < nn; i++) {
    cudaGraphNodeType t;
    cudaGraphNodeGetType(nodes[i], &t);
    kinds[t]++;
  }
  printf("node types: kernel %d memcpy %d memset %d event-record %d wait %d empty %d\n", kinds[cudaGraphNodeTypeKernel],
         kinds[cudaGraphNodeTypeMemcpy], kinds[cudaGraphNodeTypeMemset], kinds[cudaGraphNodeTypeEventRecord],
         kinds[cudaGraphNodeTypeWaitEvent], kinds[cudaGraphNodeTypeEmpty]);

  cudaGraphExec_t ge;
  e = cudaGraphInstantiate(&ge, g, 0);
  printf("instantiate: %s\n", cudaGetErrorName(e));
  cudaMemset(y, 0, n * sizeof(float));
  for (int it = 0; it < 3; it++) {
    e = cudaGraphLaunch(ge, s1);
    cudaStreamSynchronize(s1);
    double sum = 0;
    for (int i = 0; i < n; i++) sum += h[i];
    printf("launch %d: %s y[5]=%g y[4000]=%g sum=%.3f\n", it, cudaGetErrorName(e), h[5], h[4000], sum);
  }

  // Thread-local mode, and ending a capture on a stream that is not capturing.
  e = cudaStreamBeginCapture(s2, cudaStreamCaptureModeThreadLocal);
  printf("begin capture (thread-local): %s\n", cudaGetErrorName(e));
  e = cudaStreamBeginCapture(s2, cudaStreamCaptureModeGlobal);
  printf("begin capture again: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  scale<<<1, 32, 0, s2>>>(y, 1.0f, 32);
  cudaGraph_t g2 = nullptr;
  e = cudaStreamEndCapture(s2, &g2);
  printf("end thread-local capture: %s graph %s\n", cudaGetErrorName(e), g2 ? "set" : "null");
  e = cudaStreamEndCapture(s2, &g2);
  printf("end capture when not capturing: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal);
  printf("capture the legacy stream: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  e = cudaThreadExchangeStreamCaptureMode(&mode);
  printf("exchange capture mode: %s previous %d\n", cudaGetErrorName(e), (int)mode);
  cudaThreadExchangeStreamCaptureMode(&mode);

  cudaGraphExecDestroy(ge);
  cudaGraphDestroy(g);
  if (g2) cudaGraphDestroy(g2);
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
