// Stream priorities, events and queries, cross-stream waits, host
// functions and callbacks in stream order.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void spin_add(int *p, int v, long long cycles) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {}
  atomicAdd(p, v);
}
__global__ void scale(int *p, int f) { *p *= f; }

static int order[16];
static int norder = 0;
static void CUDART_CB host_fn(void *arg) { order[norder++] = (int)(size_t)arg; }
static void CUDART_CB callback(cudaStream_t, cudaError_t status, void *arg) {
  order[norder++] = 100 + (int)(size_t)arg + (status == cudaSuccess ? 0 : 1000);
}

int main() {
  int least = 0, greatest = 0;
  cudaError_t e = cudaDeviceGetStreamPriorityRange(&least, &greatest);
  printf("priority range: least %d greatest %d (%s)\n", least, greatest, cudaGetErrorName(e));
  cudaStream_t hi, lo, nb;
  cudaStreamCreateWithPriority(&hi, cudaStreamNonBlocking, greatest);
  cudaStreamCreateWithPriority(&lo, cudaStreamDefault, least);
  cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking);
  int prio = 99;
  unsigned flags = 99;
  cudaStreamGetPriority(hi, &prio); cudaStreamGetFlags(hi, &flags);
  printf("hi: priority %d flags %u\n", prio, flags);
  cudaStreamGetPriority(lo, &prio); cudaStreamGetFlags(lo, &flags);
  printf("lo: priority %d flags %u\n", prio, flags);
  cudaStreamGetPriority(nb, &prio);
  printf("nb: priority %d\n", prio);
  cudaStream_t clamp;
  cudaStreamCreateWithPriority(&clamp, cudaStreamNonBlocking, -100);
  cudaStreamGetPriority(clamp, &prio);
  printf("priority -100 clamped to %d\n", prio);
  cudaStreamCreateWithPriority(&clamp, cudaStreamNonBlocking, 100);
  cudaStreamGetPriority(clamp, &prio);
  printf("priority 100 clamped to %d\n", prio);

  int *d, h = 0;
  cudaMalloc(&d, sizeof(int));
  cudaMemset(d, 0, sizeof(int));
  cudaEvent_t ev, ev2, never;
  cudaEventCreate(&ev);
  cudaEventCreateWithFlags(&ev2, cudaEventDisableTiming);
  cudaEventCreate(&never);
  printf("query of an unrecorded event: %s\n", cudaGetErrorName(cudaEventQuery(never)));
  printf("sync of an unrecorded event: %s\n", cudaGetErrorName(cudaEventSynchronize(never)));
  spin_add<<<1, 1, 0, lo>>>(d, 5, 2000000LL);  // ~1 ms
  cudaEventRecord(ev, lo);
  printf("query while running: event %s stream %s\n", cudaGetErrorName(cudaEventQuery(ev)), cudaGetErrorName(cudaStreamQuery(lo)));
  cudaStreamWaitEvent(hi, ev, 0);
  scale<<<1, 1, 0, hi>>>(d, 3);  // must see the 5
  cudaLaunchHostFunc(hi, host_fn, (void *)1);
  cudaEventRecord(ev2, hi);
  cudaStreamAddCallback(hi, callback, (void *)2, 0);
  cudaLaunchHostFunc(hi, host_fn, (void *)3);
  cudaEventSynchronize(ev2);
  printf("after ev2: event %s\n", cudaGetErrorName(cudaEventQuery(ev2)));
  cudaStreamSynchronize(hi);
  printf("after sync: hi %s lo %s ev %s\n", cudaGetErrorName(cudaStreamQuery(hi)), cudaGetErrorName(cudaStreamQuery(lo)), cudaGetErrorName(cudaEventQuery(ev)));
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("value %d, host order:", h);
  for (int i = 0; i < norder; i++) printf(" %d", order[i]);
  printf("\n");
  float ms = -1;
  e = cudaEventElapsedTime(&ms, ev, ev2);
  printf("elapsed with a DisableTiming event: %s\n", cudaGetErrorName(e));
  e = cudaEventElapsedTime(&ms, ev, never);
  printf("elapsed with an unrecorded event: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  // Default stream ordering with a blocking stream, not with a non-blocking one.
  cudaMemset(d, 0, sizeof(int));
  spin_add<<<1, 1, 0, lo>>>(d, 7, 1000000LL);
  scale<<<1, 1>>>(d, 2);  // legacy default stream waits for lo
  cudaDeviceSynchronize();
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("legacy stream after lo: %d\n", h);
  // Many events on a chain.
  cudaEvent_t chain[8];
  cudaMemset(d, 0, sizeof(int));
  cudaStream_t ss[2] = {hi, nb};
  for (int i = 0; i < 8; i++) {
    cudaEventCreateWithFlags(&chain[i], cudaEventDisableTiming);
    cudaStream_t s = ss[i & 1];
    if (i > 0) cudaStreamWaitEvent(s, chain[i - 1], 0);
    spin_add<<<1, 1, 0, s>>>(d, 1 << i, 1000);
    scale<<<1, 1, 0, s>>>(d, 1);
    cudaEventRecord(chain[i], s);
  }
  cudaEventSynchronize(chain[7]);
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("chain: %d\n", h);
  for (int i = 0; i < 8; i++) cudaEventDestroy(chain[i]);
  e = cudaStreamDestroy(hi);
  printf("destroy: %s\n", cudaGetErrorName(e));
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
