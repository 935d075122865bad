/* The warpsim CUDA runtime: CUDA graphs, stream capture, stream-ordered
 * allocation and memory pools. Included by warpsim_rt.c (one translation
 * unit), after the stream, copy and launch helpers it uses.
 *
 * A graph lives here, in the program: nodes with their parameters and
 * dependencies. Instantiation orders the nodes (dependencies first, then
 * creation order) and cudaGraphLaunch issues them, in that order, as
 * ordinary work on the launch stream, so the simulator sees a launch, a
 * copy, a host function as if the program had issued them. Dependencies
 * are thus always honoured; independent branches do not overlap on the
 * simulated clock.
 *
 * Conditional nodes (IF, IF/ELSE, WHILE, SWITCH). A conditional handle is
 * a 4-byte word of device memory, and its value is the word's device
 * address: cudaGraphSetConditional in a kernel stores the value there
 * (cuda_device_runtime_api.h). When a launch reaches a conditional node it
 * waits for the stream's earlier work (clocked as a 4-byte device copy, the
 * GPU reading the condition), reads the word and issues the body graph the
 * value selects, for a WHILE again and again while the value is non-zero.
 * A handle made with cudaGraphCondAssignDefault gets its default value at
 * the start of every launch of a graph holding it, handles of body graphs
 * too (once per launch, not per run of the body); otherwise it starts at 0
 * (testdata/runtimeapis/h100.txt, graph_cond). Body graphs may hold kernel,
 * empty, memcpy, memset, child graph and conditional nodes; instantiation
 * refuses any other kind in them with cudaErrorInvalidValue, as the H100
 * did for a host node. */

#define GRAPH_MAGIC 0x47524150
#define NODE_MAGIC 0x4e4f4445
#define EXEC_MAGIC 0x47455845

/* Memory a graph's allocation node reserved: it lives as long as any
 * graph or instantiation holds the node (the address is fixed from the
 * node's creation, as in CUDA, where each launch allocates it anew at that
 * address). A cudaFree or cudaFreeAsync of it outside the graph frees
 * nothing: the next launch has it again. */
struct graph_alloc { void *ptr; int refs; size_t size; };
static uint64_t graph_mem_used, graph_mem_high;

static struct graph_alloc **graph_allocs;
static int ngraph_allocs;

/* graph_owned tells whether p is memory of a graph's allocation node. */
static int graph_owned(const void *p) {
  for (int i = 0; i < ngraph_allocs; i++)
    if (graph_allocs[i]->ptr == p) return 1;
  return 0;
}

struct gnode {
  int magic;
  int type; /* enum cudaGraphNodeType */
  struct graph *owner;
  int index;
  struct gnode **deps;
  int ndeps;
  /* kernel */
  struct function *f;
  const void *func;
  dim3 grid, block;
  size_t shmem;
  char *params;
  /* memcpy: a 1D copy, or 3D parameters */
  int is3d;
  void *dst;
  const void *src;
  size_t count;
  int kind;
  struct cudaMemcpy3DParms copy3d;
  /* memset */
  struct cudaMemsetParams mset;
  /* host */
  void (*fn)(void *);
  void *data;
  /* child graph */
  struct graph *child;
  /* event record and wait */
  struct event *event;
  /* memory alloc and free */
  struct graph_alloc *alloc;
  void *dptr;
  /* conditional: the handle, cudaGraphCondType*, the body graphs */
  struct cond *cond;
  int ctype;
  int nbodies;
  struct graph **bodies;
};

/* A conditional handle: the device word holding its value, its default,
 * and how many graphs and nodes hold it (the word is freed with the last). */
struct cond {
  uint64_t addr;
  unsigned def, flags;
  int refs;
};
static struct cond **conds;
static int nconds;

static struct cond *find_cond(unsigned long long handle) {
  for (int i = 0; i < nconds; i++)
    if (conds[i]->addr == handle) return conds[i];
  return NULL;
}
static void release_cond(struct cond *c) {
  if (!c || --c->refs > 0) return;
  for (int i = 0; i < nconds; i++)
    if (conds[i] == c) { conds[i] = conds[--nconds]; break; }
  if (find_alloc(c->addr) >= 0) free_alloc((void *)(uintptr_t)c->addr, -1, NULL, 0);
  free(c);
}

struct graph {
  int magic;
  struct gnode **nodes;
  int n;
  /* A capture into it: its mode, and whether a call the mode forbids
   * invalidated it (cudaStreamCaptureStatusInvalidated). */
  int capture_mode, invalidated;
  /* Executable graphs instantiated from it and not yet destroyed. */
  int live_execs;
  /* The graph cudaGraphClone copied it from: its nodes are at the same
   * indices here (cudaGraphNodeFindInClone). */
  struct graph *cloned_from;
  /* Streams that joined its capture (forked from the origin). */
  struct stream **joined;
  int njoined;
  /* The conditional handles made on it. */
  struct cond **conds;
  int nconds;
};

struct graph_exec {
  int magic;
  unsigned long long flags; /* cudaGraphInstantiate's */
  struct graph *origin;     /* the graph it was instantiated from */
  struct graph *g; /* a private copy of the instantiated graph */
  struct gnode **order;
};

static struct graph *as_graph(const void *p) {
  const struct graph *g = p;
  return g && g->magic == GRAPH_MAGIC ? (struct graph *)g : NULL;
}
static struct gnode *as_node(const void *p) {
  const struct gnode *n = p;
  return n && n->magic == NODE_MAGIC ? (struct gnode *)n : NULL;
}
static struct graph_exec *as_exec(const void *p) {
  const struct graph_exec *x = p;
  return x && x->magic == EXEC_MAGIC ? (struct graph_exec *)x : NULL;
}

static struct graph *new_graph(void) {
  struct graph *g = calloc(1, sizeof *g);
  g->magic = GRAPH_MAGIC;
  return g;
}

static void free_node(struct gnode *n);
static void destroy_graph(struct graph *g) {
  if (!g) return;
  for (int i = 0; i < g->n; i++) free_node(g->nodes[i]);
  for (int i = 0; i < g->nconds; i++) release_cond(g->conds[i]);
  free(g->conds);
  free(g->nodes);
  free(g->joined);
  g->magic = 0;
  free(g);
}

static void free_node(struct gnode *n) {
  free(n->deps);
  free(n->params);
  destroy_graph(n->child);
  for (int i = 0; i < n->nbodies; i++) destroy_graph(n->bodies[i]);
  free(n->bodies);
  release_cond(n->cond);
  if (n->alloc && --n->alloc->refs == 0) {
    for (int i = 0; i < ngraph_allocs; i++)
      if (graph_allocs[i] == n->alloc) { graph_allocs[i] = graph_allocs[--ngraph_allocs]; break; }
    uint64_t a = (uintptr_t)n->alloc->ptr;
    graph_mem_used -= n->alloc->size;
    if (find_alloc(a) >= 0) free_alloc(n->alloc->ptr, -1, NULL, 0);
    free(n->alloc);
  }
  n->magic = 0;
  free(n);
}

/* add_node makes a node of g depending on deps (which must be g's). */
static cudaError_t add_node(struct gnode **out, struct graph *g, struct gnode *const *deps, size_t ndeps, int type) {
  if (!out || !g || (ndeps && !deps)) return set_error(cudaErrorInvalidValue);
  for (size_t i = 0; i < ndeps; i++) {
    struct gnode *d = as_node(deps[i]);
    if (!d || d->owner != g) return set_error(cudaErrorInvalidValue);
    for (size_t j = 0; j < i; j++)
      if (deps[j] == deps[i]) return set_error(cudaErrorInvalidValue);
  }
  struct gnode *n = calloc(1, sizeof *n);
  n->magic = NODE_MAGIC;
  n->type = type;
  n->owner = g;
  n->index = g->n;
  if (ndeps) {
    n->deps = malloc(ndeps * sizeof *n->deps);
    memcpy(n->deps, deps, ndeps * sizeof *n->deps);
  }
  n->ndeps = (int)ndeps;
  g->nodes = grow(g->nodes, g->n, sizeof *g->nodes);
  g->nodes[g->n++] = n;
  *out = n;
  return 0;
}

/* clone_graph copies g, nodes, parameters and child graphs. Every node is
 * made before any dependency is copied: cudaGraphAddDependencies can make a
 * node depend on a later one, or close a cycle (which instantiation then
 * refuses, as CUDA does). */
