// Rodinia-style B+ tree search: a tree of fan-out 64 built on the host in
// one flat array of nodes (keys, children, key count, leaf flag); one block
// of 64 threads per query walks down a level at a time, the thread whose key
// interval holds the query picks the child, __syncthreads between levels.
// findK looks up single keys (misses included); findRange finds the leaf
// positions of both ends of a key range.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <climits>

static uint32_t seed = 65537u;
static uint32_t lcg() { seed = seed * 1664525u + 1013904223u; return seed >> 8; }
static uint64_t fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
  return h;
}
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s at line %d\n", cudaGetErrorName(e_), __LINE__); return 1; } } while (0)

#define ORDER 64
struct knode {
  int keys[ORDER + 1]; // keys[i]: smallest key under child i; INT_MAX past the last
  int child[ORDER + 1];
  int num_keys;
  int is_leaf;
};

__global__ void findK(int height, const knode *knodes, const int *records, const int *queries, int *found) {
  __shared__ int next;
  int tid = threadIdx.x, q = blockIdx.x;
  int key = queries[q];
  int cur = 0;
  for (int level = 0; level < height; level++) {
    if (tid == 0) next = -1;
    __syncthreads();
    const knode *n = &knodes[cur];
    if (n->keys[tid] <= key && n->keys[tid + 1] > key) next = n->child[tid];
    __syncthreads();
    cur = next;
    __syncthreads();
    if (cur < 0) break;
  }
  if (cur < 0) { if (tid == 0) found[q] = -1; return; }
  const knode *leaf = &knodes[cur];
  if (tid == 0) found[q] = -1;
  __syncthreads();
  if (tid < leaf->num_keys && leaf->keys[tid] == key) found[q] = records[leaf->child[tid]];
}

// Per query: the leaf and slot of the first key >= lo and of the first key > hi.
__global__ void findRange(int height, const knode *knodes, const int *lo, const int *hi, int *where) {
  __shared__ int nextA, nextB;
  int tid = threadIdx.x, q = blockIdx.x;
  int a = lo[q], b = hi[q] + 1;
  int ca = 0, cb = 0;
  for (int level = 0; level < height; level++) {
    const knode *na = &knodes[ca], *nb = &knodes[cb];
    if (tid == 0) { nextA = na->child[0]; nextB = nb->child[0]; }
    __syncthreads();
    if (tid > 0 && na->keys[tid] <= a && na->keys[tid + 1] > a) nextA = na->child[tid];
    if (tid > 0 && nb->keys[tid] <= b && nb->keys[tid + 1] > b) nextB = nb->child[tid];
    __syncthreads();
    ca = nextA; cb = nextB;
    __syncthreads();
  }
  const knode *la = &knodes[ca], *lb = &knodes[cb];
  // slots: how many keys of the leaf are below the bound
  int below_a = __syncthreads_count(tid < la->num_keys && la->keys[tid] < a);
  int below_b = __syncthreads_count(tid < lb->num_keys && lb->keys[tid] < b);
  if (tid == 0) { where[4 * q] = ca; where[4 * q + 1] = below_a; where[4 * q + 2] = cb; where[4 * q + 3] = below_b; }
}

