#!/bin/bash
# record.sh: records the H100 calibration data of warpsim's timing model. Run it on the GPU machine
# from this directory (testdata/timing/bench): it compiles every benchmark with
# nvcc -O3 -arch=sm_90 -lineinfo (and -ptx, the PTX warpsim runs), runs each in "full" and "sim"
# mode (CUDA-event times), then runs the "sim" configurations under Nsight Compute with the clocks
# locked (--clock-control base) and the caches flushed before each kernel (ncu's default). Results
# go to $OUT/results.tgz, progress to $OUT/log.txt. BUDGET (seconds, default 420) bounds the whole
# run: stages that would start after it are skipped so the archive is always written.
# ONLY="b1 b2" limits the run to some benchmarks (props always runs).
set +x
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
R=${RES:-/tmp/calib_res}; rm -rf "$R"; mkdir -p "$R/ptx"
LOG=$OUT/log.txt; : > "$LOG"
BUDGET=${BUDGET:-440}
T0=$SECONDS
log() { echo "[$((SECONDS - T0))s] $*" >> "$LOG"; }
left() { echo $((BUDGET - (SECONDS - T0))); }
pack() { cp "$LOG" "$R/log.txt"; tar czf "$OUT/results.tgz" -C "$R" . 2>> "$LOG"; }
# run NAME CAP CMD...: runs CMD with a timeout of min(CAP, time left), stdout to $R/NAME.txt
run() {
  local name=$1 cap=$2; shift 2
  local l; l=$(left); if [ "$l" -le 5 ]; then log "skip $name (budget)"; return; fi
  [ "$cap" -gt "$l" ] && cap=$l
  log "start $name (timeout $cap s)"
  timeout "$cap" "$@" > "$R/$name.txt" 2> "$R/$name.err"; local rc=$?
  log "end $name rc=$rc lines=$(wc -l < "$R/$name.txt")"
}

log "tools"
{ date -u; hostname; nvcc --version; ncu --version; nvidia-smi; nvidia-smi -q -d CLOCK; nvidia-smi -q -d PERFORMANCE;
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.applications.graphics,power.limit --format=csv; } > "$R/env.txt" 2>&1
ALL="lat tput chase stream bank atomics launch occ lessons_small stld"
RUN=${ONLY:-$ALL}   # ONLY="lat chase" re-records some benchmarks
BENCHES="props $RUN"
log "compile"
for b in $BENCHES; do
  ( nvcc -O3 -arch=sm_90 -lineinfo -o "bin_$b" "$b.cu" > "$R/build_$b.txt" 2>&1 || echo "nvcc $b failed" >> "$R/build_$b.txt"
    nvcc -O3 -arch=sm_90 -lineinfo -ptx -o "$R/ptx/$b.ptx" "$b.cu" >> "$R/build_$b.txt" 2>&1
    cuobjdump -sass "bin_$b" > "$R/sass_$b.txt" 2>&1 ) &
done
wait
for b in $BENCHES; do [ -x "bin_$b" ] || log "BUILD FAILED: $b"; done
pack

run props 30 ./bin_props
# sim-mode event timings first (these are the configurations with launch files), then full sweeps
for b in $RUN; do run "${b}_sim" 40 "./bin_$b" sim; done
pack
for b in $RUN; do run "${b}_full" 60 "./bin_$b" full; done
nvidia-smi -q -d CLOCK > "$R/clock_after_runs.txt" 2>&1
pack

# metrics: keep those this ncu knows (ncu refuses a run with an unknown metric)
log "query metrics"
timeout 60 ncu --query-metrics > "$R/ncu_query_metrics.txt" 2>&1
WANT="gpu__time_duration.sum sm__cycles_elapsed.avg sm__cycles_elapsed.avg.per_second sm__cycles_active.avg sm__warps_active.avg.pct_of_peak_sustained_active smsp__inst_executed.sum smsp__warps_launched.sum"
for s in long_scoreboard short_scoreboard barrier wait not_selected math_pipe_throttle lg_throttle mio_throttle branch_resolving dispatch_stall selected no_instruction membar drain sleeping tex_throttle; do
  WANT="$WANT smsp__average_warp_latency_issue_stalled_$s smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio"
done
WANT="$WANT lts__t_sector_hit_rate.pct l1tex__t_sector_hit_rate.pct dram__bytes_read.sum dram__bytes_write.sum sm__throughput.avg.pct_of_peak_sustained_elapsed smsp__issue_active.avg.pct_of_peak_sustained_active l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"
M=$(python3 - "$R/ncu_query_metrics.txt" $WANT <<'PY'
import sys, re
q = open(sys.argv[1]).read().split('\n')
types = {}
for line in q:
    f = line.split()
    if f and '__' in f[0]:
        types[f[0]] = ' '.join(f[1:3])
out = []
for m in sys.argv[2:]:
    base = m.split('.')[0]
    if types and base not in types:
        continue
    if '.' not in m:
        t = types.get(base, '')
        m += '.ratio' if 'Ratio' in t else '.sum' if 'Counter' in t else '.avg.pct_of_peak_sustained_elapsed' if 'Throughput' in t else '.ratio'
    out.append(m)
print(','.join(out))
PY
)
[ -z "$M" ] && M=gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__cycles_elapsed.avg.per_second,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct
echo "$M" > "$R/ncu_metrics_used.txt"
log "metrics: $M"
# quick validity check of the list on one tiny kernel; on failure fall back to the safe core list
BENCH_NCU=1 timeout 60 ncu --csv --print-units base --clock-control base --metrics "$M" --launch-count 1 -k regex:lat_iadd ./bin_lat sim > "$R/ncu_check.txt" 2>&1
if ! grep -q gpu__time_duration "$R/ncu_check.txt"; then
  log "metric list refused; falling back"; M=gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__cycles_elapsed.avg.per_second,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,smsp__issue_active.avg.pct_of_peak_sustained_active
  echo "$M" > "$R/ncu_metrics_used.txt"
fi
pack
# ncu on the sim configurations, most important first
export BENCH_NCU=1
for b in occ stream lessons_small chase lat tput bank atomics launch stld; do
  case " $RUN " in *" $b "*) ;; *) continue ;; esac
  run "ncu_$b" 90 ncu --csv --print-units base --clock-control base --log-file "$R/ncu_$b.log" --metrics "$M" "./bin_$b" sim
  pack
done
# stld: the L1's treatment of stores, from its own sector counters (lookup hits and misses of
# loads and stores, L2 sectors read and written on the L1's behalf)
case " $RUN " in *" stld "*)
  run ncu_stld_l1 60 ncu --csv --print-units base --clock-control base --metrics gpu__time_duration.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_drain_per_issue_active.ratio ./bin_stld sim
  pack ;;
esac
nvidia-smi -q -d CLOCK > "$R/clock_end.txt" 2>&1
log "done"
pack
