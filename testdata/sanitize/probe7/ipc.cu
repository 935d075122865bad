// plain: CUDA IPC on one GPU. The parent writes 1234 into a cudaMalloc
// buffer, takes its cudaIpcGetMemHandle, opens it in its own process, and
// runs itself as a child process (system()) that opens the handle and
// reads the int. Then a memory pool made with POSIX file-descriptor handles
// is exported (cudaMemPoolExportToShareableHandle), imported in the same
// process and in the child (the fd is inherited), and a pointer from it
// exported (cudaMemPoolExportPointer) and imported. The default pool,
// made without handle types, is exported too. Usage: ipc [child HANDLE FD PTRDATA].
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#define REPORT(call) do { cudaError_t e_ = (call); \
  printf("%s%s -> %s\n", child ? "child: " : "", #call, cudaGetErrorName(e_)); } while (0)

static int child = 0;

static void hex(char *s, const void *p, size_t n) {
  for (size_t i = 0; i < n; i++) sprintf(s + 2 * i, "%02x", ((const unsigned char *)p)[i]);
}
static void unhex(void *p, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) { unsigned v; sscanf(s + 2 * i, "%2x", &v); ((unsigned char *)p)[i] = v; }
}

int main(int argc, char **argv) {
  if (argc > 4 && strcmp(argv[1], "child") == 0) {
    child = 1;
    cudaIpcMemHandle_t h;
    unhex(&h, argv[2], sizeof h);
    void *q = nullptr;
    int v = 0;
    REPORT(cudaIpcOpenMemHandle(&q, h, cudaIpcMemLazyEnablePeerAccess));
    if (q) {
      REPORT(cudaMemcpy(&v, q, sizeof v, cudaMemcpyDeviceToHost));
      printf("child: read %d\n", v);
      REPORT(cudaIpcCloseMemHandle(q));
    }
    int fd = atoi(argv[3]);
    cudaMemPool_t pool;
    cudaError_t e = cudaMemPoolImportFromShareableHandle(&pool, (void *)(intptr_t)fd, cudaMemHandleTypePosixFileDescriptor, 0);
    printf("child: cudaMemPoolImportFromShareableHandle -> %s\n", cudaGetErrorName(e));
    if (e == cudaSuccess) {
      cudaMemPoolPtrExportData d;
      unhex(&d, argv[4], sizeof d);
      void *r = nullptr;
      REPORT(cudaMemPoolImportPointer(&r, pool, &d));
      if (r) {
        REPORT(cudaMemcpy(&v, r, sizeof v, cudaMemcpyDeviceToHost));
        printf("child: pool read %d\n", v);
      }
    }
    return 0;
  }
  int *p, v = 1234;
  cudaMalloc(&p, 256);
  cudaMemcpy(p, &v, sizeof v, cudaMemcpyHostToDevice);
  cudaIpcMemHandle_t h;
  memset(&h, 0, sizeof h);
  REPORT(cudaIpcGetMemHandle(&h, p));
  void *q = nullptr;
  REPORT(cudaIpcOpenMemHandle(&q, h, cudaIpcMemLazyEnablePeerAccess));
  int *hp;
  cudaMallocHost(&hp, 256);
  cudaIpcMemHandle_t hh;
  REPORT(cudaIpcGetMemHandle(&hh, hp));
  cudaIpcEventHandle_t eh;
  cudaEvent_t ev;
  cudaEventCreateWithFlags(&ev, cudaEventInterprocess | cudaEventDisableTiming);
  REPORT(cudaIpcGetEventHandle(&eh, ev));

  cudaMemPoolProps props;
  memset(&props, 0, sizeof props);
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  REPORT(cudaMemPoolCreate(&pool, &props));
  int fd = -1;
  REPORT(cudaMemPoolExportToShareableHandle(&fd, pool, cudaMemHandleTypePosixFileDescriptor, 0));
  printf("fd valid %d\n", fd >= 0);
  cudaMemPool_t same;
  REPORT(cudaMemPoolImportFromShareableHandle(&same, (void *)(intptr_t)fd, cudaMemHandleTypePosixFileDescriptor, 0));
  void *a = nullptr;
  REPORT(cudaMallocFromPoolAsync(&a, 256, pool, 0));
  REPORT(cudaMemcpy(a, &v, sizeof v, cudaMemcpyHostToDevice));
  cudaMemPoolPtrExportData d;
  memset(&d, 0, sizeof d);
  REPORT(cudaMemPoolExportPointer(&d, a));
  cudaMemPool_t def;
  cudaDeviceGetDefaultMemPool(&def, 0);
  int fd2 = -1;
  REPORT(cudaMemPoolExportToShareableHandle(&fd2, def, cudaMemHandleTypePosixFileDescriptor, 0));
  void *b = nullptr;
  cudaMallocAsync(&b, 256, 0);
  cudaStreamSynchronize(0);
  REPORT(cudaMemPoolExportPointer(&d, b));

  static char cmd[1024], hs[256], ds[256];
  hex(hs, &h, sizeof h);
  cudaMemPoolPtrExportData d2;
  REPORT(cudaMemPoolExportPointer(&d2, a));
  hex(ds, &d2, sizeof d2);
  snprintf(cmd, sizeof cmd, "%s child %s %d %s", argv[0], hs, fd, ds);
  fflush(stdout);
  int rc = system(cmd);
  printf("child exit %d\n", rc);
  return 0;
}
