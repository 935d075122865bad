#!/bin/bash
# run.sh: the H200 launch-cost recording (issue 19, helper h200l), one device call. Run from this folder
# (a copy of it) on the GPU machine inside the repository (../bench, or $BENCH, is the H100's calibration
# benchmarks):
#   1. launchcost.cu built with nvcc 13 -O3 -arch=sm_90 (its PTX and SASS kept);
#   2. `launchcost host`: CUDA events at the clocks as found (events.txt);
#   3. Nsight Compute at --clock-control base (caches flushed, as every H100 recording) on each
#      configuration's 5 launches (ncu_base.csv), then again at --clock-control none (ncu_none.csv: the
#      clock as found, to tell a fixed cost in ns from one in cycles);
#   4. ../bench/record.sh with ONLY="launch lat" (the H100's launch and latency families unchanged, its
#      own metric list, base clock): calib/results.tgz.
# Everything lands in $OUT/h200launch.tgz; a summary on stdout.
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
R=/tmp/h200launch; rm -rf $R; mkdir -p $R/calib
T0=$SECONDS; log() { echo "[$((SECONDS - T0))s] $*"; }
pack() { tar czf $OUT/h200launch.tgz -C $R . ; }
HERE=$PWD; BENCH=$(cd ${BENCH:-$HERE/../bench} && pwd)
{ date -u; nvidia-smi; nvcc --version; ncu --version;
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; } > $R/env.txt 2>&1
nvidia-smi -q -d CLOCK,PERFORMANCE > $R/clocks_before.txt 2>&1
cd /tmp && cp $HERE/launchcost.cu . && rm -rf /tmp/bench && cp -r $BENCH /tmp/bench
timeout 120 nvcc -O3 -arch=sm_90 -lineinfo -o launchcost launchcost.cu > $R/build.txt 2>&1; log "build rc=$?"
nvcc -O3 -arch=sm_90 -lineinfo -ptx -o $R/launchcost.ptx launchcost.cu >> $R/build.txt 2>&1
cuobjdump -sass launchcost > $R/launchcost.sass 2>&1
timeout 60 ./launchcost host > $R/events.txt 2> $R/events.err; log "events rc=$?"; cat $R/events.txt; pack
M=gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__cycles_elapsed.avg.per_second,sm__cycles_active.avg,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,gpc__cycles_elapsed.max,dram__bytes_write.sum
for cc in base none; do
  BENCH_NCU=1 timeout 90 ncu --csv --print-units base --clock-control $cc --metrics "$M" ./launchcost > $R/ncu_$cc.csv 2> $R/ncu_$cc.err
  log "ncu $cc rc=$? rows=$(grep -c gpu__time_duration $R/ncu_$cc.csv)"
  if ! grep -q gpu__time_duration $R/ncu_$cc.csv; then
    tail -5 $R/ncu_$cc.csv $R/ncu_$cc.err
    M=gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__cycles_elapsed.avg.per_second,sm__warps_active.avg.pct_of_peak_sustained_active
    BENCH_NCU=1 timeout 90 ncu --csv --print-units base --clock-control $cc --metrics "$M" ./launchcost > $R/ncu_$cc.csv 2> $R/ncu_$cc.err
    log "ncu $cc fallback rc=$? rows=$(grep -c gpu__time_duration $R/ncu_$cc.csv)"
  fi
  pack
done
python3 - $R/ncu_base.csv $R/ncu_none.csv <<'PY'
import csv, sys, statistics
for f in sys.argv[1:]:
    rows = list(csv.reader(l for l in open(f) if l.startswith('"')))
    if not rows: continue
    c = {k: i for i, k in enumerate(rows[0])}
    d = {}
    for r in rows[1:]:
        d.setdefault(int(r[c['ID']]), {})[r[c['Metric Name']]] = float(r[c['Metric Value']].replace(',', ''))
    ids = sorted(d)
    print(f, len(ids), 'launches')
    for i in range(0, len(ids), 5):
        g = [d[j] for j in ids[i:i + 5]]
        print(i // 5, 'dur', [int(x['gpu__time_duration.sum']) for x in g], 'GHz %.3f' % (statistics.median(x['sm__cycles_elapsed.avg.per_second'] for x in g) / 1e9))
PY
cd /tmp/bench && ONLY="launch lat" BUDGET=100 OUT=$R/calib RES=/tmp/calib_res timeout 130 bash record.sh; log "calib rc=$?"
tail -n 12 $R/calib/log.txt
nvidia-smi -q -d CLOCK,PERFORMANCE > $R/clocks_after.txt 2>&1
pack; ls -la $OUT; log "done"
