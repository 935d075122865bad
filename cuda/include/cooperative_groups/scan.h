/* warpsim: cooperative_groups::inclusive_scan and exclusive_scan over a tile
 * of at most 32 threads or a coalesced group: Kogge–Stone steps of shfl_up,
 * in rank order. The default operation is cg::plus. */
#ifndef __WARPSIM_COOPERATIVE_GROUPS_SCAN_H__
#define __WARPSIM_COOPERATIVE_GROUPS_SCAN_H__
#include "../cooperative_groups.h"
#include "reduce.h"

namespace cooperative_groups {
template <class Group, class T, class Op>
__device__ T inclusive_scan(const Group &g, T v, Op op) {
  unsigned n = (unsigned)g.size(), r = (unsigned)g.thread_rank();
  for (unsigned d = 1; d < n; d <<= 1) {
    T o = g.shfl_up(v, d);
    if (r >= d) v = op(o, v);
  }
  return v;
}
template <class Group, class T>
__device__ T inclusive_scan(const Group &g, T v) { return inclusive_scan(g, v, plus<T>()); }

/* Rank 0 gets T() (for plus, 0). */
template <class Group, class T, class Op>
__device__ T exclusive_scan(const Group &g, T v, Op op) {
  T in = inclusive_scan(g, v, op);
  T prev = g.shfl_up(in, 1);
  return g.thread_rank() == 0 ? T() : prev;
}
template <class Group, class T>
__device__ T exclusive_scan(const Group &g, T v) { return exclusive_scan(g, v, plus<T>()); }
} // namespace cooperative_groups

#endif
