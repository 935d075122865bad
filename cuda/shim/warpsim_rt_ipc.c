/* warpsim runtime: CUDA IPC and memory-pool sharing (included by
 * warpsim_rt.c, after the pools of warpsim_rt_graphs.c).
 *
 * On a GPU the processes of a machine share the device: a process opens
 * another's allocation and reads and writes the same bytes. Here each
 * program has a simulated GPU of its own whose memory is one file (the
 * memfd of map_window), so a handle names that file: this process's pid
 * and descriptor, which another process reaches as /proc/PID/fd/FD, the
 * file's inode (a reused pid or descriptor is told from it) and the
 * allocation's offset there. Opening it (ipc_map) asks the simulator for a
 * fresh allocation that shows those pages (opIpcOpen,
 * internal/cudart/ipc.go) and maps them at the same address here: kernels,
 * copies and memsets of both processes then see one set of bytes. An
 * interprocess event is three words of its creator's device memory,
 * opened the same way: the records issued (counted here, by any process),
 * the highest one completed (raised by the recording stream,
 * opIpcEventRecord) and the simulated time it completed at; a query, a
 * synchronization or a stream's wait (opIpcEventWait) waits for the records
 * issued before it, and moves the stream's simulated time, or the host's
 * (a synchronization, a query that finds them done: opIpcEventHostWait), to
 * theirs (internal/cudart/ipc.go, ipcEvent).
 *
 * What the H100 answered on one GPU (testdata/sanitize/probe7, ipc.cu,
 * recorded/ipc.default.plain.stdout): cudaIpcGetMemHandle of a cudaMalloc
 * buffer succeeds and of pinned host memory is cudaErrorInvalidValue;
 * opening a handle in the process that made it is
 * cudaErrorDeviceUninitialized; cudaIpcGetEventHandle of an interprocess
 * event succeeds; a pool made with cudaMemHandleTypePosixFileDescriptor
 * exports a file descriptor, which imports in the same process, and a
 * pointer from it exports; exporting the default pool (made with no handle
 * type), or a pointer from it, is cudaErrorInvalidValue; another process
 * opens, imports and reads all of these. What an H200 answered between
 * fork+exec'd processes (testdata/runtimeapis/ipc_procs.h200.txt): a
 * handle opened twice in one process gives the same address, and each
 * open needs its close (one more close is cudaErrorInvalidValue); a zeroed
 * handle is cudaErrorInvalidValue; a memory handle whose process has
 * exited is cudaErrorInvalidResourceHandle, while its event handle opens
 * (an event nothing records any more). Not recorded, and chosen so:
 * closing a pointer no open gave, and a handle warpsim did not make, are
 * cudaErrorInvalidValue; an event without cudaEventInterprocess has no
 * handle (cudaErrorInvalidResourceHandle); opening an event handle in its
 * own process answers as a memory handle does; a pointer imported into its
 * own process is the exported one; an opened pointer has no handle of its
 * own (cudaErrorInvalidValue). */

#define IPC_MAGIC 0x4350495357ull /* "WSIPC" */
enum { ipcMem = 1, ipcEvent = 2, ipcPool = 3, ipcPoolPtr = 4 };
/* The record inside every handle and export (64 bytes at most). */
struct ipc_record {
  uint64_t magic;
  uint32_t kind, pid;
  uint64_t addr, size; /* memory: the allocation; pointer: the pooled block; event: its state */
  uint64_t object;     /* event id; pool: the exporting process's pool */
  uint64_t offset;     /* addr's offset in the device memory file */
  uint64_t ino;        /* the device memory file's inode */
  uint32_t fd;         /* its descriptor in process pid */
};
_Static_assert(sizeof(struct ipc_record) <= 64, "an IPC handle holds 64 bytes");

static uint64_t mem_ino(void) {
  struct stat st;
  return fstat(mem_fd, &st) == 0 ? (uint64_t)st.st_ino : 0;
}

static void ipc_fill(void *dst, size_t n, uint32_t kind, uint64_t addr, uint64_t size, uint64_t object) {
  struct ipc_record r = {IPC_MAGIC, kind, (uint32_t)getpid(), addr, size, object, addr - window_base, mem_ino(), (uint32_t)mem_fd};
  memset(dst, 0, n);
  memcpy(dst, &r, sizeof r);
}

