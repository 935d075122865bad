// The simulated clock across processes: the parent copies 16 MiB to the
// device and records an interprocess event after the copy, then starts
// itself again (fork+exec) as a child, which records a timing event on a
// fresh stream, makes the stream wait on the parent's event and records
// another. Both print what their events measured: the parent the time from
// its stream's start to its record, the child the time its stream spent
// waiting. Two more children wait on the host instead, one with
// cudaEventSynchronize, one polling cudaEventQuery, and then launch a kernel
// on a fresh stream: the host issues nothing before the record it waited
// for, so the kernel ends at least the parent's copy time after the
// stream's start. Not recorded on a GPU, where the child starts long after the
// copy has finished (its wait then takes no time); the rule checked
// (TestRuntimeIPCWaitClock) is warpsim's: each process's timeline counts
// from its own start, and a wait never finishes before the record it waits
// for, so the child waits as long as the parent took. Usage: ipc_clock
// (the children: ipc_clock child|sync|query HANDLE).
#include <cstdio>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

#define BYTES (16 << 20)

static void hex(char *s, const void *p, size_t n) {
  for (size_t i = 0; i < n; i++) sprintf(s + 2 * i, "%02x", ((const unsigned char *)p)[i]);
}
static void unhex(void *p, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) { unsigned v; sscanf(s + 2 * i, "%2x", &v); ((unsigned char *)p)[i] = v; }
}

static int child(const char *handle) {
  cudaIpcEventHandle_t h;
  unhex(&h, handle, sizeof h);
  cudaEvent_t ep, a, b;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  if (cudaIpcOpenEventHandle(&ep, h) != cudaSuccess) return 2;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a, s);
  cudaStreamWaitEvent(s, ep, 0);
  cudaEventRecord(b, s);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  printf("child: the wait took %.4f ms\n", ms);
  return 0;
}

__global__ void nop() {}

// hostWait: the host waits for the parent's event (cudaEventSynchronize,
// or cudaEventQuery until it is done), then a kernel runs on a fresh
// stream, timed from the stream's start.
static int hostWait(const char *handle, bool query) {
  cudaIpcEventHandle_t h;
  unhex(&h, handle, sizeof h);
  cudaEvent_t ep, a, b;
  cudaStream_t s;
  if (cudaIpcOpenEventHandle(&ep, h) != cudaSuccess) return 2;
  if (query) {
    cudaError_t e;
    while ((e = cudaEventQuery(ep)) == cudaErrorNotReady) {
    }
    if (e != cudaSuccess) return 2;
  } else if (cudaEventSynchronize(ep) != cudaSuccess) {
    return 2;
  }
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a, s);
  nop<<<1, 1, 0, s>>>();
  cudaEventRecord(b, s);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  printf("child %s: the kernel after the host's wait ended %.4f ms after its stream's start\n", query ? "query" : "sync", ms);
  return 0;
}

// spawn runs this program again as a child of the given kind and waits.
static int spawn(char *self, const char *kind, char *handle) {
  fflush(stdout);
  pid_t c = fork();
  if (c == 0) {
    char *args[] = {self, (char *)kind, handle, nullptr};
    execv(args[0], args);
    _exit(127);
  }
  int status = 0;
  waitpid(c, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
}

int main(int argc, char **argv) {
  if (argc > 2 && strcmp(argv[1], "child") == 0) return child(argv[2]);
  if (argc > 2 && strcmp(argv[1], "sync") == 0) return hostWait(argv[2], false);
  if (argc > 2 && strcmp(argv[1], "query") == 0) return hostWait(argv[2], true);
  void *d, *h;
  cudaStream_t s;
  cudaEvent_t ep, t0, t1;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaMalloc(&d, BYTES);
  cudaMallocHost(&h, BYTES);
  cudaEventCreateWithFlags(&ep, cudaEventInterprocess | cudaEventDisableTiming);
  cudaEventCreate(&t0);
  cudaEventCreate(&t1);
  cudaEventRecord(t0, s);
  cudaMemcpyAsync(d, h, BYTES, cudaMemcpyHostToDevice, s);
  cudaEventRecord(ep, s);
  cudaEventRecord(t1, s);
  cudaEventSynchronize(t1);
  float ms = 0;
  cudaEventElapsedTime(&ms, t0, t1);
  printf("parent: the copy before the record took %.4f ms\n", ms);
  cudaIpcEventHandle_t eh;
  if (cudaIpcGetEventHandle(&eh, ep) != cudaSuccess) return 2;
  static char hs[160];
  hex(hs, &eh, sizeof eh);
  const char *kinds[] = {"child", "sync", "query"};
  for (const char *kind : kinds)
    if (int rc = spawn(argv[0], kind, hs)) return rc;
  return 0;
}
