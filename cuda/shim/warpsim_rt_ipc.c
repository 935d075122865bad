/* warpsim runtime: CUDA IPC and memory-pool sharing (included by
 * warpsim_rt.c, after the pools of warpsim_rt_graphs.c).
 *
 * What the H100 answered on one GPU (testdata/sanitize/probe7, ipc.cu,
 * recorded/ipc.default.plain.stdout): cudaIpcGetMemHandle of a cudaMalloc
 * buffer succeeds and of pinned host memory is cudaErrorInvalidValue;
 * opening a handle in the process that made it is
 * cudaErrorDeviceUninitialized; cudaIpcGetEventHandle of an interprocess
 * event succeeds; a pool made with cudaMemHandleTypePosixFileDescriptor
 * exports a file descriptor, which imports in the same process, and a
 * pointer from it exports; exporting the default pool (made with no handle
 * type), or a pointer from it, is cudaErrorInvalidValue. Another process
 * opened, imported and read all of these on the GPU. Each warpsim program
 * has a simulated GPU of its own, so another process cannot map this one's
 * memory: there an open or import is cudaErrorMapBufferObjectFailed
 * ("mapping of buffer object failed"), warpsim's limit, never a success
 * with memory the handle does not name. Not recorded, and chosen so:
 * closing a pointer no open gave, and a handle warpsim did not make, are
 * cudaErrorInvalidValue; an event without cudaEventInterprocess has no
 * handle (cudaErrorInvalidResourceHandle); opening an event handle in its
 * own process answers as a memory handle does; a pointer imported into its
 * own process is the exported one. */

#define IPC_MAGIC 0x4350495357ull /* "WSIPC" */
enum { ipcMem = 1, ipcEvent = 2, ipcPool = 3, ipcPoolPtr = 4 };
/* The record inside every handle and export (64 bytes at most). */
struct ipc_record {
  uint64_t magic;
  uint32_t kind, pid;
  uint64_t addr, size; /* memory: the allocation; pointer: the pooled block */
  uint64_t object;     /* event id; pool: the exporting process's pool */
};

static void ipc_fill(void *dst, size_t n, uint32_t kind, uint64_t addr, uint64_t size, uint64_t object) {
  struct ipc_record r = {IPC_MAGIC, kind, (uint32_t)getpid(), addr, size, object};
  memset(dst, 0, n);
  memcpy(dst, &r, sizeof r);
}

/* ipc_read returns 0 when src holds a warpsim record of kind. */
static int ipc_read(struct ipc_record *r, const void *src, uint32_t kind) {
  memcpy(r, src, sizeof *r);
  return r->magic == IPC_MAGIC && r->kind == kind ? 0 : -1;
}

/* ipc_foreign is the answer for a record another process made: its GPU is
 * not this program's. */
static cudaError_t ipc_foreign(void) { return set_error(cudaErrorMapBufferObjectFailed); }

cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *p) {
  ENTER();
  if (!handle || !p || !in_window(p)) return set_error(cudaErrorInvalidValue);
  int i = find_alloc((uintptr_t)p);
  if (i < 0 || allocs[i].kind != kindDevice) return set_error(cudaErrorInvalidValue);
  for (int k = 0; k < npooled; k++) /* stream-ordered memory has no IPC handle */
    if (pooled[k].addr == allocs[i].addr) return set_error(cudaErrorInvalidValue);
  ipc_fill(handle, sizeof *handle, ipcMem, allocs[i].addr, allocs[i].size, 0);
  return 0;
}

cudaError_t cudaIpcOpenMemHandle(void **p, cudaIpcMemHandle_t handle, unsigned flags) {
  ENTER();
  struct ipc_record r;
  if (!p || flags != cudaIpcMemLazyEnablePeerAccess || ipc_read(&r, &handle, ipcMem)) return set_error(cudaErrorInvalidValue);
  if (r.pid == (uint32_t)getpid()) return set_error(cudaErrorDeviceUninitialized);
  return ipc_foreign();
}