/* ipc_read returns 0 when src holds a warpsim record of kind. */
static int ipc_read(struct ipc_record *r, const void *src, uint32_t kind) {
  memcpy(r, src, sizeof *r);
  return r->magic == IPC_MAGIC && r->kind == kind ? 0 : -1;
}

/* The other processes' memory this one has open: one entry per range,
 * however often it was opened (the same address each time, as on the
 * H200). */
struct ipc_open { uint64_t addr, size, ino, offset; uint32_t pid; int refs, pool; };
static struct ipc_open *ipc_opens;
static int nipc_opens;

static int find_ipc_open(uint64_t addr) {
  for (int i = 0; i < nipc_opens; i++)
    if (ipc_opens[i].addr == addr) return i;
  return -1;
}

/* ipc_map opens the memory r names (another process's) at *p. */
static cudaError_t ipc_map(void **p, const struct ipc_record *r) {
  for (int i = 0; i < nipc_opens; i++)
    if (ipc_opens[i].pid == r->pid && ipc_opens[i].ino == r->ino && ipc_opens[i].offset == r->offset && ipc_opens[i].size >= r->size) {
      ipc_opens[i].refs++;
      *p = (void *)(uintptr_t)ipc_opens[i].addr;
      return 0;
    }
  char path[64];
  snprintf(path, sizeof path, "/proc/%u/fd/%u", r->pid, r->fd);
  int fd = open(path, O_RDWR | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || (uint64_t)st.st_ino != r->ino) {
    if (fd >= 0) close(fd);
    return set_error(cudaErrorInvalidResourceHandle); /* its process has exited */
  }
  uint64_t size = (r->size + 4095) & ~(uint64_t)4095;
  uint32_t msg[2 + 2 + 2 + 2];
  uint64_t ino = r->ino, off = r->offset;
  msg[0] = r->pid;
  msg[1] = r->fd;
  memcpy(msg + 2, &ino, 8);
  memcpy(msg + 4, &off, 8);
  memcpy(msg + 6, &size, 8);
  struct reply rep = call(opIpcOpen, msg, sizeof msg);
  uint64_t addr = 0;
  if (!rep.code && rep.len >= 8) memcpy(&addr, rep.data, 8);
  free(rep.data);
  if (rep.code) {
    close(fd);
    return set_error(rep.code);
  }
  void *at = mmap((void *)(uintptr_t)addr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, (off_t)off);
  close(fd);
  if (at == MAP_FAILED) {
    simple(opIpcClose, &addr, 8);
    return set_error(cudaErrorMapBufferObjectFailed);
  }
  ipc_opens = grow(ipc_opens, nipc_opens, sizeof *ipc_opens);
  ipc_opens[nipc_opens++] = (struct ipc_open){addr, size, r->ino, r->offset, r->pid, 1, r->kind == ipcPoolPtr};
  allocs = grow(allocs, nallocs, sizeof *allocs);
  allocs[nallocs].addr = addr;
  allocs[nallocs].size = size;
  allocs[nallocs].kind = kindDevice;
  nallocs++;
  *p = (void *)(uintptr_t)addr;
  return 0;
}

/* ipc_unmap_own shows this process's own device memory at the range
 * again. */
static void ipc_unmap_own(uint64_t addr, uint64_t size) {
  mmap((void *)(uintptr_t)addr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED | MAP_NORESERVE, mem_fd, (off_t)(addr - window_base));
}

/* ipc_release undoes one open of the range at addr; it returns -1 when
 * none is open there. */
static int ipc_release(uint64_t addr) {
  int i = find_ipc_open(addr);
  if (i < 0) return -1;
  if (--ipc_opens[i].refs > 0) return 0;
  simple(opIpcClose, &addr, 8);
  ipc_unmap_own(addr, ipc_opens[i].size);
  int a = find_alloc(addr);
  if (a >= 0) allocs[a] = allocs[--nallocs];
  ipc_opens[i] = ipc_opens[--nipc_opens];
  return 0;
}

/* ipc_pool_free is cudaFree of a pointer imported from another process's
 * pool: it closes it (1), or says it is not one (0). */
static int ipc_pool_free(const void *p) {
  int i = find_ipc_open((uintptr_t)p);
  if (i < 0 || !ipc_opens[i].pool) return 0;
  ipc_release((uintptr_t)p);
  return 1;
}

