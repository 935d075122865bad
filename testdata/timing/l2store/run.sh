#!/bin/bash
# run.sh: records l2store.cu in one device call (issue 19, helper dram7; 2026-11-28 on an H200: the H100's
# GH100 chip, L2 and clocks, HBM3e). Stage l2store.cu and this script in /work/main/.dev/dram7/, then on the device
# machine `cd .dev/dram7 && bash run.sh`. Writes into $OUT: env.txt (date, nvidia-smi, nvcc, ncu), events.txt (each
# configuration and its CUDA-event time, clocks as found, L2 flushed before each of 7 timed launches),
# ncu.csv (Nsight Compute --clock-control base --cache-control all: every measured kernel once, the metrics the
# chip has of $M), ncu2.csv (the same with the extra metrics $M2 that exist), l2store_nvcc.ptx (what warpsim
# runs), sass.txt.gz and stg.txt (the SASS's LDG/STG forms), log. Every step under a timeout.
set -o pipefail
OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
T0=$SECONDS; log() { echo "[$((SECONDS - T0))s] $*"; }
{ date -u; nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem --format=csv; nvcc --version; ncu --version; } > "$OUT/env.txt" 2>&1
timeout 100 nvcc -O3 -arch=sm_90 -lineinfo -o bin_l2store l2store.cu >> "$OUT/env.txt" 2>&1 || echo "nvcc failed" >> "$OUT/env.txt" &
timeout 60 nvcc -O3 -arch=sm_90 -ptx -o "$OUT/l2store_nvcc.ptx" l2store.cu >> "$OUT/env.txt" 2>&1 &
timeout 60 ncu --query-metrics --chip gh100 > metrics.txt 2>&1 &
wait; log "built"
timeout 30 cuobjdump -sass bin_l2store > sass.txt 2>&1
awk '/Function :/{f=$3} /(LDG|STG)/{match($0,/(LDG|STG)[A-Z0-9.]*/); c[f" "substr($0,RSTART,RLENGTH)]++} END{for(k in c)print k, c[k]}' sass.txt | sort > "$OUT/stg.txt"
gzip -c sass.txt > "$OUT/sass.txt.gz"; cat "$OUT/stg.txt"
timeout 40 ./bin_l2store > "$OUT/events.txt" 2>> "$OUT/env.txt"; log "events rc=$?"
cat "$OUT/events.txt" | awk '{print $2, $NF}'
# metric names the chip has (base names of the query), the rest dropped and noted
have() { local out=""; for m in $(echo "$1" | tr , ' '); do b=${m%%.*}; if ! grep -q lts__t_sectors metrics.txt || grep -qw "$b" metrics.txt; then out="$out,$m"; else echo "no metric $m" >> "$OUT/env.txt"; fi; done; echo "${out#,}"; }
M=gpu__time_duration.sum,gpc__cycles_elapsed.avg.per_second,lts__cycles_elapsed.avg.per_second,sm__cycles_active.avg,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sectors_op_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_requests_srcunit_tex_op_write.sum,lts__t_sectors_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,smsp__average_warp_latency_issue_stalled_drain.ratio
M2=lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_ltcfabric_op_write.sum,lts__t_sectors_srcunit_ltcfabric_op_read.sum,lts__t_sectors_aperture_device_op_write_lookup_miss.sum,lts__d_sectors_fill_device.sum,lts__average_t_sector_hit_rate_srcunit_tex_op_write.pct,lts__t_sectors_srcnode_fbp.sum
MA=$(have $M); MB=$(have $M2); log "metrics: ${MA//,/ } | ${MB//,/ }"
export BENCH_NCU=1
F="--csv --print-units base --clock-control base --cache-control all --kernel-name regex:^(st|ld|cp|stld)_"
timeout 75 ncu $F --metrics "$MA" ./bin_l2store > "$OUT/ncu.csv" 2> ncu.err; log "ncu rc=$? lines=$(wc -l < $OUT/ncu.csv)"
if [ "$(wc -l < $OUT/ncu.csv)" -lt 20 ]; then  # refused at base clock: again as found, and say so
  echo "ncu at --clock-control base failed; ncu.csv is --clock-control none" >> "$OUT/env.txt"; tail -5 ncu.err >> "$OUT/env.txt"
  F=${F/--clock-control base/--clock-control none}
  timeout 60 ncu $F --metrics "$MA" ./bin_l2store > "$OUT/ncu.csv" 2> ncu.err; log "ncu (none) rc=$? lines=$(wc -l < $OUT/ncu.csv)"
fi
{ echo "--- ncu stderr"; tail -20 ncu.err; } >> "$OUT/env.txt"
[ -n "$MB" ] && { timeout $((135 - (SECONDS - T0))) ncu $F --metrics "$MB" ./bin_l2store > "$OUT/ncu2.csv" 2> ncu2.err; log "ncu2 rc=$? lines=$(wc -l < $OUT/ncu2.csv)"; { echo "--- ncu2 stderr"; tail -20 ncu2.err; } >> "$OUT/env.txt"; }
python3 - "$OUT/ncu.csv" <<'PY'
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
c = {k: i for i, k in enumerate(rows[0])}; v = {}; name = {}
for r in rows[1:]:
    k = int(r[c['ID']]); name[k] = r[c['Kernel Name']]
    try: v.setdefault(k, {})[r[c['Metric Name']]] = float(r[c['Metric Value']].replace(',', ''))
    except ValueError: pass
for k in sorted(v):
    d = v[k]; g = d.get
    print(k, name[k], g('gpu__time_duration.sum'), 'wsec', g('lts__t_sectors_srcunit_tex_op_write.sum'), 'wreq', g('lts__t_requests_srcunit_tex_op_write.sum'),
          'dramR %.2f MB W %.2f MB' % (g('dram__bytes_read.sum', 0) / 1e6, g('dram__bytes_write.sum', 0) / 1e6), 'lg', g('smsp__average_warp_latency_issue_stalled_lg_throttle.ratio'))
PY
log "done"
