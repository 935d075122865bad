/* The warpsim CUDA runtime, program side.
 *
 * `warpsim cc` compiles this file into every program it links. It implements
 * the entry points clang's host code calls (__cudaRegisterFatBinary,
 * __cudaRegisterFunction, __cudaPushCallConfiguration, cudaLaunchKernel …)
 * and the CUDA runtime API, and forwards the work to a simulator process:
 * the warpsim executable itself, started on the first CUDA call as
 * `warpsim __runtime` with a request pipe on its fd 3 and a reply pipe on
 * its fd 4 (see cuda/runtime/protocol.go for the messages). The program
 * holds no Go runtime and needs no CUDA toolkit.
 *
 * What stays here: registration tables, the last-error and sticky-error
 * state, streams and events as handles, pinned host memory (plain malloc),
 * and the table of device allocations used to classify pointers. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#ifndef WARPSIM_DEFAULT_BIN
#define WARPSIM_DEFAULT_BIN "warpsim"
#endif

/* ---- The C view of the types the headers declare (same layouts). ---- */
#define __WARPSIM_RUNTIME_C__ 1
#include "driver_types.h"

/* ---- Operations; keep in step with cuda/runtime/protocol.go. ---- */
#define PROTOCOL_VERSION 1
enum {
  opHello = 1, opModule, opKernel, opMalloc, opFree, opWrite, opRead, opCopy, opMemset,
  opLaunch, opSync, opGlobal, opOccupancy, opEvent, opReset, opExit, opFuncAttr, opLimit
};

/* Sticky errors: after one of these the context is unusable, and every
 * later call returns it, as CUDA does. */
static int is_sticky(cudaError_t e) {
  switch ((int)e) {
  case 700: case 702: case 710: case 714: case 715: case 716: case 717: case 718: case 719:
    return 1;
  }
  return 0;
}

/* The last error is per host thread, as in CUDA; a sticky error belongs to
 * the context, shared by all threads. Every call that fails sets the
 * caller's last error, and cudaGetLastError clears it: after a sticky error
 * it returns the error once and then cudaSuccess, while every other call
 * keeps returning the sticky error (as an H100 with CUDA 13 does:
 * testdata/programs/error_oob.h100.txt). */
static _Thread_local cudaError_t last_error;
static cudaError_t sticky_error;
static cudaError_t set_error(cudaError_t e) {
  if (e != 0) {
    last_error = e;
    if (is_sticky(e)) sticky_error = e;
  }
  return e;
}

/* ---- Registration ---- */
struct fatbin_wrapper { int magic; int version; const char *data; void *unused; };
struct module { const char *ptx; size_t len; int id; cudaError_t err; int rdc; };
struct function { const void *stub; int module; const char *name; int kernel; int nparams; unsigned *offsets; unsigned *sizes; unsigned param_bytes; };
struct variable { const void *host; int module; const char *name; uint64_t addr; uint64_t size; int resolved; };
struct allocation { uint64_t addr; uint64_t size; int managed; };

static struct module *modules;
static int nmodules;
static struct function *functions;
static int nfunctions;
static struct variable *variables;
static int nvariables;
static struct allocation *allocs;
static int nallocs;
static int nmanaged; /* how many allocations are managed */

static void *grow(void *p, int n, size_t elem) {
  if ((n & (n - 1)) == 0) {  /* n is 0 or a power of two: double. */
    p = realloc(p, (size_t)(n ? 2 * n : 8) * elem);
    if (!p) { fprintf(stderr, "warpsim runtime: out of host memory\n"); abort(); }
  }
  return p;
}

void **__cudaRegisterFatBinary(void *fatbin) {
  struct fatbin_wrapper *w = (struct fatbin_wrapper *)fatbin;
  modules = grow(modules, nmodules, sizeof *modules);
  struct module *m = &modules[nmodules];
  m->ptx = w->data;
  /* `warpsim cc` ends the embedded PTX with a NUL; stop early at any other
   * byte PTX text cannot hold, for objects built otherwise. */
  size_t n = 0;
  if (w->data)
    while (w->data[n] && ((unsigned char)w->data[n] >= 0x20 || w->data[n] == '\n' || w->data[n] == '\t' || w->data[n] == '\r')) n++;
  m->len = n;
  m->id = -1;
  m->err = 0;
  nmodules++;
  /* The handle clang keeps is the module's index plus one. */
  return (void **)(intptr_t)nmodules;
}

void __cudaRegisterFatBinaryEnd(void **handle) { (void)handle; }

/* Relocatable device code (-rdc=true): clang's host code then registers
 * nothing itself; it lists its kernels and variables as offload entries in
 * the section llvm_offload_entries (for a device linker to turn into
 * registration code), and `warpsim cc` adds a constructor per .cu file that
 * hands its PTX to __warpsim_register_rdc_ptx. Kernels and variables of
 * such modules are looked up by name in every RDC module (module -2). */
#define RDC_MODULE (-2)
void __warpsim_register_rdc_ptx(const char *ptx) {
  struct fatbin_wrapper w = {0x466243b1, 1, ptx, NULL};
  __cudaRegisterFatBinary(&w);
  modules[nmodules - 1].rdc = 1;
}

/* One entry of llvm_offload_entries, as clang 20+ writes it. */
struct offload_entry {
  uint64_t reserved;
  uint16_t version;
  uint16_t kind; /* 2: CUDA */
  uint32_t flags;
  void *address; /* host stub of a kernel, or host shadow of a variable */
  const char *name;
  uint64_t size; /* 0 for a kernel */
  uint64_t data;
  void *aux;
};
extern const struct offload_entry __start_llvm_offload_entries[] __attribute__((weak));
extern const struct offload_entry __stop_llvm_offload_entries[] __attribute__((weak));

void __cudaRegisterVar(void **handle, char *hostVar, char *devAddr, const char *devName, int ext, size_t size,
                       int constant, int global);
