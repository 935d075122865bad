#!/bin/bash
# Records the instruction-fetch microbenchmarks (icache_mb.cu, made by gen.py) on the H100: nvcc 13 -O3 sm_90,
# nvcc's PTX, SASS instruction counts of each kernel (cuobjdump), then the program three times: plain, under
# Nsight Compute with caches flushed before each kernel (--cache-control all, ncu's default; the held-out
# recordings' setting) and with caches kept (--cache-control none). Also SASS sizes of the Triton corpus's PTX
# (ptxas 13, sm_90a / sm_90) for the SASS-bytes-per-PTX-instruction ratio. Writes $OUT/icache_h100.tgz (set -x: the log).
set -x
cd "$(dirname "$0")"
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/icache_h100.tgz -C $R .; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $R/GPU.txt 2>&1
nvcc --version | tail -n 2 >> $R/GPU.txt; ncu --version | tail -n 1 >> $R/GPU.txt
nvcc -O3 -arch=sm_90 -o icache_mb icache_mb.cu; echo "nvcc rc=$?"
nvcc -O3 -arch=sm_90 -ptx -o $R/icache_mb.nvcc.ptx icache_mb.cu; echo "ptx rc=$?"; pack
# SASS instructions per kernel: lines with an address comment /*0a30*/ (16 bytes each)
cuobjdump -sass icache_mb | awk '/Function :/ {f=$3} /\/\*[0-9a-f]+\*\// {n[f]++} END {for (k in n) print k, n[k], 16*n[k]}' | sort > $R/sass_counts.txt
cat $R/sass_counts.txt
cuobjdump -sass -fun icache_128 icache_mb > $R/sass_icache_128.txt 2>&1
# Triton corpus: SASS instructions per kernel of each PTX file
mkdir -p tsass
for p in triton/*/*.ptx; do
  d=$(basename $(dirname $p)); v=$(basename $p .ptx); a=sm_90a; [ $v = sm80 ] && a=sm_90
  ptxas -arch=$a -O3 -o tsass/$d.$v.cubin $p 2>>$R/ptxas_err.txt || { echo "$p: ptxas failed" >> $R/ptxas_err.txt; continue; }
  cuobjdump -sass tsass/$d.$v.cubin | awk -v w=$d/$v '/Function :/ {f=$3} /\/\*[0-9a-f]+\*\// {n[f]++} END {for (k in n) print w, k, n[k], 16*n[k]}'
done > $R/triton_sass_counts.txt &
TRI=$!
timeout 120 ./icache_mb > $R/plain.txt 2>&1; echo "plain rc=$?"; pack
timeout 60 ncu --query-metrics > qm.txt 2>&1
M=gpu__time_duration.sum
for m in sm__cycles_elapsed.max smsp__inst_executed.sum smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio smsp__average_warps_issue_stalled_imc_miss_per_issue_active.ratio smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio; do
  b=${m%.*}; grep -q "^$b " qm.txt && M="$M,$m"
done
echo "metrics: $M"
for cc in all none; do
  timeout 150 ncu --cache-control $cc --csv --page raw --metrics $M --log-file $R/ncu_$cc.csv ./icache_mb > $R/ncu_$cc.out 2>&1; echo "ncu $cc rc=$?"; pack
done
grep "launch=1\|constlat" $R/plain.txt | grep -v "warps=32"; tail -3 $R/ncu_all.out
wait $TRI; wc -l $R/triton_sass_counts.txt; pack; rm -rf $R; ls -la $OUT
