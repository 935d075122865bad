#!/bin/bash
# Times warpsim's timing mode (every block in detail) on grids of 31 and 62
# waves with its SMs on 1, 2, 4, 8 and 16 cores (GOMAXPROCS), checks that
# the output is byte-identical for every core count, and times the build
# before the parallel quantum model (warpsim_base, main at 6df2756) on one
# core for the serial path's cost. Made for the partime helper's one call.
set -x
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT/json"
nproc
lscpu | grep -E "Model name|^CPU\(s\)|Thread|Socket|MHz" || true
gunzip -f warpsim.gz warpsim_base.gz || true
chmod +x warpsim warpsim_base
R=$OUT/results.txt
TIMEFORMAT='%R %U %S'
set +x
one() { # name binary cores launchfile
	local name=$1 bin=$2 w=$3 f=$4 rc
	{ time GOMAXPROCS=$w timeout 150 ./$bin run "$f" --mode timing --no-sampling --json --metrics all \
		> "$OUT/json/$name.$bin.w$w.json" 2> "$OUT/json/$name.$bin.w$w.err" ; rc=$? ; } 2> "$OUT/time.tmp"
	echo "$name $bin cores=$w wall_user_sys=[$(cat "$OUT/time.tmp")] rc=$rc $(tail -c 200 "$OUT/json/$name.$bin.w$w.err" | tr '\n' ' ')" | tee -a "$R"
}
for w in 1 2 4 8 16; do one neighbored warpsim $w reduce_neighbored_2p23.json; done
one neighbored warpsim_base 1 reduce_neighbored_2p23.json
for w in 1 2 4 8 16; do one copy warpsim $w copy_2p24.json; done
one copy warpsim_base 1 copy_2p24.json
for w in 1 8 16; do one interleaved warpsim $w reduce_interleaved_2p23.json; done
one interleaved warpsim_base 1 reduce_interleaved_2p23.json
cd "$OUT/json"
for n in neighbored copy interleaved; do
	for f in $n.warpsim.w*.json; do
		if cmp -s "$n.warpsim.w1.json" "$f"; then echo "$f identical to $n.warpsim.w1.json"; else echo "$f DIFFERS from $n.warpsim.w1.json"; fi
	done
done | tee -a "$R"
cd "$OUT" && tar czf json.tgz json && rm -rf json
cat "$R"
