/* The warpsim CUDA runtime, program side.
 *
 * `warpsim cc` compiles this file into every program it links. It implements
 * the entry points clang's host code calls (__cudaRegisterFatBinary,
 * __cudaRegisterFunction, __cudaPushCallConfiguration, cudaLaunchKernel …)
 * and the CUDA runtime API, and forwards the work to a simulator process:
 * the warpsim executable itself, started on the first CUDA call as
 * `warpsim __runtime` with a request pipe on its fd 3 and a reply pipe on
 * its fd 4 (see internal/cudart/protocol.go for the messages). The program
 * holds no Go runtime and needs no CUDA toolkit.
 *
 * Memory never crosses the pipe. This file creates one memory file (memfd),
 * the device memory, maps it into the program and hands it to the
 * simulator, which maps it too: every allocation (cudaMalloc, pinned host
 * memory, managed memory, a module's variables) lives there, at an address
 * that is the same for the host and for kernels (unified addressing). A
 * copy between such memory and the program's own memory is a memcpy made
 * here once the stream's earlier work is done; a copy between two
 * allocations is made by the simulator, in stream order.
 *
 * Work is asynchronous as in CUDA: a launch, an async copy or memset, an
 * event record, a host function is queued on its stream in the simulator
 * and the call returns at once; synchronizing calls wait. Host functions
 * run on a thread of this runtime (the callback thread) when the
 * simulator reaches them.
 *
 * What stays here: registration tables, the last-error and sticky-error
 * state, streams and events as handles, host memory registrations, the
 * table of allocations used to classify pointers, and CUDA graphs
 * (warpsim_rt_graphs.c), which replay as ordinary stream work. */
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
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifndef MFD_CLOEXEC
#define MFD_CLOEXEC 1u
#endif

extern char **environ;

#ifndef WARPSIM_DEFAULT_BIN
#define WARPSIM_DEFAULT_BIN "warpsim"
#endif

/* ---- The C view of the types the headers declare (same layouts). ---- */
#define __WARPSIM_RUNTIME_C__ 1
#include "driver_types.h"

/* ---- Operations; keep in step with internal/cudart/protocol.go. ---- */
#define PROTOCOL_VERSION 2
enum {
  opHello = 1, opModule, opKernel, opMalloc, opFree, opHostCopy, opStreamQuery, opCopy, opMemset,
  opLaunch, opSync, opGlobal, opOccupancy, opEventRecord, opReset, opExit, opFuncAttr,
  opStreamSync, opEventQuery, opEventSync, opEventElapsed, opStreamWait, opStreamCreate,
  opHostFunc, opMemInfo, opLimit
};
enum { opManagedAlias = 65, opUnalias = 94 };
enum { opIpcShare = 120, opIpcOpen, opIpcClose, opIpcEventRecord, opIpcEventWait, opIpcEventHostWait };
/* Allocation kinds (internal/cudart/window.go) and copy directions (timing.go). */
enum { kindDevice = 0, kindHost = 1, kindManaged = 2 };
enum { dirHostToDevice = 0, dirDeviceToHost = 1, dirDeviceToDevice = 2, dirHostToHost = 3 };

/* The device memory window: WINDOW_SIZE bytes of address space, at
 * WINDOW_BASE where that is free (below the shared libraries and the
 * stacks, above a PIE program and its heap), elsewhere if not. Only
 * touched pages use memory. The engine gives each allocation its own 2 GiB
 * range and never reuses one, so 16 TiB hold 8192 allocations over a
 * program's life. */
#define WINDOW_BASE 0x600000000000ull
#define WINDOW_SIZE (1ull << 44)

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
struct variable { const void *host; int module; const char *name; uint64_t addr; uint64_t size; int resolved; int mapped; };
struct allocation { uint64_t addr; uint64_t size; int kind; unsigned host_flags; /* cudaHostAlloc's */ };
/* A host range registered with cudaHostRegister: its pages now belong to
 * the window allocation alloc (remapped in place), where kernels see them
 * at dev. */
struct registration { uintptr_t host; size_t size; uintptr_t page; size_t pages; uint64_t alloc; uint64_t dev; unsigned flags; int aliased; };

static struct module *modules;
static int nmodules;
static struct function *functions;
static int nfunctions;
static struct variable *variables;
static int nvariables;
static struct allocation *allocs;
static int nallocs;
static struct registration *regs;
static int nregs;

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

static void managed_module_end(int module); /* warpsim_rt_managed.c */
void __cudaRegisterFatBinaryEnd(void **handle) { managed_module_end((int)(intptr_t)handle - 1); }

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
  managed_module_end(nmodules - 1);
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
static int req_fd = -1, resp_fd = -1, cb_fd = -1, cbdone_fd = -1, mem_fd = -1;
static pid_t server_pid;
static pid_t owner_pid; /* the process that started the simulator; only it stops it */
static int started, shut_down;
/* primary_current: the primary context is current, as the runtime makes it
 * at its first call (cuCtxGetCurrent is null before: testdata/programs7/
 * driver_api). device_query marks the driver's device queries, which run
 * through the runtime's and make no context current. */
static int primary_current;
static _Thread_local int device_query;
static cudaError_t start_error; /* why the simulator could not start, for every later call */
static uint64_t window_base, window_size;

struct reply { cudaError_t code; char *data; uint64_t len; };

/* pipe_write writes to a pipe to the simulator with SIGPIPE blocked in
 * this thread, and takes back a SIGPIPE that the write raised: a simulator
 * that is gone shows as EPIPE here, while the program's own disposition of
 * SIGPIPE stays as it set it (`./prog | head -1` must still end the
 * program, and what it execs inherits what it had). */
static ssize_t pipe_write(int fd, const void *p, size_t n) {
  sigset_t pipe_set, old;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
  ssize_t k = write(fd, p, n);
  int saved = errno;
  if (k < 0 && errno == EPIPE && !sigismember(&old, SIGPIPE)) {
    sigset_t pending;
    sigpending(&pending);
    if (sigismember(&pending, SIGPIPE)) {
      struct timespec zero = {0, 0};
      while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR) {}
    }
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  errno = saved;
  return k;
}

