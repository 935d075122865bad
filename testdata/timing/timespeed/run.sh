#!/bin/bash
# Times warpsim's timing mode (every block in detail) before (main 9344c23,
# warpsim_base) and after the timespeed branch (warpsim) on one core, and
# the branch on 1, 2, 4, 8 and 16 cores (GOMAXPROCS), on the quiet 16-core
# device machine; checks that every output is byte-identical to the
# baseline's. Made for the timespeed helper's one call.
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT/json"
nproc
lscpu | grep -E "Model name|^CPU\(s\)|Thread|Socket|MHz" || true
for b in warpsim warpsim_base; do
	xz -d -k -f $b.xz 2>/dev/null || python3 -c "import lzma,sys; open(sys.argv[1],'wb').write(lzma.open(sys.argv[1]+'.xz').read())" $b
done
chmod +x warpsim warpsim_base
R=$OUT/results.txt
TIMEFORMAT='%R %U %S'
one() { # name binary cores launchfile
	local name=$1 bin=$2 w=$3 f=$4 rc
	{ time GOMAXPROCS=$w timeout 60 ./$bin run "$f" --mode timing --no-sampling --json --metrics all \
		> "$OUT/json/$name.$bin.w$w.json" 2> "$OUT/json/$name.$bin.w$w.err" ; rc=$? ; } 2> "$OUT/time.tmp"
	echo "$name $bin cores=$w wall_user_sys=[$(cat "$OUT/time.tmp")] rc=$rc $(tail -c 200 "$OUT/json/$name.$bin.w$w.err" | tr '\n' ' ')" | tee -a "$R"
}
one interleaved warpsim_base 1 reduce_interleaved_2p23.json
one interleaved warpsim 1 reduce_interleaved_2p23.json
one copy warpsim_base 1 copy_2p24.json
one copy warpsim 1 copy_2p24.json
for w in 2 4 8 16; do one interleaved warpsim $w reduce_interleaved_2p23.json; done
one interleaved warpsim_base 8 reduce_interleaved_2p23.json
for w in 8 16; do one copy warpsim $w copy_2p24.json; done
one copy warpsim_base 8 copy_2p24.json
cd "$OUT/json"
for n in copy interleaved; do
	for f in $n.warpsim*.w*.json; do
		if cmp -s "$n.warpsim_base.w1.json" "$f"; then echo "$f identical to $n.warpsim_base.w1.json"; else echo "$f DIFFERS from $n.warpsim_base.w1.json"; fi
	done
done | tee -a "$R"
cd "$OUT" && tar czf json.tgz json && rm -rf json
cat "$R"
