// __managed__ variables: host code and kernels read and write them
// directly; after cudaDeviceSynchronize each sees the other's writes.
// Scalars, arrays and structs, with and without initializers, beside
// cudaMallocManaged memory with prefetch, advice and stream attachment.
#include "check.h"

struct Stats {
  int n;
  float sum;
  double mean;
  int hist[4];
};

__managed__ int counter;                       // zero-initialized
__managed__ int start = 42;                    // initialized
__device__ __managed__ unsigned long long big[4] = {1, 2, 3, 4};
__managed__ float arr[1000];
__managed__ Stats stats = {7, 1.5f, 0.25, {1, 2, 3, 4}};

__global__ void bump(int by) {
  if (threadIdx.x == 0) atomicAdd(&counter, by);
  if (blockIdx.x == 0 && threadIdx.x < 4) big[threadIdx.x] *= 10;
}

__global__ void scale(float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 1000) arr[i] = arr[i] * s + start;
}

__global__ void summarize() {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    float sum = 0;
    for (int i = 0; i < 1000; i++) {
      sum += arr[i];
      stats.hist[((int)arr[i] % 4 + 4) % 4]++;
    }
    stats.n += 1000;
    stats.sum = sum;
    stats.mean = sum / 1000.0;
  }
}

// Pointers the host took of managed variables, handed to a kernel.
__global__ void through(int *c, float *a, Stats *st) {
  if (threadIdx.x == 0) {
    *c += 5;
    a[1] += 0.5f;
    st->n = -st->n;
  }
}

__global__ void add(int n, const int *x, int *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += x[i] + counter;
}

int main() {
  // Before any CUDA call: the initializers.
  printf("start %d counter %d big %llu %llu %llu %llu stats %d %.2f %.2f %d\n", start, counter, big[0], big[1], big[2],
         big[3], stats.n, stats.sum, stats.mean, stats.hist[3]);
  for (int round = 1; round <= 4; round++) {
    counter += 100 * round;  // host
    bump<<<3, 32>>>(round);  // kernel: +3*round
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    printf("round %d: counter %d big[3] %llu\n", round, counter, big[3]);
  }
  for (int i = 0; i < 1000; i++) arr[i] = (float)(i % 17);
  scale<<<4, 256>>>(2.0f);
  CHECK(cudaDeviceSynchronize());
  printf("arr[0] %.1f arr[16] %.1f arr[999] %.1f\n", arr[0], arr[16], arr[999]);
  arr[999] = -42.0f;
  start = 0;
  scale<<<4, 256>>>(0.5f);
  CHECK(cudaDeviceSynchronize());
  printf("arr[0] %.1f arr[16] %.1f arr[999] %.1f\n", arr[0], arr[16], arr[999]);
  stats.hist[0] = 100;
  summarize<<<1, 32>>>();
  CHECK(cudaDeviceSynchronize());
  printf("stats n %d sum %.1f mean %.4f hist %d %d %d %d\n", stats.n, stats.sum, stats.mean, stats.hist[0], stats.hist[1],
         stats.hist[2], stats.hist[3]);

  through<<<1, 32>>>(&counter, arr, &stats);
  CHECK(cudaDeviceSynchronize());
  printf("through host pointers: counter %d arr[1] %.1f stats.n %d\n", counter, arr[1], stats.n);

  // The symbol API works on managed variables too.
  int c = 0;
  CHECK(cudaMemcpyFromSymbol(&c, counter, sizeof c));
  int seven = 7;
  CHECK(cudaMemcpyToSymbol(start, &seven, sizeof seven));
  printf("counter by symbol %d, start after cudaMemcpyToSymbol %d\n", c, start);

  // cudaMallocManaged beside them, with prefetch, advice and attachment.
  const int n = 4096;
  int *x, *y;
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaMallocManaged(&x, n * sizeof(int)));
  CHECK(cudaMallocManaged(&y, n * sizeof(int), cudaMemAttachHost));
  for (int i = 0; i < n; i++) { x[i] = i; y[i] = 1; }
  cudaMemLocation gpu;
  gpu.type = cudaMemLocationTypeDevice;
  gpu.id = 0;
  CHECK(cudaMemAdvise(x, n * sizeof(int), cudaMemAdviseSetReadMostly, gpu));
  CHECK(cudaStreamAttachMemAsync(s, y, 0, cudaMemAttachSingle));
  CHECK(cudaMemPrefetchAsync(x, n * sizeof(int), gpu, 0, s));
  counter = 1000;
  add<<<n / 256, 256, 0, s>>>(n, x, y);
  CHECK(cudaStreamSynchronize(s));
  long long sum = 0;
  for (int i = 0; i < n; i++) sum += y[i];
  printf("managed allocation sum %lld\n", sum);
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaStreamDestroy(s));
  bool ok = counter == 1000 && c == 1000 + 35 && sum == (long long)n * 1001 + (long long)n * (n - 1) / 2 && start == 7;
  printf(ok ? "Test PASSED\n" : "Test FAILED\n");
  return ok ? 0 : 1;
}