static void write_all(const void *p, size_t n) {
  const char *c = p;
  while (n > 0) {
    ssize_t k = pipe_write(req_fd, c, n);
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

/* Only the process that started the simulator stops it: a child made by
 * fork() that exits runs this same handler, and must leave its parent's
 * simulator alone. */
static void shutdown_server(void) {
  LOCK();
  if (getpid() != owner_pid) return;
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

/* ---- Host functions (cudaLaunchHostFunc, cudaStreamAddCallback) ----
 * The simulator reaches a host function in stream order and names it on
 * the callback pipe; the callback thread runs it and answers, and only
 * then does the stream go on. Host functions must not call the CUDA API
 * (as in CUDA). */
static _Thread_local int in_host_call; /* see NOT_IN_HOST_CALL */
struct host_call { void (*fn)(void *); void (*cb)(void *, cudaError_t, void *); void *stream; void *data; };
static struct host_call *host_calls;
static int nhost_calls, free_host_call = -1;
static pthread_mutex_t host_calls_mutex = PTHREAD_MUTEX_INITIALIZER;

static uint32_t add_host_call(struct host_call c) {
  pthread_mutex_lock(&host_calls_mutex);
  uint32_t id;
  if (free_host_call >= 0) {
    id = (uint32_t)free_host_call;
    free_host_call = (int)(intptr_t)host_calls[id].data;
  } else {
    host_calls = grow(host_calls, nhost_calls, sizeof *host_calls);
    id = (uint32_t)nhost_calls++;
  }
  host_calls[id] = c;
  pthread_mutex_unlock(&host_calls_mutex);
  return id;
}

static void *callback_thread(void *arg) {
  (void)arg;
  for (;;) {
    uint32_t id;
    ssize_t k = read(cb_fd, &id, 4);
    if (k < 0 && errno == EINTR) continue;
    if (k != 4) return NULL;
    pthread_mutex_lock(&host_calls_mutex);
    struct host_call c = host_calls[id];
    host_calls[id].fn = NULL;
    host_calls[id].cb = NULL;
    host_calls[id].data = (void *)(intptr_t)free_host_call;
    free_host_call = (int)id;
    pthread_mutex_unlock(&host_calls_mutex);
    in_host_call = 1;
    if (c.fn) c.fn(c.data);
    if (c.cb) c.cb(c.stream, cudaSuccess, c.data);
    in_host_call = 0;
    while (pipe_write(cbdone_fd, &id, 4) < 0 && errno == EINTR) {}
  }
}

/* fd_above moves fd to a number above the ones the simulator receives, so
 * that dup2 onto 3..7 never meets a descriptor already there. */
static int fd_above(int fd) {
  if (fd < 0 || fd >= 10) return fd;
  int d = fcntl(fd, F_DUPFD_CLOEXEC, 10);
  close(fd);
  return d;
}

/* map_window creates the device memory and maps it; the simulator gets
 * the file as its fd 5. */
static int map_window(void) {
  mem_fd = fd_above((int)syscall(SYS_memfd_create, "warpsim-device", MFD_CLOEXEC));
  if (mem_fd < 0) {
    fprintf(stderr, "warpsim runtime: memfd_create: %s\n", strerror(errno));
    return -1;
  }
  if (ftruncate(mem_fd, (off_t)WINDOW_SIZE) < 0) {
    fprintf(stderr, "warpsim runtime: sizing the device memory: %s\n", strerror(errno));
    return -1;
  }
  void *m = mmap((void *)(uintptr_t)WINDOW_BASE, WINDOW_SIZE, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_NORESERVE | MAP_FIXED_NOREPLACE, mem_fd, 0);
  if (m == MAP_FAILED || m != (void *)(uintptr_t)WINDOW_BASE) {
    if (m != MAP_FAILED) munmap(m, WINDOW_SIZE);
    m = mmap(NULL, WINDOW_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, mem_fd, 0);
  }
  if (m == MAP_FAILED) {
    fprintf(stderr, "warpsim runtime: mapping the device memory: %s\n", strerror(errno));
    return -1;
  }
  window_base = (uintptr_t)m;
  window_size = WINDOW_SIZE;
  return 0;
}

static int in_window(const void *p) {
  uint64_t a = (uintptr_t)p;
  return a >= window_base && a < window_base + window_size;
}

static void map_managed(void); /* warpsim_rt_managed.c */
static void load_modules(void) {
  for (int i = 0; i < nmodules; i++) {
    struct reply r = call(opModule, modules[i].ptx, (uint32_t)modules[i].len);
    modules[i].err = r.code;
    if (!r.code && r.len >= 4) memcpy(&modules[i].id, r.data, 4);
    free(r.data);
  }
}

/* start launches the simulator and loads the registered modules. It returns
 * 0, or the CUDA error every call then returns. */
static cudaError_t start(void) {
  /* After exit has stopped the simulator (a static destructor freeing
   * device memory, say) calls fail as CUDA's do during teardown. */
  if (shut_down) return cudaErrorCudartUnloading;
  if (started) return 0;
  if (start_error) return start_error;
  start_error = cudaErrorNoDevice;
  const char *bin = getenv("WARPSIM_BIN");
  if (!bin || !*bin) bin = WARPSIM_DEFAULT_BIN;
  int req[2], resp[2], cb[2], cbdone[2];
  if (pipe2(req, O_CLOEXEC) < 0 || pipe2(resp, O_CLOEXEC) < 0 || pipe2(cb, O_CLOEXEC) < 0 || pipe2(cbdone, O_CLOEXEC) < 0) {
    fprintf(stderr, "warpsim runtime: pipe: %s\n", strerror(errno));
    return start_error;
  }
  if (map_window() < 0) return start_error;
  for (int i = 0; i < 2; i++) {
    req[i] = fd_above(req[i]); resp[i] = fd_above(resp[i]);
    cb[i] = fd_above(cb[i]); cbdone[i] = fd_above(cbdone[i]);
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, req[0], 3);
  posix_spawn_file_actions_adddup2(&fa, resp[1], 4);
  posix_spawn_file_actions_adddup2(&fa, mem_fd, 5);
  posix_spawn_file_actions_adddup2(&fa, cb[1], 6);
  posix_spawn_file_actions_adddup2(&fa, cbdone[0], 7);
  char *argv[] = {(char *)bin, "__runtime", NULL};
  int rc = posix_spawnp(&server_pid, bin, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(req[0]);
  close(resp[1]);
  close(cb[1]);
  close(cbdone[0]);
  if (rc != 0) {
    fprintf(stderr, "warpsim runtime: cannot start the simulator %s: %s (set WARPSIM_BIN to the warpsim executable)\n", bin, strerror(rc));
    close(req[1]);
    close(resp[0]);
    close(cb[0]);
    close(cbdone[1]);
    return start_error;
  }
  owner_pid = getpid();
  req_fd = req[1];
  resp_fd = resp[0];
  cb_fd = cb[0];
  cbdone_fd = cbdone[1];
  started = 1;
  uint32_t version = PROTOCOL_VERSION, msg[6];
  memcpy(msg, &version, 4);
  memcpy((char *)msg + 4, &window_base, 8);
  memcpy((char *)msg + 12, &window_size, 8);
  uint32_t fds = 1;
  memcpy((char *)msg + 20, &fds, 4);
  struct reply r = call(opHello, msg, 24);
  if (r.code) {
    /* A bad setting or a version mismatch: the simulator said why; every
     * call returns this error, and the program goes on. */
    free(r.data);
    start_error = r.code;
    started = 0;
    close(req_fd);
    close(resp_fd);
    req_fd = resp_fd = -1;
    int status;
    while (waitpid(server_pid, &status, 0) < 0 && errno == EINTR) {}
    return start_error;
  }
  start_error = 0;
  fill_props(r.data, (uint32_t)r.len);
  free(r.data);
  pthread_t t;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_create(&t, &attr, callback_thread, NULL);
  pthread_attr_destroy(&attr);
  register_offload_entries();
  load_modules();
  map_managed();
  atexit(shutdown_server);
  return 0;
}

/* enter is the prologue of every runtime call: start the simulator, then
 * refuse work once the context has a sticky error. */
/* A host function or stream callback runs on the callback thread while the
 * stream that reached it waits (and the thread that synchronizes with that
 * stream may hold the runtime's lock): every CUDA call it makes returns
 * cudaErrorNotPermitted, as on an H100 (testdata/hostile/h100.txt,
 * host_callback), instead of waiting for the lock forever. */
#define NOT_IN_HOST_CALL() \
  do { if (in_host_call) return cudaErrorNotPermitted; } while (0)

#define ENTER()                                                                   \
  NOT_IN_HOST_CALL();                                                             \
  LOCK();                                                                         \
  do {                                                                            \
    if (started && getpid() != owner_pid) return set_error(cudaErrorInitializationError); \
    cudaError_t e_ = start();                                                     \
    if (e_) return set_error(e_);                                                 \
    if (!device_query) primary_current = 1;                                       \
    if (sticky_error) return set_error(refused_sticky(__func__));                 \
  } while (0)

/* report_failed tells the simulator that call returned e on its own,
 * without it: a sanitizer there reports it as compute-sanitizer does. */
static void report_failed(const char *call, cudaError_t e) {
  char msg[4 + 64];
  uint32_t code = (uint32_t)e;
  size_t n = strnlen(call, 64);
  memcpy(msg, &code, 4);
  memcpy(msg + 4, call, n);
  simple(93 /* opStickyError */, msg, (uint32_t)(4 + n));
}

/* refused_sticky tells the simulator that call was refused with the
 * context's sticky error, which a sanitizer there reports as
 * compute-sanitizer does (opStickyError, internal/cudart/protocol.go), and
 * returns that error. */
static cudaError_t refused_sticky(const char *call) {
  report_failed(call, sticky_error);
  return sticky_error;
}

/* ---- Device properties ---- */
static int64_t get64(const char *d, uint32_t n, int i) {
  int64_t v = 0;
  if ((uint32_t)(i + 1) * 8 <= n) memcpy(&v, d + i * 8, 8);
  return v;
}

/* The hello reply is a name (64 bytes) then int64 figures in the order of
 * internal/cudart/protocol.go's propFields. */
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
  /* L2 persistence (Ampere and later): an H100 reports 5/8 of its L2 as
   * the most that may persist and a 128 MiB window (recorded:
   * testdata/samples/stream_attributes.h100.txt); the A100's 30 MiB of 40
   * is three quarters. */
  if (props.major >= 8) {
    props.persistingL2CacheMaxSize = props.major >= 9 ? props.l2CacheSize / 8 * 5 : props.l2CacheSize / 4 * 3;
    props.accessPolicyMaxWindowSize = 128 << 20;
  }
  props.totalGlobalMem = (size_t)get64(d, n, i++);
  props.totalConstMem = (size_t)get64(d, n, i++);
  props.memPitch = 2147483647;
  props.textureAlignment = 512;
  props.texturePitchAlignment = 32;
  /* As the H100 reported them (testdata/programs5/device_query). */
  props.surfaceAlignment = 512;
  props.ECCEnabled = 1;
  props.computePreemptionSupported = 1;
  props.clusterLaunch = props.major >= 9;
  props.ipcEventSupported = 1;
  props.maxTexture1D = 131072;
  props.maxTexture2D[0] = 131072;
  props.maxTexture2D[1] = 65536;
  props.maxTexture3D[0] = props.maxTexture3D[1] = props.maxTexture3D[2] = 16384;
  props.maxSurface2D[0] = 131072;
  props.maxSurface2D[1] = 65536;
  props.deviceOverlap = 1;
  props.concurrentKernels = 1;
  /* Three copy engines, as the H100 reports. The timing model runs one copy
   * per direction at a time (internal/cudart/timing.go): a program that
   * reads this overlaps host-to-device and device-to-host copies with
   * kernels, as the model does; a second copy in the same direction would
   * share the same link. */
  props.asyncEngineCount = 3;
  props.unifiedAddressing = 1;
  props.managedMemory = 1;
  props.canMapHostMemory = 1;
  props.canUseHostPointerForRegisteredMem = 1; /* cudaHostRegister aliases the range */
  props.hostRegisterSupported = 1;
  props.memoryPoolsSupported = 1;
  /* 1, as on the H100: the host may touch managed memory while kernels
   * run (one copy of it, shared with the simulator; see cudaMallocManaged). */
  props.concurrentManagedAccess = 1;
  props.directManagedMemAccessFromHost = 0;
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
  NOT_IN_HOST_CALL();
  LOCK();
  cudaError_t e = start();
  if (e) { if (count) *count = 0; return set_error(e); }
  if (!count) return set_error(1);
  *count = 1;
  return 0;
}
cudaError_t cudaGetDevice(int *device) { ENTER(); if (!device) return set_error(1); *device = 0; return 0; }
cudaError_t cudaSetDevice(int device) { ENTER(); return device == 0 ? 0 : set_error(101); }
/* Flags: the scheduling policy (spin, yield, blocking sync), cudaDeviceMapHost
 * (host memory is always mappable here), cudaDeviceLmemResizeToMax. All are
 * accepted; a waiting host thread here always sleeps in read(). */
static unsigned device_flags;
cudaError_t cudaSetDeviceFlags(unsigned flags) {
  ENTER();
  if (flags & ~0xffu) return set_error(cudaErrorInvalidValue);
  if ((flags & 0x07) == 0x03 || (flags & 0x07) > 0x04) return set_error(cudaErrorInvalidValue);
  device_flags = flags;
  return 0;
}
cudaError_t cudaGetDeviceFlags(unsigned *flags) {
  ENTER();
  if (!flags) return set_error(cudaErrorInvalidValue);
  *flags = device_flags | 0x08; /* cudaDeviceMapHost */
  return 0;
}
cudaError_t cudaSetValidDevices(int *devs, int n) { ENTER(); if (n < 0 || (n > 0 && !devs)) return set_error(1); return 0; }
cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop) {
  ENTER();
  if (!device || !prop) return set_error(1);
  *device = 0;
  return 0;
}
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
  case 17: case 18: case 20: v = 0; break;
  case 19: v = props.canMapHostMemory; break;
  case 31: v = props.concurrentKernels; break;
  case 32: v = props.ECCEnabled; break;
  case 33: case 34: case 35: v = 0; break;
  case 78: v = props.streamPrioritiesSupported; break;
  case 79: v = props.globalL1CacheSupported; break;
  case 80: v = props.localL1CacheSupported; break;
  case 86: v = props.hostNativeAtomicSupported; break;
  case 87: v = props.singleToDoublePrecisionPerfRatio; break;
  case 90: v = props.computePreemptionSupported; break;
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
  case 88: v = 0; break; /* cudaDevAttrPageableMemoryAccess: kernels reach the window's memory only */
  case 89: v = props.concurrentManagedAccess; break;
  case 91: v = props.canUseHostPointerForRegisteredMem; break;
  case 99: v = props.hostRegisterSupported; break;
  case 101: v = props.directManagedMemAccessFromHost; break;
  case 115: v = props.memoryPoolsSupported; break;
  /* No handle types (the H100 reports 9, POSIX file descriptors and fabric
   * handles): a program that reads them shares pools between processes,
   * which warpsim's one simulated process cannot, as
   * CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED says. */
  case 119: v = 0; break;
  case 95: v = props.cooperativeLaunch; break;
  case 97: v = (int)props.sharedMemPerBlockOptin; break;
  case 106: v = props.maxBlocksPerMultiProcessor; break;
  case 108: v = props.persistingL2CacheMaxSize; break; /* CUDA's values, */
  case 109: v = props.accessPolicyMaxWindowSize; break; /* as on the H100 */
  case 111: v = (int)props.reservedSharedMemPerBlock; break;
  case 120: v = props.major >= 9; break; /* cudaDevAttrClusterLaunch */
  default: return set_error(1);
  }
  *value = v;
  return 0;
}

