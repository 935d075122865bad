// Rodinia-style breadth-first search over a CSR graph: a node array of
// (first edge, degree), frontier / updating / visited masks as chars, one
// thread per node, two kernels per level and a host loop that stops when
// no node was updated.
#include <cstdio>
#include <cstdint>
#include <cstdlib>

static uint32_t seed = 20261128u;
static uint32_t lcg() { seed = seed * 1664525u + 1013904223u; return seed >> 8; }
static uint64_t fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
  return h;
}
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s at line %d\n", cudaGetErrorName(e_), __LINE__); return 1; } } while (0)

struct Node { int start; int degree; };

__global__ void expand(const Node *nodes, const int *edges, char *frontier, char *updating, const char *visited, int *cost, int n) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id < n && frontier[id]) {
    frontier[id] = 0;
    int c = cost[id] + 1;
    for (int e = nodes[id].start; e < nodes[id].start + nodes[id].degree; e++) {
      int v = edges[e];
      if (!visited[v]) { cost[v] = c; updating[v] = 1; }
    }
  }
}

__global__ void settle(char *frontier, char *updating, char *visited, int *changed, int n) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id < n && updating[id]) {
    frontier[id] = 1;
    visited[id] = 1;
    *changed = 1;
    updating[id] = 0;
  }
}

int main() {
  const int n = 12000, threads = 256;
  Node *nodes = (Node *)malloc(n * sizeof(Node));
  int total = 0;
  for (int i = 0; i < n; i++) { nodes[i].start = total; nodes[i].degree = 1 + lcg() % 5; total += nodes[i].degree; }
  int *edges = (int *)malloc(total * sizeof(int));
  for (int i = 0; i < n; i++)
    for (int k = 0; k < nodes[i].degree; k++) {
      // mostly local edges, a few long ones: a graph with a long diameter
      int v = (lcg() % 8 == 0) ? (int)(lcg() % n) : (i + 1 + (int)(lcg() % 24)) % n;
      edges[nodes[i].start + k] = v;
    }
  char *mask = (char *)calloc(n, 1), *visited = (char *)calloc(n, 1);
  int *cost = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) cost[i] = -1;
  int source = 17;
  mask[source] = 1; visited[source] = 1; cost[source] = 0;

  Node *d_nodes; int *d_edges, *d_cost, *d_changed; char *d_mask, *d_upd, *d_vis;
  CHECK(cudaMalloc(&d_nodes, n * sizeof(Node)));
  CHECK(cudaMalloc(&d_edges, total * sizeof(int)));
  CHECK(cudaMalloc(&d_cost, n * sizeof(int)));
  CHECK(cudaMalloc(&d_changed, sizeof(int)));
  CHECK(cudaMalloc(&d_mask, n)); CHECK(cudaMalloc(&d_upd, n)); CHECK(cudaMalloc(&d_vis, n));
  CHECK(cudaMemcpy(d_nodes, nodes, n * sizeof(Node), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_edges, edges, total * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_cost, cost, n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_mask, mask, n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_vis, visited, n, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_upd, 0, n));

  int blocks = (n + threads - 1) / threads, levels = 0, changed;
  do {
    changed = 0;
    CHECK(cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice));
    expand<<<blocks, threads>>>(d_nodes, d_edges, d_mask, d_upd, d_vis, d_cost, n);
    settle<<<blocks, threads>>>(d_mask, d_upd, d_vis, d_changed, n);
    CHECK(cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost));
    levels++;
  } while (changed);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(cost, d_cost, n * sizeof(int), cudaMemcpyDeviceToHost));
  int reached = 0, deepest = 0;
  long long sum = 0;
  for (int i = 0; i < n; i++)
    if (cost[i] >= 0) { reached++; sum += cost[i]; if (cost[i] > deepest) deepest = cost[i]; }
  printf("nodes %d edges %d levels %d reached %d deepest %d cost sum %lld\n", n, total, levels, reached, deepest, sum);
  printf("cost fnv %016llx\n", (unsigned long long)fnv(cost, n * sizeof(int)));
  for (int i = 0; i < 8; i++) printf("cost[%d] = %d\n", i * 1499, cost[i * 1499]);
  return 0;
}