static struct graph *clone_graph(struct graph *g) {
  struct graph *c = new_graph();
  int cap = 8; /* what grow() expects of an array of g->n entries */
  while (cap < g->n) cap *= 2;
  c->nodes = malloc((size_t)cap * sizeof *c->nodes);
  for (int i = 0; i < g->n; i++) c->nodes[i] = malloc(sizeof *c->nodes[i]);
  for (int i = 0; i < g->n; i++) {
    struct gnode *o = g->nodes[i], *n = c->nodes[i];
    *n = *o;
    n->owner = c;
    n->deps = o->ndeps ? malloc((size_t)o->ndeps * sizeof *n->deps) : NULL;
    for (int d = 0; d < o->ndeps; d++) n->deps[d] = c->nodes[o->deps[d]->index];
    if (o->params) {
      n->params = malloc(o->f->param_bytes ? o->f->param_bytes : 1);
      memcpy(n->params, o->params, o->f->param_bytes);
    }
    if (o->child) n->child = clone_graph(o->child);
    if (o->alloc) o->alloc->refs++;
    if (o->cond) o->cond->refs++;
    if (o->nbodies) {
      n->bodies = malloc((size_t)o->nbodies * sizeof *n->bodies);
      for (int b = 0; b < o->nbodies; b++) n->bodies[b] = clone_graph(o->bodies[b]);
    }
  }
  c->n = g->n;
  if (g->nconds) {
    c->conds = malloc((size_t)g->nconds * sizeof *c->conds);
    for (int i = 0; i < g->nconds; i++) (c->conds[i] = g->conds[i])->refs++;
    c->nconds = g->nconds;
  }
  return c;
}

/* ---- Node parameters ---- */
static cudaError_t set_kernel_params(struct gnode *n, const struct cudaKernelNodeParams *p) {
  if (!p || !p->func) return set_error(cudaErrorInvalidValue);
  if (p->extra) {
    fprintf(stderr, "warpsim runtime: kernel node parameters passed through `extra` are not supported yet; use kernelParams\n");
    return set_error(cudaErrorNotSupported);
  }
  struct function *f = find_function(p->func);
  if (!f) return set_error(cudaErrorInvalidDeviceFunction);
  cudaError_t e = resolve(f);
  if (e) return set_error(e);
  free(n->params);
  n->f = f;
  n->func = p->func;
  n->grid = p->gridDim;
  n->block = p->blockDim;
  n->shmem = p->sharedMemBytes;
  n->params = pack(f, p->kernelParams);
  return 0;
}

static cudaError_t set_memset_params(struct gnode *n, const struct cudaMemsetParams *p) {
  if (!p || !p->dst || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4)) return set_error(cudaErrorInvalidValue);
  if (p->height > 1 && p->pitch < p->width * p->elementSize) return set_error(cudaErrorInvalidValue);
  if (!device_address(p->dst)) return set_error(cudaErrorInvalidValue);
  n->mset = *p;
  return 0;
}

/* ---- Running a node as stream work ---- */
static cudaError_t run_graph(struct gnode **order, int n, void *stream);
static struct gnode **topo_order(struct graph *g);

/* A memset of 2- or 4-byte elements: the simulator's memset writes bytes,
 * so these are written here once the stream's earlier work is done (the
 * memory is the window's, the same for both). */
static cudaError_t memset_elements(const struct cudaMemsetParams *m, void *stream) {
  if (m->elementSize == 1) return memset2d(m->dst, m->pitch ? m->pitch : m->width, (int)m->value, m->width, m->height ? m->height : 1, stream, 1);
  size_t rows = m->height ? m->height : 1, bytes = m->width * m->elementSize;
  uint32_t msg[6];
  msg[0] = stream_id(stream);
  msg[1] = dirDeviceToDevice;
  uint64_t dev = (uintptr_t)m->dst, n = bytes * rows;
  memcpy(msg + 2, &dev, 8);
  memcpy(msg + 4, &n, 8);
  cudaError_t e = simple(opHostCopy, msg, 24);
  if (e) return set_error(e);
  for (size_t r = 0; r < rows; r++) {
    char *row = (char *)m->dst + r * m->pitch;
    for (size_t i = 0; i < m->width; i++) {
      if (m->elementSize == 2) { uint16_t v = (uint16_t)m->value; memcpy(row + 2 * i, &v, 2); }
      else { uint32_t v = m->value; memcpy(row + 4 * i, &v, 4); }
    }
  }
  return 0;
}

/* cond_value waits for the stream's earlier work and reads c's value. */
static cudaError_t cond_value(const struct cond *c, void *stream, uint32_t *v) {
  uint32_t msg[6];
  msg[0] = stream_id(stream);
  msg[1] = dirDeviceToDevice;
  uint64_t dev = c->addr, n = 4;
  memcpy(msg + 2, &dev, 8);
  memcpy(msg + 4, &n, 8);
  cudaError_t e = simple(opHostCopy, msg, 24);
  if (e) return set_error(e);
  *v = *(volatile uint32_t *)(uintptr_t)c->addr;
  return 0;
}

static cudaError_t run_body(struct graph *g, void *stream) {
  struct gnode **order = topo_order(g);
  if (!order) return set_error(cudaErrorInvalidValue);
  cudaError_t e = run_graph(order, g->n, stream);
  free(order);
  return e;
}

static cudaError_t run_conditional(struct gnode *n, void *stream) {
  uint32_t v = 0;
  cudaError_t e = cond_value(n->cond, stream, &v);
  if (e) return e;
  switch (n->ctype) {
  case cudaGraphCondTypeIf:
    if (v) return run_body(n->bodies[0], stream);
    return n->nbodies == 2 ? run_body(n->bodies[1], stream) : 0;
  case cudaGraphCondTypeSwitch:
    return v < (uint32_t)n->nbodies ? run_body(n->bodies[v], stream) : 0;
  case cudaGraphCondTypeWhile:
    while (v) {
      if ((e = run_body(n->bodies[0], stream)) || (e = cond_value(n->cond, stream, &v))) return e;
    }
  }
  return 0;
}

/* apply_defaults gives the handles of g, its child graphs and its body
 * graphs made with cudaGraphCondAssignDefault their default values, in
 * stream order (the start of a launch). */
static cudaError_t apply_defaults(struct graph *g, void *stream) {
  cudaError_t e = 0;
  for (int i = 0; i < g->nconds && !e; i++) {
    struct cond *c = g->conds[i];
    if (!(c->flags & cudaGraphCondAssignDefault)) continue;
    struct cudaMemsetParams m = {(void *)(uintptr_t)c->addr, 4, c->def, 4, 1, 1};
    e = memset_elements(&m, stream);
  }
  for (int i = 0; i < g->n && !e; i++) {
    struct gnode *n = g->nodes[i];
    if (n->child) e = apply_defaults(n->child, stream);
    for (int b = 0; b < n->nbodies && !e; b++) e = apply_defaults(n->bodies[b], stream);
  }
  return e;
}

/* bodies_ok checks the body graphs of g's conditional nodes (in_body: g
 * is one, or inside one): only kernel, empty, memcpy, memset, child graph
 * and conditional nodes, and no cycle. */
static int bodies_ok(struct graph *g, int in_body) {
  for (int i = 0; i < g->n; i++) {
    struct gnode *n = g->nodes[i];
    switch (n->type) {
    case cudaGraphNodeTypeKernel: case cudaGraphNodeTypeEmpty: case cudaGraphNodeTypeMemcpy:
    case cudaGraphNodeTypeMemset: case cudaGraphNodeTypeGraph: case cudaGraphNodeTypeConditional:
      break;
    default:
      if (in_body) return 0;
    }
    if (n->child && !bodies_ok(n->child, in_body)) return 0;
    for (int b = 0; b < n->nbodies; b++) {
      struct gnode **order = topo_order(n->bodies[b]);
      if (!order) return 0;
      free(order);
      if (!bodies_ok(n->bodies[b], 1)) return 0;
    }
  }
  return 1;
}

static cudaError_t run_node(struct gnode *n, void *stream) {
  switch (n->type) {
  case cudaGraphNodeTypeConditional:
    return run_conditional(n, stream);
  case cudaGraphNodeTypeKernel:
    return launch_packed(n->f, n->grid, n->block, n->shmem, stream, n->params);
  case cudaGraphNodeTypeMemcpy:
    return n->is3d ? copy3d(&n->copy3d, stream, 1) : copy_on(n->dst, n->src, n->count, n->kind, stream, 1);
  case cudaGraphNodeTypeMemset:
    return memset_elements(&n->mset, stream);
  case cudaGraphNodeTypeHost: {
    uint32_t msg[2] = {stream_id(stream), add_host_call((struct host_call){n->fn, NULL, stream, n->data})};
    return set_error(simple(opHostFunc, msg, 8));
  }
  case cudaGraphNodeTypeGraph: {
    struct gnode **order = topo_order(n->child);
    if (!order) return set_error(cudaErrorInvalidValue);
    cudaError_t e = run_graph(order, n->child->n, stream);
    free(order);
    return e;
  }
  case cudaGraphNodeTypeEventRecord:
    return cudaEventRecord(n->event, stream);
  case cudaGraphNodeTypeWaitEvent:
    return cudaStreamWaitEvent(stream, n->event, 0);
  }
  return 0; /* empty, memory alloc (reserved at creation) and free nodes */
}

