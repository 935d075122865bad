/* The warpsim runtime: the CUDA driver API programs use beside the runtime
 * API (cuda.h). Included by warpsim_rt.c, after the runtime it is built on:
 * a driver call is the runtime call that does the same, its cudaError_t
 * returned as the CUresult of the same number. There is one device, 0, and
 * one context, the primary one, current from cuInit on.
 *
 * Virtual memory management. A physical allocation (cuMemCreate) is a
 * window allocation whose address only this file knows; a reservation
 * (cuMemAddressReserve) is fresh device address space from the simulator
 * (opVMReserve) with nothing in it; cuMemMap records which allocation backs
 * which part of a reservation, and cuMemSetAccess makes such a mapping
 * live: the program's view of the window shows the allocation's pages
 * there (mmap of the device memory file, MAP_FIXED), and the simulator's
 * too (opVMMap), so copies, kernels and the program reach the same bytes
 * through every mapping of an allocation. Until then, and after cuMemUnmap,
 * a kernel touching the range faults (cudaErrorIllegalAddress) and a copy
 * is refused (cudaErrorInvalidValue), as on an H100
 * (testdata/runtimeapis/h100.txt, vmm). The granularity is 2 MiB; offsets
 * into an allocation are refused with CUDA_ERROR_NOT_SUPPORTED, as the
 * H100 refused them; an allocation released while mapped lives until its
 * last mapping goes. Sharing an allocation with another process
 * (cuMemExportToShareableHandle) is not supported. */

#include "__warpsim_driver_types.h"

enum { opVMReserve = 90, opVMMap = 91, opVMUnmap = 92 /* internal/cudart/protocol.go */ };
#define VM_GRANULE ((size_t)2 << 20)

static CUresult not_supported(const char *call, const char *why) {
  fprintf(stderr, "warpsim runtime: %s is not supported: %s\n", call, why);
  return CUDA_ERROR_NOT_SUPPORTED;
}

static int driver_ready;
#define DRIVER()                                          \
  do {                                                    \
    if (!driver_ready) return CUDA_ERROR_NOT_INITIALIZED; \
  } while (0)

CUresult cuInit(unsigned int flags) {
  if (flags) return CUDA_ERROR_INVALID_VALUE;
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e) return (CUresult)e;
  driver_ready = 1;
  return CUDA_SUCCESS;
}
CUresult cuDriverGetVersion(int *v) {
  if (!v) return CUDA_ERROR_INVALID_VALUE;
  return (CUresult)cudaDriverGetVersion(v);
}