/* ipc_forget: cudaDeviceReset closed every open range. */
static void ipc_forget(void) {
  for (int i = 0; i < nipc_opens; i++) ipc_unmap_own(ipc_opens[i].addr, ipc_opens[i].size);
  nipc_opens = 0;
}

cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *p) {
  ENTER();
  if (!handle || !p || !in_window(p)) return set_error(cudaErrorInvalidValue);
  int i = find_alloc((uintptr_t)p);
  if (i < 0 || allocs[i].kind != kindDevice || find_ipc_open(allocs[i].addr) >= 0) return set_error(cudaErrorInvalidValue);
  for (int k = 0; k < npooled; k++) /* stream-ordered memory has no IPC handle */
    if (pooled[k].addr == allocs[i].addr) return set_error(cudaErrorInvalidValue);
  cudaError_t e = simple(opIpcShare, NULL, 0); /* another process may write it now */
  if (e) return set_error(e);
  ipc_fill(handle, sizeof *handle, ipcMem, allocs[i].addr, allocs[i].size, 0);
  return 0;
}

cudaError_t cudaIpcOpenMemHandle(void **p, cudaIpcMemHandle_t handle, unsigned flags) {
  ENTER();
  struct ipc_record r;
  if (!p || flags != cudaIpcMemLazyEnablePeerAccess || ipc_read(&r, &handle, ipcMem)) return set_error(cudaErrorInvalidValue);
  if (r.pid == (uint32_t)getpid()) return set_error(cudaErrorDeviceUninitialized);
  return ipc_map(p, &r);
}

cudaError_t cudaIpcCloseMemHandle(void *p) {
  ENTER();
  if (ipc_release((uintptr_t)p) < 0) return set_error(cudaErrorInvalidValue);
  return 0;
}

/* ipc_event_state makes an interprocess event's three words: records
 * issued, highest completed, the simulated time it completed at (in a page
 * of device memory of its own, which the program does not see as an
 * allocation). */
static uint64_t *ipc_event_state(void) {
  uint64_t a[2] = {4096, kindDevice};
  uint32_t msg[3];
  memcpy(msg, &a[0], 8);
  memcpy(msg + 2, &a[1], 4);
  struct reply r = call(opMalloc, msg, 12);
  uint64_t addr = 0;
  if (!r.code && r.len >= 8) memcpy(&addr, r.data, 8);
  free(r.data);
  return r.code ? NULL : (uint64_t *)(uintptr_t)addr;
}

cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle, void *e) {
  ENTER();
  struct event *ev = as_event(e);
  if (!handle) return set_error(cudaErrorInvalidValue);
  if (!ev || !(ev->flags & cudaEventInterprocess) || !ev->ipc) return set_error(cudaErrorInvalidResourceHandle);
  ipc_fill(handle, sizeof *handle, ipcEvent, (uintptr_t)ev->ipc, 3 * sizeof(uint64_t), ev->id);
  return 0;
}

cudaError_t cudaIpcOpenEventHandle(void **e, cudaIpcEventHandle_t handle) {
  ENTER();
  struct ipc_record r;
  if (!e || ipc_read(&r, &handle, ipcEvent)) return set_error(cudaErrorInvalidValue);
  if (r.pid == (uint32_t)getpid()) return set_error(cudaErrorDeviceUninitialized);
  void *state = NULL;
  int opened = 1;
  cudaError_t last = last_error;
  if (ipc_map(&state, &r)) {
    /* Its process has exited: the H200 opens it all the same, an event
     * nothing records any more. */
    last_error = last;
    state = ipc_event_state();
    opened = 0;
    if (!state) return set_error(cudaErrorMemoryAllocation);
  }
  struct event *ev = calloc(1, sizeof *ev);
  ev->magic = EVENT_MAGIC;
  ev->id = next_event_id++;
  ev->flags = cudaEventInterprocess | cudaEventDisableTiming;
  ev->ipc = state;
  ev->ipc_opened = opened;
  *e = ev;
  return 0;
}