void __cudaRegisterFunction(void **handle, const char *stub, char *devFun, const char *devName, int threadLimit,
                            void *tid, void *bid, void *bDim, void *gDim, int *wSize);

static void register_offload_entries(void) {
  const struct offload_entry *e = __start_llvm_offload_entries, *end = __stop_llvm_offload_entries;
  if (!e || !end) return;
  void **rdc = (void **)(intptr_t)(RDC_MODULE + 1);
  for (; e < end; e++) {
    if (e->kind != 2 || !e->name) continue;
    if (e->size == 0)
      __cudaRegisterFunction(rdc, e->address, (char *)e->name, e->name, -1, NULL, NULL, NULL, NULL, NULL);
    else
      __cudaRegisterVar(rdc, e->address, (char *)e->name, e->name, 0, e->size, 0, 0);
  }
}
void __cudaUnregisterFatBinary(void **handle) { (void)handle; }

void __cudaRegisterFunction(void **handle, const char *stub, char *devFun, const char *devName, int threadLimit,
                            void *tid, void *bid, void *bDim, void *gDim, int *wSize) {
  (void)devName; (void)threadLimit; (void)tid; (void)bid; (void)bDim; (void)gDim; (void)wSize;
  functions = grow(functions, nfunctions, sizeof *functions);
  struct function *f = &functions[nfunctions++];
  memset(f, 0, sizeof *f);
  f->stub = stub;
  f->module = (int)(intptr_t)handle - 1;
  f->name = devFun;
  f->kernel = -1;
}

void __cudaRegisterVar(void **handle, char *hostVar, char *devAddr, const char *devName, int ext, size_t size,
                       int constant, int global) {
  (void)devName; (void)ext; (void)constant; (void)global;
  variables = grow(variables, nvariables, sizeof *variables);
  struct variable *v = &variables[nvariables++];
  memset(v, 0, sizeof *v);
  v->host = hostVar;
  v->module = (int)(intptr_t)handle - 1;
  v->name = devAddr;
  v->size = size;
}

void __cudaRegisterManagedVar(void **handle, void **hostVarPtr, char *devAddr, const char *devName, int ext,
                              size_t size, int constant, int global) {
  __cudaRegisterVar(handle, (char *)hostVarPtr, devAddr, devName, ext, size, constant, global);
}

void __cudaRegisterSurface(void) {}
void __cudaRegisterTexture(void) {}
char __cudaInitModule(void **handle) { (void)handle; return 1; }

/* ---- The simulator process ---- */
static int req_fd = -1, resp_fd = -1;
static pid_t server_pid;
static int started, start_failed, shut_down;

struct reply { cudaError_t code; char *data; uint64_t len; };

static void write_all(const void *p, size_t n) {
  const char *c = p;
  while (n > 0) {
    ssize_t k = write(req_fd, c, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) { fprintf(stderr, "warpsim runtime: lost the simulator (write: %s)\n", strerror(errno)); _exit(1); }
    c += k; n -= (size_t)k;
  }
}

static void read_all(void *p, size_t n) {
  char *c = p;
  while (n > 0) {
    ssize_t k = read(resp_fd, c, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) { fprintf(stderr, "warpsim runtime: lost the simulator (it exited or crashed)\n"); _exit(1); }
    c += k; n -= (size_t)k;
  }
}

/* call sends one request (op, then the concatenation of up to three
 * pieces) and reads the reply: status, device printf output (written to
 * stdout here, so it interleaves with the program's own stdio as on a GPU),
 * diagnostics (written to stderr), and data. */
static struct reply call3(uint32_t op, const void *a, uint32_t na, const void *b, uint32_t nb, const void *c, uint64_t nc) {
  uint64_t total = (uint64_t)na + nb + nc;
  uint32_t hdr[3] = {op, (uint32_t)total, (uint32_t)(total >> 32)};
  write_all(hdr, sizeof hdr);
  if (na) write_all(a, na);
  if (nb) write_all(b, nb);
  if (nc) write_all(c, (size_t)nc);
  uint32_t rh[5];
  read_all(rh, sizeof rh);
  uint64_t ndata = (uint64_t)rh[3] | (uint64_t)rh[4] << 32;
  struct reply r = {(cudaError_t)rh[0], NULL, ndata};
  if (rh[1]) {
    char *out = malloc(rh[1]);
    read_all(out, rh[1]);
    fwrite(out, 1, rh[1], stdout);
    fflush(stdout);
    free(out);
  }
  if (rh[2]) {
    char *msg = malloc(rh[2]);
    read_all(msg, rh[2]);
    fflush(stdout);
    fwrite(msg, 1, rh[2], stderr);
    fflush(stderr);
    free(msg);
  }
  if (ndata) {
    r.data = malloc(ndata);
    if (!r.data) { fprintf(stderr, "warpsim runtime: out of host memory\n"); _exit(1); }
    read_all(r.data, ndata);
  }
  return r;
}

static struct reply call(uint32_t op, const void *a, uint32_t na) { return call3(op, a, na, NULL, 0, NULL, 0); }

static cudaError_t simple(uint32_t op, const void *a, uint32_t na) {
  struct reply r = call(op, a, na);
  free(r.data);
  return r.code;
}

/* One lock serializes the runtime: a request and its reply are one round
 * trip on the pipe, and the tables are shared. It is recursive because
 * runtime functions call each other, and released by the cleanup
 * attribute when the function returns. */
static pthread_mutex_t api_mutex = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static pthread_mutex_t *api_lock(void) {
  pthread_mutex_lock(&api_mutex);
  return &api_mutex;
}
static void api_unlock(pthread_mutex_t **m) { pthread_mutex_unlock(*m); }

#define LOCK() pthread_mutex_t *api_locked_ __attribute__((cleanup(api_unlock), unused)) = api_lock()
static struct cudaDeviceProp props;

