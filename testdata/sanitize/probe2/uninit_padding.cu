// initcheck: a kernel sets a struct's fields (not its padding); a second
// kernel copies the structs whole.
#include "common.h"

struct Item {
  char tag;
  int value;
  short small;
};

__global__ void make(Item *a) {
  int t = threadIdx.x;
  a[t].tag = 'a';
  a[t].value = t;
  a[t].small = 3;
}

__global__ void copyAll(const Item *a, Item *b) {
  int t = threadIdx.x;
  b[t] = a[t];
}

int main() {
  Item *a, *b;
  cudaMalloc(&a, 4 * sizeof(Item));
  cudaMalloc(&b, 4 * sizeof(Item));
  make<<<1, 4>>>(a);
  copyAll<<<1, 4>>>(a, b);
  REPORT(cudaDeviceSynchronize());
  return 0;
}
