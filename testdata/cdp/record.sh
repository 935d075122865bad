#!/bin/bash
# Records what nvcc and an H100 do with the dynamic-parallelism probes.
# Run on the GPU machine from this directory; results go to $OUT/cdp.tar.gz
# (unpacked into testdata/cdp/h100/).
OUT=${OUT:-/tmp/cdp-out}
R=$OUT/h100
mkdir -p "$R"
exec > >(tee "$R/record.log") 2>&1
nvcc --version | tail -2
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
step() { # name, command...
  local name=$1; shift
  echo "== $name: $*"
  timeout 60 "$@" > "$R/$name.txt" 2>&1
  echo "rc=$?" >> "$R/$name.txt"
  cat "$R/$name.txt"
}
F="-rdc=true -lcudadevrt"
# The lesson program is examples/lessons/nested4.cu (copy it here when the
# script runs away from the repository).
N4=nested4.cu; [ -f "$N4" ] || N4=../../examples/lessons/nested4.cu
# CDP1 for sm_80 (CUDA 12+ needs the macro), its PTX, and without the macro.
step nvcc_probe_cdp1_sm80 nvcc -O3 -arch=sm_80 $F -DCUDA_FORCE_CDP1_IF_SUPPORTED -DCDP1 cdp_probe.cu -o probe_cdp1_sm80
step nvcc_probe_cdp1_sm80_ptx nvcc -O3 -arch=sm_80 -rdc=true -DCUDA_FORCE_CDP1_IF_SUPPORTED -DCDP1 -ptx cdp_probe.cu -o "$R/cdp_probe.cdp1.sm80.ptx"
step nvcc_probe_cdp1_sm80_nomacro nvcc -O3 -arch=sm_80 -rdc=true -DCDP1 -ptx cdp_probe.cu -o /dev/null
step nvcc_probe_cdp1_sm90 nvcc -O3 -arch=sm_90 -rdc=true -DCUDA_FORCE_CDP1_IF_SUPPORTED -DCDP1 -ptx cdp_probe.cu -o /dev/null
# CDP2 for sm_90 (what the H100 runs) and its PTX.
step nvcc_probe_cdp2_sm90 nvcc -O3 -arch=sm_90 $F cdp_probe.cu -o probe_cdp2_sm90
step nvcc_probe_cdp2_sm90_ptx nvcc -O3 -arch=sm_90 -rdc=true -ptx cdp_probe.cu -o "$R/cdp_probe.cdp2.sm90.ptx"
# The lesson's four reductions: CDP1 for sm_80 and its PTX; for sm_90.
step nvcc_nested4_sm80 nvcc -O3 -arch=sm_80 $F -DCUDA_FORCE_CDP1_IF_SUPPORTED "$N4" -o nested4_sm80
step nvcc_nested4_sm80_ptx nvcc -O3 -arch=sm_80 -rdc=true -DCUDA_FORCE_CDP1_IF_SUPPORTED -ptx "$N4" -o "$R/nested4.cdp1.sm80.ptx"
step nvcc_nested4_sm90 nvcc -O3 -arch=sm_90 $F "$N4" -o nested4_sm90
# What the H100 does: the CDP2 probe, and the sm_80 CDP1 binaries.
[ -x probe_cdp2_sm90 ] && step run_probe_cdp2_sm90 ./probe_cdp2_sm90
[ -x probe_cdp1_sm80 ] && step run_probe_cdp1_sm80 ./probe_cdp1_sm80
[ -x nested4_sm80 ] && step run_nested4_sm80 ./nested4_sm80
[ -x nested4_sm90 ] && step run_nested4_sm90 ./nested4_sm90
[ -x probe_cdp1_sm80 ] && command -v cuobjdump >/dev/null && step cuobjdump_probe_cdp1_sm80 cuobjdump --list-elf --list-ptx probe_cdp1_sm80
cd "$OUT" && tar czf cdp.tar.gz h100 && rm -rf h100
ls -l "$OUT"