static void shutdown_server(void) {
  LOCK();
  shut_down = 1;
  if (!started || req_fd < 0) return;
  free(call(opExit, NULL, 0).data);
  close(req_fd);
  close(resp_fd);
  req_fd = resp_fd = -1;
  int status;
  while (waitpid(server_pid, &status, 0) < 0 && errno == EINTR) {}
}

static void fill_props(const char *d, uint32_t n);

/* start launches the simulator and loads the registered modules. It returns
 * 0, or the CUDA error every call then returns. */
static cudaError_t start(void) {
  /* After exit has stopped the simulator (a static destructor freeing
   * device memory, say) calls fail as CUDA's do during teardown. */
  if (shut_down) return 4; /* cudaErrorCudartUnloading */
  if (started) return 0;
  if (start_failed) return 100; /* cudaErrorNoDevice */
  const char *bin = getenv("WARPSIM_BIN");
  if (!bin || !*bin) bin = WARPSIM_DEFAULT_BIN;
  int req[2], resp[2];
  if (pipe2(req, O_CLOEXEC) < 0 || pipe2(resp, O_CLOEXEC) < 0) {
    fprintf(stderr, "warpsim runtime: pipe: %s\n", strerror(errno));
    start_failed = 1;
    return 100;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, req[0], 3);
  posix_spawn_file_actions_adddup2(&fa, resp[1], 4);
  char *argv[] = {(char *)bin, "__runtime", NULL};
  int rc = posix_spawnp(&server_pid, bin, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(req[0]);
  close(resp[1]);
  if (rc != 0) {
    fprintf(stderr, "warpsim runtime: cannot start the simulator %s: %s (set WARPSIM_BIN to the warpsim executable)\n", bin, strerror(rc));
    close(req[1]);
    close(resp[0]);
    start_failed = 1;
    return 100;
  }
  req_fd = req[1];
  resp_fd = resp[0];
  signal(SIGPIPE, SIG_IGN);
  started = 1;
  uint32_t version = PROTOCOL_VERSION;
  struct reply r = call(opHello, &version, 4);
  if (r.code) { free(r.data); start_failed = 1; started = 0; return r.code; }
  fill_props(r.data, r.len);
  free(r.data);
  register_offload_entries();
  for (int i = 0; i < nmodules; i++) {
    r = call(opModule, modules[i].ptx, (uint32_t)modules[i].len);
    modules[i].err = r.code;
    if (!r.code && r.len >= 4) memcpy(&modules[i].id, r.data, 4);
    free(r.data);
  }
  atexit(shutdown_server);
  return 0;
}

/* enter is the prologue of every runtime call: start the simulator, then
 * refuse work once the context has a sticky error. */
#define ENTER()                                                                   \
  LOCK();                                                                         \
  do {                                                                            \
    cudaError_t e_ = start();                                                     \
    if (e_) return set_error(e_);                                                 \
    if (sticky_error) return set_error(sticky_error);                             \
  } while (0)

/* ---- Device properties ---- */
static int64_t get64(const char *d, uint32_t n, int i) {
  int64_t v = 0;
  if ((uint32_t)(i + 1) * 8 <= n) memcpy(&v, d + i * 8, 8);
  return v;
}

/* The hello reply is a name (64 bytes) then int64 figures in the order of
 * cuda/runtime/protocol.go's propFields. */
static void fill_props(const char *d, uint32_t n) {
  memset(&props, 0, sizeof props);
  if (n < 64) return;
  memcpy(props.name, d, 64);
  props.name[63] = 0;
  d += 64; n -= 64;
  int i = 0;
  props.major = (int)get64(d, n, i++);
  props.minor = (int)get64(d, n, i++);
  props.multiProcessorCount = (int)get64(d, n, i++);
  props.warpSize = (int)get64(d, n, i++);
  props.maxThreadsPerBlock = (int)get64(d, n, i++);
  props.maxThreadsDim[0] = (int)get64(d, n, i++);
  props.maxThreadsDim[1] = (int)get64(d, n, i++);
  props.maxThreadsDim[2] = (int)get64(d, n, i++);
  props.maxGridSize[0] = (int)get64(d, n, i++);
  props.maxGridSize[1] = (int)get64(d, n, i++);
  props.maxGridSize[2] = (int)get64(d, n, i++);
  props.maxThreadsPerMultiProcessor = (int)get64(d, n, i++);
  props.maxBlocksPerMultiProcessor = (int)get64(d, n, i++);
  props.regsPerMultiprocessor = (int)get64(d, n, i++);
  props.regsPerBlock = (int)get64(d, n, i++);
  props.sharedMemPerMultiprocessor = (size_t)get64(d, n, i++);
  props.sharedMemPerBlock = (size_t)get64(d, n, i++);
  props.sharedMemPerBlockOptin = (size_t)get64(d, n, i++);
  props.reservedSharedMemPerBlock = (size_t)get64(d, n, i++);
  props.clockRate = (int)get64(d, n, i++);
  props.memoryClockRate = (int)get64(d, n, i++);
  props.memoryBusWidth = (int)get64(d, n, i++);
  props.l2CacheSize = (int)get64(d, n, i++);
  props.totalGlobalMem = (size_t)get64(d, n, i++);
  props.totalConstMem = (size_t)get64(d, n, i++);
  props.memPitch = 2147483647;
  props.textureAlignment = 512;
  props.texturePitchAlignment = 32;
  props.deviceOverlap = 1;
  props.concurrentKernels = 1;
  props.asyncEngineCount = 2;
  props.unifiedAddressing = 1;
  props.managedMemory = 1;
  props.canMapHostMemory = 0;
  props.computeMode = 0;
  props.globalL1CacheSupported = 1;
  props.localL1CacheSupported = 1;
  props.streamPrioritiesSupported = 1;
  props.cooperativeLaunch = 1;
  props.hostNativeAtomicSupported = 0;
  props.singleToDoublePrecisionPerfRatio = 2;
  props.pciBusID = 0;
  props.pciDeviceID = 0;
}

cudaError_t cudaGetDeviceCount(int *count) {
  LOCK();
  cudaError_t e = start();
  if (e) { if (count) *count = 0; return set_error(e); }
  if (!count) return set_error(1);
  *count = 1;
  return 0;
}
cudaError_t cudaGetDevice(int *device) { ENTER(); if (!device) return set_error(1); *device = 0; return 0; }
cudaError_t cudaSetDevice(int device) { ENTER(); return device == 0 ? 0 : set_error(101); }
cudaError_t cudaSetDeviceFlags(unsigned flags) { (void)flags; ENTER(); return 0; }
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int device) {
  ENTER();
  if (!p) return set_error(1);
  if (device != 0) return set_error(101);
  *p = props;
  return 0;
}
cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp *p, int device) { return cudaGetDeviceProperties(p, device); }

cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device) {
  ENTER();
  if (!value) return set_error(1);
  if (device != 0) return set_error(101);
  int v;
  switch (attr) {
  case 1: v = props.maxThreadsPerBlock; break;
  case 2: case 3: case 4: v = props.maxThreadsDim[attr - 2]; break;
  case 5: case 6: case 7: v = props.maxGridSize[attr - 5]; break;
  case 8: v = (int)props.sharedMemPerBlock; break;
  case 9: v = (int)props.totalConstMem; break;
  case 10: v = props.warpSize; break;
  case 11: v = (int)props.memPitch; break;
  case 12: v = props.regsPerBlock; break;
  case 13: v = props.clockRate; break;
  case 14: v = (int)props.textureAlignment; break;
  case 15: v = props.deviceOverlap; break;
  case 16: v = props.multiProcessorCount; break;
  case 17: case 18: case 19: case 20: v = 0; break;
  case 31: v = props.concurrentKernels; break;
  case 32: case 33: case 34: case 35: v = 0; break;
  case 36: v = props.memoryClockRate; break;
  case 37: v = props.memoryBusWidth; break;
  case 38: v = props.l2CacheSize; break;
  case 39: v = props.maxThreadsPerMultiProcessor; break;
  case 40: v = props.asyncEngineCount; break;
  case 41: v = props.unifiedAddressing; break;
  case 75: v = props.major; break;
  case 76: v = props.minor; break;
  case 81: v = (int)props.sharedMemPerMultiprocessor; break;
  case 82: v = props.regsPerMultiprocessor; break;
  case 83: v = props.managedMemory; break;
  case 84: v = 0; break;
  case 95: v = props.cooperativeLaunch; break;
  case 97: v = (int)props.sharedMemPerBlockOptin; break;
  case 106: v = props.maxBlocksPerMultiProcessor; break;
  case 111: v = (int)props.reservedSharedMemPerBlock; break;
  default: return set_error(1);
  }
  *value = v;
  return 0;
}

cudaError_t cudaDeviceSynchronize(void) { ENTER(); return set_error(simple(opSync, NULL, 0)); }
cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }
static void unmap_managed(struct allocation *a) {
  long page = sysconf(_SC_PAGESIZE);
  uint64_t lo = a->addr & ~(uint64_t)(page - 1), hi = (a->addr + a->size + page - 1) & ~(uint64_t)(page - 1);
  munmap((void *)(uintptr_t)lo, hi - lo);
  nmanaged--;
}

cudaError_t cudaDeviceReset(void) {
  LOCK();
  cudaError_t e = start();
  if (e) return set_error(e);
  e = simple(opReset, NULL, 0);
  for (int i = 0; i < nallocs; i++)
    if (allocs[i].managed) unmap_managed(&allocs[i]);
  nallocs = 0;
  for (int i = 0; i < nvariables; i++) variables[i].resolved = 0;
  for (int i = 0; i < nfunctions; i++) functions[i].kernel = -1;
  for (int i = 0; i < nmodules; i++) {
    struct reply r = call(opModule, modules[i].ptx, (uint32_t)modules[i].len);
    modules[i].err = r.code;
    if (!r.code && r.len >= 4) memcpy(&modules[i].id, r.data, 4);
    free(r.data);
  }
  sticky_error = 0;
  last_error = 0;
  return e;
}
/* The stack and malloc heap sizes are the simulator's (opLimit): it
 * honours them. */
cudaError_t cudaDeviceSetLimit(int limit, size_t value) {
  ENTER();
  if (limit == 0 || limit == 2 || limit == 3 || limit == 4) {
    uint64_t a[2] = {(uint64_t)limit | 1ull << 32, (uint64_t)value};
    return set_error(simple(opLimit, a, sizeof a));
  }
  return 0;
}
cudaError_t cudaDeviceGetLimit(size_t *value, int limit) {
  ENTER();
  if (!value) return set_error(1);
  if (limit == 0 || limit == 2 || limit == 3 || limit == 4) {
    uint64_t a[2] = {(uint64_t)limit, 0};
    struct reply r = call(opLimit, a, sizeof a);
    if (!r.code && r.len >= 8) memcpy(value, r.data, 8);
    free(r.data);
    return set_error(r.code);
  }
  switch (limit) {
  case 1: *value = 1 << 20; break;       /* printf FIFO */
  default: return set_error(215);
  }
  return 0;
}
cudaError_t cudaDeviceSetCacheConfig(int c) { (void)c; ENTER(); return 0; }
cudaError_t cudaDeviceSetSharedMemConfig(int c) { (void)c; ENTER(); return 0; }
cudaError_t cudaDeviceCanAccessPeer(int *can, int d, int p) { (void)d; (void)p; ENTER(); if (can) *can = 0; return 0; }
cudaError_t cudaDriverGetVersion(int *v) { if (!v) return set_error(1); *v = 12000; return 0; }
cudaError_t cudaRuntimeGetVersion(int *v) { if (!v) return set_error(1); *v = 12000; return 0; }
cudaError_t cudaProfilerStart(void) { return 0; }
cudaError_t cudaProfilerStop(void) { return 0; }

