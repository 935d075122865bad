// Conditional graph nodes (IF, IF/ELSE, WHILE, SWITCH) whose condition a
// kernel sets with cudaGraphSetConditional. Build: -arch=sm_90 (also with
// -rdc=true, as cuda-samples' graphConditionalNodes is built).
#include <cstdio>
__global__ void setc(cudaGraphConditionalHandle h, const int *v) { cudaGraphSetConditional(h, *v); }
__global__ void add(int *x, int k) { *x += k; }
__global__ void loop(int *counter, cudaGraphConditionalHandle h, int limit) {
  int c = ++*counter;
  if (c >= limit) cudaGraphSetConditional(h, 0);
}
static void say(const char *what, cudaError_t e) {
  if (e != cudaSuccess) printf("%s: %s\n", what, cudaGetErrorName(e));
}
static cudaGraphNode_t kernel(cudaGraph_t g, cudaGraphNode_t *dep, void *func, void **args) {
  cudaGraphNodeParams p = {cudaGraphNodeTypeKernel};
  p.kernel.func = func;
  p.kernel.gridDim = dim3(1);
  p.kernel.blockDim = dim3(1);
  p.kernel.kernelParams = args;
  cudaGraphNode_t n = NULL;
  say("add kernel node", cudaGraphAddNode(&n, g, dep, NULL, dep ? 1 : 0, &p));
  return n;
}
// cond adds a conditional node after dep; body graphs in bodies.
static cudaGraphNode_t cond(cudaGraph_t g, cudaGraphNode_t *dep, cudaGraphConditionalHandle h, cudaGraphConditionalNodeType type, unsigned size, cudaGraph_t *bodies, cudaError_t *err) {
  cudaGraphNodeParams p = {cudaGraphNodeTypeConditional};
  p.conditional.handle = h;
  p.conditional.type = type;
  p.conditional.size = size;
  cudaGraphNode_t n = NULL;
  *err = cudaGraphAddNode(&n, g, dep, NULL, dep ? 1 : 0, &p);
  if (*err == cudaSuccess)
    for (unsigned i = 0; i < size; i++) bodies[i] = p.conditional.phGraph_out[i];
  return n;
}
static int *x, *v;
static int get(int *p) {
  int h;
  cudaMemcpy(&h, p, 4, cudaMemcpyDeviceToHost);
  return h;
}
static void put(int *p, int h) { cudaMemcpy(p, &h, 4, cudaMemcpyHostToDevice); }
static void run(cudaGraphExec_t ge, const char *what) {
  cudaError_t e = cudaGraphLaunch(ge, 0);
  cudaError_t s = cudaStreamSynchronize(0);
  printf("%s: launch %s sync %s x %d\n", what, cudaGetErrorName(e), cudaGetErrorName(s), get(x));
}
int main() {
  cudaMalloc(&x, 4);
  cudaMalloc(&v, 4);
  cudaError_t err;
  cudaGraph_t body[4];
  cudaGraphExec_t ge;
  int one = 1, hundred = 100;
  void *addOne[] = {&x, &one}, *addHundred[] = {&x, &hundred};

  // IF, then IF/ELSE: the condition a kernel set from *v.
  for (unsigned size = 1; size <= 2; size++) {
    cudaGraph_t g;
    cudaGraphCreate(&g, 0);
    cudaGraphConditionalHandle h;
    say("handle", cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    void *args[] = {&h, &v};
    cudaGraphNode_t k = kernel(g, NULL, (void *)setc, args);
    cudaGraphNode_t c = cond(g, &k, h, cudaGraphCondTypeIf, size, body, &err);
    printf("if size %u: %s\n", size, cudaGetErrorName(err));
    cudaGraphNodeType t;
    cudaGraphNodeGetType(c, &t);
    size_t nn = 99;
    cudaGraphGetNodes(body[0], NULL, &nn);
    printf("type %d, body nodes %zu\n", (int)t, nn);
    kernel(body[0], NULL, (void *)add, addOne);
    if (size == 2) kernel(body[1], NULL, (void *)add, addHundred);
    say("instantiate", cudaGraphInstantiate(&ge, g, 0));
    put(x, 0);
    put(v, 1);
    run(ge, "v=1");
    put(v, 0);
    run(ge, "v=0");
    put(v, 7);
    run(ge, "v=7");
    cudaGraphExecDestroy(ge);
    cudaGraphDestroy(g);
  }

  // WHILE: the default value 1 is assigned at every launch; the body
  // counts and clears the condition at 5.
  for (unsigned def = 0; def <= 1; def++) {
    cudaGraph_t g;
    cudaGraphCreate(&g, 0);
    cudaGraphConditionalHandle h;
    say("handle", cudaGraphConditionalHandleCreate(&h, g, def, cudaGraphCondAssignDefault));
    cond(g, NULL, h, cudaGraphCondTypeWhile, 1, body, &err);
    printf("while default %u: %s\n", def, cudaGetErrorName(err));
    int limit = 5;
    void *args[] = {&x, &h, &limit};
    kernel(body[0], NULL, (void *)loop, args);
    say("instantiate", cudaGraphInstantiate(&ge, g, 0));
    put(x, 0);
    run(ge, "while 1st");
    put(x, 0);
    run(ge, "while 2nd");
    cudaGraphExecDestroy(ge);
    cudaGraphDestroy(g);
  }

  // SWITCH of 3 bodies.
  {
    cudaGraph_t g;
    cudaGraphCreate(&g, 0);
    cudaGraphConditionalHandle h;
    say("handle", cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    void *args[] = {&h, &v};
    cudaGraphNode_t k = kernel(g, NULL, (void *)setc, args);
    cond(g, &k, h, cudaGraphCondTypeSwitch, 3, body, &err);
    printf("switch: %s\n", cudaGetErrorName(err));
    static int ks[3] = {1, 10, 100};
    void *a0[] = {&x, &ks[0]}, *a1[] = {&x, &ks[1]}, *a2[] = {&x, &ks[2]};
    kernel(body[0], NULL, (void *)add, a0);
    kernel(body[1], NULL, (void *)add, a1);
    kernel(body[2], NULL, (void *)add, a2);
    say("instantiate", cudaGraphInstantiate(&ge, g, 0));
    put(x, 0);
    for (int i = 0; i < 4; i++) {
      put(v, i == 3 ? 5 : i);
      char what[16];
      snprintf(what, sizeof what, "switch %d", i == 3 ? 5 : i);
      run(ge, what);
    }
    cudaGraphExecDestroy(ge);
    cudaGraphDestroy(g);
  }

  // A default value without cudaGraphCondAssignDefault, never set.
  {
    cudaGraph_t g;
    cudaGraphCreate(&g, 0);
    cudaGraphConditionalHandle h;
    say("handle", cudaGraphConditionalHandleCreate(&h, g, 1, 0));
    cond(g, NULL, h, cudaGraphCondTypeIf, 1, body, &err);
    kernel(body[0], NULL, (void *)add, addOne);
    say("instantiate", cudaGraphInstantiate(&ge, g, 0));
    put(x, 0);
    run(ge, "default 1 without the flag");
    cudaGraphExecDestroy(ge);
    cudaGraphDestroy(g);
  }

  // A WHILE whose body holds an IF (nested conditionals).
  {
    cudaGraph_t g, inner[1];
    cudaGraphCreate(&g, 0);
    cudaGraphConditionalHandle hw, hi;
    say("handle", cudaGraphConditionalHandleCreate(&hw, g, 1, cudaGraphCondAssignDefault));
    cond(g, NULL, hw, cudaGraphCondTypeWhile, 1, body, &err);
    say("while", err);
    say("inner handle", cudaGraphConditionalHandleCreate(&hi, body[0], 1, cudaGraphCondAssignDefault));
    int limit = 3;
    void *args[] = {&v, &hw, &limit};
    cudaGraphNode_t k = kernel(body[0], NULL, (void *)loop, args);
    cond(body[0], &k, hi, cudaGraphCondTypeIf, 1, inner, &err);
    say("inner if", err);
    kernel(inner[0], NULL, (void *)add, addHundred);
    say("instantiate", cudaGraphInstantiate(&ge, g, 0));
    put(x, 0);
    put(v, 0);
    run(ge, "nested");
    printf("nested counter %d\n", get(v));
    cudaGraphExecDestroy(ge);
    cudaGraphDestroy(g);
  }

  // The default of a handle made on a WHILE's body graph: is it applied at
  // every run of the body, or once per launch? The IF's body clears it.
  {
    cudaGraph_t g, inner[1];
    cudaGraphCreate(&g, 0);
    cudaGraphConditionalHandle hw, hi;
    say("handle", cudaGraphConditionalHandleCreate(&hw, g, 1, cudaGraphCondAssignDefault));
    cond(g, NULL, hw, cudaGraphCondTypeWhile, 1, body, &err);
    say("inner handle", cudaGraphConditionalHandleCreate(&hi, body[0], 1, cudaGraphCondAssignDefault));
    int limit = 3;
    void *args[] = {&v, &hw, &limit};
    cudaGraphNode_t k = kernel(body[0], NULL, (void *)loop, args);
    cond(body[0], &k, hi, cudaGraphCondTypeIf, 1, inner, &err);
    int *zero;
    cudaMalloc(&zero, 4);
    cudaMemset(zero, 0, 4);
    void *clear[] = {&hi, &zero};
    cudaGraphNode_t a = kernel(inner[0], NULL, (void *)add, addHundred);
    kernel(inner[0], &a, (void *)setc, clear);
    say("instantiate", cudaGraphInstantiate(&ge, g, 0));
    put(x, 0);
    put(v, 0);
    run(ge, "inner default");
    cudaGraphExecDestroy(ge);
    cudaGraphDestroy(g);
  }

  // What is refused.
  {
    cudaGraph_t g, g2;
    cudaGraphCreate(&g, 0);
    cudaGraphCreate(&g2, 0);
    cudaGraphConditionalHandle h, h2;
    cudaGraphConditionalHandleCreate(&h, g, 0, 0);
    cudaGraphConditionalHandleCreate(&h2, g2, 0, 0);
    cond(g, NULL, h, cudaGraphCondTypeIf, 3, body, &err);
    printf("if size 3: %s\n", cudaGetErrorName(err));
    cudaGetLastError();
    cond(g, NULL, h, cudaGraphCondTypeWhile, 2, body, &err);
    printf("while size 2: %s\n", cudaGetErrorName(err));
    cudaGetLastError();
    cond(g, NULL, h, cudaGraphCondTypeSwitch, 0, body, &err);
    printf("switch size 0: %s\n", cudaGetErrorName(err));
    cudaGetLastError();
    cond(g, NULL, h2, cudaGraphCondTypeIf, 1, body, &err);
    printf("handle of another graph: %s\n", cudaGetErrorName(err));
    if (err == cudaSuccess) {
      cudaError_t e = cudaGraphInstantiate(&ge, g, 0);
      printf("  instantiate: %s\n", cudaGetErrorName(e));
      if (e == cudaSuccess) cudaGraphExecDestroy(ge);
    }
    cudaGetLastError();
    cudaGraphDestroy(g);
    cudaGraphCreate(&g, 0);
    cudaGraphConditionalHandleCreate(&h, g, 0, 0);
    cond(g, NULL, h, cudaGraphCondTypeIf, 1, body, &err);
    cudaHostNodeParams hp = {};
    hp.fn = [](void *) {};
    cudaGraphNode_t hn;
    printf("host node in a body: %s\n", cudaGetErrorName(cudaGraphAddHostNode(&hn, body[0], NULL, 0, &hp)));
    cudaError_t e = cudaGraphInstantiate(&ge, g, 0);
    printf("  instantiate: %s\n", cudaGetErrorName(e));
    if (e == cudaSuccess) cudaGraphExecDestroy(ge);
    cudaGetLastError();
    cudaGraphDestroy(g);
    cudaGraphDestroy(g2);
  }
  printf("last: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