static cudaError_t run_graph(struct gnode **order, int n, void *stream) {
  for (int i = 0; i < n; i++) {
    cudaError_t e = run_node(order[i], stream);
    if (e) return e;
  }
  return 0;
}

/* topo_order lists g's nodes with every node after its dependencies,
 * otherwise in creation order; NULL when the dependencies form a cycle. */
static struct gnode **topo_order(struct graph *g) {
  struct gnode **order = malloc((size_t)(g->n ? g->n : 1) * sizeof *order);
  char *placed = calloc((size_t)(g->n ? g->n : 1), 1);
  int k = 0;
  while (k < g->n) {
    int progress = 0;
    for (int i = 0; i < g->n; i++) {
      if (placed[i]) continue;
      struct gnode *n = g->nodes[i];
      int ready = 1;
      for (int d = 0; d < n->ndeps && ready; d++) ready = placed[n->deps[d]->index];
      if (!ready) continue;
      placed[i] = 1;
      order[k++] = n;
      progress = 1;
      break; /* restart: the earliest ready node goes first */
    }
    if (!progress) { free(order); free(placed); return NULL; }
  }
  free(placed);
  return order;
}

/* ---- The explicit graph API ---- */
cudaError_t cudaGraphCreate(void **pg, unsigned flags) {
  ENTER();
  if (!pg || flags) return set_error(cudaErrorInvalidValue);
  *pg = new_graph();
  return 0;
}
cudaError_t cudaGraphClone(void **out, void *g) {
  ENTER();
  struct graph *o = as_graph(g);
  if (!out || !o) return set_error(cudaErrorInvalidValue);
  struct graph *c = clone_graph(o);
  c->cloned_from = o;
  *out = c;
  return 0;
}
cudaError_t cudaGraphNodeFindInClone(void **out, void *node, void *clone) {
  ENTER();
  struct gnode *n = as_node(node);
  struct graph *c = as_graph(clone);
  if (!out || !n || !c || c->cloned_from != n->owner || n->index >= c->n) return set_error(cudaErrorInvalidValue);
  *out = c->nodes[n->index];
  return 0;
}
cudaError_t cudaGraphDestroy(void *g) {
  ENTER();
  struct graph *o = as_graph(g);
  if (!o) return set_error(cudaErrorInvalidValue);
  destroy_graph(o);
  return 0;
}

#define NODE_ARGS void **pn, void *g, void *const *deps, size_t ndeps
#define ADD(type)                                                                          \
  struct gnode *n = NULL;                                                                  \
  do {                                                                                     \
    cudaError_t e_ = add_node(&n, as_graph(g), (struct gnode *const *)deps, ndeps, type);  \
    if (e_) return e_;                                                                     \
    *pn = n;                                                                               \
  } while (0)

/* Drop the node just added (its parameters were bad). */
static cudaError_t drop_last(void *g, void **pn, cudaError_t e) {
  struct graph *o = as_graph(g);
  free_node(o->nodes[--o->n]);
  *pn = NULL;
  return e;
}

cudaError_t cudaGraphAddKernelNode(NODE_ARGS, const struct cudaKernelNodeParams *p) {
  ENTER();
  ADD(cudaGraphNodeTypeKernel);
  cudaError_t e = set_kernel_params(n, p);
  return e ? drop_last(g, pn, e) : 0;
}
cudaError_t cudaGraphAddMemcpyNode(NODE_ARGS, const struct cudaMemcpy3DParms *p) {
  ENTER();
  if (!p) return set_error(cudaErrorInvalidValue);
  ADD(cudaGraphNodeTypeMemcpy);
  n->is3d = 1;
  n->copy3d = *p;
  return 0;
}
cudaError_t cudaGraphAddMemcpyNode1D(NODE_ARGS, void *dst, const void *src, size_t count, int kind) {
  ENTER();
  if (!dst || !src || kind < 0 || kind > 4) return set_error(cudaErrorInvalidValue);
  ADD(cudaGraphNodeTypeMemcpy);
  n->dst = dst;
  n->src = src;
  n->count = count;
  n->kind = kind;
  return 0;
}
cudaError_t cudaGraphAddMemsetNode(NODE_ARGS, const struct cudaMemsetParams *p) {
  ENTER();
  ADD(cudaGraphNodeTypeMemset);
  cudaError_t e = set_memset_params(n, p);
  return e ? drop_last(g, pn, e) : 0;
}
cudaError_t cudaGraphAddHostNode(NODE_ARGS, const struct cudaHostNodeParams *p) {
  ENTER();
  if (!p || !p->fn) return set_error(cudaErrorInvalidValue);
  ADD(cudaGraphNodeTypeHost);
  n->fn = p->fn;
  n->data = p->userData;
  return 0;
}
cudaError_t cudaGraphAddChildGraphNode(NODE_ARGS, void *child) {
  ENTER();
  struct graph *c = as_graph(child);
  if (!c || c == as_graph(g)) return set_error(cudaErrorInvalidValue);
  ADD(cudaGraphNodeTypeGraph);
  n->child = clone_graph(c);
  return 0;
}
cudaError_t cudaGraphAddEmptyNode(NODE_ARGS) {
  ENTER();
  ADD(cudaGraphNodeTypeEmpty);
  (void)n;
  return 0;
}
cudaError_t cudaGraphAddEventRecordNode(NODE_ARGS, void *event) {
  ENTER();
  struct event *ev = as_event(event);
  if (!ev) return set_error(cudaErrorInvalidValue);
  ADD(cudaGraphNodeTypeEventRecord);
  n->event = ev;
  return 0;
}
cudaError_t cudaGraphAddEventWaitNode(NODE_ARGS, void *event) {
  ENTER();
  struct event *ev = as_event(event);
  if (!ev) return set_error(cudaErrorInvalidValue);
  ADD(cudaGraphNodeTypeWaitEvent);
  n->event = ev;
  return 0;
}
/* The allocation is made when the node is: its address is the node's
 * from then on, and the memory lasts while a graph holds the node. */
cudaError_t cudaGraphAddMemAllocNode(NODE_ARGS, struct cudaMemAllocNodeParams *p) {
  ENTER();
  if (!p || p->bytesize == 0) return set_error(cudaErrorInvalidValue);
  if (p->poolProps.allocType != 1 || p->poolProps.location.type != 1 || p->poolProps.location.id != 0) return set_error(cudaErrorInvalidValue);
  void *mem = NULL;
  cudaError_t e = alloc_kind(&mem, p->bytesize, kindDevice);
  if (e) return e;
  ADD(cudaGraphNodeTypeMemAlloc);
  n->alloc = malloc(sizeof *n->alloc);
  n->alloc->ptr = mem;
  n->alloc->refs = 1;
  n->alloc->size = p->bytesize;
  graph_allocs = grow(graph_allocs, ngraph_allocs, sizeof *graph_allocs);
  graph_allocs[ngraph_allocs++] = n->alloc;
  graph_mem_used += p->bytesize;
  if (graph_mem_used > graph_mem_high) graph_mem_high = graph_mem_used;
  n->dptr = mem;
  p->dptr = mem;
  return 0;
}
cudaError_t cudaGraphAddMemFreeNode(NODE_ARGS, void *dptr) {
  ENTER();
  if (!dptr || find_alloc((uintptr_t)dptr) < 0) return set_error(cudaErrorInvalidValue);
  ADD(cudaGraphNodeTypeMemFree);
  n->dptr = dptr;
  return 0;
}
/* ---- Conditional handles and cudaGraphAddNode ---- */
static cudaError_t default_edges(const struct cudaGraphEdgeData *e, size_t n, const char *call);
cudaError_t cudaGraphConditionalHandleCreate(unsigned long long *out, void *g, unsigned def, unsigned flags) {
  ENTER();
  struct graph *o = as_graph(g);
  if (!out || !o || (flags & ~(unsigned)cudaGraphCondAssignDefault)) return set_error(cudaErrorInvalidValue);
  void *word = NULL;
  cudaError_t e = alloc_kind(&word, 4, kindDevice);
  if (e) return e;
  struct cond *c = calloc(1, sizeof *c);
  c->addr = (uintptr_t)word;
  c->def = def;
  c->flags = flags;
  c->refs = 1;
  conds = grow(conds, nconds, sizeof *conds);
  conds[nconds++] = c;
  o->conds = grow(o->conds, o->nconds, sizeof *o->conds);
  o->conds[o->nconds++] = c;
  *out = c->addr;
  return 0;
}

