// Plain loads and stores at an allocation's end: one thread makes one
// 4-, 8- or 16-byte access (unsigned, uint2, uint4) at byte OFFSET of a
// SIZE-byte cudaMalloc allocation, either straddling its end (beginning
// inside, ending in the memory mapped after it) or wholly past it.
// Usage: straddle ld|st SIZE WIDTH OFFSET. A load prints the bytes it read;
// a store (of bytes a0 a1 …) prints the allocation's last 16 bytes, then
// reads its own bytes back with a load of the same width.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define REPORT(call) do { cudaError_t e_ = (call); \
  printf("%s -> %s\n", #call, cudaGetErrorName(e_)); } while (0)

template <typename T> __global__ void load(const T *p, T *out) { *out = *p; }
template <typename T> __global__ void store(T *p, T v) { *p = v; }

static void hex(const char *what, const unsigned char *b, int n) {
  printf("%s:", what);
  for (int i = 0; i < n; i++)
    printf(" %02x", b[i]);
  printf("\n");
}

template <typename T> static void run(bool st, size_t size, size_t off) {
  unsigned char *out, *buf;
  cudaMalloc(&out, 64);
  cudaMemset(out, 0xee, 64);
  cudaMalloc(&buf, size);
  unsigned char *h = (unsigned char *)malloc(size);
  for (size_t i = 0; i < size; i++)
    h[i] = (unsigned char)(i * 7 + 1);
  cudaMemcpy(buf, h, size, cudaMemcpyHostToDevice);
  T v;
  unsigned char b[sizeof(T)];
  if (st) {
    for (int i = 0; i < (int)sizeof(T); i++)
      b[i] = 0xa0 + i;
    memcpy(&v, b, sizeof v);
    store<T><<<1, 1>>>((T *)(buf + off), v);
    REPORT(cudaDeviceSynchronize());
    unsigned char tail[16];
    memset(tail, 0, sizeof tail);
    REPORT(cudaMemcpy(tail, buf + size - 16, 16, cudaMemcpyDeviceToHost));
    hex("last 16 bytes", tail, 16);
  }
  load<T><<<1, 1>>>((const T *)(buf + off), (T *)out);
  REPORT(cudaDeviceSynchronize());
  memset(b, 0, sizeof b);
  REPORT(cudaMemcpy(b, out, sizeof b, cudaMemcpyDeviceToHost));
  hex(st ? "read back" : "read", b, sizeof b);
  free(h);
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: straddle ld|st SIZE WIDTH OFFSET\n");
    return 2;
  }
  bool st = strcmp(argv[1], "st") == 0;
  size_t size = strtoull(argv[2], 0, 0), off = strtoull(argv[4], 0, 0);
  int width = atoi(argv[3]);
  printf("%s of %d bytes at offset %zu of a %zu-byte allocation\n", st ? "store" : "load", width, off, size);
  switch (width) {
  case 4: run<unsigned>(st, size, off); break;
  case 8: run<uint2>(st, size, off); break;
  case 16: run<uint4>(st, size, off); break;
  }
  return 0;
}
