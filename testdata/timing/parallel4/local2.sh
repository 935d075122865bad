#!/bin/bash
# local.sh again with the branch's final build: prof (the branch) and
# prof_base (main) from the folder given as $1 on one worker, the branch
# first in each pair, two rounds on reduceInterleaved and the copy; then the
# branch on 8 workers on all four grids. Outputs are compared with main's on
# one worker from local.sh's run ($OUT, which it must have left).
BIN=${1:?folder with prof and prof_base}
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/partime_local}
R=$OUT/local2.txt
TIMEFORMAT='%R %U %S'
one() { # name binary workers round
	local name=$1 bin=$2 w=$3 r=$4 rc j
	j=$OUT/json/$name.$bin.w$w.r$r.final.json
	{ time GOMAXPROCS=$w timeout 600 "$BIN/$bin" "$OUT/in/$name.json" $w > "$j" 2> "$j.err" ; rc=$? ; } 2> "$OUT/time.tmp"
	echo "$name $bin workers=$w round=$r wall_user_sys=[$(cat "$OUT/time.tmp")] rc=$rc" | tee -a "$R"
	if cmp -s "$OUT/json/$name.prof_base.w1.r1.json" "$j"; then echo "  identical to $name.prof_base.w1.r1.json" >> "$R"
	else echo "  $j DIFFERS from $name.prof_base.w1.r1.json" | tee -a "$R"; fi
}
uptime | tee -a "$R"
for r in 1 2; do
	for k in ri_8w copy_2p22; do
		for b in prof prof_base; do one $k $b 1 $r; done
	done
done
for k in ri_8w copy_2p22 fma_8w barrier; do one $k prof 8 1; done
uptime | tee -a "$R"
echo "outputs identical to the baseline's on one worker: $(grep -c '  identical' "$R"), differing: $(grep -c DIFFERS "$R")" | tee -a "$R"