static cudaError_t add_conditional(NODE_ARGS, struct cudaConditionalNodeParams *p) {
  struct cond *h = find_cond(p->handle);
  unsigned size = p->size;
  int ok = p->type == cudaGraphCondTypeIf ? size == 1 || size == 2 : p->type == cudaGraphCondTypeWhile ? size == 1 : p->type == cudaGraphCondTypeSwitch && size >= 1;
  if (!h || !ok) return set_error(cudaErrorInvalidValue);
  ADD(cudaGraphNodeTypeConditional);
  n->cond = h;
  h->refs++;
  n->ctype = p->type;
  n->nbodies = (int)size;
  n->bodies = malloc(size * sizeof *n->bodies);
  for (unsigned i = 0; i < size; i++) n->bodies[i] = new_graph();
  p->phGraph_out = (cudaGraph_t *)n->bodies;
  return 0;
}

cudaError_t cudaGraphAddNode(void **pn, void *g, void *const *deps, const struct cudaGraphEdgeData *edges, size_t ndeps, struct cudaGraphNodeParams *p) {
  ENTER();
  if (!p) return set_error(cudaErrorInvalidValue);
  cudaError_t e = default_edges(edges, ndeps, "cudaGraphAddNode");
  if (e) return e;
  switch ((int)p->type) {
  case cudaGraphNodeTypeKernel: {
    struct cudaKernelNodeParams k = {p->kernel.func, p->kernel.gridDim, p->kernel.blockDim, p->kernel.sharedMemBytes, p->kernel.kernelParams, p->kernel.extra};
    return cudaGraphAddKernelNode(pn, g, deps, ndeps, &k);
  }
  case cudaGraphNodeTypeMemcpy:
    return cudaGraphAddMemcpyNode(pn, g, deps, ndeps, &p->memcpy.copyParams);
  case cudaGraphNodeTypeMemset: {
    struct cudaMemsetParams m = {p->memset.dst, p->memset.pitch, p->memset.value, p->memset.elementSize, p->memset.width, p->memset.height};
    return cudaGraphAddMemsetNode(pn, g, deps, ndeps, &m);
  }
  case cudaGraphNodeTypeHost: {
    struct cudaHostNodeParams h = {p->host.fn, p->host.userData};
    return cudaGraphAddHostNode(pn, g, deps, ndeps, &h);
  }
  case cudaGraphNodeTypeGraph:
    return cudaGraphAddChildGraphNode(pn, g, deps, ndeps, p->graph.graph);
  case cudaGraphNodeTypeEmpty:
    return cudaGraphAddEmptyNode(pn, g, deps, ndeps);
  case cudaGraphNodeTypeWaitEvent:
    return cudaGraphAddEventWaitNode(pn, g, deps, ndeps, p->eventWait.event);
  case cudaGraphNodeTypeEventRecord:
    return cudaGraphAddEventRecordNode(pn, g, deps, ndeps, p->eventRecord.event);
  case cudaGraphNodeTypeMemAlloc:
    return cudaGraphAddMemAllocNode(pn, g, deps, ndeps, &p->alloc);
  case cudaGraphNodeTypeMemFree:
    return cudaGraphAddMemFreeNode(pn, g, deps, ndeps, p->free.dptr);
  case cudaGraphNodeTypeConditional:
    return add_conditional(pn, g, deps, ndeps, &p->conditional);
  }
  fprintf(stderr, "warpsim runtime: cudaGraphAddNode of node type %d (external semaphores) is not supported yet\n", (int)p->type);
  return set_error(cudaErrorNotSupported);
}
cudaError_t cudaGraphAddNode_v2(void **pn, void *g, void *const *deps, const struct cudaGraphEdgeData *edges, size_t ndeps, struct cudaGraphNodeParams *p) {
  return cudaGraphAddNode(pn, g, deps, edges, ndeps, p);
}

cudaError_t cudaGraphAddDependencies(void *g, void *const *from, void *const *to, size_t count) {
  ENTER();
  struct graph *o = as_graph(g);
  if (!o || (count && (!from || !to))) return set_error(cudaErrorInvalidValue);
  for (size_t i = 0; i < count; i++) {
    struct gnode *a = as_node(from[i]), *b = as_node(to[i]);
    if (!a || !b || a->owner != o || b->owner != o || a == b) return set_error(cudaErrorInvalidValue);
    for (int d = 0; d < b->ndeps; d++)
      if (b->deps[d] == a) return set_error(cudaErrorInvalidValue);
    b->deps = realloc(b->deps, (size_t)(b->ndeps + 1) * sizeof *b->deps);
    b->deps[b->ndeps++] = a;
  }
  return 0;
}
cudaError_t cudaGraphRemoveDependencies(void *g, void *const *from, void *const *to, size_t count) {
  ENTER();
  struct graph *o = as_graph(g);
  if (!o || (count && (!from || !to))) return set_error(cudaErrorInvalidValue);
  for (size_t i = 0; i < count; i++) { /* every edge must exist before any goes */
    struct gnode *a = as_node(from[i]), *b = as_node(to[i]);
    if (!a || !b || a->owner != o || b->owner != o) return set_error(cudaErrorInvalidValue);
    int found = 0;
    for (int d = 0; d < b->ndeps; d++) found |= b->deps[d] == a;
    if (!found) return set_error(cudaErrorInvalidValue);
  }
  for (size_t i = 0; i < count; i++) {
    struct gnode *a = as_node(from[i]), *b = as_node(to[i]);
    for (int d = 0; d < b->ndeps; d++)
      if (b->deps[d] == a) {
        memmove(&b->deps[d], &b->deps[d + 1], (size_t)(b->ndeps - d - 1) * sizeof *b->deps);
        b->ndeps--;
        break;
      }
  }
  return 0;
}
/* cudaGraphGetEdges lists every edge, node by node in creation order. */
cudaError_t cudaGraphGetEdges(void *g, void **from, void **to, size_t *count) {
  ENTER();
  struct graph *o = as_graph(g);
  if (!o || !count || (!from) != (!to)) return set_error(cudaErrorInvalidValue);
  size_t k = 0;
  for (int i = 0; i < o->n; i++)
    for (int d = 0; d < o->nodes[i]->ndeps; d++, k++)
      if (from && k < *count) { from[k] = o->nodes[i]->deps[d]; to[k] = o->nodes[i]; }
  if (from) { /* as CUDA: unused entries NULL, the count is what was written */
    for (size_t j = k; j < *count; j++) from[j] = to[j] = NULL;
    if (k > *count) k = *count;
  }
  *count = k;
  return 0;
}
cudaError_t cudaGraphNodeGetDependentNodes(void *node, void **out, size_t *count) {
  ENTER();
  struct gnode *n = as_node(node);
  if (!n || !count) return set_error(cudaErrorInvalidValue);
  size_t k = 0;
  for (int i = 0; i < n->owner->n; i++)
    for (int d = 0; d < n->owner->nodes[i]->ndeps; d++)
      if (n->owner->nodes[i]->deps[d] == n) {
        if (out && k < *count) out[k] = n->owner->nodes[i];
        k++;
      }
  *count = k;
  return 0;
}
/* The edge-data forms (CUDA 12.3's _v2 names, CUDA 13's plain names in C++
 * through cuda_runtime_api.h): warpsim's edges are all default edges (type
 * 0, ports 0); asking for another kind is refused, naming it. */
