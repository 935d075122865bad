// CUB's texture object iterator (cub::TexObjInputIterator, Debian's CUB
// 1.17) over doubles: it binds linear memory as a texture of int2 words and
// fetches with tex1Dfetch. The expected output is the input doubled
// (cub_tex_iterator.expected.txt).
#include <cstdio>
#include <cub/iterator/tex_obj_input_iterator.cuh>

__global__ void twice(cub::TexObjInputIterator<double> it, double *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = it[i] * 2;
}

int main() {
  const int n = 8;
  double h[n] = {1, 2.5, 3, 4, -5, 6, 7, 8.25}, *d, *o;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&o, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cub::TexObjInputIterator<double> it;
  if (it.BindTexture(d, sizeof h) != cudaSuccess) {
    printf("BindTexture failed\n");
    return 1;
  }
  twice<<<1, n>>>(it, o, n);
  cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) printf("%g%c", h[i], i == n - 1 ? '\n' : ' ');
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return it.UnbindTexture() == cudaSuccess ? 0 : 1;
}
