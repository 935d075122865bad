// Global-memory pointer chase, one thread: a[i*32] (the first word of 128-byte line i) holds the
// word index of line (i + step) mod nlines, so the footprint is nlines*128 bytes and every load
// depends on the previous one. `warm` untimed steps first (to fill L1/L2), then `steps` timed
// with clock64(). step=1 walks lines in order (stride 128 B); a large odd step jumps around.
// Runs without warm-up (warm=0) and without l2_flushed find the lines that the previous launches of
// the same configuration left in L2 (time_median repeats the launch): they measure L2 hits.
// Usage: chase [full|sim]. Output: chase footprint_bytes=F step=S warm=W steps=N cycles=C cyc_per_load=X event_ms=T
#include "bench.h"

extern "C" __global__ void init_chase(unsigned *a, unsigned nlines, unsigned step) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < nlines; i += gridDim.x * blockDim.x)
    a[(size_t)i * 32] = (unsigned)(((unsigned long long)i + step) % nlines) * 32u;
}

extern "C" __global__ void chase(const unsigned *a, unsigned warm, unsigned steps, long long *cyc, unsigned *out) {
  unsigned j = 0;
  for (unsigned k = 0; k < warm; k++) j = a[j];
  long long t0 = clock64();
#pragma unroll 4
  for (unsigned k = 0; k < steps; k++) j = a[j];
  long long t1 = clock64();
  out[0] = j; cyc[0] = t1 - t0;
}

static char *g_scratch;  // 256 MiB written before each timed launch of a "cold" run: evicts L2
static void run(size_t footprint, unsigned step, unsigned warm, unsigned steps, bool cold = false) {
  unsigned nlines = (unsigned)(footprint / 128);
  unsigned *a, *out; long long *cyc;
  CK(cudaMalloc(&a, footprint)); CK(cudaMalloc(&out, 4)); CK(cudaMalloc(&cyc, 8));
  init_chase<<<num_sms() * 8, 256>>>(a, nlines, step % nlines); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  float ms = time_median([&] { if (cold) CK(cudaMemsetAsync(g_scratch, 1, 256u << 20)); },
                         [&] { chase<<<1, 1>>>(a, warm, steps, cyc, out); }, 5);
  long long c; CK(cudaMemcpy(&c, cyc, 8, cudaMemcpyDeviceToHost));
  printf("chase footprint_bytes=%zu step=%u warm=%u steps=%u l2_flushed=%d cycles=%lld cyc_per_load=%.2f event_ms=%.5f\n",
         footprint, step % nlines, warm, steps, cold ? 1 : 0, c, (double)c / steps, ms);
  CK(cudaFree(a)); CK(cudaFree(out)); CK(cudaFree(cyc));
}

int main(int argc, char **argv) {
  bench_mode(argc, argv);
  const unsigned JUMP = 2654435761u;  // odd: with nlines a power of two every line is visited
  if (!g_full) {
    // sim configurations (launch files chase_*.json): L1, L2, DRAM footprints
    run(16 << 10, 1, 128, 4096);
    run(16 << 10, JUMP, 128, 4096);
    run(1 << 20, JUMP, 8192, 4096);
    run(64 << 20, JUMP, 0, 4096);
    run(64 << 20, 1, 0, 4096);
    return 0;
  }
  CK(cudaMalloc(&g_scratch, 256u << 20));
  // cold: L2 flushed before every timed launch, no warm-up walk (DRAM latency, TLB cold or warm)
  for (size_t f : {(size_t)(8u << 20), (size_t)(64u << 20), (size_t)(512u << 20)}) {
    run(f, 1, 0, 4096, true);
    run(f, JUMP, 0, 4096, true);
  }
  if (g_full) { run(1 << 20, JUMP, 8192, 4096); run(8 << 20, JUMP, 65536, 4096); }
  size_t fps[] = {8 << 10, 16 << 10, 32 << 10, 64 << 10, 128 << 10, 192 << 10, 256 << 10, 512 << 10, 1 << 20, 2 << 20, 4 << 20,
                  8 << 20, 16 << 20, 24 << 20, 32 << 20, 48 << 20, 64 << 20, 128 << 20, 512 << 20};
  for (size_t f : fps) {
    unsigned nl = (unsigned)(f / 128), warm = f <= (64u << 20) ? nl : 0;
    run(f, 1, warm, 4096);
    run(f, JUMP, warm, 4096);
  }
  return 0;
}