/* ---- Errors ---- */
cudaError_t cudaGetLastError(void) {
  cudaError_t e = last_error;
  last_error = 0;
  return e;
}
cudaError_t cudaPeekAtLastError(void) { return last_error; }

const char *cudaGetErrorString(cudaError_t e) {
  switch ((int)e) {
#define E(n, name, text) case n: return text;
#include "warpsim_rt_errors.h"
#undef E
  }
  return "unrecognized error code";
}
const char *cudaGetErrorName(cudaError_t e) {
  switch ((int)e) {
#define E(n, name, text) case n: return #name;
#include "warpsim_rt_errors.h"
#undef E
  }
  return "cudaErrorUnknown";
}

/* ---- Memory ---- */
static int find_alloc(uint64_t p) {
  for (int i = 0; i < nallocs; i++)
    if (p >= allocs[i].addr && p < allocs[i].addr + (allocs[i].size ? allocs[i].size : 1)) return i;
  return -1;
}

cudaError_t cudaMalloc(void **p, size_t size) {
  ENTER();
  if (!p) return set_error(1);
  uint64_t sz = size;
  struct reply r = call(opMalloc, &sz, 8);
  if (r.code) { free(r.data); *p = NULL; return set_error(r.code); }
  uint64_t addr = 0;
  if (r.len >= 8) memcpy(&addr, r.data, 8);
  free(r.data);
  allocs = grow(allocs, nallocs, sizeof *allocs);
  allocs[nallocs].addr = addr;
  allocs[nallocs].size = size;
  allocs[nallocs].managed = 0;
  nallocs++;
  *p = (void *)(uintptr_t)addr;
  return 0;
}

cudaError_t cudaFree(void *p) {
  ENTER();
  if (!p) return 0;
  uint64_t a = (uintptr_t)p;
  cudaError_t e = simple(opFree, &a, 8);
  if (e) return set_error(e);
  for (int i = 0; i < nallocs; i++)
    if (allocs[i].addr == a) {
      if (allocs[i].managed) unmap_managed(&allocs[i]);
      allocs[i] = allocs[--nallocs];
      break;
    }
  return 0;
}

cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t w, size_t h) {
  if (!pitch) return set_error(1);
  size_t pw = (w + 511) & ~(size_t)511;
  *pitch = pw;
  return cudaMalloc(p, pw * h);
}

/* Managed memory: the host sees the allocation at its device address,
 * through an anonymous mapping placed there. The host copy is
 * authoritative between launches: every launch first pushes each managed
 * allocation to the simulator and afterwards pulls it back, so host and
 * kernels see each other's writes at the points CUDA guarantees them
 * (after synchronization). Copies and memsets touching managed memory act
 * on the host copy. */

static int managed_index(const void *p) {
  int i = find_alloc((uintptr_t)p);
  return i >= 0 && allocs[i].managed ? i : -1;
}

static cudaError_t sync_managed(int op) {
  if (nmanaged == 0) return 0;
  for (int i = 0; i < nallocs; i++) {
    if (!allocs[i].managed || allocs[i].size == 0) continue;
    uint64_t a[2] = {allocs[i].addr, allocs[i].size};
    struct reply r;
    if (op == opWrite) {
      r = call3(opWrite, a, 8, NULL, 0, (const void *)(uintptr_t)a[0], a[1]);
    } else {
      r = call(opRead, a, 16);
      if (!r.code && r.len == a[1]) memcpy((void *)(uintptr_t)a[0], r.data, a[1]);
    }
    free(r.data);
    if (r.code) return r.code;
  }
  return 0;
}

cudaError_t cudaMallocManaged(void **p, size_t size, unsigned flags) {
  (void)flags;
  ENTER();
  if (!p || size == 0) return set_error(1);
  cudaError_t e = cudaMalloc(p, size);
  if (e) return e;
  uint64_t addr = (uintptr_t)*p;
  long page = sysconf(_SC_PAGESIZE);
  uint64_t lo = addr & ~(uint64_t)(page - 1), hi = (addr + size + page - 1) & ~(uint64_t)(page - 1);
  void *m = mmap((void *)(uintptr_t)lo, hi - lo, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (m == MAP_FAILED || m != (void *)(uintptr_t)lo) {
    if (m != MAP_FAILED) munmap(m, hi - lo);
    fprintf(stderr, "warpsim runtime: cudaMallocManaged: cannot map host memory at the device address %p (%s)\n", *p, strerror(errno));
    cudaFree(*p);
    *p = NULL;
    return set_error(2);
  }
  allocs[nallocs - 1].managed = 1;
  nmanaged++;
  return 0;
}

cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, int device, void *stream) {
  (void)p; (void)n; (void)device; (void)stream;
  ENTER();
  return 0;
}
cudaError_t cudaMemAdvise(const void *p, size_t n, int advice, int device) {
  (void)p; (void)n; (void)advice; (void)device;
  ENTER();
  return 0;
}

cudaError_t cudaMallocHost(void **p, size_t size) {
  ENTER();
  if (!p) return set_error(1);
  *p = malloc(size ? size : 1);
  return *p ? 0 : set_error(2);
}
cudaError_t cudaHostAlloc(void **p, size_t size, unsigned flags) { (void)flags; return cudaMallocHost(p, size); }
cudaError_t cudaFreeHost(void *p) { ENTER(); free(p); return 0; }
cudaError_t cudaHostRegister(void *p, size_t n, unsigned f) { (void)p; (void)n; (void)f; ENTER(); return 0; }
cudaError_t cudaHostUnregister(void *p) { (void)p; ENTER(); return 0; }
cudaError_t cudaHostGetDevicePointer(void **d, void *h, unsigned f) { (void)d; (void)h; (void)f; ENTER(); return set_error(801); }

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a, const void *p) {
  ENTER();
  if (!a) return set_error(1);
  memset(a, 0, sizeof *a);
  if (find_alloc((uintptr_t)p) >= 0) {
    a->type = 2;
    a->devicePointer = (void *)p;
  } else {
    a->type = 0;
    a->device = -2;
    a->hostPointer = (void *)p;
  }
  return 0;
}