cudaError_t cudaGraphNodeGetDependencies(void *node, void **deps, size_t *count);
static cudaError_t default_edges(const struct cudaGraphEdgeData *e, size_t n, const char *call) {
  for (size_t i = 0; e && i < n; i++)
    if (e[i].type != 0 || e[i].from_port != 0 || e[i].to_port != 0) {
      fprintf(stderr, "warpsim: %s: only default graph edges are supported (edge %zu has type %d, ports %d->%d)\n",
              call, i, e[i].type, e[i].from_port, e[i].to_port);
      return set_error(cudaErrorNotSupported);
    }
  return 0;
}
static void zero_edges(struct cudaGraphEdgeData *e, size_t n) {
  if (e) memset(e, 0, n * sizeof *e);
}
cudaError_t cudaGraphAddDependencies_v2(void *g, void *const *from, void *const *to, const struct cudaGraphEdgeData *e, size_t count) {
  cudaError_t r = default_edges(e, count, "cudaGraphAddDependencies");
  return r ? r : cudaGraphAddDependencies(g, from, to, count);
}
cudaError_t cudaGraphRemoveDependencies_v2(void *g, void *const *from, void *const *to, const struct cudaGraphEdgeData *e, size_t count) {
  cudaError_t r = default_edges(e, count, "cudaGraphRemoveDependencies");
  return r ? r : cudaGraphRemoveDependencies(g, from, to, count);
}
cudaError_t cudaGraphGetEdges_v2(void *g, void **from, void **to, struct cudaGraphEdgeData *e, size_t *count) {
  size_t room = count ? *count : 0;
  cudaError_t r = cudaGraphGetEdges(g, from, to, count);
  if (from) zero_edges(e, room < *count ? room : *count);
  return r;
}
cudaError_t cudaGraphNodeGetDependencies_v2(void *node, void **deps, struct cudaGraphEdgeData *e, size_t *count) {
  size_t room = count ? *count : 0;
  cudaError_t r = cudaGraphNodeGetDependencies(node, deps, count);
  if (!r && deps) zero_edges(e, room < *count ? room : *count);
  return r;
}
cudaError_t cudaGraphNodeGetDependentNodes_v2(void *node, void **out, struct cudaGraphEdgeData *e, size_t *count) {
  size_t room = count ? *count : 0;
  cudaError_t r = cudaGraphNodeGetDependentNodes(node, out, count);
  if (!r && out) zero_edges(e, room < *count ? room : *count);
  return r;
}
cudaError_t cudaGraphGetNodes(void *g, void **nodes, size_t *count) {
  ENTER();
  struct graph *o = as_graph(g);
  if (!o || !count) return set_error(cudaErrorInvalidValue);
  if (nodes)
    for (size_t i = 0; i < *count && i < (size_t)o->n; i++) nodes[i] = o->nodes[i];
  *count = (size_t)o->n;
  return 0;
}
cudaError_t cudaGraphGetRootNodes(void *g, void **nodes, size_t *count) {
  ENTER();
  struct graph *o = as_graph(g);
  if (!o || !count) return set_error(cudaErrorInvalidValue);
  size_t k = 0;
  for (int i = 0; i < o->n; i++) {
    if (o->nodes[i]->ndeps) continue;
    if (nodes && k < *count) nodes[k] = o->nodes[i];
    k++;
  }
  *count = k;
  return 0;
}
cudaError_t cudaGraphNodeGetType(void *node, int *type) {
  ENTER();
  struct gnode *n = as_node(node);
  if (!n || !type) return set_error(cudaErrorInvalidValue);
  *type = n->type;
  return 0;
}
cudaError_t cudaGraphNodeGetDependencies(void *node, void **deps, size_t *count) {
  ENTER();
  struct gnode *n = as_node(node);
  if (!n || !count) return set_error(cudaErrorInvalidValue);
  if (deps)
    for (size_t i = 0; i < *count && i < (size_t)n->ndeps; i++) deps[i] = n->deps[i];
  *count = (size_t)n->ndeps;
  return 0;
}
cudaError_t cudaGraphKernelNodeGetParams(void *node, struct cudaKernelNodeParams *p) {
  ENTER();
  struct gnode *n = as_node(node);
  if (!n || !p || n->type != cudaGraphNodeTypeKernel) return set_error(cudaErrorInvalidValue);
  memset(p, 0, sizeof *p);
  p->func = (void *)n->func;
  p->gridDim = n->grid;
  p->blockDim = n->block;
  p->sharedMemBytes = (unsigned)n->shmem;
  return 0;
}
cudaError_t cudaGraphKernelNodeSetParams(void *node, const struct cudaKernelNodeParams *p) {
  ENTER();
  struct gnode *n = as_node(node);
  if (!n || n->type != cudaGraphNodeTypeKernel) return set_error(cudaErrorInvalidValue);
  return set_kernel_params(n, p);
}
cudaError_t cudaGraphMemsetNodeSetParams(void *node, const struct cudaMemsetParams *p) {
  ENTER();
  struct gnode *n = as_node(node);
  if (!n || n->type != cudaGraphNodeTypeMemset) return set_error(cudaErrorInvalidValue);
  return set_memset_params(n, p);
}
cudaError_t cudaGraphHostNodeSetParams(void *node, const struct cudaHostNodeParams *p) {
  ENTER();
  struct gnode *n = as_node(node);
  if (!n || !p || !p->fn || n->type != cudaGraphNodeTypeHost) return set_error(cudaErrorInvalidValue);
  n->fn = p->fn;
  n->data = p->userData;
  return 0;
}
cudaError_t cudaGraphMemcpyNodeSetParams1D(void *node, void *dst, const void *src, size_t count, int kind) {
  ENTER();
  struct gnode *n = as_node(node);
  if (!n || n->type != cudaGraphNodeTypeMemcpy || !dst || !src) return set_error(cudaErrorInvalidValue);
  n->is3d = 0;
  n->dst = dst;
  n->src = src;
  n->count = count;
  n->kind = kind;
  return 0;
}

/* ---- Instantiation and launch ---- */
cudaError_t cudaGraphInstantiate(void **out, void *g, unsigned long long flags) {
  ENTER();
  struct graph *o = as_graph(g);
  if (!out || !o || (flags & ~0x0full)) return set_error(cudaErrorInvalidValue);
  /* A graph with memory nodes has one executable graph at a time
   * (cudaErrorNotSupported for a second, as the H100 answers); one for
   * device launch holds only kernel, memcpy, memset and child graph nodes
   * (testdata/programs7/graph_conditional). */
  int mem_nodes = 0, device_ok = 1;
  for (int i = 0; i < o->n; i++) {
    int t = o->nodes[i]->type;
    mem_nodes |= t == cudaGraphNodeTypeMemAlloc || t == cudaGraphNodeTypeMemFree;
    device_ok &= t == cudaGraphNodeTypeKernel || t == cudaGraphNodeTypeMemcpy || t == cudaGraphNodeTypeMemset || t == cudaGraphNodeTypeGraph;
  }
  if ((flags & cudaGraphInstantiateFlagDeviceLaunch) && !device_ok) return set_error(cudaErrorInvalidValue);
  if (mem_nodes && o->live_execs > 0) return set_error(cudaErrorNotSupported);
  struct graph_exec *x = calloc(1, sizeof *x);
  x->magic = EXEC_MAGIC;
  x->flags = flags;
  x->origin = o;
  x->g = clone_graph(o);
  x->order = topo_order(x->g);
  if (!x->order || !bodies_ok(x->g, 0)) {
    free(x->order);
    destroy_graph(x->g);
    free(x);
    return set_error(cudaErrorInvalidValue);
  }
  o->live_execs++;
  *out = x;
  return 0;
}
cudaError_t cudaGraphInstantiateWithFlags(void **out, void *g, unsigned long long flags) { return cudaGraphInstantiate(out, g, flags); }
cudaError_t cudaGraphExecGetFlags(void *exec, unsigned long long *flags) {
  ENTER();
  struct graph_exec *x = as_exec(exec);
  if (!x || !flags) return set_error(cudaErrorInvalidValue);
  *flags = x->flags;
  return 0;
}
cudaError_t cudaGraphUpload(void *exec, void *stream) {
  ENTER();
  if (!as_exec(exec) || !valid_stream(stream)) return set_error(cudaErrorInvalidValue);
  return 0;
}
cudaError_t cudaGraphLaunch(void *exec, void *stream) {
  ENTER();
  struct graph_exec *x = as_exec(exec);
  if (!x) return set_error(cudaErrorInvalidValue);
  if (!valid_stream(stream)) return set_error(400);
  if (capturing(stream)) {
    /* Launching a graph into a capture adds it as a child graph node. */
    struct stream *st = capturing(stream);
    struct gnode *n = NULL;
    cudaError_t e = add_node(&n, st->capture, st->deps, (size_t)st->ndeps, cudaGraphNodeTypeGraph);
    if (e) return e;
    n->child = clone_graph(x->g);
    st->deps = realloc(st->deps, sizeof *st->deps);
    st->deps[0] = n;
    st->ndeps = 1;
    return 0;
  }
  cudaError_t e = apply_defaults(x->g, stream);
  return e ? e : run_graph(x->order, x->g->n, stream);
}
cudaError_t cudaGraphExecDestroy(void *exec) {
  ENTER();
  struct graph_exec *x = as_exec(exec);
  if (!x) return set_error(cudaErrorInvalidValue);
  if (as_graph(x->origin)) x->origin->live_execs--;
  destroy_graph(x->g);
  free(x->order);
  x->magic = 0;
  free(x);
  return 0;
}