/* ---- Streams and events as handles ---- */
struct graph;
struct gnode;
struct stream {
  int magic;
  uint32_t id;
  unsigned flags;
  int priority;
  /* Stream capture (warpsim_rt_graphs.c): while capture is set, work on
   * the stream becomes nodes of it, each depending on deps. */
  struct graph *capture;
  int capture_mode;
  /* cudaStreamSetAttribute's values, by cudaLaunchAttributeID. */
  union cudaLaunchAttributeValue attrs[cudaLaunchAttributeMemSyncDomain + 1];
  unsigned long long capture_id;
  struct stream *capture_origin;
  struct gnode **deps;
  int ndeps;
  int capture_to_graph; /* cudaStreamBeginCaptureToGraph: the graph is the program's */
};
struct event {
  int magic;
  uint32_t id;
  unsigned flags;
  int recorded;
  /* Recorded during a capture: the nodes a wait on it depends on. */
  struct graph *capture;
  struct gnode **deps;
  int ndeps;
  /* An interprocess event's state in device memory (warpsim_rt_ipc.c):
   * records issued, highest completed; ipc_opened: another process's. */
  uint64_t *ipc;
  int ipc_opened;
};
#define STREAM_MAGIC 0x5354524d
#define EVENT_MAGIC 0x45564e54
static uint32_t next_stream_id = 3, next_event_id = 1;

static int valid_stream(void *s) {
  return s == NULL || s == (void *)1 || s == (void *)2 || ((struct stream *)s)->magic == STREAM_MAGIC;
}
/* The simulator's id for a stream: 0 for the legacy default stream (and
 * the per-thread default stream, which here is the same). */
static uint32_t stream_id(void *s) {
  if (s == NULL || s == (void *)1 || s == (void *)2) return 0;
  return ((struct stream *)s)->id;
}
static struct stream *capturing(void *s) {
  if (s == NULL || s == (void *)1 || s == (void *)2) return NULL;
  struct stream *st = s;
  return st->capture ? st : NULL;
}
static struct event *as_event(void *e) {
  struct event *ev = e;
  return ev && ev->magic == EVENT_MAGIC ? ev : NULL;
}

/* A capture in progress in global or thread-local mode forbids
 * synchronizing calls of the program (cudaErrorStreamCaptureUnsupported). */
static int captures_active;
static void invalidate_captures(void);
#define REFUSE_DURING_CAPTURE()                                                   \
  do {                                                                            \
    if (captures_active) {                                                        \
      invalidate_captures();                                                      \
      return set_error(cudaErrorStreamCaptureUnsupported);                        \
    }                                                                             \
  } while (0)

static void pools_settle(void);
cudaError_t cudaDeviceSynchronize(void) {
  ENTER();
  REFUSE_DURING_CAPTURE();
  pools_settle();
  return set_error(simple(opSync, NULL, 0));
}
cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }

static void forget_registrations(void);
static void ipc_forget(void);

cudaError_t cudaDeviceReset(void) {
  LOCK();
  cudaError_t e = start();
  if (e) return set_error(e);
  e = simple(opReset, NULL, 0);
  forget_registrations();
  ipc_forget();
  nallocs = 0;
  for (int i = 0; i < nvariables; i++) variables[i].resolved = 0;
  for (int i = 0; i < nfunctions; i++) functions[i].kernel = -1;
  load_modules();
  sticky_error = 0;
  last_error = 0;
  return e;
}
/* The stack and malloc heap sizes and the device runtime's limits are the
 * simulator's (opLimit): it honours them. */
/* The persisting-L2 set-aside: the H100 rounds a request up to a tenth of
 * the most (4096 bytes reads back as 3276800) and caps it there. */
static size_t persisting_l2;
static int persisting_l2_set;
/* The printf FIFO and the L2 fetch granularity are remembered (their
 * defaults as the H100 reported them: testdata/programs5/limits_heap); a
 * limit CUDA does not define is cudaErrorInvalidValue, as there. */
static size_t printf_fifo = 8650752, l2_fetch = 64;
cudaError_t cudaDeviceSetLimit(int limit, size_t value) {
  ENTER();
  if (limit < 0 || limit > 6) return set_error(1);
  if (limit == 1) { printf_fifo = value; return 0; }
  if (limit == 5) { l2_fetch = value; return 0; }
  if (limit == 6) {
    size_t most = (size_t)props.persistingL2CacheMaxSize, step = most / 10;
    if (!most) return set_error(cudaErrorUnsupportedLimit);
    persisting_l2 = value >= most ? most : (value + step - 1) / step * step;
    persisting_l2_set = 1;
    return 0;
  }
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
  case 1: *value = printf_fifo; break;   /* printf FIFO */
  case 5: *value = l2_fetch; break;      /* max L2 fetch granularity */
  case 6: /* persisting L2: the H100's default is 3 tenths of the most */
    *value = persisting_l2_set ? persisting_l2 : (size_t)props.persistingL2CacheMaxSize / 10 * 3;
    break;
  default: return set_error(1);
  }
  return 0;
}
/* Cache and shared-memory bank preferences: accepted and remembered; the
 * simulated GPU's shared memory always has 4-byte banks (as every part
 * since Maxwell: cudaDeviceSetSharedMemConfig has no effect there either). */
static int cache_config;
cudaError_t cudaDeviceSetCacheConfig(int c) {
  ENTER();
  if (c < 0 || c > 3) return set_error(1);
  cache_config = c;
  return 0;
}
cudaError_t cudaDeviceGetCacheConfig(int *c) { ENTER(); if (!c) return set_error(1); *c = cache_config; return 0; }
cudaError_t cudaDeviceSetSharedMemConfig(int c) { ENTER(); return c < 0 || c > 2 ? set_error(1) : 0; }
cudaError_t cudaDeviceGetSharedMemConfig(int *c) { ENTER(); if (!c) return set_error(1); *c = 1; /* cudaSharedMemBankSizeFourByte */ return 0; }
cudaError_t cudaThreadSetCacheConfig(int c) { return cudaDeviceSetCacheConfig(c); }
cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest) {
  ENTER();
  if (least) *least = 0;
  if (greatest) *greatest = -5;
  return 0;
}
/* One simulated GPU: no peers. */
/* Peer attributes need two devices: the one device is no peer of itself
 * (cudaErrorInvalidDevice, as the H100 answers for 0 and 0:
 * testdata/programs7/events_flags). */
cudaError_t cudaDeviceGetP2PAttribute(int *v, int attr, int src, int dst) {
  ENTER();
  (void)attr;
  if (!v) return set_error(cudaErrorInvalidValue);
  (void)src;
  (void)dst;
  return set_error(cudaErrorInvalidDevice);
}
cudaError_t cudaDeviceCanAccessPeer(int *can, int d, int p) {
  ENTER();
  if (!can) return set_error(1);
  if (d != 0 || p != 0) return set_error(cudaErrorInvalidDevice);
  *can = 0;
  return 0;
}
/* The one device is no peer of itself (cudaErrorPeerAccessUnsupported, as
 * the H100 answers: testdata/programs7/events_flags); no other exists. */
cudaError_t cudaDeviceEnablePeerAccess(int p, unsigned f) { (void)f; ENTER(); return set_error(p == 0 ? cudaErrorPeerAccessUnsupported : cudaErrorInvalidDevice); }
cudaError_t cudaDeviceDisablePeerAccess(int p) { (void)p; ENTER(); return set_error(cudaErrorPeerAccessNotEnabled); }
/* CUDA 13.0, as the H100's driver 580 and runtime 13.0 report it
 * (testdata/programs5/device_query); the headers' CUDART_VERSION and
 * CUDA_VERSION say the same (cuda/include/__warpsim_defines.h). */
enum { warpsimCudaVersion = 13000 };
cudaError_t cudaDriverGetVersion(int *v) { if (!v) return set_error(1); *v = warpsimCudaVersion; return 0; }
cudaError_t cudaRuntimeGetVersion(int *v) { if (!v) return set_error(1); *v = warpsimCudaVersion; return 0; }
cudaError_t cudaProfilerStart(void) { return 0; }
cudaError_t cudaProfilerStop(void) { return 0; }

/* ---- Errors ---- */
cudaError_t cudaGetLastError(void) {
  NOT_IN_HOST_CALL();
  cudaError_t e = last_error;
  last_error = 0;
  if (e && started && getpid() == owner_pid) {
    /* compute-sanitizer reports an error returned here as a failed call
     * ("Program hit ... on CUDA API call to cudaGetLastError"), sticky or
     * not (testdata/sanitize/probe3/recorded: sticky_calls, bad_config). */
    LOCK();
    report_failed(__func__, e);
  }
  return e;
}
cudaError_t cudaPeekAtLastError(void) {
  NOT_IN_HOST_CALL();
  cudaError_t e = last_error;
  if (e && started && getpid() == owner_pid) {
    LOCK();
    report_failed(__func__, e);
  }
  return e;
}

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
  /* As CUDA 13's: testdata/hostile/h100.txt, cdp_smem ("child error
   * unrecognized error code" for -1). */
  return "unrecognized error code";
}

/* ---- Memory ---- */
static int find_alloc(uint64_t p) {
  for (int i = 0; i < nallocs; i++)
    if (p >= allocs[i].addr && p < allocs[i].addr + (allocs[i].size ? allocs[i].size : 1)) return i;
  return -1;
}

/* no_fork keeps managed memory out of a fork()ed child (on) or lets it be
 * inherited again (off): the CUDA driver marks its managed mappings so, and
 * a child touching managed or __managed__ memory dies of SIGSEGV while
 * pinned memory stays shared with the parent (testdata/hostile/h100.txt,
 * fork_managed). Allocations start on a page in a slot of their own. */
static void no_fork(const void *p, size_t size, int on) {
  uintptr_t a = (uintptr_t)p, page = 4096;
  if (a % page || size == 0) return;
  madvise((void *)a, (size + page - 1) / page * page, on ? MADV_DONTFORK : MADV_DOFORK);
}

