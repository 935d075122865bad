#!/bin/bash
# The eleventh round's device call (issue 19, study half only; SPLIT.md): run from the repository root with this
# folder copied to $D (default: the folder of this script).
# 1. fetch_mb.cu (gen_fetch.py): nvcc 13 -O3 sm_90 (PTX kept), SASS counts and branches, the program plain and under
#    Nsight Compute with caches flushed (--cache-control all, base clock), one launch each.
# 2. Nsight Compute's source view (SASS, per instruction: executed count, warp-state samples by stall reason, sampling
#    every 32 cycles) of the study half's fetch-bound kernels: ld_special_f32, libdevice_b_f32 and libdevice_a_f32
#    (sm_80 and sm_90 PTX through time_triton3.py), and their SASS (ptxas 13).
# Writes $OUT/fetch_h100.tgz.
set -x
D=${D:-$(cd "$(dirname "$0")" && pwd)}
T=${T:-testdata/triton3}
R=/tmp/fres; rm -rf $R; mkdir -p $R/ncu /tmp/fk
pack() { tar czf $OUT/fetch_h100.tgz -C $R .; }
date
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $R/GPU.txt 2>&1
nvcc --version | tail -n 2 >> $R/GPU.txt; ncu --version | tail -n 1 >> $R/GPU.txt
mkdir -p /tmp/fk/cases
for k in ld_special_f32 libdevice_b_f32 libdevice_a_f32; do
  ln -s $(pwd)/$T/$k /tmp/fk/cases/$k
  for a in sm80 sm90; do
    arch=sm_90; [ $a = sm90 ] && arch=sm_90a
    timeout 30 ptxas -arch=$arch -O3 $T/$k/$a.ptx -o /tmp/fk/$k.$a.cubin && cuobjdump -sass /tmp/fk/$k.$a.cubin > $R/ncu/$k.$a.sass
  done
done
timeout 90 ncu --set none --section SourceCounters --section WarpStateStats --warp-sampling-interval 0 --cache-control all \
  -f -o /tmp/fk/src python3 $T/time_triton3.py /tmp/fk/cases 1 > $R/ncu/order_src.txt 2>&1; echo "ncu src rc=$?"; date
timeout 60 ncu -i /tmp/fk/src.ncu-rep --page source --csv --print-source sass > $R/ncu/source.csv 2> $R/ncu/source.err
timeout 30 ncu -i /tmp/fk/src.ncu-rep --page raw --csv > $R/ncu/raw.csv 2> $R/ncu/raw.err
pack
cd /tmp/fk && python3 $D/gen_fetch.py && cd - >/dev/null
timeout 90 nvcc -O3 -arch=sm_90 -keep -keep-dir /tmp/fk -o /tmp/fk/fetch_mb /tmp/fk/fetch_mb.cu; echo "nvcc rc=$?"; date
P=$(ls /tmp/fk/*.ptx | head -1); [ -n "$P" ] || { timeout 60 nvcc -O3 -arch=sm_90 -ptx -o /tmp/fk/x.ptx /tmp/fk/fetch_mb.cu; P=/tmp/fk/x.ptx; }
cp $P $R/fetch_mb.nvcc.ptx; gzip -9 $R/fetch_mb.nvcc.ptx
cuobjdump -sass /tmp/fk/fetch_mb > /tmp/fk/all.sass
awk '/Function :/ {f=$3} /\/\*[0-9a-f]+\*\// {n[f]++} END {for (k in n) print k, n[k], 16*n[k]}' /tmp/fk/all.sass | sort > $R/sass_counts.txt
grep -E "Function :|BRA|BSSY|BSYNC" /tmp/fk/all.sass > $R/sass_branches.txt
cat $R/sass_counts.txt; pack
NLAUNCH=1 timeout 20 /tmp/fk/fetch_mb > $R/plain.txt 2>&1; echo "plain rc=$?"; pack
M=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio
NLAUNCH=1 timeout 80 ncu --cache-control all --csv --page raw --metrics $M --log-file $R/ncu_all.csv /tmp/fk/fetch_mb > $R/ncu_all.out 2>&1; echo "ncu rc=$?"; date; pack
gzip -9 $R/ncu/*.csv $R/ncu/*.sass $R/ncu_all.csv
pack; ls -la $R $R/ncu; date
