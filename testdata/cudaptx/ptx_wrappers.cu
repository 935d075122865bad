// ptx_wrappers.cu: CUDA 13's cuda::ptx wrappers (<cuda/ptx>) as a program
// uses them. One block of 128 threads: an elected thread of warp 0 loads a
// 2D tile with cp_async_bulk_tensor and a flat array with cp_async_bulk,
// both completing on mbarriers whose expected bytes come from
// mbarrier_arrive_expect_tx / mbarrier_expect_tx; the other threads arrive
// (mbarrier_arrive, with and without a count and semantics) and wait with
// mbarrier_try_wait, mbarrier_try_wait_parity, mbarrier_test_wait and
// mbarrier_test_wait_parity (warp 0's copying thread is chosen with
// elect_sync). The results go back with cp_async_bulk (bulk group) and
// cp_async_bulk_tensor after fence_proxy_async, waited with
// cp_async_bulk_commit_group / cp_async_bulk_wait_group_read. get_sreg_*
// values are printed too. Built by nvcc 13 on the H100 (the real <cuda/ptx>;
// run.sh) and by warpsim cc (warpsim's own header), the outputs must be
// equal; TestCUDAPTXWrappers also derives every printed value from the
// program's definition.
#include <cuda.h>
#include <cuda/ptx>
#include <cstdio>
#include <cstdint>

namespace ptx = cuda::ptx;

constexpr int W = 64, H = 32;  // the matrix, row-major ints
constexpr int TW = 16, TH = 8; // the tile
constexpr int N = 256;         // the flat array

__global__ void wrappers(const __grid_constant__ CUtensorMap map, const int *flat, int *flatOut, int *info) {
  __shared__ alignas(128) int tile[TH][TW];
  __shared__ alignas(16) int buf[N];
  __shared__ uint64_t barTile, barFlat, barAll;
  int t = threadIdx.x;
  if (t == 0) {
    ptx::mbarrier_init(&barTile, 1);
    ptx::mbarrier_init(&barFlat, 1);
    ptx::mbarrier_init(&barAll, blockDim.x);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();
  if (t < 32) {
#ifdef __NVCC__
    // CUDA 13.0's <cuda/ptx> has no elect_sync (recorded/ptx_wrappers.nvcc.txt
    // of the first recording); warpsim's header has it, as later CCCLs do.
    unsigned e;
    asm volatile("{ .reg .pred p; elect.sync _|p, 0xffffffff; selp.u32 %0, 1, 0, p; }" : "=r"(e));
    bool elected = e != 0;
#else
    bool elected = ptx::elect_sync(0xffffffffu);
#endif
    unsigned who = __ballot_sync(0xffffffffu, elected);
    if (t == 0) info[0] = __popc(who);
    if (elected) {
      int32_t coords[2] = {16, 8};
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &barTile, sizeof(tile));
      ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &tile, &map, coords, &barTile);
      ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &barFlat, sizeof(buf));
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, flat, sizeof(buf), &barFlat);
      ptx::mbarrier_arrive(&barFlat);
    }
  }
  // Everyone arrives on barAll: warps 0-1 one by one, warp 2 through the
  // released form, warp 3's lane 0 for its whole warp with a count.
  uint64_t state = 0;
  if (t < 64) {
    state = ptx::mbarrier_arrive(&barAll);
  } else if (t < 96) {
    state = ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &barAll);
  } else if (t == 96) {
    state = ptx::mbarrier_arrive(&barAll, 32u);
  }
  if (t < 97) {
    while (!ptx::mbarrier_try_wait(&barAll, state)) {}
  } else {
    while (!ptx::mbarrier_test_wait_parity(&barAll, 0u)) {}
  }
  while (!ptx::mbarrier_try_wait_parity(&barTile, 0u)) {}
  while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &barFlat, 0u, 1000u)) {}
  if (t == 5) info[1] = ptx::mbarrier_test_wait(&barAll, state);
  if (t == 6) info[2] = ptx::mbarrier_test_wait_parity(&barAll, 1u);
  // Every thread changes its share of the tile and the flat array.
  tile[t / TW % TH][t % TW] += 1000 * t;
  buf[t] = buf[t] * 3 + 1;
  buf[t + 128] = buf[t + 128] * 5 + 2;
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (t == 0) {
    int32_t coords[2] = {16, 8};
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &map, coords, &tile);
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, flatOut, buf, sizeof(buf));
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
    info[3] = ptx::get_sreg_ntid_x();
    info[4] = ptx::get_sreg_nctaid_x();
    info[5] = ptx::get_sreg_cluster_nctarank();
    info[6] = ptx::get_sreg_is_explicit_cluster();
    info[7] = ptx::get_sreg_dynamic_smem_size();
  }
  if (t == 37) {
    info[8] = ptx::get_sreg_laneid();
    info[9] = ptx::get_sreg_tid_x();
    info[10] = ptx::get_sreg_lanemask_lt();
  }
}

int main() {
  static int h[W * H], f[N], fo[N];
  for (int i = 0; i < W * H; i++) h[i] = i;
  for (int i = 0; i < N; i++) f[i] = 7 * i - 100;
  int *d, *flat, *flatOut, *info, hi[16] = {0};
  cudaMalloc(&d, sizeof(h));
  cudaMalloc(&flat, sizeof(f));
  cudaMalloc(&flatOut, sizeof(fo));
  cudaMalloc(&info, sizeof(hi));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemcpy(flat, f, sizeof(f), cudaMemcpyHostToDevice);
  cudaMemset(flatOut, 0, sizeof(fo));
  cudaMemset(info, 0, sizeof(hi));

  CUtensorMap map;
  cuuint64_t dims[2] = {W, H};
  cuuint64_t strides[1] = {W * sizeof(int)};
  cuuint32_t box[2] = {TW, TH};
  cuuint32_t estr[2] = {1, 1};
  CUresult r = cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_INT32, 2, d, dims, strides, box, estr,
                                      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  printf("encode: %d\n", (int)r);
  wrappers<<<1, 128>>>(map, flat, flatOut, info);
  printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaMemcpy(fo, flatOut, sizeof(fo), cudaMemcpyDeviceToHost);
  cudaMemcpy(hi, info, sizeof(hi), cudaMemcpyDeviceToHost);
  long sum = 0, wsum = 0;
  for (int i = 0; i < W * H; i++) { sum += h[i]; wsum += (long)h[i] * (i % 97); }
  long fsum = 0;
  for (int i = 0; i < N; i++) fsum += (long)fo[i] * (i + 1);
  printf("matrix sum %ld weighted %ld; h[8*64+16]=%d h[15*64+31]=%d h[7*64+16]=%d\n", sum, wsum, h[8 * W + 16],
         h[15 * W + 31], h[7 * W + 16]);
  printf("flat weighted %ld; fo[0]=%d fo[255]=%d\n", fsum, fo[0], fo[255]);
  printf("elected %d test_wait %d parity1 %d ntid %d nctaid %d nctarank %d explicit %d dynsmem %d\n", hi[0], hi[1],
         hi[2], hi[3], hi[4], hi[5], hi[6], hi[7]);
  printf("lane %d tid %d lanemask_lt %#x\n", hi[8], hi[9], (unsigned)hi[10]);
  return 0;
}
