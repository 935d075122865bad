// cudaStreamQuery and cudaEventQuery answered from simulated time: right
// after a launch the work is not done (however fast the host simulated
// it), polling ends after a bounded number of queries, a query does not
// wait for a host function that waits for the host, and after a
// synchronization or a cudaMemcpy the work is done. The fake device's
// fill kernel takes next to no host time.
#include <cstdio>

__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }

static void CUDART_CB wait_for_host(void *arg) {
  while (!*(volatile int *)arg) {}
}

int main() {
  int *d;
  cudaMalloc(&d, 1024);
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaEvent_t e;
  cudaEventCreate(&e);
  int notready = 0, maxpolls = 0;
  for (int round = 0; round < 20; round++) {
    fill<<<1, 32, 0, s>>>(d, round);
    cudaEventRecord(e, s);
    notready += cudaStreamQuery(s) == cudaErrorNotReady && cudaEventQuery(e) == cudaErrorNotReady;
    int polls = 0;
    while (cudaStreamQuery(s) == cudaErrorNotReady && polls < 1000) polls++;
    maxpolls = polls > maxpolls ? polls : maxpolls;
  }
  printf("not ready right after the launch: %d of 20\n", notready);
  printf("done after at most 40 more queries: %s\n", maxpolls <= 40 ? "yes" : "no");
  static int flag = 0;
  cudaLaunchHostFunc(s, wait_for_host, &flag);
  printf("before the host function can run: %s\n", cudaGetErrorName(cudaStreamQuery(s)));
  flag = 1;
  cudaStreamSynchronize(s);
  printf("after cudaStreamSynchronize: %s %s\n", cudaGetErrorName(cudaStreamQuery(s)), cudaGetErrorName(cudaEventQuery(e)));
  int h = 0;
  fill<<<1, 32>>>(d, 5);
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("after cudaMemcpy: %s, %d\n", cudaGetErrorName(cudaStreamQuery(0)), h);
  return 0;
}