static cudaError_t alloc_kind(void **p, size_t size, int kind) {
  if (!p) return set_error(1);
  uint64_t a[2] = {size, (uint64_t)kind};
  uint32_t msg[3];
  memcpy(msg, &a[0], 8);
  memcpy(msg + 2, &a[1], 4);
  struct reply r = call(opMalloc, msg, 12);
  if (r.code) { free(r.data); *p = NULL; return set_error(r.code); }
  uint64_t addr = 0;
  if (r.len >= 8) memcpy(&addr, r.data, 8);
  free(r.data);
  allocs = grow(allocs, nallocs, sizeof *allocs);
  allocs[nallocs].addr = addr;
  allocs[nallocs].size = size;
  allocs[nallocs].kind = kind;
  nallocs++;
  *p = (void *)(uintptr_t)addr;
  if (kind == kindManaged) no_fork(*p, size, 1);
  return 0;
}

cudaError_t cudaMalloc(void **p, size_t size) {
  ENTER();
  REFUSE_DURING_CAPTURE();
  return alloc_kind(p, size, kindDevice);
}

static void drop_advice(uint64_t addr);
/* free_alloc frees an allocation of kind (or any kind when kind < 0);
 * async puts the free on stream s. */
static cudaError_t free_alloc(void *p, int kind, void *s, int async) {
  uint64_t a = (uintptr_t)p;
  int i = find_alloc(a);
  /* A bad free still goes to the simulator, which refuses it (and a
   * sanitizer there reports it, as compute-sanitizer does). */
  if (i < 0 || allocs[i].addr != a || (kind >= 0 && allocs[i].kind != kind)) a |= 1ull << 63;
  uint32_t msg[4];
  memcpy(msg, &a, 8);
  msg[2] = stream_id(s);
  msg[3] = (uint32_t)async;
  cudaError_t e = simple(opFree, msg, 16);
  if (e) return set_error(e);
  if (a >> 63) return set_error(cudaErrorInvalidValue);
  if (allocs[i].kind == kindManaged) {
    no_fork(p, allocs[i].size, 0);
    drop_advice(allocs[i].addr);
  }
  allocs[i] = allocs[--nallocs];
  return 0;
}

static int graph_owned(const void *p);
static int ipc_pool_free(const void *p);
cudaError_t cudaFree(void *p) {
  ENTER();
  if (!p) return 0;
  REFUSE_DURING_CAPTURE();
  if (graph_owned(p)) return 0;
  int i = find_alloc((uintptr_t)p);
  if (i >= 0 && allocs[i].kind == kindHost) return set_error(cudaErrorInvalidValue); /* cudaFreeHost's */
  if (ipc_pool_free(p)) return 0;
  return free_alloc(p, -1, NULL, 0);
}

/* Pitched allocations check their sizes as the H100 does
 * (testdata/hostile/h100.txt, pitch_overflow): nothing to allocate (a zero
 * width or height, or a 3D height × depth that wraps to zero) succeeds
 * with a NULL pointer and pitch 0; a width whose 512-byte pitch wraps or
 * exceeds the device's largest pitch is cudaErrorInvalidValue (the pitch
 * still written); a 2D size that overflows is cudaErrorMemoryAllocation,
 * a 3D one cudaErrorInvalidValue. */
enum { pitch_align = 512 };
static cudaError_t pitched(void **p, size_t *pitch, size_t w, size_t rows, int is3d) {
  if (!p || !pitch) return set_error(cudaErrorInvalidValue);
  *p = NULL;
  *pitch = 0;
  if (w == 0 || rows == 0) return 0;
  size_t pw = (w + pitch_align - 1) & ~(size_t)(pitch_align - 1);
  *pitch = pw;
  if (pw < w || pw > 2147483647u /* cudaDevAttrMaxPitch */) return set_error(cudaErrorInvalidValue);
  if (rows > SIZE_MAX / pw) return set_error(is3d ? cudaErrorInvalidValue : cudaErrorMemoryAllocation);
  return cudaMalloc(p, pw * rows);
}
cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t w, size_t h) {
  NOT_IN_HOST_CALL();
  return pitched(p, pitch, w, h, 0);
}
cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pp, struct cudaExtent e) {
  NOT_IN_HOST_CALL();
  if (!pp) return set_error(1);
  size_t pitch = 0;
  void *p = NULL;
  cudaError_t err = pitched(&p, &pitch, e.width, e.height * e.depth /* wraps as CUDA's does */, 1);
  pp->ptr = p;
  pp->pitch = pitch;
  if (err) return err;
  pp->xsize = e.width;
  pp->ysize = e.height;
  return 0;
}

/* Managed memory is memory of the window, as every allocation: the host
 * reads and writes it where kernels do, so the host sees a kernel's writes
 * once it has synchronized with the kernel, and a kernel sees what the
 * host wrote before the launch. As on the H100 (concurrentManagedAccess =
 * 1), the host may touch it while a kernel that uses it runs: both see the
 * one copy, and unsynchronized accesses race as they do on the GPU. */
cudaError_t cudaMallocManaged(void **p, size_t size, unsigned flags) {
  ENTER();
  if (!p || size == 0) return set_error(1);
  if (flags != 1 && flags != 2) return set_error(1); /* cudaMemAttachGlobal or cudaMemAttachHost */
  return alloc_kind(p, size, kindManaged);
}

/* Prefetching and advice change no data here (there is one copy of it),
 * but each is remembered per 4 KiB page of the managed allocation, so that
 * cudaMemRangeGetAttribute reads back what the H100 answers
 * (testdata/programs7/managed_advise): a range's read-mostly advice when
 * every page has it, its preferred and last prefetch location when every
 * page has the same one (cudaInvalidDeviceId, -2, otherwise; the host is
 * cudaCpuDeviceId, -1). Advice and prefetches take managed memory only
 * and at least one byte. */
struct warpsim_mem_location { int type; int id; };
enum { advicePage = 4096, locNone = 0, locDevice = 1, locHost = 2 };
struct advice { uint64_t addr, pages; unsigned char *read_mostly, *preferred, *prefetched; };
static struct advice *advices;
static int nadvices;

static struct advice *advice_of(int alloc) {
  for (int i = 0; i < nadvices; i++)
    if (advices[i].addr == allocs[alloc].addr) return &advices[i];
  advices = grow(advices, nadvices, sizeof *advices);
  struct advice *a = &advices[nadvices++];
  a->addr = allocs[alloc].addr;
  a->pages = (allocs[alloc].size + advicePage - 1) / advicePage;
  a->read_mostly = calloc(a->pages, 1);
  a->preferred = calloc(a->pages, 1);
  a->prefetched = calloc(a->pages, 1);
  return a;
}
static void drop_advice(uint64_t addr) {
  for (int i = 0; i < nadvices; i++)
    if (advices[i].addr == addr) {
      free(advices[i].read_mostly);
      free(advices[i].preferred);
      free(advices[i].prefetched);
      advices[i] = advices[--nadvices];
      return;
    }
}
/* managed_pages finds the pages [*lo, *hi) of the managed allocation that
 * [p, p+n) covers. */
static cudaError_t managed_pages(const void *p, size_t n, struct advice **a, uint64_t *lo, uint64_t *hi) {
  int i = find_alloc((uintptr_t)p);
  if (i < 0 || allocs[i].kind != kindManaged || n == 0) return set_error(cudaErrorInvalidValue);
  if ((uintptr_t)p + n > allocs[i].addr + allocs[i].size) return set_error(cudaErrorInvalidValue);
  *a = advice_of(i);
  *lo = ((uintptr_t)p - allocs[i].addr) / advicePage;
  *hi = ((uintptr_t)p + n - allocs[i].addr + advicePage - 1) / advicePage;
  return 0;
}
static cudaError_t check_managed_range(const void *p, size_t n) {
  struct advice *a;
  uint64_t lo, hi;
  return managed_pages(p, n, &a, &lo, &hi);
}
/* location_of is a cudaMemLocation's place: the device (id 0), the host
 * (any host kind), or an error. */
static cudaError_t location_of(struct warpsim_mem_location loc, int *where) {
  if (loc.type == 1) {
    if (loc.id != 0) return set_error(cudaErrorInvalidDevice);
    *where = locDevice;
    return 0;
  }
  if (loc.type < 2 || loc.type > 4) return set_error(cudaErrorInvalidValue);
  *where = locHost;
  return 0;
}
static cudaError_t prefetch(const void *p, size_t n, int where, void *stream) {
  if (!valid_stream(stream)) return set_error(400);
  struct advice *a;
  uint64_t lo, hi;
  cudaError_t e = managed_pages(p, n, &a, &lo, &hi);
  if (e) return e;
  memset(a->prefetched + lo, where, hi - lo);
  return 0;
}
static cudaError_t advise(const void *p, size_t n, int advice, int where) {
  if (advice < 1 || advice > 6) return set_error(cudaErrorInvalidValue);
  struct advice *a;
  uint64_t lo, hi;
  cudaError_t e = managed_pages(p, n, &a, &lo, &hi);
  if (e) return e;
  switch (advice) {
  case 1: memset(a->read_mostly + lo, 1, hi - lo); break;    /* cudaMemAdviseSetReadMostly */
  case 2: memset(a->read_mostly + lo, 0, hi - lo); break;    /* cudaMemAdviseUnsetReadMostly */
  case 3: memset(a->preferred + lo, where, hi - lo); break;  /* cudaMemAdviseSetPreferredLocation */
  case 4: memset(a->preferred + lo, locNone, hi - lo); break; /* cudaMemAdviseUnsetPreferredLocation */
  }
  return 0; /* cudaMemAdviseSet/UnsetAccessedBy: nothing to remember */
}
static cudaError_t legacy_location(int device, int *where) {
  if (device != 0 && device != -1) return set_error(cudaErrorInvalidDevice);
  *where = device == 0 ? locDevice : locHost;
  return 0;
}
cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, int device, void *stream) {
  ENTER();
  int where;
  cudaError_t e = legacy_location(device, &where);
  return e ? e : prefetch(p, n, where, stream);
}
cudaError_t cudaMemPrefetchAsync_v2(const void *p, size_t n, struct warpsim_mem_location loc, unsigned flags, void *stream) {
  (void)flags;
  ENTER();
  int where;
  cudaError_t e = location_of(loc, &where);
  return e ? e : prefetch(p, n, where, stream);
}
cudaError_t cudaMemAdvise(const void *p, size_t n, int advice, int device) {
  ENTER();
  int where;
  cudaError_t e = legacy_location(device, &where);
  return e ? e : advise(p, n, advice, where);
}
cudaError_t cudaMemAdvise_v2(const void *p, size_t n, int advice, struct warpsim_mem_location loc) {
  ENTER();
  int where;
  cudaError_t e = location_of(loc, &where);
  return e ? e : advise(p, n, advice, where);
}
cudaError_t cudaStreamAttachMemAsync(void *stream, void *p, size_t n, unsigned flags) {
  ENTER();
  if (!valid_stream(stream)) return set_error(400);
  if (flags != 1 && flags != 2 && flags != 4) return set_error(cudaErrorInvalidValue);
  if (n != 0 && check_managed_range(p, n)) return last_error;
  return 0;
}
/* same_place is the place every page of [lo, hi) of places has, or -1. */
static int same_place(const unsigned char *places, uint64_t lo, uint64_t hi) {
  for (uint64_t i = lo + 1; i < hi; i++)
    if (places[i] != places[lo]) return -1;
  return places[lo];
}
cudaError_t cudaMemRangeGetAttribute(void *data, size_t dataSize, int attr, const void *p, size_t n) {
  ENTER();
  struct advice *a;
  uint64_t lo, hi;
  if (!data) return set_error(cudaErrorInvalidValue);
  cudaError_t e = managed_pages(p, n, &a, &lo, &hi);
  if (e) return e;
  static const int device_id[] = {-2, 0, -1}, loc_type[] = {0, 1, 2}; /* by locNone, locDevice, locHost */
  if (attr == 3) { /* cudaMemRangeAttributeAccessedBy: a list of devices, not remembered */
    for (size_t i = 0; i + 4 <= dataSize; i += 4) memcpy((char *)data + i, &device_id[locNone], 4);
    return 0;
  }
  if (dataSize != 4) return set_error(cudaErrorInvalidValue);
  int v, rm = 1, pref = same_place(a->preferred, lo, hi), last = same_place(a->prefetched, lo, hi);
  for (uint64_t i = lo; i < hi; i++) rm &= a->read_mostly[i];
  if (pref < 0) pref = locNone;
  if (last < 0) last = locNone;
  switch (attr) {
  case 1: v = rm; break;                    /* ReadMostly */
  case 2: case 6: v = device_id[pref]; break; /* PreferredLocation, PreferredLocationId */
  case 4: case 8: v = device_id[last]; break; /* LastPrefetchLocation, LastPrefetchLocationId */
  case 5: v = loc_type[pref]; break;          /* PreferredLocationType */
  case 7: v = loc_type[last]; break;          /* LastPrefetchLocationType */
  default: return set_error(cudaErrorInvalidValue);
  }
  memcpy(data, &v, 4);
  return 0;
}