int main() {
  const int nrec = 100000, nq = 2000;
  // sorted distinct keys: gaps of 1..7
  int *keys = (int *)malloc(nrec * sizeof(int)), *records = (int *)malloc(nrec * sizeof(int));
  int k = 0;
  for (int i = 0; i < nrec; i++) { k += 1 + lcg() % 7; keys[i] = k; records[i] = (int)(lcg() & 0xffffff); }
  // leaves of up to 48 keys (room to spare, as trees built by insertion have), then levels above
  const int per = 48;
  int nleaves = (nrec + per - 1) / per;
  int maxnodes = nleaves * 2 + 8;
  knode *nodes = (knode *)calloc(maxnodes, sizeof(knode));
  int *level_first = (int *)malloc(16 * sizeof(int)), *level_count = (int *)malloc(16 * sizeof(int));
  // build bottom-up into a scratch order, then renumber so the root is node 0
  knode *tmp = (knode *)calloc(maxnodes, sizeof(knode));
  int ntmp = 0, levels = 0;
  level_first[0] = 0;
  for (int l = 0; l < nleaves; l++) {
    knode *n = &tmp[ntmp++];
    n->is_leaf = 1;
    n->num_keys = 0;
    for (int j = 0; j <= ORDER; j++) { n->keys[j] = INT_MAX; n->child[j] = -1; }
    for (int j = 0; j < per && l * per + j < nrec; j++) { n->keys[j] = keys[l * per + j]; n->child[j] = l * per + j; n->num_keys++; }
  }
  level_count[0] = nleaves;
  levels = 1;
  while (level_count[levels - 1] > 1) {
    int first = level_first[levels - 1], count = level_count[levels - 1];
    level_first[levels] = ntmp;
    int made = 0;
    for (int c = 0; c < count; c += 40) {
      knode *n = &tmp[ntmp++];
      n->is_leaf = 0;
      for (int j = 0; j <= ORDER; j++) { n->keys[j] = INT_MAX; n->child[j] = -1; }
      n->num_keys = 0;
      for (int j = 0; j < 40 && c + j < count; j++) {
        n->keys[j] = tmp[first + c + j].keys[0];
        n->child[j] = first + c + j;
        n->num_keys++;
      }
      made++;
    }
    level_count[levels++] = made;
  }
  // renumber: node at scratch index s goes to ntmp-1-s (root first)
  for (int s = 0; s < ntmp; s++) {
    knode n = tmp[s];
    if (!n.is_leaf)
      for (int j = 0; j < n.num_keys; j++) n.child[j] = ntmp - 1 - n.child[j];
    nodes[ntmp - 1 - s] = n;
  }
  int height = levels - 1; // internal levels walked before reaching a leaf
  // the root's first key guards nothing below it: keys below the minimum still go left
  nodes[0].keys[0] = INT_MIN;
  int *queries = (int *)malloc(nq * sizeof(int)), *lo = (int *)malloc(nq * sizeof(int)), *hi = (int *)malloc(nq * sizeof(int));
  for (int q = 0; q < nq; q++) {
    queries[q] = q % 4 == 3 ? (int)(lcg() % (k + 10)) : keys[lcg() % nrec];
    int x = (int)(lcg() % k), w = (int)(lcg() % 3000);
    lo[q] = x; hi[q] = x + w;
  }
  knode *d_nodes; int *d_rec, *d_q, *d_found, *d_lo, *d_hi, *d_where;
  CHECK(cudaMalloc(&d_nodes, ntmp * sizeof(knode)));
  CHECK(cudaMalloc(&d_rec, nrec * sizeof(int)));
  CHECK(cudaMalloc(&d_q, nq * sizeof(int))); CHECK(cudaMalloc(&d_found, nq * sizeof(int)));
  CHECK(cudaMalloc(&d_lo, nq * sizeof(int))); CHECK(cudaMalloc(&d_hi, nq * sizeof(int)));
  CHECK(cudaMalloc(&d_where, 4 * nq * sizeof(int)));
  CHECK(cudaMemcpy(d_nodes, nodes, ntmp * sizeof(knode), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_rec, records, nrec * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_q, queries, nq * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_lo, lo, nq * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_hi, hi, nq * sizeof(int), cudaMemcpyHostToDevice));
  findK<<<nq, ORDER>>>(height, d_nodes, d_rec, d_q, d_found);
  findRange<<<nq, ORDER>>>(height, d_nodes, d_lo, d_hi, d_where);
  CHECK(cudaGetLastError());
  int *found = (int *)malloc(nq * sizeof(int)), *where = (int *)malloc(4 * nq * sizeof(int));
  CHECK(cudaMemcpy(found, d_found, nq * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(where, d_where, 4 * nq * sizeof(int), cudaMemcpyDeviceToHost));
  int hits = 0, wrong = 0;
  for (int q = 0; q < nq; q++) {
    // binary search on the host for the expected record
    int a = 0, b = nrec - 1, want = -1;
    while (a <= b) { int m = (a + b) / 2; if (keys[m] == queries[q]) { want = records[m]; break; } if (keys[m] < queries[q]) a = m + 1; else b = m - 1; }
    if (found[q] >= 0) hits++;
    if (found[q] != want) wrong++;
  }
  long long span = 0;
  for (int q = 0; q < nq; q++) {
    // leaves are numbered from the last, so a leaf's first record is (ntmp-1-leaf)*per
    int ia = (ntmp - 1 - where[4 * q]) * per + where[4 * q + 1], ib = (ntmp - 1 - where[4 * q + 2]) * per + where[4 * q + 3];
    span += ib - ia;
  }
  printf("records %d nodes %d height %d queries %d hits %d wrong %d\n", nrec, ntmp, height, nq, hits, wrong);
  printf("range records total %lld where fnv %016llx found fnv %016llx\n", span, (unsigned long long)fnv(where, 4 * nq * sizeof(int)),
         (unsigned long long)fnv(found, nq * sizeof(int)));
  for (int q = 0; q < 5; q++) printf("query %d: key %d found %d range [%d,%d] leaf %d slot %d .. leaf %d slot %d\n", q, queries[q], found[q], lo[q], hi[q],
                                     where[4 * q], where[4 * q + 1], where[4 * q + 2], where[4 * q + 3]);
  return 0;
}
