// CUDA IPC between processes, in the spirit of cuda-samples' simpleIPC:
// the parent allocates a buffer and two interprocess events, fills the
// buffer, records its event and starts itself again with fork+exec as a
// child, which opens the memory and event handles, waits on the parent's
// event, adds 10 to every element from its own kernel and zeroes the last, records the other
// event and says so on a pipe; the parent waits on that event, triples
// every element and checks them. Then handles whose exporting process has
// exited, a zeroed handle, opening twice and closing once more. Usage: ipc_procs
// (the children: ipc_procs child MEM EVP EVC FD, ipc_procs export FD).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

#define N (1 << 18)
#define REPORT(who, call) do { cudaError_t e_ = (call); \
  printf("%s: %s -> %s\n", who, #call, cudaGetErrorName(e_)); } while (0)

__global__ void fill(int *p, int n, int v) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = v + (i & 7);
}
__global__ void add(int *p, int n, int v) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] += v;
}
__global__ void scale(int *p, int n, int f) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] *= f;
}

static void hex(char *s, const void *p, size_t n) {
  for (size_t i = 0; i < n; i++) sprintf(s + 2 * i, "%02x", ((const unsigned char *)p)[i]);
}
static void unhex(void *p, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) { unsigned v; sscanf(s + 2 * i, "%2x", &v); ((unsigned char *)p)[i] = v; }
}

// check counts the elements of p that are not (base + (i & 7)) * f.
static int check(const int *p, int base, int f) {
  int bad = 0;
  for (int i = 0; i < N; i++) bad += p[i] != (base + (i & 7)) * f;
  return bad;
}

static int child(char **argv) {
  cudaIpcMemHandle_t mh;
  cudaIpcEventHandle_t eph, ech;
  unhex(&mh, argv[2], sizeof mh);
  unhex(&eph, argv[3], sizeof eph);
  unhex(&ech, argv[4], sizeof ech);
  int fd = atoi(argv[5]);
  int *q = nullptr;
  cudaEvent_t ep, ec;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  REPORT("child", cudaIpcOpenMemHandle((void **)&q, mh, cudaIpcMemLazyEnablePeerAccess));
  int *q2 = nullptr;
  REPORT("child", cudaIpcOpenMemHandle((void **)&q2, mh, cudaIpcMemLazyEnablePeerAccess));
  printf("child: opened twice, same address %d\n", q2 == q);
  REPORT("child", cudaIpcOpenEventHandle(&ep, eph));
  REPORT("child", cudaIpcOpenEventHandle(&ec, ech));
  REPORT("child", cudaStreamWaitEvent(s, ep, 0));
  add<<<64, 256, 0, s>>>(q, N, 10);
  REPORT("child", cudaMemsetAsync(q + N - 1, 0, sizeof(int), s));  // the last element
  REPORT("child", cudaEventRecord(ec, s));
  char one = 1;
  if (write(fd, &one, 1) != 1) return 2;
  REPORT("child", cudaStreamSynchronize(s));
  REPORT("child", cudaEventQuery(ep));
  int *h = (int *)malloc(N * sizeof(int));
  REPORT("child", cudaMemcpy(h, q, N * sizeof(int), cudaMemcpyDeviceToHost));
  printf("child: elements not 12+(i&7): %d, last %d\n", check(h, 12, 1), h[N - 1]);
  REPORT("child", cudaEventDestroy(ep));
  if (q2) REPORT("child", cudaIpcCloseMemHandle(q2));
  REPORT("child", cudaIpcCloseMemHandle(q));
  REPORT("child", cudaIpcCloseMemHandle(q));
  cudaIpcMemHandle_t zero;
  memset(&zero, 0, sizeof zero);
  void *z = nullptr;
  REPORT("child", cudaIpcOpenMemHandle(&z, zero, cudaIpcMemLazyEnablePeerAccess));
  return 0;
}