/* Pinned host memory is window memory too, so it is mapped for every
 * cudaHostAlloc flag, and its device pointer is its host pointer. */
cudaError_t cudaMallocHost(void **p, size_t size) {
  ENTER();
  return alloc_kind(p, size ? size : 1, kindHost);
}
cudaError_t cudaHostAlloc(void **p, size_t size, unsigned flags) {
  ENTER();
  if (flags & ~0x0fu) return set_error(cudaErrorInvalidValue);
  cudaError_t e = alloc_kind(p, size ? size : 1, kindHost);
  int i = e ? -1 : find_alloc((uintptr_t)*p);
  if (i >= 0) allocs[i].host_flags = flags;
  return e;
}
cudaError_t cudaMallocHost_flags(void **p, size_t size, unsigned flags) { return cudaHostAlloc(p, size, flags); }
cudaError_t cudaFreeHost(void *p) {
  ENTER();
  if (!p) return 0;
  return free_alloc(p, kindHost, NULL, 0);
}

/* cudaHostRegister makes the program's own memory visible to kernels: its
 * pages are copied into a window allocation, and that allocation is then
 * mapped over them in place (same addresses, same contents, now shared
 * with the simulator). The simulator makes the host range a device range
 * of that allocation too (opManagedAlias), so kernels reach it at the host
 * pointer, which cudaHostGetDevicePointer and cudaPointerGetAttributes
 * give, as on the H100 (canUseHostPointerForRegisteredMem = 1); copies
 * go through the window. Other data sharing those pages
 * stays where it was and is unaffected. cudaHostUnregister gives the
 * range private memory with the same contents again. */
static int find_registration(uintptr_t p) {
  for (int i = 0; i < nregs; i++)
    if (p >= regs[i].host && p < regs[i].host + regs[i].size) return i;
  return -1;
}

cudaError_t cudaHostRegister(void *p, size_t n, unsigned flags) {
  ENTER();
  if (!p || n == 0 || (flags & ~0x0fu)) return set_error(cudaErrorInvalidValue);
  if (in_window(p)) return set_error(cudaErrorHostMemoryAlreadyRegistered);
  uintptr_t h = (uintptr_t)p;
  for (int i = 0; i < nregs; i++)
    if (h < regs[i].host + regs[i].size && regs[i].host < h + n) return set_error(cudaErrorHostMemoryAlreadyRegistered);
  long pg = sysconf(_SC_PAGESIZE);
  uintptr_t lo = h & ~(uintptr_t)(pg - 1), hi = (h + n + pg - 1) & ~(uintptr_t)(pg - 1);
  size_t len = hi - lo;
  void *a = NULL;
  cudaError_t e = alloc_kind(&a, len + (size_t)pg, kindHost);
  if (e) return e;
  uintptr_t w = ((uintptr_t)a + pg - 1) & ~(uintptr_t)(pg - 1);
  memcpy((void *)w, (void *)lo, len);
  void *m = mmap((void *)lo, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, mem_fd, (off_t)(w - window_base));
  if (m == MAP_FAILED) {
    fprintf(stderr, "warpsim runtime: cudaHostRegister: cannot share %p: %s\n", p, strerror(errno));
    free_alloc(a, kindHost, NULL, 0);
    return set_error(cudaErrorHostMemoryAlreadyRegistered == 0 ? 1 : cudaErrorInvalidValue);
  }
  regs = grow(regs, nregs, sizeof *regs);
  /* Kernels reach the range at its host addresses too, so its device
   * pointer is the host pointer, as on the H100 (testdata/programs5/
   * async_memory, programs7/pointer_attrs); copies keep using the window. */
  uint64_t al[3] = {(uint64_t)h, w + (h - lo), (uint64_t)n};
  struct reply ar = call(opManagedAlias, al, sizeof al);
  free(ar.data);
  regs[nregs++] = (struct registration){h, n, lo, len, (uintptr_t)a, w + (h - lo), flags, ar.code == 0};
  return 0;
}

