#!/bin/bash
# tri5's device call (issue 19, fifteenth round). From .dev/tri5: the SASS (ptxas -arch=sm_90a, cuobjdump -sass)
# of sched/mb's cases and of two held-out Triton kernels (held/: argmin_f32, dot_tf32x3_f32, both PTX files);
# Nsight Compute (--clock-control none, as H200.md asks) over sched/mb (3 runs: time, cycles, instructions) and over
# held/ and four sched cases (1 run: warp-state stall breakdown, and the per-instruction source page).
H=$(pwd); W=/tmp/sched; rm -rf $W; mkdir -p $W/sass
nvidia-smi > $W/nvidia-smi.txt 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv > $W/gpu.txt; nvcc --version | tail -2 >> $W/gpu.txt; ncu --version | tail -1 >> $W/gpu.txt
cat $W/gpu.txt
MB=triton3/study/sched/mb
for c in $(ls $MB); do
  timeout 20 ptxas -arch=sm_90a $MB/$c/k.ptx -o $W/$c.cubin && cuobjdump -sass $W/$c.cubin > $W/sass/$c.sass
  echo "$c $(grep -cE '^\s+/\*[0-9a-f]{4}\*/' $W/sass/$c.sass)" >> $W/sass_count.txt; rm -f $W/$c.cubin
done
for k in argmin_f32 dot_tf32x3_f32; do for a in sm90 sm80; do
  timeout 30 ptxas -arch=sm_90a held/$k/$a.ptx -o $W/$k.cubin && cuobjdump -sass $W/$k.cubin > $W/sass/${k}_$a.sass
  echo "${k}_$a $(grep -cE '^\s+/\*[0-9a-f]{4,5}\*/' $W/sass/${k}_$a.sass)" >> $W/sass_count.txt; rm -f $W/$k.cubin
done; done
cat $W/sass_count.txt
M=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum,smsp__cycles_active.max
timeout 90 ncu --clock-control none --csv --page raw --metrics $M --log-file $W/ncu_sched.csv python3 $H/triton3/time_triton3.py $H/$MB 3 > $W/order_sched.txt 2> $W/ncu_sched.err
echo "ncu rc=$?"; tail -2 $W/order_sched.txt; tail -3 $W/ncu_sched.err
python3 - <<'PY'
import csv
rows=[r for r in csv.reader(open('/tmp/sched/ncu_sched.csv')) if len(r)>5]
h=rows[0]; o=[l.split() for l in open('/tmp/sched/order_sched.txt') if l.startswith('launch')]
for oo, r in zip(o, rows[2:]):
    print(oo[2], oo[4], *(r[h.index(k)] for k in ('gpu__time_duration.sum','sm__cycles_elapsed.max','smsp__inst_executed.sum')))
PY
mkdir -p $W/stall/sched; for c in shfl_argmin_seq shfl_argmin_il shfl_argmin_sched shfl_argmin_one bare; do cp -r $MB/$c $W/stall/sched/; done
S="--section WarpStateStats --section SchedulerStats --section InstructionStats --section LaunchStats --section SourceCounters"
for d in held $W/stall/sched; do n=$(basename $d)
  timeout 60 ncu --clock-control none $S --csv --page raw --log-file $W/ncu_stall_$n.csv python3 $H/triton3/time_triton3.py $d 1 > $W/order_stall_$n.txt 2> $W/ncu_stall_$n.err
  echo "ncu stall $n rc=$?"; tail -2 $W/ncu_stall_$n.err
  timeout 60 ncu --clock-control none --section SourceCounters --csv --page source --print-source sass --log-file $W/ncu_src_$n.csv python3 $H/triton3/time_triton3.py $d 1 > /dev/null 2> $W/ncu_src_$n.err
  echo "ncu source $n rc=$?"; tail -2 $W/ncu_src_$n.err
done
gzip -9 $W/*.csv; rm -rf $W/stall
tar czf $OUT/sched.tgz -C $W . ; ls -la $OUT