// exporter makes an allocation and an event, sends their handles to fd and
// exits.
static int exporter(char **argv) {
  int fd = atoi(argv[2]);
  void *p;
  cudaEvent_t e;
  cudaMalloc(&p, 4096);
  cudaEventCreateWithFlags(&e, cudaEventInterprocess | cudaEventDisableTiming);
  cudaIpcMemHandle_t mh;
  cudaIpcEventHandle_t eh;
  cudaIpcGetMemHandle(&mh, p);
  cudaIpcGetEventHandle(&eh, e);
  if (write(fd, &mh, sizeof mh) != (ssize_t)sizeof mh || write(fd, &eh, sizeof eh) != (ssize_t)sizeof eh) return 2;
  return 0;
}

static pid_t spawn(char *const *args) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    execv(args[0], args);
    _exit(127);
  }
  return pid;
}

int main(int argc, char **argv) {
  if (argc > 5 && strcmp(argv[1], "child") == 0) return child(argv);
  if (argc > 2 && strcmp(argv[1], "export") == 0) return exporter(argv);
  int *p;
  cudaEvent_t ep, ec;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  REPORT("parent", cudaMalloc(&p, N * sizeof(int)));
  REPORT("parent", cudaEventCreateWithFlags(&ep, cudaEventInterprocess | cudaEventDisableTiming));
  REPORT("parent", cudaEventCreateWithFlags(&ec, cudaEventInterprocess | cudaEventDisableTiming));
  cudaIpcMemHandle_t mh;
  cudaIpcEventHandle_t eph, ech;
  REPORT("parent", cudaIpcGetMemHandle(&mh, p));
  REPORT("parent", cudaIpcGetEventHandle(&eph, ep));
  REPORT("parent", cudaIpcGetEventHandle(&ech, ec));
  fill<<<64, 256, 0, s>>>(p, N, 2);
  REPORT("parent", cudaEventRecord(ep, s));
  int fds[2];
  if (pipe(fds) != 0) return 2;
  static char ms[160], eps[160], ecs[160], fs[16];
  hex(ms, &mh, sizeof mh);
  hex(eps, &eph, sizeof eph);
  hex(ecs, &ech, sizeof ech);
  snprintf(fs, sizeof fs, "%d", fds[1]);
  char *args[] = {argv[0], (char *)"child", ms, eps, ecs, fs, nullptr};
  pid_t c = spawn(args);
  char one = 0;
  if (read(fds[0], &one, 1) != 1) return 2;  // the child has recorded ec
  // The child reads the buffer back after its record: the parent's kernel
  // must not change it before then (stdout is buffered, so the lines come
  // in the same order either way).
  int status = 0;
  waitpid(c, &status, 0);
  REPORT("parent", cudaStreamWaitEvent(s, ec, 0));
  scale<<<64, 256, 0, s>>>(p, N, 3);
  printf("parent: child exit %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  int *h = (int *)malloc(N * sizeof(int));
  REPORT("parent", cudaMemcpyAsync(h, p, N * sizeof(int), cudaMemcpyDeviceToHost, s));
  REPORT("parent", cudaStreamSynchronize(s));
  printf("parent: elements not 3*(12+(i&7)): %d, last %d\n", check(h, 12, 3) , h[N - 1]);
  REPORT("parent", cudaEventQuery(ec));
  REPORT("parent", cudaEventSynchronize(ec));

  // Handles from a process that has exited.
  if (pipe(fds) != 0) return 2;
  snprintf(fs, sizeof fs, "%d", fds[1]);
  char *eargs[] = {argv[0], (char *)"export", fs, nullptr};
  pid_t x = spawn(eargs);
  close(fds[1]);
  cudaIpcMemHandle_t gm;
  cudaIpcEventHandle_t ge;
  int got = read(fds[0], &gm, sizeof gm) == (ssize_t)sizeof gm && read(fds[0], &ge, sizeof ge) == (ssize_t)sizeof ge;
  waitpid(x, &status, 0);
  printf("parent: exporter exit %d, handles %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1, got);
  void *g = nullptr;
  cudaEvent_t gev;
  REPORT("parent", cudaIpcOpenMemHandle(&g, gm, cudaIpcMemLazyEnablePeerAccess));
  REPORT("parent", cudaIpcOpenEventHandle(&gev, ge));
  REPORT("parent", cudaGetLastError());
  REPORT("parent", cudaFree(p));
  return 0;
}
