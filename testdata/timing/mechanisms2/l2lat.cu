// l2lat.cu (issue 19): the latency of each line of a footprint, one dependent load at a time from one
// thread, measured from two SMs at once (blocks 0 and 66 of a grid of 132; the others exit), to see
// the H100's L2 near and far partitions (and DRAM's spread with a cold L2). a[line*32] holds the next
// line of a random cycle; each step: t0 = clock64, j = ld.global.cg a[j*32], store j to shared (waits
// for the load), t1 = clock64. Usage: l2lat. Writes $OUT/l2lat_<name>.csv (line, SM A cycles, SM B
// cycles) and prints percentiles.
#include <string>
#include "../bench/bench.h"

__global__ void init_cycle(unsigned *a, const unsigned *perm, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[(size_t)perm[i] * 32] = perm[(i + 1) % n];
}
__global__ void touch(const unsigned *a, unsigned n, unsigned *sink) {
  unsigned s = 0;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += a[(size_t)i * 32];
  if (s == 12345) sink[0] = s;
}
__global__ void l2lat(const unsigned *a, unsigned first, unsigned steps, unsigned *line, unsigned *lat, unsigned *smid) {
  __shared__ unsigned sj[1];
  if (threadIdx.x != 0 || (blockIdx.x != 0 && blockIdx.x != 66)) return;
  unsigned w = blockIdx.x == 0 ? 0 : 1, id;
  asm("mov.u32 %0, %%smid;" : "=r"(id));
  smid[w] = id;
  unsigned j = first;
  for (unsigned k = 0; k < steps; k++) {
    long long t0 = clock64();
    unsigned nj;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(nj) : "l"(a + (size_t)j * 32) : "memory");
    sj[0] = nj;
    long long t1 = clock64();
    line[w * steps + k] = j;
    lat[w * steps + k] = (unsigned)(t1 - t0);
    j = sj[0];
  }
}

static void run(const char *name, unsigned nlines, unsigned steps, bool cold, unsigned *flush, size_t flushWords) {
  unsigned *a, *perm, *line, *lat, *smid, *sink;
  CK(cudaMalloc(&a, (size_t)nlines * 128)); CK(cudaMalloc(&perm, nlines * 4));
  CK(cudaMalloc(&line, 2 * steps * 4)); CK(cudaMalloc(&lat, 2 * steps * 4)); CK(cudaMalloc(&smid, 8)); CK(cudaMalloc(&sink, 4));
  std::vector<unsigned> p(nlines);
  for (unsigned i = 0; i < nlines; i++) p[i] = i;
  srand(1234);
  for (unsigned i = nlines - 1; i > 0; i--) { unsigned k = ((unsigned)rand() * 2654435761u + (unsigned)rand()) % (i + 1); std::swap(p[i], p[k]); }
  CK(cudaMemcpy(perm, p.data(), nlines * 4, cudaMemcpyHostToDevice));
  init_cycle<<<(nlines + 255) / 256, 256>>>(a, perm, nlines);
  CK(cudaDeviceSynchronize());
  if (cold) touch<<<264, 512>>>(flush, (unsigned)(flushWords / 32), sink);  // evict a's lines from L2
  else touch<<<264, 512>>>(a, nlines, sink);                                // a's lines into L2
  CK(cudaDeviceSynchronize());
  l2lat<<<132, 32>>>(a, p[0], steps, line, lat, smid);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  std::vector<unsigned> L(2 * steps), T(2 * steps), S(2);
  CK(cudaMemcpy(L.data(), line, 2 * steps * 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(T.data(), lat, 2 * steps * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(S.data(), smid, 8, cudaMemcpyDeviceToHost));
  const char *out = getenv("OUT"); std::string path = std::string(out ? out : ".") + "/l2lat_" + name + ".csv";
  FILE *f = fopen(path.c_str(), "w");
  if (f) { fprintf(f, "step,line_a,cycles_a,line_b,cycles_b\n");
    for (unsigned k = 0; k < steps; k++) fprintf(f, "%u,%u,%u,%u,%u\n", k, L[k], T[k], L[steps + k], T[steps + k]); fclose(f); }
  for (int w = 0; w < 2; w++) {
    std::vector<unsigned> v(T.begin() + w * steps + 16, T.begin() + (w + 1) * steps);  // the first 16: warm-up
    std::sort(v.begin(), v.end());
    auto q = [&](double x) { return v[(size_t)(x * (v.size() - 1))]; };
    double mean = 0; for (unsigned x : v) mean += x; mean /= v.size();
    printf("l2lat name=%s lines=%u steps=%u cold=%d sm=%u mean=%.1f p05=%u p25=%u p50=%u p75=%u p95=%u p99=%u max=%u\n",
           name, nlines, steps, cold, S[w], mean, q(0.05), q(0.25), q(0.5), q(0.75), q(0.95), q(0.99), v.back());
  }
  CK(cudaFree(a)); CK(cudaFree(perm)); CK(cudaFree(line)); CK(cudaFree(lat)); CK(cudaFree(smid)); CK(cudaFree(sink));
}

int main() {
  size_t flushWords = (size_t)256 << 20 >> 2;  // 256 MiB
  unsigned *flush; CK(cudaMalloc(&flush, flushWords * 4)); CK(cudaMemset(flush, 0, flushWords * 4));
  run("l2_4m", 1u << 15, 4096, false, flush, flushWords);    // 4 MiB of lines (L2 hits)
  run("dram_64m", 1u << 19, 4096, true, flush, flushWords);  // 64 MiB, cold L2 (DRAM)
  return 0;
}