cudaError_t cudaIpcCloseMemHandle(void *p) {
  ENTER();
  (void)p; /* no open ever succeeds, so nothing is open */
  return set_error(cudaErrorInvalidValue);
}

cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle, void *e) {
  ENTER();
  struct event *ev = as_event(e);
  if (!handle) return set_error(cudaErrorInvalidValue);
  if (!ev || !(ev->flags & cudaEventInterprocess)) return set_error(cudaErrorInvalidResourceHandle);
  ipc_fill(handle, sizeof *handle, ipcEvent, 0, 0, ev->id);
  return 0;
}

cudaError_t cudaIpcOpenEventHandle(void **e, cudaIpcEventHandle_t handle) {
  ENTER();
  struct ipc_record r;
  if (!e || ipc_read(&r, &handle, ipcEvent)) return set_error(cudaErrorInvalidValue);
  if (r.pid == (uint32_t)getpid()) return set_error(cudaErrorDeviceUninitialized);
  return ipc_foreign();
}

cudaError_t cudaMemPoolExportToShareableHandle(void *out, void *pool, int type, unsigned flags) {
  ENTER();
  struct mem_pool *m = as_pool(pool);
  if (!out || !m || flags != 0 || type != cudaMemHandleTypePosixFileDescriptor || !(m->handle_types & type))
    return set_error(cudaErrorInvalidValue);
  /* A descriptor of a file holding the record, which a child inherits. */
  int fd = (int)syscall(SYS_memfd_create, "warpsim-mempool", 0);
  struct ipc_record r;
  ipc_fill(&r, sizeof r, ipcPool, 0, 0, (uintptr_t)m);
  if (fd < 0 || pwrite(fd, &r, sizeof r, 0) != (ssize_t)sizeof r) {
    if (fd >= 0) close(fd);
    return set_error(cudaErrorOperatingSystem);
  }
  *(int *)out = fd;
  return 0;
}

cudaError_t cudaMemPoolImportFromShareableHandle(void **pool, void *handle, int type, unsigned flags) {
  ENTER();
  struct ipc_record r;
  if (!pool || flags != 0 || type != cudaMemHandleTypePosixFileDescriptor) return set_error(cudaErrorInvalidValue);
  int fd = (int)(intptr_t)handle;
  if (fd < 0 || pread(fd, &r, sizeof r, 0) != (ssize_t)sizeof r || r.magic != IPC_MAGIC || r.kind != ipcPool)
    return set_error(cudaErrorInvalidValue);
  if (r.pid != (uint32_t)getpid()) return ipc_foreign();
  struct mem_pool *m = as_pool((void *)(uintptr_t)r.object);
  if (!m) return set_error(cudaErrorInvalidValue); /* destroyed since */
  *pool = m;
  return 0;
}

cudaError_t cudaMemPoolExportPointer(struct cudaMemPoolPtrExportData *data, void *p) {
  ENTER();
  if (!data || !p) return set_error(cudaErrorInvalidValue);
  for (int k = 0; k < npooled; k++)
    if (pooled[k].addr == (uintptr_t)p) {
      if (!(pooled[k].pool->handle_types & cudaMemHandleTypePosixFileDescriptor)) break;
      ipc_fill(data, sizeof *data, ipcPoolPtr, pooled[k].addr, pooled[k].size, (uintptr_t)pooled[k].pool);
      return 0;
    }
  return set_error(cudaErrorInvalidValue);
}

cudaError_t cudaMemPoolImportPointer(void **p, void *pool, struct cudaMemPoolPtrExportData *data) {
  ENTER();
  struct ipc_record r;
  if (!p || !data || !as_pool(pool) || ipc_read(&r, data, ipcPoolPtr)) return set_error(cudaErrorInvalidValue);
  if (r.pid != (uint32_t)getpid()) return ipc_foreign();
  if (r.object != (uintptr_t)pool) return set_error(cudaErrorInvalidValue);
  for (int k = 0; k < npooled; k++)
    if (pooled[k].addr == r.addr) {
      *p = (void *)(uintptr_t)r.addr;
      return 0;
    }
  return set_error(cudaErrorInvalidValue); /* freed since */
}
