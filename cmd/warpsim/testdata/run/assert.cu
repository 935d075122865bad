#include <cassert>
extern "C" __global__ void positive(const int *v) { assert(v[threadIdx.x] > 0); }
