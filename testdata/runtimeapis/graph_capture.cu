// A conditional node added to a stream capture, as cuda-samples'
// graphConditionalNodes does (capturedWhileGraph): the capture's graph
// from cudaStreamGetCaptureInfo, the node added after the captured kernel,
// the capture's dependencies set to it with
// cudaStreamUpdateCaptureDependencies, a kernel captured after it, and
// the body filled by cudaStreamBeginCaptureToGraph. Self-checking: the
// loop runs *counter times, then the last kernel adds 100.
#include <cstdio>
__global__ void start(int *counter, int *x, cudaGraphConditionalHandle h) {
  *x = 0;
  cudaGraphSetConditional(h, *counter > 0);
}
__global__ void body(int *counter, int *x, cudaGraphConditionalHandle h) {
  *x += 1;
  cudaGraphSetConditional(h, --*counter > 0);
}
__global__ void last(int *x) { *x += 100; }
#define CHECK(e) do { cudaError_t r = (e); if (r) { printf("%s: %s\n", #e, cudaGetErrorName(r)); return 1; } } while (0)
int main() {
  int *counter, *x;
  CHECK(cudaMalloc(&counter, 4));
  CHECK(cudaMalloc(&x, 4));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus status;
  cudaGraph_t g;
  const cudaGraphNode_t *deps;
  size_t ndeps;
  CHECK(cudaStreamGetCaptureInfo(s, &status, NULL, &g, &deps, NULL, &ndeps));
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphConditionalHandleCreate(&h, g));
  start<<<1, 1, 0, s>>>(counter, x, h);
  CHECK(cudaStreamGetCaptureInfo(s, &status, NULL, &g, &deps, NULL, &ndeps));
  cudaGraphNodeParams p = {cudaGraphNodeTypeConditional};
  p.conditional.handle = h;
  p.conditional.type = cudaGraphCondTypeWhile;
  p.conditional.size = 1;
  cudaGraphNode_t node;
  CHECK(cudaGraphAddNode(&node, g, deps, NULL, ndeps, &p));
  cudaGraph_t bodyGraph = p.conditional.phGraph_out[0];
  CHECK(cudaStreamUpdateCaptureDependencies(s, &node, NULL, 1, cudaStreamSetCaptureDependencies));
  last<<<1, 1, 0, s>>>(x);
  CHECK(cudaStreamEndCapture(s, &g));
  cudaStream_t bs;
  CHECK(cudaStreamCreate(&bs));
  CHECK(cudaStreamBeginCaptureToGraph(bs, bodyGraph, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal));
  body<<<1, 1, 0, bs>>>(counter, x, h);
  CHECK(cudaStreamEndCapture(bs, nullptr));
  size_t n = 0, nb = 0;
  CHECK(cudaGraphGetNodes(g, NULL, &n));
  CHECK(cudaGraphGetNodes(bodyGraph, NULL, &nb));
  printf("graph nodes %zu, body nodes %zu\n", n, nb);
  cudaGraphExec_t ge;
  CHECK(cudaGraphInstantiate(&ge, g, 0));
  int fails = 0;
  const int counts[] = {0, 1, 7};
  for (int c : counts) {
    CHECK(cudaMemcpy(counter, &c, 4, cudaMemcpyHostToDevice));
    CHECK(cudaGraphLaunch(ge, s));
    CHECK(cudaStreamSynchronize(s));
    int hx = 0;
    CHECK(cudaMemcpy(&hx, x, 4, cudaMemcpyDeviceToHost));
    printf("counter %d: x %d\n", c, hx);
    fails += hx != c + 100;
  }
  printf("%s\n", fails ? "FAIL" : "PASS");
  return fails != 0;
}