static void unregister_at(int i) {
  struct registration r = regs[i];
  void *copy = malloc(r.pages);
  if (copy) memcpy(copy, (void *)r.page, r.pages);
  mmap((void *)r.page, r.pages, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  if (copy) memcpy((void *)r.page, copy, r.pages);
  free(copy);
  regs[i] = regs[--nregs];
}

cudaError_t cudaHostUnregister(void *p) {
  ENTER();
  for (int i = 0; i < nregs; i++)
    if (regs[i].host == (uintptr_t)p) {
      uint64_t a = regs[i].alloc;
      if (regs[i].aliased) {
        uint64_t h = regs[i].host;
        struct reply r = call(opUnalias, &h, 8);
        free(r.data);
      }
      unregister_at(i);
      return free_alloc((void *)(uintptr_t)a, kindHost, NULL, 0);
    }
  return set_error(cudaErrorHostMemoryNotRegistered);
}

/* cudaDeviceReset frees every allocation, registered ranges' included:
 * they go back to private memory with their contents. */
static void forget_registrations(void) {
  while (nregs > 0) unregister_at(nregs - 1);
}

cudaError_t cudaHostGetDevicePointer(void **d, void *h, unsigned f) {
  ENTER();
  if (!d || f != 0) return set_error(cudaErrorInvalidValue);
  int a = in_window(h) ? find_alloc((uintptr_t)h) : -1;
  if (a >= 0 && allocs[a].kind == kindHost) { /* not device or managed memory */
    *d = h;
    return 0;
  }
  int i = find_registration((uintptr_t)h);
  if (i < 0) return set_error(cudaErrorInvalidValue);
  *d = regs[i].aliased ? h : (void *)(uintptr_t)(regs[i].dev + ((uintptr_t)h - regs[i].host));
  return 0;
}
cudaError_t cudaHostGetFlags(unsigned *flags, void *h) {
  ENTER();
  if (!flags) return set_error(1);
  /* Host memory is always mapped (cudaHostAllocMapped, 2); beside it the
   * H100 reports cudaHostAllocWriteCombined of cudaHostAlloc's flags (not
   * Portable) and a registration's own flags, and 2 for managed memory
   * (testdata/programs7/pointer_attrs). */
  int i = find_alloc((uintptr_t)h);
  if (i >= 0 && allocs[i].kind == kindHost) { *flags = 0x02 | (allocs[i].host_flags & 0x04); return 0; }
  if (i >= 0 && allocs[i].kind == kindManaged) { *flags = 0x02; return 0; }
  int r = find_registration((uintptr_t)h);
  if (r < 0) return set_error(cudaErrorInvalidValue);
  *flags = 0x02 | regs[r].flags;
  return 0;
}

/* device_address is where kernels see host pointer p: p itself for window
 * memory, the registration's device address for registered memory, 0 for
 * ordinary (pageable) memory. */
static uint64_t device_address(const void *p) {
  if (in_window(p)) return (uintptr_t)p;
  int i = find_registration((uintptr_t)p);
  if (i >= 0) return regs[i].dev + ((uintptr_t)p - regs[i].host);
  return 0;
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a, const void *p) {
  ENTER();
  if (!a) return set_error(1);
  memset(a, 0, sizeof *a);
  int i = in_window(p) ? find_alloc((uintptr_t)p) : -1;
  int r = find_registration((uintptr_t)p);
  int v = -1; /* a __device__ variable whose address the program was given */
  for (int k = 0; i < 0 && k < nvariables && v < 0; k++)
    if (variables[k].resolved && (uintptr_t)p - variables[k].addr < variables[k].size) v = k;
  if (v >= 0) {
    a->type = 2;
    a->device = 0;
    a->devicePointer = (void *)p;
  } else if (i >= 0) {
    static const int types[] = {2, 1, 3}; /* device, host, managed */
    a->type = types[allocs[i].kind];
    a->device = 0;
    a->devicePointer = (void *)p;
    a->hostPointer = allocs[i].kind == kindDevice ? NULL : (void *)p;
  } else if (r >= 0) {
    a->type = 1;
    a->device = 0;
    a->devicePointer = regs[r].aliased ? (void *)p : (void *)(uintptr_t)device_address(p);
    a->hostPointer = (void *)p;
  } else {
    a->type = 0;
    a->device = -2;
    a->hostPointer = (void *)p;
  }
  return 0;
}

/* The simulated device's memory not yet allocated, and its size, as a GPU
 * answers (not the host's available memory, which moves with other
 * processes); whether the host can back an allocation is decided when it is
 * made. */
cudaError_t cudaMemGetInfo(size_t *freeB, size_t *total) {
  ENTER();
  struct reply r = call(opMemInfo, NULL, 0);
  uint64_t v[2] = {0, 0};
  if (!r.code && r.len >= 16) memcpy(v, r.data, 16);
  free(r.data);
  if (r.code) return set_error(r.code);
  if (freeB) *freeB = v[0];
  if (total) *total = v[1];
  return 0;
}

/* ---- Copies and memsets ---- */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
/* populate maps the pages of a large copy's buffer ahead of it: one call
 * instead of a page fault per page, which costs tens of microseconds on a
 * virtual machine (1 GiB: 10 s faulted, 0.6 s populated). Best effort. */
static void populate(const void *p, size_t n) {
  if (n < (1u << 20)) return;
  long pg = sysconf(_SC_PAGESIZE);
  uintptr_t lo = (uintptr_t)p & ~(uintptr_t)(pg - 1);
  madvise((void *)lo, (uintptr_t)p + n - lo, MADV_POPULATE_WRITE);
}

static int host_kind(const void *p) {
  int i = find_alloc((uintptr_t)p);
  return i >= 0 && allocs[i].kind == kindHost;
}

/* copy moves count bytes on stream s (async: without waiting for it). The
 * kind is checked as CUDA checks it, but where the bytes are decides. */
static cudaError_t copy_on(void *dst, const void *src, size_t count, int kind, void *s, int async) {
  if (kind < 0 || kind > 4) return set_error(cudaErrorInvalidMemcpyDirection);
  if (count == 0) return 0;
  if (!dst || !src) return set_error(1);
  if (!valid_stream(s)) return set_error(400);
  uint64_t dd = device_address(dst), sd = device_address(src);
  uint32_t sid = stream_id(s);
  if (dd && sd) {
    uint32_t msg[8];
    msg[0] = sid;
    msg[1] = (uint32_t)async;
    memcpy(msg + 2, &dd, 8);
    memcpy(msg + 4, &sd, 8);
    uint64_t n = count;
    memcpy(msg + 6, &n, 8);
    return set_error(simple(opCopy, msg, 32));
  }
  /* One side is the program's ordinary memory: wait for the stream, then
   * copy here (CUDA too copies from pageable memory synchronously). A kind
   * that names the device for ordinary memory is refused, as CUDA does. */
  if (((kind == 1 || kind == 3) && !dd) || ((kind == 2 || kind == 3) && !sd)) return set_error(cudaErrorInvalidValue);
  uint32_t dir = dd ? (host_kind(dst) ? dirHostToHost : dirHostToDevice)
               : sd ? (host_kind(src) ? dirHostToHost : dirDeviceToHost) : dirHostToHost;
  uint32_t msg[6];
  msg[0] = sid;
  msg[1] = dir | (async ? 0x100u : 0u); /* hostCopyAsync: the call was cudaMemcpyAsync */
  uint64_t dev = dd ? dd : sd, n = count;
  memcpy(msg + 2, &dev, 8);
  memcpy(msg + 4, &n, 8);
  cudaError_t e = simple(opHostCopy, msg, 24);
  if (e) return set_error(e);
  populate(dst, count);
  populate(src, count);
  memmove(dst, src, count);
  return 0;
}

struct capture_copy { void *dst; const void *src; size_t count; int kind; };
static cudaError_t capture_memcpy(struct stream *st, void *dst, const void *src, size_t count, int kind);
static cudaError_t capture_memset(struct stream *st, void *p, int value, size_t w, size_t h, size_t pitch);

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, int kind) {
  ENTER();
  REFUSE_DURING_CAPTURE();
  return copy_on(dst, src, count, kind, NULL, 0);
}
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind, void *stream) {
  ENTER();
  struct stream *st = capturing(stream);
  if (st) return capture_memcpy(st, dst, src, count, kind);
  return copy_on(dst, src, count, kind, stream, 1);
}
static cudaError_t copy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t w, size_t h, int kind, void *s, int async) {
  if (w > dpitch || w > spitch) return set_error(cudaErrorInvalidPitchValue);
  for (size_t row = 0; row < h; row++) {
    cudaError_t e = copy_on((char *)dst + row * dpitch, (const char *)src + row * spitch, w, kind, s, async);
    if (e) return e;
  }
  return 0;
}
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t w, size_t h, int kind) {
  ENTER();
  REFUSE_DURING_CAPTURE();
  return copy2d(dst, dpitch, src, spitch, w, h, kind, NULL, 0);
}
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t w, size_t h, int kind, void *s) {
  ENTER();
  if (capturing(s)) return set_error(cudaErrorStreamCaptureUnsupported);
  return copy2d(dst, dpitch, src, spitch, w, h, kind, s, 1);
}

/* 3D copies between pitched pointers; with a CUDA array on either side,
 * tex_copy3d (warpsim_rt_tex.c) turns the array into pitched memory. */
static cudaError_t tex_copy3d(const struct cudaMemcpy3DParms *p, void *s, int async);
static cudaError_t copy3d(const struct cudaMemcpy3DParms *p, void *s, int async) {
  if (!p) return set_error(1);
  if (p->srcArray || p->dstArray) return tex_copy3d(p, s, async);
  struct cudaExtent e = p->extent;
  for (size_t z = 0; z < e.depth; z++)
    for (size_t y = 0; y < e.height; y++) {
      const char *src = (const char *)p->srcPtr.ptr + ((z + p->srcPos.z) * p->srcPtr.ysize + y + p->srcPos.y) * p->srcPtr.pitch + p->srcPos.x;
      char *dst = (char *)p->dstPtr.ptr + ((z + p->dstPos.z) * p->dstPtr.ysize + y + p->dstPos.y) * p->dstPtr.pitch + p->dstPos.x;
      cudaError_t err = copy_on(dst, src, e.width, p->kind, s, async);
      if (err) return err;
    }
  return 0;
}
cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p) { ENTER(); REFUSE_DURING_CAPTURE(); return copy3d(p, NULL, 0); }
cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, void *s) {
  ENTER();
  if (capturing(s)) return set_error(cudaErrorStreamCaptureUnsupported);
  return copy3d(p, s, 1);
}
/* One device: a peer copy is a device-to-device copy on device 0. */
cudaError_t cudaMemcpyPeer(void *dst, int dd, const void *src, int sd, size_t n) {
  ENTER();
  if (dd != 0 || sd != 0) return set_error(cudaErrorInvalidDevice);
  return copy_on(dst, src, n, 3, NULL, 0);
}
cudaError_t cudaMemcpyPeerAsync(void *dst, int dd, const void *src, int sd, size_t n, void *s) {
  ENTER();
  if (dd != 0 || sd != 0) return set_error(cudaErrorInvalidDevice);
  return copy_on(dst, src, n, 3, s, 1);
}

static cudaError_t memset_on(void *p, int value, size_t count, void *s, int async) {
  if (count == 0) return 0;
  if (!valid_stream(s)) return set_error(400);
  uint64_t d = device_address(p);
  if (!d) return set_error(cudaErrorInvalidValue);
  uint32_t msg[8];
  msg[0] = stream_id(s);
  msg[1] = (uint32_t)async;
  uint64_t v = (unsigned char)value, n = count;
  memcpy(msg + 2, &d, 8);
  memcpy(msg + 4, &v, 8);
  memcpy(msg + 6, &n, 8);
  return set_error(simple(opMemset, msg, 32));
}
cudaError_t cudaMemset(void *p, int value, size_t count) {
  ENTER();
  REFUSE_DURING_CAPTURE();
  return memset_on(p, value, count, NULL, 0);
}
cudaError_t cudaMemsetAsync(void *p, int value, size_t count, void *s) {
  ENTER();
  struct stream *st = capturing(s);
  if (st) return capture_memset(st, p, value, count, 1, count);
  return memset_on(p, value, count, s, 1);
}
static cudaError_t memset2d(void *p, size_t pitch, int value, size_t w, size_t h, void *s, int async) {
  if (w > pitch && h > 1) return set_error(cudaErrorInvalidPitchValue);
  for (size_t row = 0; row < h; row++) {
    cudaError_t e = memset_on((char *)p + row * pitch, value, w, s, async);
    if (e) return e;
  }
  return 0;
}
cudaError_t cudaMemset2D(void *p, size_t pitch, int value, size_t w, size_t h) { ENTER(); return memset2d(p, pitch, value, w, h, NULL, 0); }
cudaError_t cudaMemset2DAsync(void *p, size_t pitch, int value, size_t w, size_t h, void *s) {
  ENTER();
  struct stream *st = capturing(s);
  if (st) return capture_memset(st, p, value, w, h, pitch);
  return memset2d(p, pitch, value, w, h, s, 1);
}
cudaError_t cudaMemset3D(struct cudaPitchedPtr pp, int value, struct cudaExtent e) {
  ENTER();
  for (size_t z = 0; z < e.depth; z++) {
    cudaError_t err = memset2d((char *)pp.ptr + z * pp.pitch * pp.ysize, pp.pitch, value, e.width, e.height, NULL, 0);
    if (err) return err;
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
static cudaError_t to_symbol(const void *symbol, const void *src, size_t count, size_t offset, int kind, void *s, int async) {
  struct variable *v = find_var(symbol);
  if (!v) return set_error(13);
  if (offset + count > v->size) return set_error(1);
  if (kind != 1 && kind != 3 && kind != 4) return set_error(21);
  return copy_on((void *)(uintptr_t)(v->addr + offset), src, count, kind == 4 ? 4 : kind, s, async);
}
static cudaError_t from_symbol(void *dst, const void *symbol, size_t count, size_t offset, int kind, void *s, int async) {
  struct variable *v = find_var(symbol);
  if (!v) return set_error(13);
  if (offset + count > v->size) return set_error(1);
  if (kind != 2 && kind != 3 && kind != 4) return set_error(21);
  return copy_on(dst, (const void *)(uintptr_t)(v->addr + offset), count, kind, s, async);
}
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset, int kind) {
  ENTER();
  REFUSE_DURING_CAPTURE();
  return to_symbol(symbol, src, count, offset, kind, NULL, 0);
}
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset, int kind) {
  ENTER();
  REFUSE_DURING_CAPTURE();
  return from_symbol(dst, symbol, count, offset, kind, NULL, 0);
}
cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset, int kind, void *s) {
  ENTER();
  struct stream *st = capturing(s);
  if (st) {
    struct variable *v = find_var(symbol);
    if (!v) return set_error(13);
    if (offset + count > v->size) return set_error(1);
    return capture_memcpy(st, (void *)(uintptr_t)(v->addr + offset), src, count, kind);
  }
  return to_symbol(symbol, src, count, offset, kind, s, 1);
}
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset, int kind, void *s) {
  ENTER();
  struct stream *st = capturing(s);
  if (st) {
    struct variable *v = find_var(symbol);
    if (!v) return set_error(13);
    if (offset + count > v->size) return set_error(1);
    return capture_memcpy(st, dst, (const void *)(uintptr_t)(v->addr + offset), count, kind);
  }
  return from_symbol(dst, symbol, count, offset, kind, s, 1);
}

