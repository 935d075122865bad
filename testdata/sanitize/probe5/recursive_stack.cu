// memcheck: a recursive device function records the path from the root in
// the kernel's local array of 4 ints, indexed by the depth; the tree has 6
// levels, so the calls at depths 4 and 5 write past the array's end.
#include "common.h"

__device__ int walk(const int *tree, int node, int depth, int n, int *path) {
  path[depth] = node;  // bug: depth reaches 5
  int l = 2 * node + 1;
  if (l >= n) {
    int s = 0;
    for (int i = 0; i <= depth; i++)
      s += tree[path[i]];
    return s;
  }
  int a = walk(tree, l, depth + 1, n, path);
  int b = walk(tree, l + 1, depth + 1, n, path);
  return a > b ? a : b;
}

__global__ void maxPath(const int *tree, int *out, int n) {
  int path[4];
  out[0] = walk(tree, 0, 0, n, path);
}

int main() {
  const int n = 63;
  int h[n], *tree, *out, r = 0;
  for (int i = 0; i < n; i++)
    h[i] = (i * 37) % 19;
  cudaMalloc(&tree, sizeof h);
  cudaMalloc(&out, sizeof r);
  cudaMemcpy(tree, h, sizeof h, cudaMemcpyHostToDevice);
  maxPath<<<1, 1>>>(tree, out, n);
  REPORT(cudaDeviceSynchronize());
  REPORT(cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost));
  printf("max path sum=%d\n", r);
  return 0;
}
