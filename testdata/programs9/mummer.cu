// ISPASS-style MUMmer string matching: a 256 Ki-base reference over ACGT,
// an 8-mer index (CSR: per 8-mer code the sorted reference positions, built
// on the host), and 4096 queries of 64 bases (most cut from the reference
// with a few substitutions, some random). One thread per query seeds at
// every 8th query offset, looks the seed up in the index and extends each
// candidate forward byte by byte; it keeps the longest match (the first
// found on ties) and counts the matches of at least 24 bases.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>

static uint32_t seed = 28u;
static uint32_t lcg() { seed = seed * 1664525u + 1013904223u; return seed >> 8; }
static float frand() { return (lcg() & 0xffffff) / 16777216.0f; }
static uint64_t fnv(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
  return h;
}
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s at line %d\n", cudaGetErrorName(e_), __LINE__); return 1; } } while (0)
static void showf(const char *name, const float *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  printf("%s fnv %016llx sum %a\n", name, (unsigned long long)fnv(v, n * sizeof(float)), s);
  for (int i = 0; i < 4; i++) printf("  %s[%d] = %a\n", name, (int)((long long)i * 7919 % n), v[(long long)i * 7919 % n]);
}
static void showd(const char *name, const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  printf("%s fnv %016llx sum %a\n", name, (unsigned long long)fnv(v, n * sizeof(double)), s);
  for (int i = 0; i < 4; i++) printf("  %s[%d] = %a\n", name, (int)((long long)i * 7919 % n), v[(long long)i * 7919 % n]);
}
#define REFLEN (1 << 18)
#define NQ 4096
#define QLEN 64
#define K 8

__device__ inline int code(char c) { return c == 'A' ? 0 : c == 'C' ? 1 : c == 'G' ? 2 : 3; }

__global__ void mummer_match(const char *ref, const int *start, const int *pos, const char *qs, int4 *res) {
  int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= NQ) return;
  const char *qq = qs + q * QLEN;
  int best = 0, bq = -1, br = -1, hits = 0;
  for (int o = 0; o + K <= QLEN; o += K) {
    int c = 0;
    for (int k = 0; k < K; k++) c = c * 4 + code(qq[o + k]);
    for (int e = start[c]; e < start[c + 1]; e++) {
      int p = pos[e], len = K;
      while (o + len < QLEN && p + len < REFLEN && qq[o + len] == ref[p + len]) len++;
      if (len >= 24) hits++;
      if (len > best) { best = len; bq = o; br = p; }
    }
  }
  res[q] = make_int4(best, bq, br, hits);
}

int main() {
  const char *acgt = "ACGT";
  char *ref = (char *)malloc(REFLEN), *qs = (char *)malloc(NQ * QLEN);
  for (int i = 0; i < REFLEN; i++) ref[i] = acgt[(lcg() >> 3) & 3];
  int ncode = 1 << (2 * K);
  int *start = (int *)calloc(ncode + 1, 4), *pos = (int *)malloc(REFLEN * 4), *fill = (int *)calloc(ncode, 4);
  int codeOf[256];
  codeOf['A'] = 0; codeOf['C'] = 1; codeOf['G'] = 2; codeOf['T'] = 3;
  for (int p = 0; p + K <= REFLEN; p++) {
    int c = 0;
    for (int k = 0; k < K; k++) c = c * 4 + codeOf[(unsigned char)ref[p + k]];
    start[c + 1]++;
  }
  for (int c = 0; c < ncode; c++) start[c + 1] += start[c];
  for (int p = 0; p + K <= REFLEN; p++) {
    int c = 0;
    for (int k = 0; k < K; k++) c = c * 4 + codeOf[(unsigned char)ref[p + k]];
    pos[start[c] + fill[c]++] = p;
  }
  for (int q = 0; q < NQ; q++) {
    char *qq = qs + q * QLEN;
    if (q % 8 == 7) { for (int k = 0; k < QLEN; k++) qq[k] = acgt[lcg() & 3]; continue; }
    int p = lcg() % (REFLEN - QLEN);
    memcpy(qq, ref + p, QLEN);
    int subs = q % 4;
    for (int s = 0; s < subs; s++) qq[lcg() % QLEN] = acgt[lcg() & 3];
  }
  char *dref, *dqs;
  int *dstart, *dpos;
  int4 *dres;
  CHECK(cudaMalloc(&dref, REFLEN)); CHECK(cudaMalloc(&dqs, NQ * QLEN)); CHECK(cudaMalloc(&dstart, (ncode + 1) * 4));
  CHECK(cudaMalloc(&dpos, REFLEN * 4)); CHECK(cudaMalloc(&dres, NQ * 16));
  CHECK(cudaMemcpy(dref, ref, REFLEN, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dqs, qs, NQ * QLEN, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dstart, start, (ncode + 1) * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dpos, pos, REFLEN * 4, cudaMemcpyHostToDevice));
  mummer_match<<<NQ / 128, 128>>>(dref, dstart, dpos, dqs, dres);
  CHECK(cudaGetLastError());
  int4 *res = (int4 *)malloc(NQ * 16);
  CHECK(cudaMemcpy(res, dres, NQ * 16, cudaMemcpyDeviceToHost));
  long full = 0, hits = 0, lens = 0;
  for (int q = 0; q < NQ; q++) { full += res[q].x == QLEN; hits += res[q].w; lens += res[q].x; }
  printf("mummer ref %d queries %d of %d, %d-mer index\n", REFLEN, NQ, QLEN, K);
  printf("results fnv %016llx\n", (unsigned long long)fnv(res, NQ * 16));
  printf("full-length matches %ld, matches >= 24: %ld, total best length %ld\n", full, hits, lens);
  for (int q = 0; q < 4; q++) printf("  q%d: best %d at query %d ref %d, %d long hits\n", q * 1001, res[q * 1001].x, res[q * 1001].y, res[q * 1001].z, res[q * 1001].w);
  return 0;
}
