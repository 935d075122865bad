// Runtime calls the samples and tutorials use: cache configuration,
// CUDART_CB callbacks, pitched and 3D copies, peer copies on one device,
// function attributes, occupancy, cooperative launches.
#include "check.h"
#include <cstring>

__global__ void twice(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= 2;
}
__global__ void __launch_bounds__(128) bounded(float *p) { p[threadIdx.x] = 1.0f; }

static int calls;
static void CUDART_CB onDone(cudaStream_t, cudaError_t status, void *) { calls += status == cudaSuccess; }

int main() {
  cudaFuncCache cache;
  CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
  CHECK(cudaDeviceGetCacheConfig(&cache));
  CHECK(cudaFuncSetCacheConfig(twice, cudaFuncCachePreferL1));
  printf("cache config read back: %d\n", (int)cache);
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaStreamAddCallback(s, onDone, nullptr, 0));
  CHECK(cudaStreamSynchronize(s));
  printf("CUDART_CB callback ran: %d\n", calls);

  // 2D: a 5x4 block of ints inside pitched device memory and back.
  int host[4][5], back[4][5];
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 5; x++) host[y][x] = 10 * y + x;
  int *d2;
  size_t pitch;
  CHECK(cudaMallocPitch(&d2, &pitch, 5 * sizeof(int), 4));
  CHECK(cudaMemcpy2D(d2, pitch, host, 5 * sizeof(int), 5 * sizeof(int), 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset2D(d2, pitch, 0, sizeof(int), 4));
  memset(back, 0xff, sizeof back);
  CHECK(cudaMemcpy2D(back, 5 * sizeof(int), d2, pitch, 5 * sizeof(int), 4, cudaMemcpyDeviceToHost));
  printf("2D: pitch >= row: %s; row 2: %d %d %d %d %d\n", pitch >= 5 * sizeof(int) ? "yes" : "no", back[2][0], back[2][1], back[2][2], back[2][3], back[2][4]);

  // 3D: a 4x3x2 box.
  cudaExtent ext = make_cudaExtent(4 * sizeof(int), 3, 2);
  cudaPitchedPtr p3;
  CHECK(cudaMalloc3D(&p3, ext));
  int box[2][3][4], box2[2][3][4];
  for (int i = 0; i < 24; i++) ((int *)box)[i] = i;
  cudaMemcpy3DParms up = {};
  up.srcPtr = make_cudaPitchedPtr(box, 4 * sizeof(int), 4, 3);
  up.dstPtr = p3;
  up.extent = ext;
  up.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&up));
  cudaMemcpy3DParms down = {};
  down.srcPtr = p3;
  down.dstPtr = make_cudaPitchedPtr(box2, 4 * sizeof(int), 4, 3);
  down.extent = ext;
  down.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&down));
  printf("3D round trip equal: %s; box2[1][2][3] = %d\n", memcmp(box, box2, sizeof box) ? "no" : "yes", box2[1][2][3]);

  // Peer copies on one device.
  int can = -1;
  cudaError_t pe = cudaDeviceCanAccessPeer(&can, 0, 0);
  printf("cudaDeviceCanAccessPeer(0, 0): %s\n", cudaGetErrorName(pe));
  cudaGetLastError();
  int *a, *b, ha[8] = {1, 2, 3, 4, 5, 6, 7, 8}, hb[8] = {0};
  CHECK(cudaMalloc(&a, sizeof ha));
  CHECK(cudaMalloc(&b, sizeof ha));
  CHECK(cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpyPeer(b, 0, a, 0, sizeof ha));
  CHECK(cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost));
  printf("can access peer 0->0: %d; cudaMemcpyPeer: %d %d\n", can, hb[0], hb[7]);

  // Function attributes and occupancy.
  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, bounded));
  printf("bounded: maxThreadsPerBlock %d\n", fa.maxThreadsPerBlock);
  int blocks = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, twice, 1024, 0));
  printf("twice: %d blocks of 1024 per SM\n", blocks);

  // Cooperative launches: a grid that fits runs, one that does not is refused.
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  int coop = 0;
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
  int n = 8;
  void *args[] = {&a, &n};
  CHECK(cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice));
  CHECK(cudaLaunchCooperativeKernel((void *)twice, dim3(1), dim3(256), args, 0, s));
  CHECK(cudaMemcpy(hb, a, sizeof hb, cudaMemcpyDeviceToHost));
  printf("cooperative launch supported %d: %d %d\n", coop, hb[0], hb[7]);
  cudaError_t e = cudaLaunchCooperativeKernel((void *)twice, dim3(sms * blocks + 1), dim3(1024), args, 0, s);
  printf("cooperative grid of one block more than fits: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaStreamDestroy(s));
  printf("Test PASSED\n");
  return 0;
}
