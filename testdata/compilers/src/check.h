// Shared by the sample programs: stop with CUDA's error text on failure.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAILED: %s: %s (%s)\n", #x, cudaGetErrorString(e_), cudaGetErrorName(e_)); exit(1); } } while (0)