/* ---- Streams ---- */
cudaError_t cudaStreamCreateWithPriority(void **s, unsigned flags, int priority) {
  ENTER();
  if (!s || (flags & ~1u)) return set_error(1);
  struct stream *st = calloc(1, sizeof *st);
  st->magic = STREAM_MAGIC;
  st->id = next_stream_id++;
  st->flags = flags;
  /* Clamped into cudaDeviceGetStreamPriorityRange's [-5, 0], as the H100
   * did (testdata/programs5/stream_events). */
  st->priority = priority < -5 ? -5 : priority > 0 ? 0 : priority;
  st->attrs[cudaLaunchAttributeSynchronizationPolicy].syncPolicy = (enum cudaSynchronizationPolicy)-1;
  uint32_t msg[2] = {st->id, flags};
  cudaError_t e = simple(opStreamCreate, msg, 8);
  if (e) { free(st); return set_error(e); }
  *s = st;
  return 0;
}
cudaError_t cudaStreamCreate(void **s) { return cudaStreamCreateWithPriority(s, 0, 0); }
cudaError_t cudaStreamCreateWithFlags(void **s, unsigned f) { return cudaStreamCreateWithPriority(s, f, 0); }
cudaError_t cudaStreamGetFlags(void *s, unsigned *flags) {
  ENTER();
  if (!valid_stream(s) || !flags) return set_error(!flags ? 1 : 400);
  *flags = stream_id(s) ? ((struct stream *)s)->flags : 0;
  return 0;
}
cudaError_t cudaStreamGetPriority(void *s, int *p) {
  ENTER();
  if (!valid_stream(s) || !p) return set_error(!p ? 1 : 400);
  *p = stream_id(s) ? ((struct stream *)s)->priority : 0;
  return 0;
}
cudaError_t cudaStreamGetId(void *s, unsigned long long *id) {
  ENTER();
  if (!valid_stream(s) || !id) return set_error(!id ? 1 : 400);
  *id = stream_id(s);
  return 0;
}
/* Stream attributes are kept and read back; none changes what a kernel
 * computes (an access-policy window is an L2 caching hint, a
 * synchronization policy how a waiting host thread waits). The default
 * streams share one set. */
/* A stream's synchronization policy reads -1 until one is set (as on the
 * H100). */
static union cudaLaunchAttributeValue default_stream_attrs[cudaLaunchAttributeMemSyncDomain + 1] = {
  [cudaLaunchAttributeSynchronizationPolicy] = {.syncPolicy = (enum cudaSynchronizationPolicy)-1},
};
static union cudaLaunchAttributeValue *stream_attrs(void *s) {
  return stream_id(s) ? ((struct stream *)s)->attrs : default_stream_attrs;
}
static int stream_attr_id(int id) {
  return id == cudaLaunchAttributeAccessPolicyWindow || id == cudaLaunchAttributeSynchronizationPolicy ||
         id == cudaLaunchAttributePriority || id == cudaLaunchAttributeMemSyncDomainMap ||
         id == cudaLaunchAttributeMemSyncDomain;
}
/* The checks the driver makes on an access-policy window. */
static int valid_window(const struct cudaAccessPolicyWindow *w) {
  if (w->num_bytes > (size_t)props.accessPolicyMaxWindowSize) return 0;
  if (!(w->hitRatio >= 0.0f && w->hitRatio <= 1.0f)) return 0;
  if ((unsigned)w->hitProp > 2 || (unsigned)w->missProp > 2 || w->missProp == cudaAccessPropertyPersisting) return 0;
  return 1;
}
cudaError_t cudaStreamSetAttribute(void *s, int id, const union cudaLaunchAttributeValue *v) {
  ENTER();
  if (!valid_stream(s)) return set_error(400);
  if (!v || !stream_attr_id(id)) return set_error(1);
  if (id == cudaLaunchAttributeAccessPolicyWindow && !valid_window(&v->accessPolicyWindow)) return set_error(1);
  if (id == cudaLaunchAttributeSynchronizationPolicy && (v->syncPolicy < cudaSyncPolicyAuto || v->syncPolicy > cudaSyncPolicyBlockingSync))
    return set_error(1);
  if (id == cudaLaunchAttributePriority) {
    if (!stream_id(s)) return set_error(1);
    int p = v->priority;
    ((struct stream *)s)->priority = p < -5 ? -5 : p > 0 ? 0 : p;
    return 0;
  }
  stream_attrs(s)[id] = *v;
  return 0;
}
cudaError_t cudaStreamGetAttribute(void *s, int id, union cudaLaunchAttributeValue *v) {
  ENTER();
  if (!valid_stream(s)) return set_error(400);
  if (!v || !stream_attr_id(id)) return set_error(1);
  if (id == cudaLaunchAttributePriority) {
    memset(v, 0, sizeof *v);
    v->priority = stream_id(s) ? ((struct stream *)s)->priority : 0;
    return 0;
  }
  *v = stream_attrs(s)[id];
  return 0;
}
cudaError_t cudaStreamCopyAttributes(void *dst, void *src) {
  ENTER();
  if (!valid_stream(dst) || !valid_stream(src)) return set_error(400);
  memcpy(stream_attrs(dst), stream_attrs(src), sizeof default_stream_attrs);
  return 0;
}
/* Persisting L2 lines are not modelled: there is nothing to demote. */
cudaError_t cudaCtxResetPersistingL2Cache(void) {
  ENTER();
  return 0;
}

/* Destroying a stream with work queued is allowed: the work completes. */
cudaError_t cudaStreamDestroy(void *s) {
  ENTER();
  if (!s || s == (void *)1 || s == (void *)2 || !valid_stream(s)) return set_error(400);
  ((struct stream *)s)->magic = 0;
  free(((struct stream *)s)->deps);
  free(s);
  return 0;
}
cudaError_t cudaStreamSynchronize(void *s) {
  ENTER();
  if (!valid_stream(s)) return set_error(400);
  if (capturing(s)) return set_error(cudaErrorStreamCaptureUnsupported);
  uint32_t id = stream_id(s);
  pools_settle();
  return set_error(simple(opStreamSync, &id, 4));
}
cudaError_t cudaStreamQuery(void *s) {
  ENTER();
  if (!valid_stream(s)) return set_error(400);
  if (capturing(s)) return set_error(cudaErrorStreamCaptureUnsupported);
  uint32_t id = stream_id(s);
  cudaError_t e = simple(opStreamQuery, &id, 4);
  return e == cudaErrorNotReady ? e : set_error(e); /* not ready is not an error to remember */
}

static cudaError_t capture_host(struct stream *st, void (*fn)(void *), void (*cb)(void *, cudaError_t, void *), void *data);

static cudaError_t host_work(void *s, void (*fn)(void *), void (*cb)(void *, cudaError_t, void *), void *data) {
  ENTER();
  if (!valid_stream(s)) return set_error(400);
  if (!fn && !cb) return set_error(1);
  struct stream *st = capturing(s);
  if (st) return capture_host(st, fn, cb, data);
  uint32_t msg[2] = {stream_id(s), add_host_call((struct host_call){fn, cb, s, data})};
  return set_error(simple(opHostFunc, msg, 8));
}
cudaError_t cudaLaunchHostFunc(void *s, void (*fn)(void *), void *data) { return host_work(s, fn, NULL, data); }
cudaError_t cudaStreamAddCallback(void *s, void (*cb)(void *, cudaError_t, void *), void *data, unsigned flags) {
  if (flags != 0) return set_error(1); /* reserved, must be 0 */
  return host_work(s, NULL, cb, data);
}

/* ---- Events ---- */
/* Interprocess events (warpsim_rt_ipc.c). */
static uint64_t *ipc_event_state(void);
static cudaError_t ipc_event_record(struct event *ev, void *s);
static cudaError_t ipc_event_query(struct event *ev);
static cudaError_t ipc_event_sync(struct event *ev);
static cudaError_t ipc_event_wait(struct event *ev, void *s);
static void ipc_event_close(struct event *ev);

cudaError_t cudaEventCreateWithFlags(void **e, unsigned f) {
  ENTER();
  if (!e || (f & ~0x07u)) return set_error(1);
  /* An interprocess event must not time (as on the H100). */
  if ((f & cudaEventInterprocess) && !(f & cudaEventDisableTiming)) return set_error(cudaErrorInvalidValue);
  uint64_t *state = NULL;
  if ((f & cudaEventInterprocess) && !(state = ipc_event_state())) return set_error(cudaErrorMemoryAllocation);
  struct event *ev = calloc(1, sizeof *ev);
  ev->magic = EVENT_MAGIC;
  ev->id = next_event_id++;
  ev->flags = f;
  ev->ipc = state;
  *e = ev;
  return 0;
}
cudaError_t cudaEventCreate(void **e) { return cudaEventCreateWithFlags(e, 0); }

static cudaError_t capture_event_record(struct stream *st, struct event *ev);
static int capture_open(const struct graph *g);
static cudaError_t capture_event_wait(struct stream *st, struct event *ev);

cudaError_t cudaEventRecord(void *e, void *s) {
  ENTER();
  struct event *ev = as_event(e);
  if (!ev || !valid_stream(s)) return set_error(400);
  struct stream *st = capturing(s);
  if (st) return capture_event_record(st, ev);
  ev->capture = NULL;
  if (ev->ipc) return ipc_event_record(ev, s);
  uint32_t msg[2] = {ev->id, stream_id(s)};
  cudaError_t err = simple(opEventRecord, msg, 8);
  if (err) return set_error(err);
  ev->recorded = 1;
  return 0;
}
/* cudaEventRecordExternal is for captures only (cudaErrorIllegalState
 * outside one, as on the H100); no other flag exists. */
