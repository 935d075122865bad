#!/bin/sh
# Records what a real NVIDIA GPU prints for the headers programs: the ones
# here (legacy_warp with -DUSE_SYNC, see its comment; assert_device;
# thrust_cub with the CUDA toolkit's own CCCL; rdc/ as separate compilation,
# both `-rdc=true main.cu lib.cu` and `-dc` then a link) and
# ../programs/cg_partitions.cu and headers_compat.cu. Each program's stdout
# goes to <name>.h100.txt, stderr to <name>.h100.stderr, exit status to
# <name>.h100.exit, beside its source. Also saves nvcc's PTX for
# assert_device (assert_device.nvcc.ptx: how nvcc calls __assertfail) and
# probes which runtime declarations CUDA 13 still has (probe.txt).
# Run on a machine with an H100 and CUDA 12 or later:  sh record_gpu.sh
set -u
cd "$(dirname "$0")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
rec() { # rec DIR NAME nvcc-args…
  dir=$1 name=$2
  shift 2
  echo "== $name" >&2
  if nvcc -O3 -arch=sm_90 -o "$out/$name" "$@" > "$out/$name.log" 2>&1; then
    status=0
    (cd "$dir" && "$out/$name" > "$name.h100.txt" 2> "$name.h100.stderr") || status=$?
    echo "$status" > "$dir/$name.h100.exit"
  else
    echo "nvcc failed for $name:" >&2
    cat "$out/$name.log" >&2
  fi
}
p=../programs
rec "$p" cg_partitions "$p/cg_partitions.cu"
rec "$p" headers_compat "$p/headers_compat.cu"
rec . legacy_warp -DUSE_SYNC legacy_warp.cu
rec . assert_device assert_device.cu
rec . thrust_cub thrust_cub.cu
rec rdc rdc -rdc=true rdc/main.cu rdc/lib.cu
# The same program compiled with -dc and linked later.
if nvcc -O3 -arch=sm_90 -dc rdc/main.cu -o "$out/main.o" && nvcc -O3 -arch=sm_90 -dc rdc/lib.cu -o "$out/lib.o" &&
  nvcc -arch=sm_90 "$out/main.o" "$out/lib.o" -o "$out/rdc_dc"; then
  (cd rdc && "$out/rdc_dc" > rdc_dc.h100.txt 2>&1; echo $? >> rdc_dc.h100.txt)
fi
nvcc -arch=sm_90 -ptx assert_device.cu -o assert_device.nvcc.ptx
# Which declarations does this CUDA still have?
: > probe.txt
for decl in "cudaSharedMemConfig c; cudaDeviceGetSharedMemConfig(&c)" "cudaFuncCache c; cudaDeviceGetCacheConfig(&c)" \
  "cudaDeviceProp p; (void)p.maxTexture1D" "cudaDeviceProp p; (void)p.computeMode" "cudaDeviceProp p; (void)p.clockRate" \
  "(void)cudaComputeModeProhibited" "(void)cudaDeviceBlockingSync" "(void)cudaHostRegisterMapped" "cudaMemLocation l; (void)l" \
  "(void)sizeof(cudaTextureObject_t)"; do
  printf '#include <cuda_runtime.h>\nint main() { %s; return 0; }\n' "$decl" > "$out/probe.cu"
  if nvcc -arch=sm_90 -c -o "$out/probe.o" "$out/probe.cu" > /dev/null 2>&1; then r=yes; else r=no; fi
  echo "$r: $decl" >> probe.txt
done
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  nvcc --version | tail -n 2
} > GPU.txt
