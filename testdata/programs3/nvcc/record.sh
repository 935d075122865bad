#!/bin/bash
# Records, on the H100, both compilers' device code of testdata/programs3 and
# what each takes, and the tensor-pipe microbenchmarks of mb2.cu.
# Run on the GPU machine from a folder holding the programs3 *.cu files, mb2.cu
# and, for each program P, P.clang.ptx (made on the warpsim machine by
# clangptx.sh: `warpsim compile -std=c++17 P.cu`, clang 22's PTX, the code
# `warpsim cc` runs). For each program it
#   - writes nvcc 13's PTX: nvcc -O3 -arch=sm_90a -std=c++17 -ptx (record.sh's
#     flags one folder up) into ptx/P.nvcc.ptx;
#   - builds bin/P.nvcc (those flags) and bin/P.clang, the same nvcc build with
#     clang's PTX put in place of nvcc's just before ptxas (nvcc -dryrun's
#     commands run one by one, as testdata/compilers/record.sh does): only the
#     device code differs;
#   - dumps both binaries' SASS (cuobjdump -sass) into sass/P.{nvcc,clang}.sass;
#   - runs each under Nsight Compute (base clock, caches flushed: ncu's
#     defaults, as the programs3 recording) with the kernel time, cycles,
#     instructions executed (nvcc's build: also the warp-stall breakdown):
#     ncu/P.{nvcc,clang}.csv.
# Then runs mb2 (mb2.txt). Everything goes into $OUT/p3nvcc.tar.gz. Nsight Compute runs stop being started
# DEADLINE seconds (default 270) into the script (the device time was counted).
set -x
R=${OUT:-/tmp/out}/p3nvcc
mkdir -p "$R/ptx" "$R/sass" "$R/ncu" bin kd
export PATH=/usr/local/cuda/bin:$PATH
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -2;
  ncu --version | tail -1; } > "$R/GPU.txt" 2>&1
F="-O3 -arch=sm_90a -std=c++17"
# PROGS, when set, limits the programs; MB2=0 skips mb2.
progs=${PROGS:-$(ls *.cu | sed 's/\.cu$//' | grep -v '^mb2$')}
[ "${MB2:-1}" = 1 ] && (timeout 240 nvcc $F -o bin/mb2 mb2.cu > "$R/build_mb2.txt" 2>&1 || echo "BUILD FAIL mb2"; timeout 200 nvcc $F -ptx -o "$R/ptx/mb2.nvcc.ptx" mb2.cu) &
build() { # $1 program
  local p=$1 ptx
  timeout 200 nvcc $F -o "bin/$p.nvcc" "$p.cu" > "$R/build_$p.nvcc.txt" 2>&1 || echo "BUILD FAIL nvcc $p"
  timeout 200 nvcc $F -ptx -o "$R/ptx/$p.nvcc.ptx" "$p.cu" >> "$R/build_$p.nvcc.txt" 2>&1
  # -arch=sm_90 for this build (clang's PTX is .target sm_90; with sm_90a the
  # first recording's clang builds came out with nvcc's SASS).
  nvcc ${F/sm_90a/sm_90} -dryrun -o "bin/$p.clang" "$p.cu" 2>&1 | sed -n 's/^#\$ //p' > "kd/$p.cmds"
  ptx=$(grep -m1 -E '(^|/)ptxas"? ' "kd/$p.cmds" | grep -o '[^" ]*\.ptx' | head -1)
  if [ -z "$ptx" ]; then echo "no ptxas line for $p"; return; fi
  # clang's PTX goes over cicc's output right after cicc writes it (the
  # file the first ptxas reads), so every later step sees it.
  awk -v cp="cp $p.clang.ptx \"$ptx\"" '{ print } /(^|\/)cicc"? / && !done { print cp; done=1 }' "kd/$p.cmds" > "kd/$p.sh"
  grep -q "^cp $p.clang.ptx" "kd/$p.sh" || { echo "no cicc line for $p"; return; }
  [ -f $p.clang.ptx ] || { echo "no clang PTX for $p"; return; }
  timeout 200 bash "kd/$p.sh" > "$R/build_$p.clang.txt" 2>&1
  cp "kd/$p.sh" "$R/build_$p.clang.sh"
  [ -x "bin/$p.clang" ] || { echo "BUILD FAIL clang $p"; tail -5 "$R/build_$p.clang.txt"; }
}
for p in $progs; do build $p & done
wait
ls -l bin
for p in $progs; do for c in nvcc clang; do
  [ -x "bin/$p.$c" ] && timeout 30 cuobjdump -sass "bin/$p.$c" > "$R/sass/$p.$c.sass" 2>&1
done
  cmp -s <(grep -v 'code version' "$R/sass/$p.nvcc.sass") <(grep -v 'code version' "$R/sass/$p.clang.sass") && {
    echo "clang build of $p has nvcc's SASS: dropped"; rm -f "bin/$p.clang" "$R/sass/$p.clang.sass"; }
done
[ "${MB2:-1}" = 1 ] && timeout 30 cuobjdump -sass bin/mb2 | grep -E 'Function|MMA' > "$R/sass/mb2.mma.sass"
[ "${MB2:-1}" = 1 ] && { timeout 60 ./bin/mb2 > "$R/mb2.txt" 2>&1; echo "mb2 rc=$?"; }
S=long_scoreboard,short_scoreboard,wait,math_pipe_throttle,mio_throttle,lg_throttle,barrier,membar,no_instruction,branch_resolving,dispatch_stall,drain,imc_miss,misc,not_selected,selected,sleeping,tex_throttle
M=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum,smsp__cycles_active.max
for s in ${S//,/ }; do M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio; done
# Without STALLS=1 both builds get ../record.sh's metrics (as times.tsv) and
# the instructions executed.
Q=gpu__time_duration.sum,sm__cycles_elapsed.max,gpc__cycles_elapsed.max,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,smsp__inst_executed.sum
[ "${STALLS:-0}" = 1 ] || M=$Q
for p in $progs; do for c in nvcc clang; do
  [ -x "bin/$p.$c" ] || continue
  [ $SECONDS -gt ${DEADLINE:-270} ] && { echo "out of time: no ncu for $p $c"; continue; }
  timeout 60 ./bin/$p.$c > "$R/run_$p.$c.txt" 2>&1; echo $? >> "$R/run_$p.$c.txt"
  m=$M; [ $c = clang ] && m=$Q
  timeout 45 ncu --csv --page raw --metrics $m --log-file "$R/ncu/$p.$c.csv" ./bin/$p.$c > /dev/null 2>&1
  echo "$p $c ncu rc=$? $(grep -c '^"[0-9]' "$R/ncu/$p.$c.csv") kernels"
done; done
tar -C "${OUT:-/tmp/out}" -czf "${OUT:-/tmp/out}/p3nvcc.tar.gz" p3nvcc && rm -rf "$R"
ls -l "${OUT:-/tmp/out}"
