#!/bin/bash
# Second device call (clang15): h2stamps.cu's sections timed with clock64 on
# the GPU, built as ../run.sh builds half_bf16_math: bin/h2stamps.clang is
# nvcc -arch=sm_90 -dryrun's commands with clang 22's PTX (h2stamps.clang.ptx,
# made here by `warpsim compile --std c++17 h2stamps.cu`, with libdevice's
# sinf/cosf spliced in by ../splice.py) over cicc's output; bin/h2stamps.nvcc
# is nvcc's own build (nvcc's headers: no div.rn/sqrt.rn). Run from a folder
# holding this folder's files, ../splice.py and ../libm.cu. Output in
# $OUT/stamps.tar.gz.
set -x
R=${OUT:-/tmp/out}/stamps
mkdir -p "$R" bin kd
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } > "$R/GPU.txt" 2>&1
timeout 60 nvcc -arch=sm_90 -rdc=true -ptx -o libm.ptx libm.cu
python3 splice.py h2stamps.clang.ptx libm.ptx s.ptx && mv s.ptx h2stamps.clang.ptx
p=h2stamps
timeout 100 nvcc -O3 -arch=sm_90a -std=c++17 -o bin/$p.nvcc $p.cu > "$R/build_nvcc.txt" 2>&1 &
nvcc -O3 -arch=sm_90 -std=c++17 -dryrun -o "bin/$p.clang" "$p.cu" 2>&1 | sed -n 's/^#\$ //p' > "kd/$p.cmds"
ptx=$(grep -m1 -E '(^|/)ptxas"? ' "kd/$p.cmds" | grep -o '[^" ]*\.ptx' | head -1)
awk -v cp="cp $p.clang.ptx \"$ptx\"" '{ print } /(^|\/)cicc"? / && !done { print cp; done=1 }' "kd/$p.cmds" > "kd/$p.sh"
timeout 100 bash "kd/$p.sh" > "$R/build_clang.txt" 2>&1
wait
for c in clang nvcc; do
  [ -x bin/$p.$c ] || { echo "BUILD FAIL $c"; tail -5 "$R/build_$c.txt"; continue; }
  timeout 30 cuobjdump -sass bin/$p.$c > "$R/$p.$c.sass" 2>&1
  timeout 30 ./bin/$p.$c > "$R/$p.$c.txt" 2>&1; echo "exit $?" >> "$R/$p.$c.txt"
  cat "$R/$p.$c.txt"
done
cp $p.clang.ptx "$R/"
tar -C "${OUT:-/tmp/out}" -czf "${OUT:-/tmp/out}/stamps.tar.gz" stamps && rm -rf "$R"
