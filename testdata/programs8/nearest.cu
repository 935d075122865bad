// Rodinia-style nearest neighbour: hurricane records (latitude, longitude)
// and one query point; a kernel on a 2D grid of 1D blocks computes every
// record's Euclidean distance with sqrtf, and the host picks the k nearest.
#include <cstdio>
#include <cstdint>
#include <cstdlib>

static uint32_t seed = 271828u;
static uint32_t lcg() { seed = seed * 1664525u + 1013904223u; return seed >> 8; }
static float frand() { return (lcg() & 0xffffff) / 16777216.0f; }
static uint64_t fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
  return h;
}
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s at line %d\n", cudaGetErrorName(e_), __LINE__); return 1; } } while (0)

struct LatLong { float lat, lng; };

__global__ void euclid(const LatLong *d_locations, float *d_distances, int numRecords, float lat, float lng) {
  int globalId = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x;
  if (globalId < numRecords) {
    const LatLong *p = d_locations + globalId;
    d_distances[globalId] = sqrtf((lat - p->lat) * (lat - p->lat) + (lng - p->lng) * (lng - p->lng));
  }
}

int main() {
  const int records = 200000, k = 8, threads = 256;
  const int maxGridX = 256; // a small x limit, so the grid goes 2D as the benchmark's does for big inputs
  LatLong *loc = (LatLong *)malloc(records * sizeof(LatLong));
  for (int i = 0; i < records; i++) { loc[i].lat = 7.0f + frand() * 60.0f; loc[i].lng = 10.0f + frand() * 170.0f; }
  float *dist = (float *)malloc(records * sizeof(float));
  LatLong *d_loc; float *d_dist;
  CHECK(cudaMalloc(&d_loc, records * sizeof(LatLong)));
  CHECK(cudaMalloc(&d_dist, records * sizeof(float)));
  CHECK(cudaMemcpy(d_loc, loc, records * sizeof(LatLong), cudaMemcpyHostToDevice));
  int blocks = (records + threads - 1) / threads;
  dim3 grid(blocks > maxGridX ? maxGridX : blocks, (blocks + maxGridX - 1) / maxGridX);
  const float queries[3][2] = {{30.0f, 90.0f}, {45.5f, 130.25f}, {12.0f, 20.0f}};
  for (int q = 0; q < 3; q++) {
    euclid<<<grid, threads>>>(d_loc, d_dist, records, queries[q][0], queries[q][1]);
    CHECK(cudaMemcpy(dist, d_dist, records * sizeof(float), cudaMemcpyDeviceToHost));
    int best[k];
    for (int j = 0; j < k; j++) best[j] = -1;
    for (int i = 0; i < records; i++) {
      int pos = k;
      while (pos > 0 && (best[pos - 1] < 0 || dist[i] < dist[best[pos - 1]])) pos--;
      if (pos < k) {
        for (int j = k - 1; j > pos; j--) best[j] = best[j - 1];
        best[pos] = i;
      }
    }
    printf("query (%g, %g): grid (%d,%d) distances fnv %016llx\n", queries[q][0], queries[q][1], grid.x, grid.y,
           (unsigned long long)fnv(dist, records * sizeof(float)));
    for (int j = 0; j < k; j++) printf("  %d: record %d (%a, %a) distance %a\n", j, best[j], loc[best[j]].lat, loc[best[j]].lng, dist[best[j]]);
  }
  CHECK(cudaGetLastError());
  return 0;
}
