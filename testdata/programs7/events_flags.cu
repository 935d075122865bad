// Events and their flags (timing disabled, blocking sync, interprocess,
// record with flags), elapsed-time errors, device flags, and peer access
// queries on a single GPU.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void spin(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i;
  for (int k = 0; k < n; k++) v = v * 1103515245 + 12345;
  p[i] = v;
}

int main() {
  unsigned int fl = 999;
  cudaError_t e = cudaGetDeviceFlags(&fl);
  printf("device flags before any call: %s %#x\n", cudaGetErrorName(e), fl);
  e = cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync | cudaDeviceMapHost);
  printf("set flags blocking-sync|map-host: %s\n", cudaGetErrorName(e));
  cudaGetDeviceFlags(&fl);
  printf("device flags now %#x\n", fl);
  e = cudaSetDeviceFlags(0xffff);
  printf("set flags 0xffff: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield);
  printf("set flags spin|yield: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaSetDeviceFlags(cudaDeviceScheduleAuto);
  printf("set flags auto: %s\n", cudaGetErrorName(e));
  cudaGetDeviceFlags(&fl);
  printf("device flags now %#x\n", fl);

  int *d;
  cudaMalloc(&d, 1 << 20);
  cudaEvent_t a, b, nt, bs, ip, fresh;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventCreateWithFlags(&nt, cudaEventDisableTiming);
  cudaEventCreateWithFlags(&bs, cudaEventBlockingSync);
  e = cudaEventCreateWithFlags(&ip, cudaEventInterprocess);
  printf("interprocess without disable-timing: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaEventCreateWithFlags(&ip, cudaEventInterprocess | cudaEventDisableTiming);
  printf("interprocess with disable-timing: %s\n", cudaGetErrorName(e));
  e = cudaEventCreateWithFlags(&fresh, 0x80);
  printf("event flags 0x80: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  cudaEventCreate(&fresh);

  float ms = -1;
  e = cudaEventElapsedTime(&ms, a, b);
  printf("elapsed, neither recorded: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaEventQuery(fresh);
  printf("query never-recorded event: %s\n", cudaGetErrorName(e));
  e = cudaEventSynchronize(fresh);
  printf("synchronize never-recorded event: %s\n", cudaGetErrorName(e));

  cudaEventRecord(a, 0);
  spin<<<64, 256>>>(d, 100);
  cudaEventRecord(nt, 0);
  cudaEventRecord(b, 0);
  cudaEventRecord(bs, 0);
  cudaEventRecord(ip, 0);
  e = cudaEventSynchronize(bs);
  printf("blocking-sync event synchronize: %s\n", cudaGetErrorName(e));
  cudaEventSynchronize(b);
  e = cudaEventElapsedTime(&ms, a, b);
  printf("elapsed a->b: %s positive %d\n", cudaGetErrorName(e), ms > 0);
  e = cudaEventElapsedTime(&ms, b, a);
  printf("elapsed b->a: %s negative %d\n", cudaGetErrorName(e), ms < 0);
  e = cudaEventElapsedTime(&ms, a, nt);
  printf("elapsed to a timing-disabled event: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaEventElapsedTime(&ms, nt, a);
  printf("elapsed from a timing-disabled event: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaEventElapsedTime(&ms, a, fresh);
  printf("elapsed to a never-recorded event: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaEventElapsedTime(nullptr, a, b);
  printf("elapsed into null: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaEventElapsedTime(&ms, a, a);
  printf("elapsed a->a: %s zero %d\n", cudaGetErrorName(e), ms == 0.0f);

  cudaStream_t s;
  cudaStreamCreate(&s);
  e = cudaEventRecordWithFlags(a, s, cudaEventRecordDefault);
  printf("record with default flag: %s\n", cudaGetErrorName(e));
  e = cudaEventRecordWithFlags(a, s, cudaEventRecordExternal);
  printf("record external outside capture: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaEventRecordWithFlags(a, s, 0x10);
  printf("record flags 0x10: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  cudaStreamSynchronize(s);
  e = cudaEventDestroy(a);
  printf("destroy: %s\n", cudaGetErrorName(e));

  // Peer access on one GPU.
  int n = 0;
  cudaGetDeviceCount(&n);
  printf("device count %d\n", n);
  int can = -1;
  e = cudaDeviceCanAccessPeer(&can, 0, 0);
  printf("can access peer 0->0: %s %d\n", cudaGetErrorName(e), can);
  e = cudaDeviceCanAccessPeer(&can, 0, 1);
  printf("can access peer 0->1: %s %d\n", cudaGetErrorName(e), can);
  cudaGetLastError();
  e = cudaDeviceEnablePeerAccess(0, 0);
  printf("enable peer access to self: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaDeviceEnablePeerAccess(1, 0);
  printf("enable peer access to 1: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaDeviceDisablePeerAccess(0);
  printf("disable peer access to self: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  int perf = -1;
  e = cudaDeviceGetP2PAttribute(&perf, cudaDevP2PAttrPerformanceRank, 0, 0);
  printf("P2P attribute 0->0: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  e = cudaSetDevice(1);
  printf("set device 1: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  int cur = -1;
  cudaGetDevice(&cur);
  printf("current device %d\n", cur);
  cudaDeviceProp want = {};
  want.major = 9;
  int chosen = -1;
  e = cudaChooseDevice(&chosen, &want);
  printf("choose device 9.x: %s %d\n", cudaGetErrorName(e), chosen);
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
