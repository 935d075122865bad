// Asynchronous execution: launches and async copies return at once, queries
// say cudaErrorNotReady until the work is done, streams run in order, host
// functions and callbacks run in stream order, events time copies. Lines
// that depend on timing print their shape only (">0", "yes").
#include "check.h"
#include <cstring>

__global__ void increment(int *a, int n, int by) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += by;
}
// A long serial chain: keeps one thread busy for a while on any GPU.
__global__ void chain(unsigned *out, int steps) {
  unsigned x = threadIdx.x + 1;
  for (int i = 0; i < steps; i++) x = x * 1664525u + 1013904223u;
  out[threadIdx.x] = x;
}
__global__ void store(int *p, int v) { *p = v; }

struct Log { char text[256]; int n; };
static void logStep(void *p) {
  Log *l = (Log *)p;
  l->n += snprintf(l->text + l->n, sizeof l->text - l->n, "%s", l->n ? " host" : "host");
}
static void CUDART_CB callback(cudaStream_t, cudaError_t status, void *p) {
  Log *l = (Log *)p;
  l->n += snprintf(l->text + l->n, sizeof l->text - l->n, " callback(%s)", cudaGetErrorName(status));
}
struct Seen { volatile int *value; int got; };
static void readValue(void *p) { Seen *s = (Seen *)p; s->got = *s->value; }

int main() {
  printf("cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync): %s\n", cudaGetErrorName(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync)));
  const int n = 1 << 20;
  int *h, *d;
  CHECK(cudaMallocHost(&h, n * sizeof(int)));
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  for (int i = 0; i < n; i++) h[i] = i;

  // asyncAPI: the CPU counts while the GPU works.
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start, 0));
  CHECK(cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, 0));
  increment<<<n / 256, 256>>>(d, n, 26);
  CHECK(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, 0));
  CHECK(cudaEventRecord(stop, 0));
  long counter = 0;
  int notReady = 0;
  cudaError_t q;
  while ((q = cudaEventQuery(stop)) == cudaErrorNotReady) { counter++; notReady = 1; }
  CHECK(q);
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  int ok = 1;
  for (int i = 0; i < n; i++) ok &= h[i] == i + 26;
  printf("asyncAPI: results %s, CPU iterations while the GPU worked > 0: %s, query said not ready: %s, GPU time > 0: %s\n",
         ok ? "correct" : "WRONG", counter > 0 ? "yes" : "no", notReady ? "yes" : "no", ms > 0 ? "yes" : "no");

  // A stream query right after a long launch.
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  unsigned *out;
  CHECK(cudaMalloc(&out, 32 * sizeof(unsigned)));
  chain<<<1, 32, 0, s1>>>(out, 200000);
  cudaError_t first = cudaStreamQuery(s1);
  CHECK(cudaStreamSynchronize(s1));
  printf("stream query after a long launch: %s; after synchronizing: %s\n", cudaGetErrorName(first), cudaGetErrorName(cudaStreamQuery(s1)));

  // Stream order: host functions and callbacks run after the work before them.
  Log log1 = {{0}, 0}, log2 = {{0}, 0};
  int *flag;
  CHECK(cudaMallocHost(&flag, sizeof(int)));
  *flag = 0;
  Seen seen = {flag, -1};
  chain<<<1, 32, 0, s1>>>(out, 100000);
  store<<<1, 1, 0, s1>>>(flag, 42);
  CHECK(cudaLaunchHostFunc(s1, readValue, &seen));
  CHECK(cudaLaunchHostFunc(s1, logStep, &log1));
  CHECK(cudaStreamAddCallback(s1, callback, &log1, 0));
  CHECK(cudaLaunchHostFunc(s1, logStep, &log1));
  CHECK(cudaLaunchHostFunc(s2, logStep, &log2));
  CHECK(cudaStreamAddCallback(s2, callback, &log2, 0));
  CHECK(cudaDeviceSynchronize());
  printf("host function after the kernel saw %d\n", seen.got);
  printf("stream 1: %s\nstream 2: %s\n", log1.text, log2.text);

  // Events across streams: s2 waits for s1's event.
  cudaEvent_t e1;
  CHECK(cudaEventCreateWithFlags(&e1, cudaEventDisableTiming));
  *flag = 0;
  chain<<<1, 32, 0, s1>>>(out, 100000);
  store<<<1, 1, 0, s1>>>(flag, 7);
  CHECK(cudaEventRecord(e1, s1));
  CHECK(cudaStreamWaitEvent(s2, e1, 0));
  Seen seen2 = {flag, -1};
  CHECK(cudaLaunchHostFunc(s2, readValue, &seen2));
  CHECK(cudaStreamSynchronize(s2));
  printf("stream 2 after waiting on stream 1's event saw %d\n", seen2.got);
  float bad = 0;
  printf("elapsed time of a timing-disabled event: %s\n", cudaGetErrorName(cudaEventElapsedTime(&bad, e1, e1)));

  // Copy times from events: never 0, larger for more bytes.
  cudaEvent_t a, b, c;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  CHECK(cudaEventCreate(&c));
  CHECK(cudaEventRecord(a, s1));
  CHECK(cudaMemcpyAsync(d, h, 4096, cudaMemcpyHostToDevice, s1));
  CHECK(cudaEventRecord(b, s1));
  CHECK(cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, s1));
  CHECK(cudaEventRecord(c, s1));
  CHECK(cudaEventSynchronize(c));
  float small = 0, big = 0;
  CHECK(cudaEventElapsedTime(&small, a, b));
  CHECK(cudaEventElapsedTime(&big, b, c));
  printf("4 KiB copy time > 0: %s; 4 MiB copy slower than 4 KiB: %s\n", small > 0 ? "yes" : "no", big > small ? "yes" : "no");
  printf("elapsed time before the event completes: ");
  chain<<<1, 32, 0, s1>>>(out, 200000);
  CHECK(cudaEventRecord(c, s1));
  printf("%s\n", cudaGetErrorName(cudaEventElapsedTime(&big, a, c)));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaFreeHost(h));
  CHECK(cudaFreeHost(flag));
  CHECK(cudaFree(d));
  CHECK(cudaFree(out));
  printf("Test PASSED\n");
  return 0;
}
