// CUDA graphs: stream capture, a child graph node, kernel node parameters,
// cudaGraphExecUpdate and cudaGraphExecKernelNodeSetParams.
#include <cstdio>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", #x, __LINE__, cudaGetErrorName(e_)); return 1; } } while (0)

__global__ void axpb(float *x, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = a * x[i] + b;
}
__global__ void addInto(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += x[i];
}

int main() {
  const int n = 1000;
  float *x, *y, h[n];
  CK(cudaMalloc(&x, n * 4)); CK(cudaMalloc(&y, n * 4));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (int i = 0; i < n; i++) h[i] = i * 0.5f;

  // 1. capture: copy in, two kernels, zero y
  cudaGraph_t g;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus st;
  CK(cudaStreamIsCapturing(s, &st));
  printf("capturing %d\n", st == cudaStreamCaptureStatusActive);
  CK(cudaMemcpyAsync(x, h, n * 4, cudaMemcpyHostToDevice, s));
  CK(cudaMemsetAsync(y, 0, n * 4, s));
  axpb<<<(n + 127) / 128, 128, 0, s>>>(x, 2.0f, 1.0f, n);
  addInto<<<(n + 127) / 128, 128, 0, s>>>(x, y, n);
  CK(cudaStreamEndCapture(s, &g));
  size_t nodes = 0;
  CK(cudaGraphGetNodes(g, nullptr, &nodes));
  printf("captured nodes %zu\n", nodes);
  cudaGraphExec_t ge;
  CK(cudaGraphInstantiate(&ge, g, 0));
  for (int k = 0; k < 3; k++) CK(cudaGraphLaunch(ge, s));
  CK(cudaStreamSynchronize(s));
  CK(cudaMemcpy(h, y, n * 4, cudaMemcpyDeviceToHost));
  printf("after 3 launches y[1]=%g y[999]=%g\n", h[1], h[999]);

  // 2. same topology, other parameters: cudaGraphExecUpdate
  cudaGraph_t g2;
  for (int i = 0; i < n; i++) h[i] = 1.0f;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CK(cudaMemcpyAsync(x, h, n * 4, cudaMemcpyHostToDevice, s));
  CK(cudaMemsetAsync(y, 0, n * 4, s));
  axpb<<<(n + 127) / 128, 128, 0, s>>>(x, -3.0f, 0.25f, n);
  addInto<<<(n + 127) / 128, 128, 0, s>>>(x, y, n);
  CK(cudaStreamEndCapture(s, &g2));
  cudaGraphExecUpdateResultInfo info;
  cudaError_t ue = cudaGraphExecUpdate(ge, g2, &info);
  printf("update %s result %d\n", cudaGetErrorName(ue), (int)info.result);
  CK(cudaGraphLaunch(ge, s));
  CK(cudaStreamSynchronize(s));
  CK(cudaMemcpy(h, y, n * 4, cudaMemcpyDeviceToHost));
  printf("updated y[0]=%g y[500]=%g\n", h[0], h[500]);

  // 3. explicit graph: kernel node, child graph, set params on the exec
  cudaGraph_t outer, child;
  CK(cudaGraphCreate(&outer, 0)); CK(cudaGraphCreate(&child, 0));
  float a = 1.5f, b = 2.0f;
  int nn = n;
  void *kargs[] = {&x, &a, &b, &nn};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)axpb;
  kp.gridDim = dim3((n + 255) / 256);
  kp.blockDim = dim3(256);
  kp.kernelParams = kargs;
  cudaGraphNode_t kn, cn, an;
  CK(cudaGraphAddKernelNode(&kn, outer, nullptr, 0, &kp));
  void *aargs[] = {&x, &y, &nn};
  cudaKernelNodeParams ap = {};
  ap.func = (void *)addInto;
  ap.gridDim = dim3((n + 255) / 256);
  ap.blockDim = dim3(256);
  ap.kernelParams = aargs;
  cudaGraphNode_t childKernel;
  CK(cudaGraphAddKernelNode(&childKernel, child, nullptr, 0, &ap));
  CK(cudaGraphAddChildGraphNode(&cn, outer, &kn, 1, child));
  CK(cudaGraphAddKernelNode(&an, outer, &cn, 1, &kp));
  cudaGraphExec_t oe;
  CK(cudaGraphInstantiate(&oe, outer, 0));
  for (int i = 0; i < n; i++) h[i] = 2.0f;
  CK(cudaMemcpy(x, h, n * 4, cudaMemcpyHostToDevice));
  CK(cudaMemset(y, 0, n * 4));
  CK(cudaGraphLaunch(oe, s));
  CK(cudaStreamSynchronize(s));
  float hx[2], hy[2];
  CK(cudaMemcpy(hx, x, 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hy, y, 8, cudaMemcpyDeviceToHost));
  printf("explicit x=%g y=%g\n", hx[0], hy[0]);
  float a2 = -1.0f, b2 = 0.5f;
  void *kargs2[] = {&x, &a2, &b2, &nn};
  kp.kernelParams = kargs2;
  CK(cudaGraphExecKernelNodeSetParams(oe, an, &kp));
  CK(cudaGraphLaunch(oe, s));
  CK(cudaStreamSynchronize(s));
  CK(cudaMemcpy(hx, x, 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hy, y, 8, cudaMemcpyDeviceToHost));
  printf("set params x=%g y=%g\n", hx[0], hy[0]);
  cudaGraphNodeType ty;
  CK(cudaGraphNodeGetType(cn, &ty));
  printf("child node type %d\n", (int)ty);
  CK(cudaGraphExecDestroy(oe)); CK(cudaGraphExecDestroy(ge));
  CK(cudaGraphDestroy(outer)); CK(cudaGraphDestroy(child)); CK(cudaGraphDestroy(g)); CK(cudaGraphDestroy(g2));
  CK(cudaStreamDestroy(s));
  printf("done\n");
  return 0;
}