cudaError_t cudaEventRecordWithFlags(void *e, void *s, unsigned flags) {
  {
    ENTER();
    if (flags & ~(unsigned)cudaEventRecordExternal) return set_error(cudaErrorInvalidValue);
    if ((flags & cudaEventRecordExternal) && valid_stream(s) && !capturing(s)) return set_error(cudaErrorIllegalState);
  }
  return cudaEventRecord(e, s);
}
cudaError_t cudaEventSynchronize(void *e) {
  ENTER();
  struct event *ev = as_event(e);
  if (!ev) return set_error(400);
  if (ev->ipc) return ipc_event_sync(ev);
  if (!ev->recorded) return 0;
  pools_settle();
  return set_error(simple(opEventSync, &ev->id, 4));
}
cudaError_t cudaEventQuery(void *e) {
  ENTER();
  struct event *ev = as_event(e);
  if (!ev) return set_error(400);
  if (ev->ipc) return ipc_event_query(ev);
  if (!ev->recorded) return 0;
  cudaError_t err = simple(opEventQuery, &ev->id, 4);
  return err == cudaErrorNotReady ? err : set_error(err);
}
cudaError_t cudaEventElapsedTime(float *ms, void *a, void *b) {
  ENTER();
  struct event *ea = as_event(a), *eb = as_event(b);
  if (!ms) return set_error(1);
  if (!ea || !eb) return set_error(400);
  if ((ea->flags | eb->flags) & 0x02) return set_error(400); /* cudaEventDisableTiming */
  if (!ea->recorded || !eb->recorded) return set_error(400);
  uint32_t msg[2] = {ea->id, eb->id};
  struct reply r = call(opEventElapsed, msg, 8);
  int64_t ns = 0;
  if (!r.code && r.len >= 8) memcpy(&ns, r.data, 8);
  free(r.data);
  if (r.code) return r.code == cudaErrorNotReady ? r.code : set_error(r.code);
  *ms = (float)((double)ns / 1e6);
  return 0;
}
cudaError_t cudaEventElapsedTime_v2(float *ms, void *a, void *b) { return cudaEventElapsedTime(ms, a, b); }
cudaError_t cudaEventDestroy(void *e) {
  ENTER();
  struct event *ev = as_event(e);
  if (!ev) return set_error(400);
  ipc_event_close(ev);
  ev->magic = 0;
  free(ev->deps);
  free(ev);
  return 0;
}
cudaError_t cudaStreamWaitEvent(void *s, void *e, unsigned f) {
  ENTER();
  struct event *ev = as_event(e);
  if (!ev || !valid_stream(s)) return set_error(400);
  if (f & ~1u) return set_error(1);
  if ((ev->capture && capture_open(ev->capture)) || capturing(s)) return capture_event_wait(s == NULL || s == (void *)1 || s == (void *)2 ? NULL : s, ev);
  if (ev->ipc) return ipc_event_wait(ev, s);
  if (!ev->recorded) return 0;
  uint32_t msg[2] = {stream_id(s), ev->id};
  return set_error(simple(opStreamWait, msg, 8));
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

/* pack copies a launch's arguments into the kernel's parameter buffer. */
static char *pack(struct function *f, void **args) {
  char *params = calloc(f->param_bytes ? f->param_bytes : 1, 1);
  for (int i = 0; i < f->nparams; i++)
    if (args && args[i]) memcpy(params + f->offsets[i], args[i], f->sizes[i]);
  return params;
}

/* launch_packed queues a launch whose parameters are packed already. */
static cudaError_t launch_packed(struct function *f, dim3 grid, dim3 block, size_t shmem, void *stream, const char *params) {
  uint32_t hdr[9] = {stream_id(stream), (uint32_t)f->kernel, grid.x, grid.y, grid.z, block.x, block.y, block.z, (uint32_t)shmem};
  if (shmem > 0xffffffffu) hdr[8] = 0xffffffffu;
  struct reply r = call3(opLaunch, hdr, sizeof hdr, params, f->param_bytes, NULL, 0);
  free(r.data);
  return set_error(r.code);
}

static cudaError_t capture_kernel(struct stream *st, struct function *f, dim3 grid, dim3 block, size_t shmem, char *params);

cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shmem, void *stream) {
  ENTER();
  if (!valid_stream(stream)) return set_error(400);
  struct function *f = find_function(func);
  /* A pointer that is no kernel: cudaErrorInvalidResourceHandle, as CUDA 13
   * answered on the H100 (testdata/programs5/launch_errors); null: 98. */
  if (!f) return set_error(func ? 400 : 98);
  cudaError_t e = resolve(f);
  if (e) return set_error(e);
  char *params = pack(f, args);
  struct stream *st = capturing(stream);
  if (st) return capture_kernel(st, f, grid, block, shmem, params);
  e = launch_packed(f, grid, block, shmem, stream, params);
  free(params);
  return e;
}

/* cudaLaunchCooperativeKernel is in warpsim_rt_coop.c. */
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shmem, void *stream);
/* cudaLaunchKernelEx: the attributes are checked; a cooperative one makes
 * a cooperative launch. Programmatic dependent launch permits overlap with
 * the kernel before, which the simulator, running stream work in order,
 * does not take (a valid schedule); its event is recorded when the kernel
 * is done (the latest trigger the GPU may give). A cluster dimension makes
 * a cluster launch (warpsim_rt_cluster.c). */
static cudaError_t launch_cluster(const void *func, dim3 grid, dim3 block, void **args, size_t shmem, void *stream, const unsigned cl[3]);
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *cfg, const void *func, void **args) {
  ENTER();
  if (!cfg || (cfg->numAttrs && !cfg->attrs)) return set_error(1);
  int coop = 0, cluster = 0;
  unsigned cl[3] = {0, 0, 0};
  cudaEvent_t ev = NULL;
  for (unsigned i = 0; i < cfg->numAttrs; i++) {
    const struct cudaLaunchAttribute *a = &cfg->attrs[i];
    switch (a->id) {
    case cudaLaunchAttributeIgnore:
    case cudaLaunchAttributeSynchronizationPolicy:
    case cudaLaunchAttributeClusterSchedulingPolicyPreference:
    case cudaLaunchAttributeProgrammaticStreamSerialization:
    case cudaLaunchAttributePriority:
    case cudaLaunchAttributeMemSyncDomainMap:
    case cudaLaunchAttributeMemSyncDomain:
      break;
    case cudaLaunchAttributeAccessPolicyWindow:
      if (!valid_window(&a->val.accessPolicyWindow)) return set_error(1);
      break;
    case cudaLaunchAttributeCooperative:
      coop = a->val.cooperative != 0;
      break;
    case cudaLaunchAttributeProgrammaticEvent:
      ev = a->val.programmaticEvent.event;
      if (!as_event(ev)) return set_error(400);
      break;
    case cudaLaunchAttributeClusterDimension:
      cluster = 1;
      cl[0] = a->val.clusterDim.x;
      cl[1] = a->val.clusterDim.y;
      cl[2] = a->val.clusterDim.z;
      break;
    default:
      return set_error(1);
    }
  }
  cudaError_t e = coop      ? cudaLaunchCooperativeKernel(func, cfg->gridDim, cfg->blockDim, args, cfg->dynamicSmemBytes, cfg->stream)
                  : cluster ? launch_cluster(func, cfg->gridDim, cfg->blockDim, args, cfg->dynamicSmemBytes, cfg->stream, cl)
                            : cudaLaunchKernel(func, cfg->gridDim, cfg->blockDim, args, cfg->dynamicSmemBytes, cfg->stream);
  if (e || !ev) return e;
  return cudaEventRecord(ev, cfg->stream);
}
cudaError_t cudaLaunchCooperativeKernelMultiDevice(void *params, unsigned n, unsigned flags) {
  (void)params; (void)flags;
  ENTER();
  if (n != 1) return set_error(cudaErrorInvalidDevice);
  return set_error(cudaErrorNotSupported);
}

/* ---- Function attributes and occupancy ---- */
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, const void *func) {
  ENTER();
  if (!a) return set_error(1);
  struct function *f = find_function(func);
  if (!f) return set_error(func ? 400 : 98); /* as cudaLaunchKernel */
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
  /* __cluster_dims__ and cudaFuncAttributeNonPortableClusterSizeAllowed */
  a->requiredClusterWidth = (int)get64(d, r.len, 8);
  a->requiredClusterHeight = (int)get64(d, r.len, 9);
  a->requiredClusterDepth = (int)get64(d, r.len, 10);
  a->clusterDimMustBeSet = a->requiredClusterWidth != 0;
  a->nonPortableClusterSizeAllowed = (int)get64(d, r.len, 11);
  a->preferredShmemCarveout = (int)(int64_t)get64(d, r.len, 12);
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
/* cudaFuncGetName: the kernel's (mangled) name, as CUDA gives it. */
cudaError_t cudaFuncGetName(const char **name, const void *func) {
  ENTER();
  if (!name) return set_error(cudaErrorInvalidValue);
  struct function *f = find_function(func);
  if (!f) return set_error(cudaErrorInvalidDeviceFunction);
  *name = f->name;
  return 0;
}
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

/* The dynamic shared memory left per block when numBlocks blocks of
 * blockSize threads share an SM, at most what the function may be launched
 * with (its maxDynamicSharedSizeBytes: 48 KB less its static shared memory
 * without the opt-in). When numBlocks such blocks do not fit at all, it is
 * cudaErrorInvalidValue and *n is left as it was, as on the H100
 * (testdata/programs5/occupancy_api). */
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *n, const void *func, int numBlocks, int blockSize) {
  ENTER();
  if (!n || numBlocks <= 0 || blockSize <= 0) return set_error(1);
  struct cudaFuncAttributes a;
  cudaError_t e = cudaFuncGetAttributes(&a, func);
  if (e) return e;
  int b = 0;
  e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, func, blockSize, 0);
  if (e) return e;
  if (b < numBlocks) return set_error(cudaErrorInvalidValue);
  size_t per_sm = props.sharedMemPerMultiprocessor, reserved = props.reservedSharedMemPerBlock;
  size_t each = per_sm / (size_t)numBlocks;
  each = each > reserved + a.sharedSizeBytes ? each - reserved - a.sharedSizeBytes : 0;
  size_t cap = a.maxDynamicSharedSizeBytes > 0 ? (size_t)a.maxDynamicSharedSizeBytes : 0;
  *n = each < cap ? each : cap;
  return 0;
}

#include "warpsim_rt_graphs.c"
#include "warpsim_rt_ipc.c"
#include "warpsim_rt_coop.c"
#include "warpsim_rt_cluster.c"
#include "warpsim_rt_managed.c"
#include "warpsim_rt_tex.c"
#include "warpsim_rt_tensormap.c"
#include "warpsim_rt_driver.c"
#include "warpsim_rt_entry.c"
