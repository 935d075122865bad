// tma_cccl.cu: a 2D tile round trip through libcu++'s TMA wrappers
// (cuda::device::experimental in <cuda/barrier>), the pattern of the CUDA C++
// programming guide's TMA section: one thread loads a tile into shared memory
// with cp_async_bulk_tensor_2d_global_to_shared, the block waits on a
// cuda::barrier counting the bytes, every thread updates its column, and the
// tile goes back with cp_async_bulk_tensor_2d_shared_to_global. The host
// checks every element of the matrix (tiles touched and untouched) and prints
// one line per check. warpsim's TMA itself is checked bit for bit against the
// H100 by tma_probe.cu; this program checks the C++ wrappers around it.
#include <cuda.h>
#include <cuda/barrier>
#include <cstdio>
#include <cstdlib>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

constexpr int W = 256, H = 64;       // the matrix, row-major ints
constexpr int TW = 32, TH = 8;       // the tile (box)

__global__ void bump_tile(const __grid_constant__ CUtensorMap map, int x, int y) {
  __shared__ alignas(128) int tile[TH][TW];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x);
    cde::fence_proxy_async_shared_cta();
  }
  __syncthreads();
  block_barrier::arrival_token token;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(&tile, &map, x, y, bar);
    token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(tile));
  } else {
    token = bar.arrive();
  }
  bar.wait(std::move(token));
  for (int r = 0; r < TH; r++) tile[r][threadIdx.x] += 1000 * r + threadIdx.x;
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, x, y, &tile);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

int main() {
  int *h = (int *)malloc(W * H * sizeof(int)), *d;
  for (int i = 0; i < W * H; i++) h[i] = i;
  cudaMalloc(&d, W * H * sizeof(int));
  cudaMemcpy(d, h, W * H * sizeof(int), cudaMemcpyHostToDevice);

  CUtensorMap map;
  cuuint64_t dims[2] = {W, H};
  cuuint64_t strides[1] = {W * sizeof(int)};
  cuuint32_t box[2] = {TW, TH};
  cuuint32_t estr[2] = {1, 1};
  // The guide reaches the driver's encoder through the runtime's entry
  // point, without linking libcuda.
  typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                                CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
  void *fn = nullptr, *none = &fn;
  cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound, qnone = cudaDriverEntryPointSuccess;
  cudaError_t ge = cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &fn, cudaEnableDefault, &q);
  cudaError_t gn = cudaGetDriverEntryPoint("cuNoSuchFunction", &none, cudaEnableDefault, &qnone);
  printf("entry point: %s %d %s; unknown: %s %d %s\n", cudaGetErrorName(ge), (int)q, fn ? "set" : "null",
         cudaGetErrorName(gn), (int)qnone, none ? "set" : "null");
  CUresult r = ((encode_fn)fn)(&map, CU_TENSOR_MAP_DATA_TYPE_INT32, 2, d, dims, strides, box, estr,
                                      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  printf("encode: %d\n", (int)r);
  const int tx = 64, ty = 16;  // the tile's corner
  bump_tile<<<1, TW>>>(map, tx, ty);
  cudaError_t e = cudaDeviceSynchronize();
  printf("sync: %s\n", cudaGetErrorName(e));
  cudaMemcpy(h, d, W * H * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      int want = y * W + x;
      if (x >= tx && x < tx + TW && y >= ty && y < ty + TH) want += 1000 * (y - ty) + (x - tx);
      if (h[y * W + x] != want && bad++ < 5) printf("(%d,%d) = %d, want %d\n", x, y, h[y * W + x], want);
    }
  printf("mismatches: %d\n", bad);
  printf("h[%d] = %d\n", ty * W + tx + 1, h[ty * W + tx + 1]);
  return bad != 0;
}