/* The operations on an interprocess event. */
static cudaError_t ipc_event_record(struct event *ev, void *s) {
  uint64_t ticket = __atomic_add_fetch(&ev->ipc[0], 1, __ATOMIC_SEQ_CST);
  uint32_t msg[5] = {stream_id(s)};
  uint64_t done = (uintptr_t)&ev->ipc[1];
  memcpy(msg + 1, &done, 8);
  memcpy(msg + 3, &ticket, 8);
  cudaError_t err = simple(opIpcEventRecord, msg, sizeof msg);
  if (err) return set_error(err);
  ev->recorded = 1;
  return 0;
}

/* ipc_host_waited says the host has seen ev's records complete: its
 * simulated time moves to the time they completed at, as a
 * synchronization with an event of its own moves it to the record's. */
static cudaError_t ipc_host_waited(struct event *ev) {
  uint64_t addr = (uintptr_t)&ev->ipc[1];
  uint32_t msg[2];
  memcpy(msg, &addr, 8);
  return simple(opIpcEventHostWait, msg, sizeof msg);
}

static cudaError_t ipc_event_query(struct event *ev) {
  uint64_t issued = __atomic_load_n(&ev->ipc[0], __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&ev->ipc[1], __ATOMIC_SEQ_CST) < issued) return cudaErrorNotReady;
  return set_error(ipc_host_waited(ev));
}

static cudaError_t ipc_event_sync(struct event *ev) {
  uint64_t issued = __atomic_load_n(&ev->ipc[0], __ATOMIC_SEQ_CST);
  long pause = 20000; /* ns */
  while (__atomic_load_n(&ev->ipc[1], __ATOMIC_SEQ_CST) < issued) {
    struct timespec ts = {0, pause};
    nanosleep(&ts, NULL);
    if (pause < 2000000) pause *= 2;
  }
  return set_error(ipc_host_waited(ev));
}

static cudaError_t ipc_event_wait(struct event *ev, void *s) {
  uint64_t issued = __atomic_load_n(&ev->ipc[0], __ATOMIC_SEQ_CST);
  if (issued == 0) return 0;
  uint32_t msg[5] = {stream_id(s)};
  uint64_t done = (uintptr_t)&ev->ipc[1];
  memcpy(msg + 1, &done, 8);
  memcpy(msg + 3, &issued, 8);
  return set_error(simple(opIpcEventWait, msg, sizeof msg));
}

static void ipc_event_close(struct event *ev) {
  if (ev->ipc_opened) ipc_release((uintptr_t)ev->ipc);
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
  if (r.pid != (uint32_t)getpid()) {
    /* Another process's pool: its pointers open as memory handles do. */
    struct mem_pool *m = calloc(1, sizeof *m);
    m->magic = POOL_MAGIC;
    m->reuse[0] = m->reuse[1] = m->reuse[2] = 1;
    m->handle_types = cudaMemHandleTypePosixFileDescriptor;
    m->export_fd = -1;
    m->from_pid = r.pid;
    m->from_pool = r.object;
    pools = grow(pools, npools, sizeof *pools);
    pools[npools++] = m;
    *pool = m;
    return 0;
  }
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
      cudaError_t e = simple(opIpcShare, NULL, 0); /* another process may write it now */
      if (e) return set_error(e);
      ipc_fill(data, sizeof *data, ipcPoolPtr, pooled[k].addr, pooled[k].size, (uintptr_t)pooled[k].pool);
      return 0;
    }
  return set_error(cudaErrorInvalidValue);
}

cudaError_t cudaMemPoolImportPointer(void **p, void *pool, struct cudaMemPoolPtrExportData *data) {
  ENTER();
  struct ipc_record r;
  struct mem_pool *m = as_pool(pool);
  if (!p || !data || !m || ipc_read(&r, data, ipcPoolPtr)) return set_error(cudaErrorInvalidValue);
  if (m->from_pid) {
    if (r.pid != m->from_pid || r.object != m->from_pool) return set_error(cudaErrorInvalidValue);
    return ipc_map(p, &r);
  }
  if (r.pid != (uint32_t)getpid()) return set_error(cudaErrorInvalidValue);
  if (r.object != (uintptr_t)pool) return set_error(cudaErrorInvalidValue);
  for (int k = 0; k < npooled; k++)
    if (pooled[k].addr == r.addr) {
      *p = (void *)(uintptr_t)r.addr;
      return 0;
    }
  return set_error(cudaErrorInvalidValue); /* freed since */
}