cudaError_t cudaMemGetInfo(size_t *freeB, size_t *total) {
  ENTER();
  uint64_t used = 0;
  for (int i = 0; i < nallocs; i++) used += allocs[i].size;
  if (total) *total = props.totalGlobalMem;
  if (freeB) *freeB = props.totalGlobalMem > used ? props.totalGlobalMem - used : 0;
  return 0;
}

/* copy moves count bytes in the direction kind names; cudaMemcpyDefault
 * infers it from the allocation table. */
static cudaError_t copy(void *dst, const void *src, size_t count, int kind) {
  if (count == 0) return 0;
  if (!dst || !src) return set_error(1);
  int dm = managed_index(dst) >= 0, sm = managed_index(src) >= 0;
  if (kind == 4 || dm || sm) {
    /* Managed memory is host memory here (see cudaMallocManaged). */
    int d = !dm && find_alloc((uintptr_t)dst) >= 0, s = !sm && find_alloc((uintptr_t)src) >= 0;
    kind = d ? (s ? 3 : 1) : (s ? 2 : 0);
  }
  uint64_t a[3];
  struct reply r;
  switch (kind) {
  case 0:
    memmove(dst, src, count);
    return 0;
  case 1:
    a[0] = (uintptr_t)dst;
    r = call3(opWrite, a, 8, NULL, 0, src, count);
    break;
  case 2:
    a[0] = (uintptr_t)src;
    a[1] = count;
    r = call(opRead, a, 16);
    if (!r.code && r.len == count) memcpy(dst, r.data, count);
    break;
  case 3:
    a[0] = (uintptr_t)dst;
    a[1] = (uintptr_t)src;
    a[2] = count;
    r = call(opCopy, a, 24);
    break;
  default:
    return set_error(21);
  }
  free(r.data);
  return set_error(r.code);
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, int kind) { ENTER(); return copy(dst, src, count, kind); }
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind, void *stream) {
  (void)stream;
  ENTER();
  return copy(dst, src, count, kind);
}
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t w, size_t h, int kind) {
  ENTER();
  if (w > dpitch || w > spitch) return set_error(12);
  for (size_t row = 0; row < h; row++) {
    cudaError_t e = copy((char *)dst + row * dpitch, (const char *)src + row * spitch, w, kind);
    if (e) return e;
  }
  return 0;
}
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t w, size_t h, int kind, void *s) {
  (void)s;
  return cudaMemcpy2D(dst, dpitch, src, spitch, w, h, kind);
}

cudaError_t cudaMemset(void *p, int value, size_t count) {
  ENTER();
  if (count == 0) return 0;
  if (managed_index(p) >= 0) {
    memset(p, value, count);
    return 0;
  }
  uint64_t a[3] = {(uintptr_t)p, (uint64_t)(unsigned char)value, count};
  return set_error(simple(opMemset, a, 24));
}
cudaError_t cudaMemsetAsync(void *p, int value, size_t count, void *s) { (void)s; return cudaMemset(p, value, count); }
cudaError_t cudaMemset2D(void *p, size_t pitch, int value, size_t w, size_t h) {
  for (size_t row = 0; row < h; row++) {
    cudaError_t e = cudaMemset((char *)p + row * pitch, value, w);
    if (e) return e;
  }
  return 0;
}

/* ---- Symbols ---- */
static struct variable *find_var(const void *host) {
  for (int i = 0; i < nvariables; i++) {
    struct variable *v = &variables[i];
    if (v->host != host) continue;
    if (!v->resolved) {
      struct reply r = {13, NULL, 0};
      for (int m = 0; m < nmodules && (r.code || r.len < 16); m++) {
        if (v->module == RDC_MODULE ? !modules[m].rdc : m != v->module) continue;
        if (modules[m].err) continue;
        free(r.data);
        uint32_t mid = (uint32_t)modules[m].id;
        r = call3(opGlobal, &mid, 4, v->name, (uint32_t)strlen(v->name), NULL, 0);
      }
      if (r.code || r.len < 16) { free(r.data); return NULL; }
      memcpy(&v->addr, r.data, 8);
      memcpy(&v->size, r.data + 8, 8);
      free(r.data);
      v->resolved = 1;
    }
    return v;
  }
  return NULL;
}

