#!/bin/bash
# Records what an H100 with nvcc 13 does for the programs of this folder
# (device-side copies, conditional graph nodes, virtual memory management;
# README.md). Usage: bash record.sh OUTFILE. Every step runs even when one
# before it fails; everything goes to OUTFILE.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/h100.txt}
bin=$(mktemp -d)
exec > "$out" 2>&1
echo "== GPU"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc --version | tail -n 2
cd "$here"
build() {  # build NAME FLAGS...: a failed build prints nvcc's messages
  local name=$1
  shift
  nvcc -O2 -arch=sm_90 -o "$bin/$name" "$@" > "$bin/$name.nvcc" 2>&1 || { echo "== nvcc $name $*"; cat "$bin/$name.nvcc"; echo "exit 1"; }
}
build cdp_memcpy cdp_memcpy.cu -rdc=true -lcudadevrt &
build cdp_memset cdp_memset.cu -rdc=true -lcudadevrt &
build cdp_memcpy2d cdp_memcpy2d.cu -rdc=true -lcudadevrt &
build graph_cond graph_cond.cu &
build graph_cond_rdc graph_cond.cu -rdc=true -lcudadevrt &
build vmm vmm.cu -lcuda &
wait
run() {  # run NAME ARGS...: prints the output and the exit status
  echo "== $*"
  timeout -s KILL 25 "$@" 2>&1
  echo "exit $?"
}
run "$bin/cdp_memcpy"
run "$bin/cdp_memset"
run "$bin/cdp_memcpy2d"
run "$bin/graph_cond"
run "$bin/graph_cond_rdc"
for m in 0 1 2; do run "$bin/vmm" $m; done
echo "== CUDA 13 declarations"
inc=$(dirname "$(command -v nvcc)")/../include
[ -f "$inc/cuda_runtime_api.h" ] || inc=/usr/local/cuda/include
grep -h -A2 -E "(CUDARTAPI|CUDAAPI) (cudaGraphConditionalHandleCreate|cudaGraphSetConditional|cudaGraphAddNode|__cudaCDP2Memcpy[A-Za-z0-9]*|__cudaCDP2Memset[A-Za-z0-9]*|cuMemCreate|cuMemAddressReserve|cuMemMap|cuMemSetAccess|cuMemGetAllocationGranularity|cuMemRetainAllocationHandle|cuCtxCreate)(_v[0-9])?\(" "$inc/cuda_runtime_api.h" "$inc/cuda_device_runtime_api.h" "$inc/cuda.h" | tr -s ' ' | head -n 80
for s in cudaConditionalNodeParams cudaGraphNodeParams cudaKernelNodeParamsV2 CUmemAllocationProp_st CUmemLocation_st CUmemAccessDesc_st; do
  echo "-- $s"
  awk -v s="$s" '$0 ~ "^(typedef )?struct (__device_builtin__ )?"s"( |$|\\{)" {p=1} p {print} p && /^}/ {exit}' "$inc/driver_types.h" "$inc/cuda.h" | sed 's@/\*.*@@' | grep -v '^ *\*' | tr -s ' ' | head -n 40
done
grep -h -E "cudaGraphCond(Type|AssignDefault)|CU_MEM_ALLOC_GRANULARITY|CU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED|CU_MEM_ALLOCATION_TYPE_PINNED|CU_MEM_LOCATION_TYPE_DEVICE |CU_MEM_ACCESS_FLAGS_PROT_READWRITE|CU_MEM_HANDLE_TYPE_POSIX" "$inc/driver_types.h" "$inc/cuda.h" | tr -s ' ' | head -n 30
rm -rf "$bin"
