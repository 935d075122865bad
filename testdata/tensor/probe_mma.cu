// Raw mma.sync probe: one warp per test case runs one mma.sync instruction on
// register values read from in/NAME.bin (see gen.py for the file layout) and
// writes every lane's D registers to out/NAME.bin. Built once per variant:
//   nvcc -gencode=arch=compute_90a,code=sm_90a -DKIND=n -DNAME='"..."' -DINSTR='"mma.sync..."'
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

// KIND: register signature D, A, B, C (r = .b32, f = .f32, d = .f64)
//  1: f4 <- r4 r2 f4     2: r2 <- r4 r2 r2     3: f4 <- r4 r2 r2     4: r2 <- r4 r2 f4
//  5: f4 <- r2 r1 f4     6: d2 <- d1 d1 d2     7: r4 <- r4 r2 r4     8: r4 <- r2 r1 r4
//  9: r2 <- r1 r1 r2
#if KIND == 1
#define NA 4
#define NB 2
#define NC 4
#define ND 4
#elif KIND == 2
#define NA 4
#define NB 2
#define NC 2
#define ND 2
#elif KIND == 3
#define NA 4
#define NB 2
#define NC 2
#define ND 4
#elif KIND == 4
#define NA 4
#define NB 2
#define NC 4
#define ND 2
#elif KIND == 5
#define NA 2
#define NB 1
#define NC 4
#define ND 4
#elif KIND == 6
#define NA 2
#define NB 2
#define NC 4
#define ND 4
#elif KIND == 7
#define NA 4
#define NB 2
#define NC 4
#define ND 4
#elif KIND == 8
#define NA 2
#define NB 1
#define NC 4
#define ND 4
#elif KIND == 9
#define NA 1
#define NB 1
#define NC 2
#define ND 2
#else
#error "unknown KIND"
#endif
#define NIN (NA + NB + NC)

__global__ void probe(const unsigned* __restrict__ in, unsigned* __restrict__ out, int T) {
  int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (w >= T) return;
  const unsigned* p = in + ((size_t)w * 32 + lane) * NIN;
  unsigned a[NA], b[NB], c[NC], d[ND];
#pragma unroll
  for (int i = 0; i < NA; i++) a[i] = p[i];
#pragma unroll
  for (int i = 0; i < NB; i++) b[i] = p[NA + i];
#pragma unroll
  for (int i = 0; i < NC; i++) c[i] = p[NA + NB + i];
#if KIND == 1
  float d0, d1, d2, d3;
  asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
               : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                 "f"(__uint_as_float(c[0])), "f"(__uint_as_float(c[1])), "f"(__uint_as_float(c[2])), "f"(__uint_as_float(c[3])));
  d[0] = __float_as_uint(d0); d[1] = __float_as_uint(d1); d[2] = __float_as_uint(d2); d[3] = __float_as_uint(d3);
#elif KIND == 2
  asm volatile(INSTR " {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};\n"
               : "=r"(d[0]), "=r"(d[1])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
#elif KIND == 3
  float d0, d1, d2, d3;
  asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11};\n"
               : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
  d[0] = __float_as_uint(d0); d[1] = __float_as_uint(d1); d[2] = __float_as_uint(d2); d[3] = __float_as_uint(d3);
#elif KIND == 4
  asm volatile(INSTR " {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9,%10,%11};\n"
               : "=r"(d[0]), "=r"(d[1])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                 "f"(__uint_as_float(c[0])), "f"(__uint_as_float(c[1])), "f"(__uint_as_float(c[2])), "f"(__uint_as_float(c[3])));
#elif KIND == 5
  float d0, d1, d2, d3;
  asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};\n"
               : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
               : "r"(a[0]), "r"(a[1]), "r"(b[0]),
                 "f"(__uint_as_float(c[0])), "f"(__uint_as_float(c[1])), "f"(__uint_as_float(c[2])), "f"(__uint_as_float(c[3])));
  d[0] = __float_as_uint(d0); d[1] = __float_as_uint(d1); d[2] = __float_as_uint(d2); d[3] = __float_as_uint(d3);
#elif KIND == 6
  double A = __hiloint2double(a[1], a[0]), B = __hiloint2double(b[1], b[0]);
  double C0 = __hiloint2double(c[1], c[0]), C1 = __hiloint2double(c[3], c[2]), D0, D1;
  asm volatile(INSTR " {%0,%1}, {%2}, {%3}, {%4,%5};\n" : "=d"(D0), "=d"(D1) : "d"(A), "d"(B), "d"(C0), "d"(C1));
  d[0] = __double2loint(D0); d[1] = __double2hiint(D0); d[2] = __double2loint(D1); d[3] = __double2hiint(D1);
#elif KIND == 7
  asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
#elif KIND == 8
  asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};\n"
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
#elif KIND == 9
  asm volatile(INSTR " {%0,%1}, {%2}, {%3}, {%4,%5};\n"
               : "=r"(d[0]), "=r"(d[1])
               : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]));
#endif
  unsigned* q = out + ((size_t)w * 32 + lane) * ND;
#pragma unroll
  for (int i = 0; i < ND; i++) q[i] = d[i];
}

#define CK(x)                                                                                   \
  do {                                                                                          \
    cudaError_t e_ = (x);                                                                       \
    if (e_ != cudaSuccess) {                                                                    \
      fprintf(stderr, "%s: %s failed: %s\n", NAME, #x, cudaGetErrorString(e_));                 \
      return 1;                                                                                 \
    }                                                                                           \
  } while (0)

int main(int argc, char** argv) {
  const char* indir = argc > 1 ? argv[1] : "in";
  const char* outdir = argc > 2 ? argv[2] : "out";
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.bin", indir, NAME);
  FILE* f = fopen(path, "rb");
  if (!f) { fprintf(stderr, "%s: cannot open %s\n", NAME, path); return 1; }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  std::vector<unsigned> h(n / 4);
  if (fread(h.data(), 4, h.size(), f) != h.size()) { fprintf(stderr, "%s: short read\n", NAME); return 1; }
  fclose(f);
  int T = (int)(h.size() / (32 * NIN));
  std::vector<unsigned> o((size_t)T * 32 * ND, 0xDEADBEEFu);
  unsigned *din, *dout;
  CK(cudaMalloc(&din, h.size() * 4));
  CK(cudaMalloc(&dout, o.size() * 4));
  CK(cudaMemcpy(din, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dout, o.data(), o.size() * 4, cudaMemcpyHostToDevice));
  probe<<<(T + 3) / 4, 128>>>(din, dout, T);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(o.data(), dout, o.size() * 4, cudaMemcpyDeviceToHost));
  snprintf(path, sizeof path, "%s/%s.bin", outdir, NAME);
  f = fopen(path, "wb");
  if (!f) { fprintf(stderr, "%s: cannot write %s\n", NAME, path); return 1; }
  fwrite(o.data(), 4, o.size(), f);
  fclose(f);
  printf("%s: %d cases ok, d[0]=%08x\n", NAME, T, o[0]);
  return 0;
}