/* exec_node is the instantiation's copy of node (same index). */
static struct gnode *exec_node(struct graph_exec *x, void *node, int type) {
  struct gnode *n = as_node(node);
  if (!x || !n || n->index >= x->g->n) return NULL;
  struct gnode *c = x->g->nodes[n->index];
  return c->type == type && n->type == type ? c : NULL;
}
cudaError_t cudaGraphExecKernelNodeSetParams(void *exec, void *node, const struct cudaKernelNodeParams *p) {
  ENTER();
  struct gnode *c = exec_node(as_exec(exec), node, cudaGraphNodeTypeKernel);
  if (!c) return set_error(cudaErrorInvalidValue);
  return set_kernel_params(c, p);
}
cudaError_t cudaGraphExecMemsetNodeSetParams(void *exec, void *node, const struct cudaMemsetParams *p) {
  ENTER();
  struct gnode *c = exec_node(as_exec(exec), node, cudaGraphNodeTypeMemset);
  if (!c) return set_error(cudaErrorInvalidValue);
  return set_memset_params(c, p);
}
cudaError_t cudaGraphExecHostNodeSetParams(void *exec, void *node, const struct cudaHostNodeParams *p) {
  ENTER();
  struct gnode *c = exec_node(as_exec(exec), node, cudaGraphNodeTypeHost);
  if (!c || !p || !p->fn) return set_error(cudaErrorInvalidValue);
  c->fn = p->fn;
  c->data = p->userData;
  return 0;
}
cudaError_t cudaGraphExecMemcpyNodeSetParams1D(void *exec, void *node, void *dst, const void *src, size_t count, int kind) {
  ENTER();
  struct gnode *c = exec_node(as_exec(exec), node, cudaGraphNodeTypeMemcpy);
  if (!c || !dst || !src) return set_error(cudaErrorInvalidValue);
  c->is3d = 0;
  c->dst = dst;
  c->src = src;
  c->count = count;
  c->kind = kind;
  return 0;
}

/* cudaGraphExecUpdate takes g's parameters into the instantiation when g
 * has the same nodes (types, dependencies) in the same order, as CUDA
 * requires; otherwise it says what differs and changes nothing. */
cudaError_t cudaGraphExecUpdate(void *exec, void *g, struct cudaGraphExecUpdateResultInfo *info) {
  ENTER();
  struct graph_exec *x = as_exec(exec);
  struct graph *o = as_graph(g);
  if (!x || !o) return set_error(cudaErrorInvalidValue);
  struct cudaGraphExecUpdateResultInfo r = {cudaGraphExecUpdateSuccess, NULL, NULL};
  if (o->n != x->g->n) r.result = cudaGraphExecUpdateErrorTopologyChanged;
  for (int i = 0; i < o->n && r.result == cudaGraphExecUpdateSuccess; i++) {
    struct gnode *a = o->nodes[i], *b = x->g->nodes[i];
    if (a->type != b->type) { r.result = cudaGraphExecUpdateErrorNodeTypeChanged; r.errorNode = (cudaGraphNode_t)a; break; }
    if (a->ndeps != b->ndeps) { r.result = cudaGraphExecUpdateErrorTopologyChanged; r.errorNode = (cudaGraphNode_t)a; break; }
    for (int d = 0; d < a->ndeps; d++)
      if (a->deps[d]->index != b->deps[d]->index) { r.result = cudaGraphExecUpdateErrorTopologyChanged; r.errorNode = (cudaGraphNode_t)a; }
    /* A kernel node may change its function (as on the H100:
     * testdata/programs7/graph_explicit); CUDA's restrictions on that (no
     * change into dynamic parallelism or device-side graph updates) are
     * not checked. */
    if ((a->type == cudaGraphNodeTypeMemAlloc || a->type == cudaGraphNodeTypeMemFree) && a->dptr != b->dptr) { r.result = cudaGraphExecUpdateErrorNotSupported; r.errorNode = (cudaGraphNode_t)a; }
  }
  if (info) *info = r;
  if (r.result != cudaGraphExecUpdateSuccess) return set_error(cudaErrorGraphExecUpdateFailure);
  struct graph *fresh = clone_graph(o);
  destroy_graph(x->g);
  free(x->order);
  x->g = fresh;
  x->order = topo_order(fresh);
  return 0;
}

/* ---- Stream capture ---- */
static unsigned long long next_capture_id = 1;
/* The graphs being captured now: an event recorded in a capture means
 * something only while its capture is open (compared by address only, so
 * a destroyed graph is never touched). */
static struct graph **open_captures;
static int nopen_captures;
static int capture_open(const struct graph *g) {
  for (int i = 0; i < nopen_captures; i++)
    if (open_captures[i] == g) return 1;
  return 0;
}
static _Thread_local int capture_mode_of_thread; /* cudaThreadExchangeStreamCaptureMode */

static void capture_add(struct stream *st, struct gnode *n) {
  (void)n;
  st->deps = realloc(st->deps, sizeof *st->deps);
  st->deps[0] = n;
  st->ndeps = 1;
}

/* capture_node adds a node of type to st's capture after st's current
 * dependencies and makes it the stream's dependency. */
static cudaError_t capture_node(struct stream *st, int type, struct gnode **out) {
  cudaError_t e = add_node(out, st->capture, st->deps, (size_t)st->ndeps, type);
  if (e) return e;
  capture_add(st, *out);
  return 0;
}

cudaError_t cudaStreamBeginCapture(void *s, int mode) {
  ENTER();
  if (!valid_stream(s)) return set_error(400);
  if (mode < 0 || mode > 2) return set_error(cudaErrorInvalidValue);
  if (stream_id(s) == 0) return set_error(cudaErrorStreamCaptureUnsupported); /* the legacy stream cannot capture */
  struct stream *st = s;
  if (st->capture) return set_error(cudaErrorIllegalState);
  st->capture = new_graph();
  open_captures = grow(open_captures, nopen_captures, sizeof *open_captures);
  open_captures[nopen_captures++] = st->capture;
  st->capture->capture_mode = mode;
  st->capture_mode = mode;
  st->capture_id = next_capture_id++;
  st->capture_origin = st;
  st->ndeps = 0;
  if (mode != 2) captures_active++;
  return 0;
}

/* cudaStreamBeginCaptureToGraph captures into a graph of the program's
 * (a conditional node's body, say), after deps. */
cudaError_t cudaStreamBeginCaptureToGraph(void *s, void *g, void *const *deps, const struct cudaGraphEdgeData *edges, size_t ndeps, int mode) {
  ENTER();
  struct graph *o = as_graph(g);
  if (!o || (ndeps && !deps)) return set_error(cudaErrorInvalidValue);
  for (size_t i = 0; i < ndeps; i++) {
    struct gnode *d = as_node(deps[i]);
    if (!d || d->owner != o) return set_error(cudaErrorInvalidValue);
  }
  cudaError_t e = default_edges(edges, ndeps, "cudaStreamBeginCaptureToGraph");
  if (e) return e;
  struct graph *fresh = NULL;
  if ((e = cudaStreamBeginCapture(s, mode))) return e;
  struct stream *st = s;
  fresh = st->capture;
  for (int i = 0; i < nopen_captures; i++)
    if (open_captures[i] == fresh) { open_captures[i] = o; break; }
  destroy_graph(fresh);
  st->capture = o;
  st->capture_to_graph = 1;
  st->deps = realloc(st->deps, (ndeps ? ndeps : 1) * sizeof *st->deps);
  for (size_t i = 0; i < ndeps; i++) st->deps[i] = deps[i];
  st->ndeps = (int)ndeps;
  return 0;
}

/* cudaStreamUpdateCaptureDependencies: the capture's next node depends on
 * deps (cudaStreamSetCaptureDependencies) or on them too (Add). */
cudaError_t cudaStreamUpdateCaptureDependencies(void *s, void *const *deps, size_t n, unsigned flags) {
  ENTER();
  if (!valid_stream(s)) return set_error(400);
  struct stream *st = capturing(s);
  if (!st) return set_error(cudaErrorIllegalState);
  if (flags > 1 || (n && !deps)) return set_error(cudaErrorInvalidValue);
  for (size_t i = 0; i < n; i++) {
    struct gnode *d = as_node(deps[i]);
    if (!d || d->owner != st->capture) return set_error(cudaErrorInvalidValue);
  }
  int keep = flags == 0 ? st->ndeps : 0;
  st->deps = realloc(st->deps, ((size_t)keep + n + 1) * sizeof *st->deps);
  int k = keep;
  for (size_t i = 0; i < n; i++) {
    int dup = 0;
    for (int j = 0; j < k && !dup; j++) dup = st->deps[j] == deps[i];
    if (!dup) st->deps[k++] = deps[i];
  }
  st->ndeps = k;
  return 0;
}
cudaError_t cudaStreamUpdateCaptureDependencies_v2(void *s, void *const *deps, const struct cudaGraphEdgeData *edges, size_t n, unsigned flags) {
  cudaError_t e = default_edges(edges, n, "cudaStreamUpdateCaptureDependencies");
  return e ? e : cudaStreamUpdateCaptureDependencies(s, deps, n, flags);
}

