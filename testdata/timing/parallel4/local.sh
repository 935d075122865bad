#!/bin/bash
# What could be measured without the device machine (see README): on the
# shared 2-core VM, prof.go built from main at 3014e8f (prof_base) and from
# the branch (prof) in the folder given as $1, on the four grids of run.sh:
# both builds on 1 worker alternating, two rounds (CPU time: user + sys;
# the wall time is the shared machine's), then the branch on 2, 8 and 16
# workers; every output compared with the baseline's on one worker.
BIN=${1:?folder with prof and prof_base}
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/partime_local}
mkdir -p "$OUT/json"
R=$OUT/local.txt
TIMEFORMAT='%R %U %S'
one() { # name binary workers round
	local name=$1 bin=$2 w=$3 r=$4 rc j
	j=$OUT/json/$name.$bin.w$w.r$r.json
	{ time GOMAXPROCS=$w timeout 600 "$BIN/$bin" "$OUT/in/$name.json" $w > "$j" 2> "$j.err" ; rc=$? ; } 2> "$OUT/time.tmp"
	echo "$name $bin workers=$w round=$r wall_user_sys=[$(cat "$OUT/time.tmp")] rc=$rc" | tee -a "$R"
	if cmp -s "$OUT/json/$name.prof_base.w1.r1.json" "$j"; then echo "  identical to $name.prof_base.w1.r1.json" >> "$R"
	else echo "  $j DIFFERS from $name.prof_base.w1.r1.json" | tee -a "$R"; fi
}
mkdir -p "$OUT/in"
cp ../parallel2/ri_8w.json ../parallel2/copy_2p22.json ../parallel2/fma_8w.json ../parallel2/fma.ptx \
	../bench/lessons_small.ptx ../bench/stream.ptx ../parallel3/barrier.json ../parallel3/barrier_clock.ptx "$OUT/in/"
uptime | tee -a "$R"
for r in 1 2; do
	for k in ri_8w copy_2p22 fma_8w barrier; do
		for b in prof_base prof; do one $k $b 1 $r; done
	done
done
for k in ri_8w copy_2p22 fma_8w barrier; do
	for w in 2 8 16; do one $k prof $w 1; done
done
uptime | tee -a "$R"
echo "outputs identical to the baseline's on one worker: $(grep -c '  identical' "$R"), differing: $(grep -c DIFFERS "$R")" | tee -a "$R"