cudaError_t cudaGetSymbolAddress(void **p, const void *symbol) {
  ENTER();
  struct variable *v = find_var(symbol);
  if (!v) return set_error(13);
  if (p) *p = (void *)(uintptr_t)v->addr;
  return 0;
}
cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol) {
  ENTER();
  struct variable *v = find_var(symbol);
  if (!v) return set_error(13);
  if (size) *size = v->size;
  return 0;
}
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset, int kind) {
  ENTER();
  struct variable *v = find_var(symbol);
  if (!v) return set_error(13);
  if (offset + count > v->size) return set_error(1);
  if (kind != 1 && kind != 3 && kind != 4) return set_error(21);
  return copy((void *)(uintptr_t)(v->addr + offset), src, count, kind);
}
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset, int kind) {
  ENTER();
  struct variable *v = find_var(symbol);
  if (!v) return set_error(13);
  if (offset + count > v->size) return set_error(1);
  if (kind != 2 && kind != 3 && kind != 4) return set_error(21);
  return copy(dst, (const void *)(uintptr_t)(v->addr + offset), count, kind);
}
cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset, int kind, void *s) {
  (void)s;
  return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset, int kind, void *s) {
  (void)s;
  return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

/* ---- Streams and events ---- */
struct stream { int magic; };
struct event { int magic; int recorded; uint64_t ns; };
#define STREAM_MAGIC 0x5354524d
#define EVENT_MAGIC 0x45564e54

cudaError_t cudaStreamCreate(void **s) {
  ENTER();
  if (!s) return set_error(1);
  struct stream *st = malloc(sizeof *st);
  st->magic = STREAM_MAGIC;
  *s = st;
  return 0;
}
cudaError_t cudaStreamCreateWithFlags(void **s, unsigned f) { (void)f; return cudaStreamCreate(s); }
cudaError_t cudaStreamCreateWithPriority(void **s, unsigned f, int p) { (void)f; (void)p; return cudaStreamCreate(s); }
static int valid_stream(void *s) {
  return s == NULL || s == (void *)1 || s == (void *)2 || ((struct stream *)s)->magic == STREAM_MAGIC;
}
cudaError_t cudaStreamDestroy(void *s) {
  ENTER();
  if (!s || !valid_stream(s)) return set_error(400);
  ((struct stream *)s)->magic = 0;
  free(s);
  return 0;
}
/* Work runs in issue order as it is issued, so a stream is always idle; a
 * synchronization is still a flush point for kernels' printf output and
 * where a kernel fault surfaces. */
cudaError_t cudaStreamSynchronize(void *s) {
  ENTER();
  if (!valid_stream(s)) return set_error(400);
  return set_error(simple(opSync, NULL, 0));
}
cudaError_t cudaStreamQuery(void *s) { ENTER(); return valid_stream(s) ? 0 : set_error(400); }

/* Host functions run when issued, after the stream's earlier work (which
 * ran when it was issued), and outside the runtime's lock. */
static cudaError_t host_work_ready(void *s, const void *fn) {
  ENTER();
  if (!valid_stream(s)) return set_error(400);
  if (!fn) return set_error(1);
  return 0;
}
cudaError_t cudaLaunchHostFunc(void *s, void (*fn)(void *), void *data) {
  cudaError_t e = host_work_ready(s, (const void *)fn);
  if (e) return e;
  fn(data);
  return 0;
}
cudaError_t cudaStreamAddCallback(void *s, void (*cb)(void *, cudaError_t, void *), void *data, unsigned flags) {
  cudaError_t e = host_work_ready(s, (const void *)cb);
  if (e) return e;
  if (flags != 0) return set_error(1); /* reserved, must be 0 */
  cb(s, 0, data);
  return 0;
}

/* Stream-ordered allocation: work runs when issued, so this is cudaMalloc
 * and cudaFree on a valid stream. */
cudaError_t cudaMallocAsync(void **p, size_t size, void *s) {
  if (!valid_stream(s)) return set_error(400);
  return cudaMalloc(p, size);
}
cudaError_t cudaFreeAsync(void *p, void *s) {
  if (!valid_stream(s)) return set_error(400);
  return cudaFree(p);
}
cudaError_t cudaStreamWaitEvent(void *s, void *e, unsigned f) { (void)s; (void)e; (void)f; ENTER(); return 0; }

cudaError_t cudaEventCreate(void **e) {
  ENTER();
  if (!e) return set_error(1);
  struct event *ev = calloc(1, sizeof *ev);
  ev->magic = EVENT_MAGIC;
  *e = ev;
  return 0;
}
cudaError_t cudaEventCreateWithFlags(void **e, unsigned f) { (void)f; return cudaEventCreate(e); }
static struct event *as_event(void *e) {
  struct event *ev = e;
  return ev && ev->magic == EVENT_MAGIC ? ev : NULL;
}
cudaError_t cudaEventRecord(void *e, void *s) {
  (void)s;
  ENTER();
  struct event *ev = as_event(e);
  if (!ev) return set_error(400);
  struct reply r = call(opEvent, NULL, 0);
  if (!r.code && r.len >= 8) memcpy(&ev->ns, r.data, 8);
  free(r.data);
  if (r.code) return set_error(r.code);
  ev->recorded = 1;
  return 0;
}
cudaError_t cudaEventSynchronize(void *e) {
  ENTER();
  if (!as_event(e)) return set_error(400);
  return set_error(simple(opSync, NULL, 0));
}
cudaError_t cudaEventQuery(void *e) { ENTER(); return as_event(e) ? 0 : set_error(400); }
cudaError_t cudaEventElapsedTime(float *ms, void *a, void *b) {
  ENTER();
  struct event *ea = as_event(a), *eb = as_event(b);
  if (!ms || !ea || !eb) return set_error(!ms ? 1 : 400);
  if (!ea->recorded || !eb->recorded) return set_error(400);
  *ms = (float)((double)((int64_t)(eb->ns - ea->ns)) / 1e6);
  return 0;
}
cudaError_t cudaEventDestroy(void *e) {
  ENTER();
  struct event *ev = as_event(e);
  if (!ev) return set_error(400);
  ev->magic = 0;
  free(ev);
  return 0;
}

/* ---- Kernels ---- */
static _Thread_local struct { dim3 grid, block; size_t shmem; void *stream; } config_stack[16];
static _Thread_local int config_depth;

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shmem, void *stream) {
  if (config_depth < 16) {
    config_stack[config_depth].grid = grid;
    config_stack[config_depth].block = block;
    config_stack[config_depth].shmem = shmem;
    config_stack[config_depth].stream = stream;
  }
  config_depth++;
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shmem, void **stream) {
  if (config_depth == 0) return 52; /* cudaErrorMissingConfiguration */
  config_depth--;
  if (config_depth < 16) {
    *grid = config_stack[config_depth].grid;
    *block = config_stack[config_depth].block;
    *shmem = config_stack[config_depth].shmem;
    *stream = config_stack[config_depth].stream;
  }
  return 0;
}

static struct function *find_function(const void *stub) {
  for (int i = 0; i < nfunctions; i++)
    if (functions[i].stub == stub) return &functions[i];
  return NULL;
}