cudaError_t cudaStreamEndCapture(void *s, void **pg) {
  ENTER();
  struct stream *st0 = valid_stream(s) ? capturing(s) : NULL;
  if (!valid_stream(s) || (!pg && !(st0 && st0->capture_to_graph))) return set_error(!pg ? cudaErrorInvalidValue : 400);
  struct stream *st = capturing(s);
  if (!st) return set_error(cudaErrorIllegalState);
  if (st->capture_origin != st) return set_error(cudaErrorStreamCaptureUnmatched);
  struct graph *g = st->capture;
  for (int i = 0; i < nopen_captures; i++)
    if (open_captures[i] == g) { open_captures[i] = open_captures[--nopen_captures]; break; }
  for (int i = 0; i < g->njoined; i++) {
    struct stream *j = g->joined[i];
    if (j->magic == STREAM_MAGIC && j->capture == g) { j->capture = NULL; j->ndeps = 0; }
  }
  if (st->capture_mode != 2) captures_active--;
  int to_graph = st->capture_to_graph;
  st->capture = NULL;
  st->ndeps = 0;
  st->capture_to_graph = 0;
  if (g->invalidated) {
    if (pg) *pg = NULL;
    if (!to_graph) destroy_graph(g);
    return set_error(cudaErrorStreamCaptureInvalidated);
  }
  if (pg) *pg = g;
  return 0;
}

/* invalidate_captures: a call that a global or thread-local capture
 * forbids (cudaMalloc, cudaDeviceSynchronize …) was made; it fails with
 * cudaErrorStreamCaptureUnsupported and the captures it broke end with
 * cudaErrorStreamCaptureInvalidated (testdata/programs7/graph_capture). */
static void invalidate_captures(void) {
  for (int i = 0; i < nopen_captures; i++)
    if (open_captures[i]->capture_mode != 2) open_captures[i]->invalidated = 1;
}

cudaError_t cudaStreamIsCapturing(void *s, int *status) {
  ENTER();
  if (!valid_stream(s) || !status) return set_error(!status ? cudaErrorInvalidValue : 400);
  struct stream *st = capturing(s);
  *status = st ? (st->capture->invalidated ? 2 : 1) : 0;
  return 0;
}

cudaError_t cudaStreamGetCaptureInfo(void *s, int *status, unsigned long long *id, void **graph, void *const **deps, size_t *ndeps) {
  ENTER();
  if (!valid_stream(s) || !status) return set_error(!status ? cudaErrorInvalidValue : 400);
  struct stream *st = capturing(s);
  *status = st ? (st->capture->invalidated ? 2 : 1) : 0;
  if (id) *id = st ? st->capture_id : 0;
  if (graph) *graph = st ? st->capture : NULL;
  if (deps) *deps = st ? (void *const *)st->deps : NULL;
  if (ndeps) *ndeps = st ? (size_t)st->ndeps : 0;
  return 0;
}
cudaError_t cudaStreamGetCaptureInfo_v2(void *s, int *status, unsigned long long *id, void **graph, void *const **deps, size_t *ndeps) {
  return cudaStreamGetCaptureInfo(s, status, id, graph, deps, ndeps);
}

cudaError_t cudaThreadExchangeStreamCaptureMode(int *mode) {
  if (!mode || *mode < 0 || *mode > 2) return set_error(cudaErrorInvalidValue);
  int old = capture_mode_of_thread;
  capture_mode_of_thread = *mode;
  *mode = old;
  return 0;
}

static cudaError_t capture_kernel(struct stream *st, struct function *f, dim3 grid, dim3 block, size_t shmem, char *params) {
  struct gnode *n;
  cudaError_t e = capture_node(st, cudaGraphNodeTypeKernel, &n);
  if (e) { free(params); return e; }
  n->f = f;
  n->func = f->stub;
  n->grid = grid;
  n->block = block;
  n->shmem = shmem;
  n->params = params;
  return 0;
}
static cudaError_t capture_memcpy(struct stream *st, void *dst, const void *src, size_t count, int kind) {
  if (kind < 0 || kind > 4) return set_error(cudaErrorInvalidMemcpyDirection);
  struct gnode *n;
  cudaError_t e = capture_node(st, cudaGraphNodeTypeMemcpy, &n);
  if (e) return e;
  n->dst = dst;
  n->src = src;
  n->count = count;
  n->kind = kind;
  return 0;
}
static cudaError_t capture_memset(struct stream *st, void *p, int value, size_t w, size_t h, size_t pitch) {
  struct cudaMemsetParams m = {p, pitch, (unsigned char)value, 1, w, h};
  if (!device_address(p)) return set_error(cudaErrorInvalidValue);
  struct gnode *n;
  cudaError_t e = capture_node(st, cudaGraphNodeTypeMemset, &n);
  if (e) return e;
  n->mset = m;
  return 0;
}
static cudaError_t capture_host(struct stream *st, void (*fn)(void *), void (*cb)(void *, cudaError_t, void *), void *data) {
  if (cb) return set_error(cudaErrorStreamCaptureUnsupported); /* as CUDA: use cudaLaunchHostFunc */
  struct gnode *n;
  cudaError_t e = capture_node(st, cudaGraphNodeTypeHost, &n);
  if (e) return e;
  n->fn = fn;
  n->data = data;
  return 0;
}
/* An event recorded in a capture stands for the stream's position in it:
 * a stream that waits on it joins the capture there (fork), or, already
 * in it, depends on that position too (join). */
static cudaError_t capture_event_record(struct stream *st, struct event *ev) {
  ev->capture = st->capture;
  free(ev->deps);
  ev->deps = st->ndeps ? malloc((size_t)st->ndeps * sizeof *ev->deps) : NULL;
  if (st->ndeps) memcpy(ev->deps, st->deps, (size_t)st->ndeps * sizeof *ev->deps);
  ev->ndeps = st->ndeps;
  return 0;
}
static cudaError_t capture_event_wait(struct stream *st, struct event *ev) {
  if (!ev->capture || !capture_open(ev->capture)) return 0; /* an event from outside the capture: nothing to depend on in the graph */
  if (!st) return set_error(cudaErrorStreamCaptureImplicit);
  if (!st->capture) {
    st->capture = ev->capture;
    st->capture_origin = NULL;
    st->capture_mode = 2;
    struct graph *g = ev->capture;
    g->joined = grow(g->joined, g->njoined, sizeof *g->joined);
    g->joined[g->njoined++] = st;
    st->deps = realloc(st->deps, (size_t)(ev->ndeps ? ev->ndeps : 1) * sizeof *st->deps);
    memcpy(st->deps, ev->deps, (size_t)ev->ndeps * sizeof *st->deps);
    st->ndeps = ev->ndeps;
    return 0;
  }
  if (st->capture != ev->capture) return set_error(cudaErrorStreamCaptureIsolation);
  for (int i = 0; i < ev->ndeps; i++) {
    int seen = 0;
    for (int j = 0; j < st->ndeps; j++) seen |= st->deps[j] == ev->deps[i];
    if (seen) continue;
    st->deps = realloc(st->deps, (size_t)(st->ndeps + 1) * sizeof *st->deps);
    st->deps[st->ndeps++] = ev->deps[i];
  }
  return 0;
}

/* ---- Stream-ordered allocation and memory pools ----
 * A pool is bookkeeping: its allocations are ordinary device memory made
 * when the call is issued (so at once available, as a pool with memory to
 * spare gives it) and freed in stream order. */
#define POOL_MAGIC 0x504f4f4c
/* A pool reserves device memory in 32 MiB chunks, as the H100's driver
 * does (a 1000-byte and a 4 MiB allocation reserved 32 MiB, a 64 MiB one
 * 64 MiB: testdata/programs7/mempool), and keeps what its allocations no
 * longer use until a synchronization finds more reserved than its release
 * threshold (then it keeps the chunks in use, or the threshold's worth) or
 * cudaMemPoolTrimTo trims it. */
#define POOL_CHUNK ((uint64_t)32 << 20)
/* from_pid, from_pool: imported from another process's pool (warpsim_rt_ipc.c). */
struct mem_pool { int magic; uint64_t threshold, used, used_high, reserved, reserved_high; int reuse[3]; int handle_types; int export_fd; uint32_t from_pid; uint64_t from_pool; };
static struct mem_pool default_pool = {POOL_MAGIC, 0, 0, 0, 0, 0, {1, 1, 1}, 0, -1, 0, 0};
static struct mem_pool **pools; /* the program's own (cudaMemPoolCreate) */
static int npools;

static uint64_t pool_chunks(uint64_t n) { return (n + POOL_CHUNK - 1) / POOL_CHUNK * POOL_CHUNK; }
/* pool_shrink keeps at most keep bytes reserved beyond the chunks in use. */
static void pool_shrink(struct mem_pool *m, uint64_t keep) {
  uint64_t floor = pool_chunks(m->used), target = keep / POOL_CHUNK * POOL_CHUNK;
  if (target < floor) target = floor;
  if (m->reserved > target) m->reserved = target;
}
/* pools_settle: a synchronization releases what each pool holds above its
 * release threshold. */
static void pools_settle(void) {
  pool_shrink(&default_pool, default_pool.threshold);
  for (int i = 0; i < npools; i++) pool_shrink(pools[i], pools[i]->threshold);
}
static struct mem_pool *current_pool = &default_pool;
struct pooled { uint64_t addr; uint64_t size; struct mem_pool *pool; };
static struct pooled *pooled;
static int npooled;

