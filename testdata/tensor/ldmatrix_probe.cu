// ldmatrix / stmatrix / movmatrix probe. Shared memory holds u16 value = its
// element index; lane l's row address is row perm(l) = (l*7)%32 of a 40-element
// (80-byte) pitch, column 8. Each variant writes the 32 lanes' 4 result
// registers (u32) to out/ldmatrix.bin in the order listed in main; stmatrix
// variants write the whole 32x40 u16 shared tile after the store.
#include <cstdio>
#include <cstdint>
#define PITCH 40
#define ROWS 32

__device__ __forceinline__ unsigned rowaddr(uint16_t* sm, int lane) {
  return (unsigned)__cvta_generic_to_shared(sm + ((lane * 7) % 32) * PITCH + 8);
}

__global__ void ldm(unsigned* out) {
  __shared__ __align__(16) uint16_t sm[ROWS * PITCH];
  int l = threadIdx.x;
  for (int i = l; i < ROWS * PITCH; i += 32) sm[i] = (uint16_t)i;
  __syncwarp();
  unsigned a = rowaddr(sm, l), r0 = 0, r1 = 0, r2 = 0, r3 = 0;
  unsigned* o = out + l * 4;
#define REC() do { o[0] = r0; o[1] = r1; o[2] = r2; o[3] = r3; o += 128; r0 = r1 = r2 = r3 = 0; } while (0)
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a)); REC();
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a)); REC();
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a)); REC();
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a)); REC();
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a)); REC();
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a)); REC();
  // movmatrix: source = lane-unique values
  unsigned src = (unsigned)(l * 2) | ((unsigned)(l * 2 + 1) << 16);
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(r0) : "r"(src)); REC();
  // stmatrix variants: regs r_i = lane-unique pairs, then dump the tile
  unsigned s[4];
  for (int i = 0; i < 4; i++) s[i] = (unsigned)((l * 4 + i) * 2) | ((unsigned)((l * 4 + i) * 2 + 1) << 16);
  unsigned* t = out + 7 * 128;
#define CLR() do { for (int i = l; i < ROWS * PITCH; i += 32) sm[i] = 0xFFFF; __syncwarp(); } while (0)
#define DUMP() do { __syncwarp(); for (int i = l; i < ROWS * PITCH / 2; i += 32) t[i] = ((unsigned*)sm)[i]; t += ROWS * PITCH / 2; __syncwarp(); } while (0)
  CLR(); asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(a), "r"(s[0])); DUMP();
  CLR(); asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" :: "r"(a), "r"(s[0]), "r"(s[1])); DUMP();
  CLR(); asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(a), "r"(s[0]), "r"(s[1]), "r"(s[2]), "r"(s[3])); DUMP();
  CLR(); asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(a), "r"(s[0]), "r"(s[1]), "r"(s[2]), "r"(s[3])); DUMP();
}

int main() {
  const int n = 7 * 128 + 4 * ROWS * PITCH / 2;
  unsigned* d;
  cudaMalloc(&d, n * 4);
  cudaMemset(d, 0xEE, n * 4);
  ldm<<<1, 32>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("ldmatrix: %s\n", cudaGetErrorString(e)); return 1; }
  static unsigned h[7 * 128 + 4 * ROWS * PITCH / 2];
  cudaMemcpy(h, d, n * 4, cudaMemcpyDeviceToHost);
  FILE* f = fopen("out/ldmatrix.bin", "wb");
  fwrite(h, 4, n, f);
  fclose(f);
  printf("ldmatrix ok: x4 lane0 %08x %08x %08x %08x\n", h[256], h[257], h[258], h[259]);
  return 0;
}
