// SHOC-style molecular dynamics: Lennard-Jones forces from neighbour
// lists. Atoms are float4 positions on a jittered lattice; the host builds
// each atom's list of its maxNeighbors nearest atoms (column-major, as the
// benchmark stores it: neighList[j * nAtom + i]); one thread per atom sums
// the forces of the neighbours within the cutoff, reading positions
// through __ldg.
#include <cstdio>
#include <cstdint>
#include <cstdlib>

static uint32_t seed = 1001u;
static uint32_t lcg() { seed = seed * 1664525u + 1013904223u; return seed >> 8; }
static float frand() { return (lcg() & 0xffffff) / 16777216.0f; }
static uint64_t fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
  return h;
}
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s at line %d\n", cudaGetErrorName(e_), __LINE__); return 1; } } while (0)

__global__ void compute_lj_force(float4 *force, const float4 *position, int neighCount, const int *neighList, float cutsq,
                                 float lj1, float lj2, int inum) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= inum) return;
  float4 ipos = __ldg(&position[idx]);
  float4 f = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  int j = 0;
  while (j < neighCount) {
    int jidx = neighList[j * inum + idx];
    float4 jpos = __ldg(&position[jidx]);
    float delx = ipos.x - jpos.x, dely = ipos.y - jpos.y, delz = ipos.z - jpos.z;
    float r2inv = delx * delx + dely * dely + delz * delz;
    if (r2inv < cutsq) {
      r2inv = 1.0f / r2inv;
      float r6inv = r2inv * r2inv * r2inv;
      float fm = r2inv * r6inv * (lj1 * r6inv - lj2);
      f.x += delx * fm;
      f.y += dely * fm;
      f.z += delz * fm;
    }
    j++;
  }
  force[idx] = f;
}

int main() {
  const int side = 16, nAtom = side * side * side, maxNeighbors = 32;
  const float cutoff = 1.6f, lj1 = 1.5f, lj2 = 2.0f;
  float4 *pos = (float4 *)malloc(nAtom * sizeof(float4)), *force = (float4 *)malloc(nAtom * sizeof(float4));
  for (int z = 0; z < side; z++)
    for (int y = 0; y < side; y++)
      for (int x = 0; x < side; x++) {
        float jx = (frand() - 0.5f) * 0.3f;
        float jy = (frand() - 0.5f) * 0.3f;
        float jz = (frand() - 0.5f) * 0.3f;
        pos[(z * side + y) * side + x] = make_float4(x + jx, y + jy, z + jz, 0.0f);
      }
  // neighbour lists: the maxNeighbors closest atoms within two lattice cells
  int *list = (int *)malloc((size_t)nAtom * maxNeighbors * sizeof(int));
  for (int i = 0; i < nAtom; i++) {
    int best[maxNeighbors];
    float bd[maxNeighbors];
    int have = 0;
    int ix = i % side, iy = i / side % side, iz = i / (side * side);
    for (int dz = -2; dz <= 2; dz++)
      for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++) {
          int x = ix + dx, y = iy + dy, z = iz + dz;
          if (x < 0 || y < 0 || z < 0 || x >= side || y >= side || z >= side || (dx == 0 && dy == 0 && dz == 0)) continue;
          int j = (z * side + y) * side + x;
          float ddx = pos[i].x - pos[j].x, ddy = pos[i].y - pos[j].y, ddz = pos[i].z - pos[j].z;
          float d2 = ddx * ddx + ddy * ddy + ddz * ddz;
          int p = have < maxNeighbors ? have++ : maxNeighbors;
          while (p > 0 && bd[p - 1] > d2) {
            if (p < maxNeighbors) { bd[p] = bd[p - 1]; best[p] = best[p - 1]; }
            p--;
          }
          if (p < maxNeighbors) { bd[p] = d2; best[p] = j; }
        }
    // a short list (a corner atom) is padded with the atom half the box
    // away, beyond the cutoff, as SHOC pads with far atoms
    for (int k = 0; k < maxNeighbors; k++) list[k * nAtom + i] = k < have ? best[k] : (i + nAtom / 2) % nAtom;
  }
  float4 *d_pos, *d_force; int *d_list;
  CHECK(cudaMalloc(&d_pos, nAtom * sizeof(float4)));
  CHECK(cudaMalloc(&d_force, nAtom * sizeof(float4)));
  CHECK(cudaMalloc(&d_list, (size_t)nAtom * maxNeighbors * sizeof(int)));
  CHECK(cudaMemcpy(d_pos, pos, nAtom * sizeof(float4), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_list, list, (size_t)nAtom * maxNeighbors * sizeof(int), cudaMemcpyHostToDevice));
  int shortLists = 0;
  for (int i = 0; i < nAtom; i++) if (list[(maxNeighbors - 1) * nAtom + i] == (i + nAtom / 2) % nAtom) shortLists++;
  compute_lj_force<<<(nAtom + 127) / 128, 128>>>(d_force, d_pos, maxNeighbors, d_list, cutoff * cutoff, lj1, lj2, nAtom);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(force, d_force, nAtom * sizeof(float4), cudaMemcpyDeviceToHost));
  printf("atoms %d neighbours %d short lists %d\n", nAtom, maxNeighbors, shortLists);
  printf("forces fnv %016llx neighbour lists fnv %016llx\n", (unsigned long long)fnv(force, nAtom * sizeof(float4)),
         (unsigned long long)fnv(list, (size_t)nAtom * maxNeighbors * sizeof(int)));
  for (int i = 0; i < nAtom; i += 683) printf("f[%d] = %a %a %a\n", i, force[i].x, force[i].y, force[i].z);
  return 0;
}