static const struct { CUresult code; const char *name, *text; } cu_errors[] = {
  {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
  {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
  {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
  {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
  {CUDA_ERROR_DEINITIALIZED, "CUDA_ERROR_DEINITIALIZED", "driver shutting down"},
  {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
  {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
  {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
  {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
  {CUDA_ERROR_NOT_MAPPED, "CUDA_ERROR_NOT_MAPPED", "resource not mapped"},
  {CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
  {CUDA_ERROR_INVALID_SOURCE, "CUDA_ERROR_INVALID_SOURCE", "device kernel image is invalid"},
  {CUDA_ERROR_FILE_NOT_FOUND, "CUDA_ERROR_FILE_NOT_FOUND", "file not found"},
  {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
  {CUDA_ERROR_ILLEGAL_STATE, "CUDA_ERROR_ILLEGAL_STATE", "the operation cannot be performed in the present state"},
  {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
  {CUDA_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY", "device not ready"},
  {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
  {CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"},
  {CUDA_ERROR_LAUNCH_TIMEOUT, "CUDA_ERROR_LAUNCH_TIMEOUT", "the launch timed out and was terminated"},
  {CUDA_ERROR_ASSERT, "CUDA_ERROR_ASSERT", "device-side assert triggered"},
  {CUDA_ERROR_ILLEGAL_INSTRUCTION, "CUDA_ERROR_ILLEGAL_INSTRUCTION", "an illegal instruction was encountered"},
  {CUDA_ERROR_MISALIGNED_ADDRESS, "CUDA_ERROR_MISALIGNED_ADDRESS", "misaligned address"},
  {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
  {CUDA_ERROR_NOT_PERMITTED, "CUDA_ERROR_NOT_PERMITTED", "operation not permitted"},
  {CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
  {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"},
};
static CUresult error_entry(CUresult e, const char **out, int text) {
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < sizeof cu_errors / sizeof cu_errors[0]; i++)
    if (cu_errors[i].code == e) {
      *out = text ? cu_errors[i].text : cu_errors[i].name;
      return CUDA_SUCCESS;
    }
  *out = NULL;
  return CUDA_ERROR_INVALID_VALUE;
}
CUresult cuGetErrorName(CUresult e, const char **s) { return error_entry(e, s, 0); }
CUresult cuGetErrorString(CUresult e, const char **s) { return error_entry(e, s, 1); }

/* ---- Devices and the context ---- */
static int primary_context; /* its address is the primary context's handle */
#define THE_CONTEXT ((CUcontext)(void *)&primary_context)

CUresult cuDeviceGet(CUdevice *d, int ordinal) {
  DRIVER();
  if (!d) return CUDA_ERROR_INVALID_VALUE;
  if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
  *d = 0;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetCount(int *n) {
  DRIVER();
  return (CUresult)cudaGetDeviceCount(n);
}
CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
  DRIVER();
  if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  struct cudaDeviceProp p;
  device_query = 1;
  cudaError_t e = cudaGetDeviceProperties(&p, 0);
  device_query = 0;
  if (e) return (CUresult)e;
  snprintf(name, (size_t)len, "%s", p.name);
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice dev) {
  DRIVER();
  if (!v) return CUDA_ERROR_INVALID_VALUE;
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  switch ((int)a) {
  case CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED: *v = 1; return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED: *v = 0; return CUDA_SUCCESS; /* no sharing between processes */
  }
  device_query = 1;
  cudaError_t e = cudaDeviceGetAttribute(v, (int)a, 0);
  device_query = 0;
  return (CUresult)e;
}
CUresult cuDeviceTotalMem(size_t *bytes, CUdevice dev) {
  DRIVER();
  if (!bytes) return CUDA_ERROR_INVALID_VALUE;
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  struct cudaDeviceProp p;
  device_query = 1;
  cudaError_t e = cudaGetDeviceProperties(&p, 0);
  device_query = 0;
  if (!e) *bytes = p.totalGlobalMem;
  return (CUresult)e;
}
CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev) {
  DRIVER();
  if (!major || !minor) return CUDA_ERROR_INVALID_VALUE;
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  struct cudaDeviceProp p;
  device_query = 1;
  cudaError_t e = cudaGetDeviceProperties(&p, 0);
  device_query = 0;
  if (!e) *major = p.major, *minor = p.minor;
  return (CUresult)e;
}
CUresult cuDeviceCanAccessPeer(int *can, CUdevice dev, CUdevice peer) {
  DRIVER();
  if (!can) return CUDA_ERROR_INVALID_VALUE;
  if (dev != 0 || peer != 0) return CUDA_ERROR_INVALID_DEVICE;
  *can = 0;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice dev) {
  DRIVER();
  if (!c) return CUDA_ERROR_INVALID_VALUE;
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  *c = THE_CONTEXT;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease(CUdevice dev) {
  DRIVER();
  return dev == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}
/* A created context is the primary one: the simulator has one device
 * state, which every context would share. */
CUresult cuCtxCreate(CUcontext *c, CUctxCreateParams *params, unsigned int flags, CUdevice dev) {
  (void)params;
  (void)flags;
  CUresult r = cuDevicePrimaryCtxRetain(c, dev);
  if (!r) primary_current = 1; /* a created context is made current */
  return r;
}
CUresult cuCtxDestroy(CUcontext c) {
  DRIVER();
  if (c != THE_CONTEXT) return CUDA_ERROR_INVALID_CONTEXT;
  return (CUresult)cudaDeviceSynchronize();
}
CUresult cuCtxGetCurrent(CUcontext *c) {
  DRIVER();
  if (!c) return CUDA_ERROR_INVALID_VALUE;
  *c = primary_current ? THE_CONTEXT : NULL;
  return CUDA_SUCCESS;
}
CUresult cuCtxSetCurrent(CUcontext c) {
  DRIVER();
  if (c != THE_CONTEXT && c) return CUDA_ERROR_INVALID_CONTEXT;
  primary_current = c != NULL;
  return CUDA_SUCCESS;
}
CUresult cuCtxGetDevice(CUdevice *d) {
  DRIVER();
  if (!d) return CUDA_ERROR_INVALID_VALUE;
  *d = 0;
  return CUDA_SUCCESS;
}
CUresult cuCtxSynchronize(void) {
  DRIVER();
  return (CUresult)cudaDeviceSynchronize();
}
CUresult cuCtxEnablePeerAccess(CUcontext peer, unsigned int flags) {
  DRIVER();
  (void)peer;
  (void)flags;
  return CUDA_ERROR_INVALID_DEVICE; /* one device: no peer */
}
CUresult cuStreamCreate(void **s, unsigned int flags) {
  DRIVER();
  if (!s || flags > CU_STREAM_NON_BLOCKING) return CUDA_ERROR_INVALID_VALUE;
  return (CUresult)cudaStreamCreateWithFlags(s, flags);
}
CUresult cuStreamSynchronize(void *s) {
  DRIVER();
  return (CUresult)cudaStreamSynchronize(s);
}
CUresult cuStreamDestroy(void *s) {
  DRIVER();
  return (CUresult)cudaStreamDestroy(s);
}

/* ---- Memory ---- */
CUresult cuMemGetInfo(size_t *f, size_t *t) {
  DRIVER();
  return (CUresult)cudaMemGetInfo(f, t);
}
CUresult cuMemAlloc(CUdeviceptr *p, size_t n) {
  DRIVER();
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  void *d = NULL;
  cudaError_t e = cudaMalloc(&d, n);
  *p = (uintptr_t)d;
  return (CUresult)e;
}
CUresult cuMemFree(CUdeviceptr p) {
  DRIVER();
  return (CUresult)cudaFree((void *)(uintptr_t)p);
}
CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n) {
  DRIVER();
  return (CUresult)cudaMemcpy((void *)(uintptr_t)dst, src, n, cudaMemcpyHostToDevice);
}
CUresult cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t n) {
  DRIVER();
  return (CUresult)cudaMemcpy(dst, (const void *)(uintptr_t)src, n, cudaMemcpyDeviceToHost);
}
CUresult cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t n) {
  DRIVER();
  return (CUresult)cudaMemcpy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n, cudaMemcpyDeviceToDevice);
}
CUresult cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t n, void *s) {
  DRIVER();
  return (CUresult)cudaMemcpyAsync((void *)(uintptr_t)dst, src, n, cudaMemcpyHostToDevice, s);
}
CUresult cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t n, void *s) {
  DRIVER();
  return (CUresult)cudaMemcpyAsync(dst, (const void *)(uintptr_t)src, n, cudaMemcpyDeviceToHost, s);
}
CUresult cuMemsetD8(CUdeviceptr dst, unsigned char v, size_t n) {
  DRIVER();
  return (CUresult)cudaMemset((void *)(uintptr_t)dst, v, n);
}
CUresult cuMemsetD32(CUdeviceptr dst, unsigned int v, size_t n) {
  DRIVER();
  struct cudaMemsetParams m = {(void *)(uintptr_t)dst, n * 4, v, 4, n, 1};
  if (!device_address(m.dst)) return CUDA_ERROR_INVALID_VALUE;
  if (n == 0) return CUDA_SUCCESS;
  LOCK();
  return (CUresult)memset_elements(&m, NULL);
}

/* ---- Modules loaded at run time ----
 * warpsim's module format is PTX text: `warpsim cc -fatbin` (or -cubin,
 * -ptx) writes a kernel file's device code as PTX, which cuModuleLoad*
 * hands to the simulator as the program's embedded modules are; NVIDIA's
 * cubins and fatbins (binary GPU code) are refused with a message. */
#define CUMOD_MAGIC 0x43554d44
#define CUFUNC_MAGIC 0x43554655
struct cu_module { int magic; int index; };
struct cu_function { int magic; struct function f; };

static int looks_like_ptx(const char *s) {
  for (int i = 0; i < 4096 && s[i]; i++)
    if (!strncmp(s + i, ".version", 8) || !strncmp(s + i, ".target", 7)) return 1;
  return 0;
}
CUresult cuModuleLoadData(CUmodule *m, const void *image) {
  DRIVER();
  if (!m || !image) return CUDA_ERROR_INVALID_VALUE;
  if (!looks_like_ptx(image)) {
    fprintf(stderr, "warpsim runtime: cuModuleLoadData: the image is not PTX text; warpsim loads PTX (build the file with `warpsim cc -fatbin`, -cubin or -ptx, which write PTX), not NVIDIA's binary GPU code\n");
    return CUDA_ERROR_INVALID_IMAGE;
  }
  LOCK();
  size_t len = strlen(image);
  char *ptx = malloc(len + 1);
  memcpy(ptx, image, len + 1);
  modules = grow(modules, nmodules, sizeof *modules);
  modules[nmodules] = (struct module){ptx, len, -1, 0, 0};
  struct reply r = call(opModule, ptx, (uint32_t)len);
  if (r.code && r.data) {
    fflush(stdout);
    fwrite(r.data, 1, r.len, stderr);
  }
  modules[nmodules].err = r.code;
  if (!r.code && r.len >= 4) memcpy(&modules[nmodules].id, r.data, 4);
  free(r.data);
  nmodules++;
  if (r.code) return r.code == cudaErrorInvalidPtx ? CUDA_ERROR_INVALID_PTX : (CUresult)r.code;
  struct cu_module *cm = calloc(1, sizeof *cm);
  cm->magic = CUMOD_MAGIC;
  cm->index = nmodules - 1;
  *m = (CUmodule)(void *)cm;
  return CUDA_SUCCESS;
}
CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned int n, CUjit_option *o, void **v) {
  (void)n; (void)o; (void)v; /* JIT options: nothing to compile */
  return cuModuleLoadData(m, image);
}
CUresult cuModuleLoadFatBinary(CUmodule *m, const void *f) { return cuModuleLoadData(m, f); }
CUresult cuModuleLoad(CUmodule *m, const char *fname) {
  DRIVER();
  if (!m || !fname) return CUDA_ERROR_INVALID_VALUE;
  FILE *f = fopen(fname, "rb");
  if (!f) return CUDA_ERROR_FILE_NOT_FOUND;
  size_t cap = 1 << 16, n = 0, got;
  char *b = malloc(cap + 1);
  while ((got = fread(b + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) b = realloc(b, (cap *= 2) + 1);
  }
  fclose(f);
  b[n] = 0;
  CUresult e = cuModuleLoadData(m, b);
  free(b);
  return e;
}
static struct cu_module *as_cu_module(CUmodule m) {
  struct cu_module *cm = (struct cu_module *)(void *)m;
  return cm && cm->magic == CUMOD_MAGIC ? cm : NULL;
}
CUresult cuModuleUnload(CUmodule m) {
  DRIVER();
  struct cu_module *cm = as_cu_module(m);
  if (!cm) return CUDA_ERROR_INVALID_HANDLE;
  cm->magic = 0; /* the simulator keeps the module; its functions stay valid */
  free(cm);
  return CUDA_SUCCESS;
}
CUresult cuModuleGetFunction(CUfunction *out, CUmodule m, const char *name) {
  DRIVER();
  struct cu_module *cm = as_cu_module(m);
  if (!out || !name) return CUDA_ERROR_INVALID_VALUE;
  if (!cm) return CUDA_ERROR_INVALID_HANDLE;
  LOCK();
  struct cu_function *cf = calloc(1, sizeof *cf);
  cf->magic = CUFUNC_MAGIC;
  cf->f.module = cm->index;
  cf->f.name = strdup(name);
  cf->f.kernel = -1;
  cudaError_t e = resolve(&cf->f);
  if (e) {
    free((void *)cf->f.name);
    free(cf);
    return e == 98 || e == 500 ? CUDA_ERROR_NOT_FOUND : (CUresult)e;
  }
  *out = (CUfunction)(void *)cf;
  return CUDA_SUCCESS;
}
CUresult cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule m, const char *name) {
  DRIVER();
  struct cu_module *cm = as_cu_module(m);
  if (!name) return CUDA_ERROR_INVALID_VALUE;
  if (!cm) return CUDA_ERROR_INVALID_HANDLE;
  LOCK();
  uint32_t mid = (uint32_t)modules[cm->index].id;
  struct reply r = call3(opGlobal, &mid, 4, name, (uint32_t)strlen(name), NULL, 0);
  uint64_t a[2] = {0, 0};
  if (!r.code && r.len >= 16) memcpy(a, r.data, 16);
  free(r.data);
  if (dptr) *dptr = a[0]; /* 0 when the name is not found, as the driver writes it */
  if (r.code) return CUDA_ERROR_NOT_FOUND;
  if (bytes) *bytes = (size_t)a[1];
  return CUDA_SUCCESS;
}
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, CUfunction fn, int blockSize, size_t smem) {
  DRIVER();
  struct cu_function *cf = (struct cu_function *)(void *)fn;
  if (!n) return CUDA_ERROR_INVALID_VALUE;
  if (!cf || cf->magic != CUFUNC_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
  LOCK();
  uint32_t a[3] = {(uint32_t)cf->f.kernel, (uint32_t)blockSize, (uint32_t)smem};
  struct reply r = call(opOccupancy, a, 12);
  if (!r.code && r.len >= 4) memcpy(n, r.data, 4);
  free(r.data);
  return (CUresult)r.code;
}
#define CU_LAUNCH_PARAM_END_AS_INT 0
#define CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT 1
#define CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT 2
CUresult cuLaunchKernel(CUfunction fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shmem, void *stream, void **params, void **extra) {
  DRIVER();
  struct cu_function *cf = (struct cu_function *)(void *)fn;
  if (!cf || cf->magic != CUFUNC_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
  LOCK();
  if (!valid_stream(stream)) return CUDA_ERROR_INVALID_HANDLE;
  struct function *f = &cf->f;
  char *packed = NULL;
  if (extra) {
    /* CU_LAUNCH_PARAM_BUFFER_POINTER, buffer, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END */
    void *buf = NULL;
    size_t size = 0;
    for (int i = 0; extra[i] != (void *)(uintptr_t)CU_LAUNCH_PARAM_END_AS_INT && i < 64; i += 2) {
      if (extra[i] == (void *)(uintptr_t)CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT) buf = extra[i + 1];
      else if (extra[i] == (void *)(uintptr_t)CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT) size = *(size_t *)extra[i + 1];
      else return CUDA_ERROR_INVALID_VALUE;
    }
    if (params || !buf || size < f->param_bytes) return CUDA_ERROR_INVALID_VALUE;
    packed = calloc(f->param_bytes ? f->param_bytes : 1, 1);
    memcpy(packed, buf, f->param_bytes);
  } else {
    packed = pack(f, params);
  }
  dim3 grid = {gx, gy, gz}, block = {bx, by, bz};
  struct stream *st = capturing(stream);
  if (st) return (CUresult)capture_kernel(st, f, grid, block, shmem, packed);
  cudaError_t e = launch_packed(f, grid, block, shmem, stream, packed);
  free(packed);
  return (CUresult)e;
}

/* ---- Virtual memory management ---- */
struct vm_phys {
  uint64_t addr;
  size_t size;
  CUmemAllocationProp prop;
  int handles; /* the handle's references: cuMemCreate, cuMemRetainAllocationHandle */
  int maps;    /* mappings of it */
};
struct vm_resv { uint64_t va; size_t size; };
struct vm_map { uint64_t va; size_t size; struct vm_phys *p; int live; };
static struct vm_phys **vm_physs;
static int nvm_physs;
static struct vm_resv *vm_resvs;
static int nvm_resvs;
static struct vm_map *vm_maps;
static int nvm_maps;

static struct vm_phys *vm_handle(CUmemGenericAllocationHandle h) {
  for (int i = 0; i < nvm_physs; i++)
    if ((uintptr_t)vm_physs[i] == h) return vm_physs[i];
  return NULL;
}
/* vm_drop frees p once no handle and no mapping holds it. */
static void vm_drop(struct vm_phys *p) {
  if (p->handles > 0 || p->maps > 0) return;
  for (int i = 0; i < nvm_physs; i++)
    if (vm_physs[i] == p) { vm_physs[i] = vm_physs[--nvm_physs]; break; }
  free_alloc((void *)(uintptr_t)p->addr, -1, NULL, 0);
  free(p);
}
static int vm_prop_ok(const CUmemAllocationProp *p) {
  return p && p->type == CU_MEM_ALLOCATION_TYPE_PINNED && p->location.type == CU_MEM_LOCATION_TYPE_DEVICE && p->location.id == 0;
}
static struct vm_resv *vm_reservation(uint64_t va, size_t size) {
  for (int i = 0; i < nvm_resvs; i++)
    if (va >= vm_resvs[i].va && size <= vm_resvs[i].size && va - vm_resvs[i].va <= vm_resvs[i].size - size) return &vm_resvs[i];
  return NULL;
}

CUresult cuMemGetAllocationGranularity(size_t *g, const CUmemAllocationProp *prop, CUmemAllocationGranularity_flags option) {
  DRIVER();
  if (!g || !vm_prop_ok(prop) || (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM && option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED))
    return CUDA_ERROR_INVALID_VALUE;
  *g = VM_GRANULE;
  return CUDA_SUCCESS;
}
CUresult cuMemCreate(CUmemGenericAllocationHandle *h, size_t size, const CUmemAllocationProp *prop, unsigned long long flags) {
  DRIVER();
  if (!h || !vm_prop_ok(prop) || size == 0 || size % VM_GRANULE || flags) return CUDA_ERROR_INVALID_VALUE;
  LOCK();
  void *mem = NULL;
  cudaError_t e = alloc_kind(&mem, size, kindDevice);
  if (e) return e == cudaErrorMemoryAllocation ? CUDA_ERROR_OUT_OF_MEMORY : (CUresult)e;
  struct vm_phys *p = calloc(1, sizeof *p);
  p->addr = (uintptr_t)mem;
  p->size = size;
  p->prop = *prop;
  p->handles = 1;
  vm_physs = grow(vm_physs, nvm_physs, sizeof *vm_physs);
  vm_physs[nvm_physs++] = p;
  *h = (uintptr_t)p;
  return CUDA_SUCCESS;
}
CUresult cuMemRelease(CUmemGenericAllocationHandle h) {
  DRIVER();
  LOCK();
  struct vm_phys *p = vm_handle(h);
  if (!p || p->handles <= 0) return CUDA_ERROR_INVALID_VALUE;
  p->handles--;
  vm_drop(p);
  return CUDA_SUCCESS;
}
CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t align, CUdeviceptr addr, unsigned long long flags) {
  (void)addr; /* a hint */
  DRIVER();
  if (!ptr || size == 0 || size % VM_GRANULE || (align & (align - 1)) || align > ((size_t)2 << 30) || flags) return CUDA_ERROR_INVALID_VALUE;
  LOCK();
  uint64_t n = size;
  struct reply r = call(opVMReserve, &n, 8);
  uint64_t va = 0;
  if (!r.code && r.len >= 8) memcpy(&va, r.data, 8);
  free(r.data);
  if (r.code) return r.code == cudaErrorMemoryAllocation ? CUDA_ERROR_OUT_OF_MEMORY : (CUresult)r.code;
  vm_resvs = grow(vm_resvs, nvm_resvs, sizeof *vm_resvs);
  vm_resvs[nvm_resvs].va = va;
  vm_resvs[nvm_resvs].size = size;
  nvm_resvs++;
  *ptr = va;
  return CUDA_SUCCESS;
}
static int vm_overlaps(uint64_t va, size_t size) {
  for (int i = 0; i < nvm_maps; i++)
    if (vm_maps[i].va < va + size && va < vm_maps[i].va + vm_maps[i].size) return 1;
  return 0;
}
CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size) {
  DRIVER();
  LOCK();
  for (int i = 0; i < nvm_resvs; i++)
    if (vm_resvs[i].va == ptr && vm_resvs[i].size == size) {
      if (vm_overlaps(ptr, size)) return CUDA_ERROR_INVALID_VALUE; /* still mapped */
      vm_resvs[i] = vm_resvs[--nvm_resvs];
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_VALUE;
}
CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle h, unsigned long long flags) {
  DRIVER();
  LOCK();
  struct vm_phys *p = vm_handle(h);
  if (!p || flags || size == 0 || size % VM_GRANULE || ptr % VM_GRANULE || offset % VM_GRANULE) return CUDA_ERROR_INVALID_VALUE;
  if (!vm_reservation(ptr, size) || vm_overlaps(ptr, size) || offset >= p->size || size > p->size - offset) return CUDA_ERROR_INVALID_VALUE;
  if (offset) return not_supported("cuMemMap at an offset into the allocation", "the H100 refused it too (CUDA_ERROR_NOT_SUPPORTED)");
  vm_maps = grow(vm_maps, nvm_maps, sizeof *vm_maps);
  vm_maps[nvm_maps++] = (struct vm_map){ptr, size, p, 0};
  p->maps++;
  return CUDA_SUCCESS;
}
/* vm_show makes m's range show the allocation's pages (on) or the
 * window's own again (off) in this process. */
static int vm_show(const struct vm_map *m, int on) {
  uint64_t pages = on ? m->p->addr : m->va;
  void *at = mmap((void *)(uintptr_t)m->va, m->size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE | MAP_FIXED, mem_fd, (off_t)(pages - window_base));
  if (at == MAP_FAILED) {
    fprintf(stderr, "warpsim runtime: mapping %zu bytes at %#llx: %s\n", m->size, (unsigned long long)m->va, strerror(errno));
    return -1;
  }
  return 0;
}
static CUresult vm_grant(struct vm_map *m) {
  if (vm_show(m, 1)) return CUDA_ERROR_UNKNOWN;
  uint64_t a[3] = {m->va, m->p->addr, m->size};
  cudaError_t e = simple(opVMMap, a, sizeof a);
  if (e) {
    vm_show(m, 0);
    return (CUresult)e;
  }
  allocs = grow(allocs, nallocs, sizeof *allocs);
  allocs[nallocs].addr = m->va;
  allocs[nallocs].size = m->size;
  allocs[nallocs].kind = kindDevice;
  nallocs++;
  m->live = 1;
  return CUDA_SUCCESS;
}
static CUresult vm_revoke(struct vm_map *m) {
  uint64_t a[2] = {m->va, m->size};
  cudaError_t e = simple(opVMUnmap, a, sizeof a);
  vm_show(m, 0);
  for (int i = 0; i < nallocs; i++)
    if (allocs[i].addr == m->va) { allocs[i] = allocs[--nallocs]; break; }
  m->live = 0;
  return (CUresult)e;
}
CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count) {
  DRIVER();
  if (!desc || count == 0 || size == 0) return CUDA_ERROR_INVALID_VALUE;
  int on = 0;
  for (size_t i = 0; i < count; i++) {
    if (desc[i].location.type != CU_MEM_LOCATION_TYPE_DEVICE || desc[i].location.id != 0) return CUDA_ERROR_INVALID_DEVICE;
    if (desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_NONE && desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READ && desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
      return CUDA_ERROR_INVALID_VALUE;
    on = desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_NONE; /* read-only is granted as read-write */
  }
  LOCK();
  /* The range must be mapped throughout. */
  for (uint64_t at = ptr; at < ptr + size;) {
    int found = -1;
    for (int i = 0; i < nvm_maps && found < 0; i++)
      if (at >= vm_maps[i].va && at < vm_maps[i].va + vm_maps[i].size) found = i;
    if (found < 0) return CUDA_ERROR_INVALID_VALUE;
    at = vm_maps[found].va + vm_maps[found].size;
  }
  for (int i = 0; i < nvm_maps; i++) {
    struct vm_map *m = &vm_maps[i];
    if (m->va + m->size <= ptr || m->va >= ptr + size || m->live == on) continue;
    CUresult e = on ? vm_grant(m) : vm_revoke(m);
    if (e) return e;
  }
  return CUDA_SUCCESS;
}
CUresult cuMemGetAccess(unsigned long long *flags, const CUmemLocation *loc, CUdeviceptr ptr) {
  DRIVER();
  if (!flags || !loc) return CUDA_ERROR_INVALID_VALUE;
  LOCK();
  for (int i = 0; i < nvm_maps; i++)
    if (ptr >= vm_maps[i].va && ptr < vm_maps[i].va + vm_maps[i].size) {
      *flags = vm_maps[i].live ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE : CU_MEM_ACCESS_FLAGS_PROT_NONE;
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_VALUE;
}
CUresult cuMemUnmap(CUdeviceptr ptr, size_t size) {
  DRIVER();
  if (size == 0 || size % VM_GRANULE || ptr % VM_GRANULE) return CUDA_ERROR_INVALID_VALUE;
  LOCK();
  if (!vm_reservation(ptr, size)) return CUDA_ERROR_INVALID_VALUE;
  CUresult err = CUDA_SUCCESS;
  for (int i = 0; i < nvm_maps;) {
    struct vm_map *m = &vm_maps[i];
    if (m->va + m->size <= ptr || m->va >= ptr + size) { i++; continue; }
    if (m->live) {
      CUresult e = vm_revoke(m);
      if (e && !err) err = e;
    }
    struct vm_phys *p = m->p;
    vm_maps[i] = vm_maps[--nvm_maps];
    p->maps--;
    vm_drop(p);
  }
  return err;
}
CUresult cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp *prop, CUmemGenericAllocationHandle h) {
  DRIVER();
  LOCK();
  struct vm_phys *p = vm_handle(h);
  if (!prop || !p) return CUDA_ERROR_INVALID_VALUE;
  *prop = p->prop;
  return CUDA_SUCCESS;
}
CUresult cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *h, void *addr) {
  DRIVER();
  if (!h) return CUDA_ERROR_INVALID_VALUE;
  LOCK();
  uint64_t a = (uintptr_t)addr;
  for (int i = 0; i < nvm_maps; i++)
    if (a >= vm_maps[i].va && a < vm_maps[i].va + vm_maps[i].size) {
      vm_maps[i].p->handles++;
      *h = (uintptr_t)vm_maps[i].p;
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_VALUE;
}
CUresult cuMemExportToShareableHandle(void *out, CUmemGenericAllocationHandle h, CUmemAllocationHandleType type, unsigned long long flags) {
  (void)out; (void)h; (void)type; (void)flags;
  return not_supported("cuMemExportToShareableHandle", "warpsim's device memory is not shared with other processes");
}
CUresult cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *h, void *os, CUmemAllocationHandleType type) {
  (void)h; (void)os; (void)type;
  return not_supported("cuMemImportFromShareableHandle", "warpsim's device memory is not shared with other processes");
}