static struct mem_pool *as_pool(void *p) {
  struct mem_pool *m = p;
  return m && m->magic == POOL_MAGIC ? m : NULL;
}

static cudaError_t pool_alloc(void **p, size_t size, struct mem_pool *pool, void *stream) {
  if (!p) return set_error(cudaErrorInvalidValue);
  if (!valid_stream(stream)) return set_error(400);
  struct stream *st = capturing(stream);
  if (st) {
    struct cudaMemAllocNodeParams prm;
    memset(&prm, 0, sizeof prm);
    prm.poolProps.allocType = 1;
    prm.poolProps.location.type = 1;
    prm.bytesize = size;
    struct gnode *n;
    cudaError_t e = cudaGraphAddMemAllocNode((void **)&n, st->capture, (void *const *)st->deps, (size_t)st->ndeps, &prm);
    if (e) return e;
    capture_add(st, n);
    *p = prm.dptr;
    return 0;
  }
  cudaError_t e = alloc_kind(p, size, kindDevice);
  if (e) return e;
  pooled = grow(pooled, npooled, sizeof *pooled);
  pooled[npooled++] = (struct pooled){(uintptr_t)*p, size, pool};
  pool->used += size;
  pool->used_high = pool->used > pool->used_high ? pool->used : pool->used_high;
  if (pool->used > pool->reserved) pool->reserved = pool_chunks(pool->used);
  pool->reserved_high = pool->reserved > pool->reserved_high ? pool->reserved : pool->reserved_high;
  return 0;
}

cudaError_t cudaMallocAsync(void **p, size_t size, void *stream) {
  ENTER();
  if (p && size == 0 && valid_stream(stream)) { *p = NULL; return 0; } /* as the H100: no memory, no error */
  return pool_alloc(p, size, current_pool, stream);
}
cudaError_t cudaMallocFromPoolAsync(void **p, size_t size, void *pool, void *stream) {
  ENTER();
  struct mem_pool *m = as_pool(pool);
  if (!m) return set_error(cudaErrorInvalidValue);
  return pool_alloc(p, size, m, stream);
}
cudaError_t cudaFreeAsync(void *p, void *stream) {
  ENTER();
  if (!valid_stream(stream)) return set_error(400);
  struct stream *st = capturing(stream);
  if (st) {
    struct gnode *n;
    cudaError_t e = cudaGraphAddMemFreeNode((void **)&n, st->capture, (void *const *)st->deps, (size_t)st->ndeps, p);
    if (e) return e;
    capture_add(st, n);
    return 0;
  }
  if (!p) return 0;
  if (graph_owned(p)) return 0;
  for (int i = 0; i < npooled; i++)
    if (pooled[i].addr == (uintptr_t)p) {
      pooled[i].pool->used -= pooled[i].size;
      pooled[i] = pooled[--npooled];
      break;
    }
  /* Memory a graph allocated is the graph's; its free node frees nothing. */
  return free_alloc(p, -1, stream, 1);
}

cudaError_t cudaDeviceGetDefaultMemPool(void **pool, int device) {
  ENTER();
  if (!pool) return set_error(cudaErrorInvalidValue);
  if (device != 0) return set_error(cudaErrorInvalidDevice);
  *pool = &default_pool;
  return 0;
}
cudaError_t cudaDeviceGetMemPool(void **pool, int device) {
  ENTER();
  if (!pool) return set_error(cudaErrorInvalidValue);
  if (device != 0) return set_error(cudaErrorInvalidDevice);
  *pool = current_pool;
  return 0;
}
cudaError_t cudaDeviceSetMemPool(int device, void *pool) {
  ENTER();
  if (device != 0) return set_error(cudaErrorInvalidDevice);
  struct mem_pool *m = as_pool(pool);
  if (!m) return set_error(cudaErrorInvalidValue);
  current_pool = m;
  return 0;
}
cudaError_t cudaMemPoolCreate(void **pool, const struct cudaMemPoolProps *props_) {
  ENTER();
  if (!pool || !props_ || props_->allocType != 1 || props_->location.type != 1 || props_->location.id != 0) return set_error(cudaErrorInvalidValue);
  struct mem_pool *m = calloc(1, sizeof *m);
  m->magic = POOL_MAGIC;
  m->reuse[0] = m->reuse[1] = m->reuse[2] = 1;
  m->handle_types = (int)props_->handleTypes;
  m->export_fd = -1;
  pools = grow(pools, npools, sizeof *pools);
  pools[npools++] = m;
  *pool = m;
  return 0;
}
cudaError_t cudaMemPoolDestroy(void *pool) {
  ENTER();
  struct mem_pool *m = as_pool(pool);
  if (!m || m == &default_pool) return set_error(cudaErrorInvalidValue);
  if (current_pool == m) current_pool = &default_pool;
  for (int i = 0; i < npooled; i++)
    if (pooled[i].pool == m) pooled[i].pool = &default_pool;
  for (int i = 0; i < npools; i++)
    if (pools[i] == m) { pools[i] = pools[--npools]; break; }
  m->magic = 0;
  free(m);
  return 0;
}
cudaError_t cudaMemPoolSetAttribute(void *pool, int attr, void *value) {
  ENTER();
  struct mem_pool *m = as_pool(pool);
  if (!m || !value) return set_error(cudaErrorInvalidValue);
  switch (attr) {
  case 1: case 2: case 3: m->reuse[attr - 1] = *(int *)value; return 0;
  case 4: m->threshold = *(uint64_t *)value; return 0;
  case 6: if (*(uint64_t *)value) return set_error(cudaErrorInvalidValue); m->reserved_high = m->reserved; return 0;
  case 8: if (*(uint64_t *)value) return set_error(cudaErrorInvalidValue); m->used_high = m->used; return 0;
  }
  return set_error(cudaErrorInvalidValue);
}
cudaError_t cudaMemPoolGetAttribute(void *pool, int attr, void *value) {
  ENTER();
  struct mem_pool *m = as_pool(pool);
  if (!m || !value) return set_error(cudaErrorInvalidValue);
  switch (attr) {
  case 1: case 2: case 3: *(int *)value = m->reuse[attr - 1]; return 0;
  case 4: *(uint64_t *)value = m->threshold; return 0;
  case 5: *(uint64_t *)value = m->reserved; return 0;
  case 7: *(uint64_t *)value = m->used; return 0;
  case 6: *(uint64_t *)value = m->reserved_high; return 0;
  case 8: *(uint64_t *)value = m->used_high; return 0;
  }
  return set_error(cudaErrorInvalidValue);
}
cudaError_t cudaMemPoolTrimTo(void *pool, size_t keep) {
  ENTER();
  struct mem_pool *m = as_pool(pool);
  if (!m) return set_error(cudaErrorInvalidValue);
  pool_shrink(m, keep);
  return 0;
}
cudaError_t cudaMemPoolSetAccess(void *pool, const struct cudaMemAccessDesc *d, size_t n) {
  ENTER();
  if (!as_pool(pool) || (n && !d)) return set_error(cudaErrorInvalidValue);
  return 0;
}
/* The one device reads and writes every pool's memory. */
cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, void *pool, struct cudaMemLocation *loc) {
  ENTER();
  if (!flags || !as_pool(pool) || !loc) return set_error(cudaErrorInvalidValue);
  if (loc->type != cudaMemLocationTypeDevice || loc->id != 0) return set_error(cudaErrorInvalidDevice);
  *flags = cudaMemAccessFlagsProtReadWrite;
  return 0;
}

/* Graph memory: what allocation nodes hold. */
cudaError_t cudaDeviceGetGraphMemAttribute(int device, int attr, void *value) {
  ENTER();
  if (device != 0) return set_error(cudaErrorInvalidDevice);
  if (!value) return set_error(cudaErrorInvalidValue);
  switch (attr) {
  /* Graph memory is mapped in the pools' 32 MiB chunks: a 1 MiB
   * allocation node used and reserved 32 MiB on the H100. */
  case 0: case 2: *(uint64_t *)value = pool_chunks(graph_mem_used); return 0;
  case 1: case 3: *(uint64_t *)value = pool_chunks(graph_mem_high); return 0;
  }
  return set_error(cudaErrorInvalidValue);
}
cudaError_t cudaDeviceSetGraphMemAttribute(int device, int attr, void *value) {
  ENTER();
  if (device != 0) return set_error(cudaErrorInvalidDevice);
  if (!value || (attr != 1 && attr != 3) || *(uint64_t *)value != 0) return set_error(cudaErrorInvalidValue);
  graph_mem_high = graph_mem_used;
  return 0;
}
cudaError_t cudaDeviceGraphMemTrim(int device) {
  ENTER();
  return device == 0 ? 0 : set_error(cudaErrorInvalidDevice);
}