/* resolve asks the simulator for the kernel's id and parameter layout once. */
static struct reply kernel_in(int module, const char *name) {
  uint32_t mid = (uint32_t)modules[module].id;
  return call3(opKernel, &mid, 4, name, (uint32_t)strlen(name), NULL, 0);
}

static cudaError_t resolve(struct function *f) {
  if (f->kernel >= 0) return 0;
  struct reply r = {98, NULL, 0};
  if (f->module == RDC_MODULE) {
    for (int i = 0; i < nmodules && r.code; i++) {
      if (!modules[i].rdc) continue;
      if (modules[i].err) { r.code = modules[i].err; continue; }
      free(r.data);
      r = kernel_in(i, f->name);
    }
  } else {
    if (f->module < 0 || f->module >= nmodules) return 98;
    if (modules[f->module].err) return modules[f->module].err;
    r = kernel_in(f->module, f->name);
  }
  if (r.code) {
    if (r.data) {
      fflush(stdout);
      fwrite(r.data, 1, r.len, stderr);
    }
    free(r.data);
    return r.code;
  }
  uint32_t *w = (uint32_t *)r.data;
  if (r.len < 12) { free(r.data); return 999; }
  f->kernel = (int)w[0];
  f->param_bytes = w[1];
  f->nparams = (int)w[2];
  if (r.len < 12 + 8 * (uint32_t)f->nparams) { free(r.data); f->kernel = -1; return 999; }
  f->offsets = calloc((size_t)f->nparams + 1, sizeof(unsigned));
  f->sizes = calloc((size_t)f->nparams + 1, sizeof(unsigned));
  for (int i = 0; i < f->nparams; i++) {
    f->offsets[i] = w[3 + 2 * i];
    f->sizes[i] = w[4 + 2 * i];
  }
  free(r.data);
  return 0;
}

cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shmem, void *stream) {
  ENTER();
  if (!valid_stream(stream)) return set_error(400);
  struct function *f = find_function(func);
  if (!f) return set_error(98); /* cudaErrorInvalidDeviceFunction */
  cudaError_t e = resolve(f);
  if (e) return set_error(e);
  char *params = calloc(f->param_bytes ? f->param_bytes : 1, 1);
  for (int i = 0; i < f->nparams; i++)
    if (args && args[i]) memcpy(params + f->offsets[i], args[i], f->sizes[i]);
  uint32_t hdr[8] = {(uint32_t)f->kernel, grid.x, grid.y, grid.z, block.x, block.y, block.z, (uint32_t)shmem};
  if (shmem > 0xffffffffu) hdr[7] = 0xffffffffu;
  e = sync_managed(opWrite);
  if (e) { free(params); return set_error(e); }
  struct reply r = call3(opLaunch, hdr, sizeof hdr, params, f->param_bytes, NULL, 0);
  free(params);
  free(r.data);
  if (!r.code) r.code = sync_managed(opRead);
  return set_error(r.code);
}

/* ---- Function attributes and occupancy ---- */
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, const void *func) {
  ENTER();
  if (!a) return set_error(1);
  struct function *f = find_function(func);
  if (!f) return set_error(98);
  cudaError_t e = resolve(f);
  if (e) return set_error(e);
  uint32_t id = (uint32_t)f->kernel;
  struct reply r = call(opFuncAttr, &id, 4);
  if (r.code) { free(r.data); return set_error(r.code); }
  memset(a, 0, sizeof *a);
  const char *d = r.data;
  a->sharedSizeBytes = (size_t)get64(d, r.len, 0);
  a->constSizeBytes = (size_t)get64(d, r.len, 1);
  a->localSizeBytes = (size_t)get64(d, r.len, 2);
  a->maxThreadsPerBlock = (int)get64(d, r.len, 3);
  a->numRegs = (int)get64(d, r.len, 4);
  a->ptxVersion = (int)get64(d, r.len, 5);
  a->binaryVersion = (int)get64(d, r.len, 6);
  a->maxDynamicSharedSizeBytes = (int)get64(d, r.len, 7);
  a->preferredShmemCarveout = -1;
  free(r.data);
  return 0;
}
cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value) {
  ENTER();
  struct function *f = find_function(func);
  if (!f) return set_error(98);
  cudaError_t e = resolve(f);
  if (e) return set_error(e);
  uint32_t a[3] = {(uint32_t)f->kernel, (uint32_t)attr, (uint32_t)value};
  return set_error(simple(opFuncAttr, a, 12) ? 1 : 0);
}
cudaError_t cudaFuncSetCacheConfig(const void *func, int c) { (void)c; ENTER(); return find_function(func) ? 0 : set_error(98); }
cudaError_t cudaFuncSetSharedMemConfig(const void *func, int c) { (void)c; ENTER(); return find_function(func) ? 0 : set_error(98); }

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, const void *func, int blockSize, size_t smem, unsigned flags) {
  (void)flags;
  ENTER();
  if (!n) return set_error(1);
  struct function *f = find_function(func);
  if (!f) return set_error(98);
  cudaError_t e = resolve(f);
  if (e) return set_error(e);
  uint32_t a[3] = {(uint32_t)f->kernel, (uint32_t)blockSize, (uint32_t)smem};
  struct reply r = call(opOccupancy, a, 12);
  if (!r.code && r.len >= 4) memcpy(n, r.data, 4);
  free(r.data);
  return set_error(r.code);
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *func, int blockSize, size_t smem) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, func, blockSize, smem, 0);
}

/* --- added by the headers helper: getters declared in cuda_runtime_api.h's
 * compatibility block. An H100 reports no cache preference and 4-byte
 * shared-memory banks. --- */
cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *c) {
  ENTER();
  if (!c) return set_error(1);
  *c = cudaFuncCachePreferNone;
  return 0;
}
cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *c) {
  ENTER();
  if (!c) return set_error(1);
  *c = cudaSharedMemBankSizeFourByte;
  return 0;
}
