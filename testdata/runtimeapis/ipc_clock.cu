// The simulated clock across processes: the parent copies 16 MiB to the
// device and records an interprocess event after the copy, then starts
// itself again (fork+exec) as a child, which records a timing event on a
// fresh stream, makes the stream wait on the parent's event and records
// another. Both print what their events measured: the parent the time from
// its stream's start to its record, the child the time its stream spent
// waiting. Not recorded on a GPU, where the child starts long after the
// copy has finished (its wait then takes no time); the rule checked
// (TestRuntimeIPCWaitClock) is warpsim's: each process's timeline counts
// from its own start, and a wait never finishes before the record it waits
// for, so the child waits as long as the parent took. Usage: ipc_clock
// (the child: ipc_clock child HANDLE).
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

int main(int argc, char **argv) {
  if (argc > 2 && strcmp(argv[1], "child") == 0) return child(argv[2]);
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
  fflush(stdout);
  pid_t c = fork();
  if (c == 0) {
    char *args[] = {argv[0], (char *)"child", hs, nullptr};
    execv(args[0], args);
    _exit(127);
  }
  int status = 0;
  waitpid(c, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
}
