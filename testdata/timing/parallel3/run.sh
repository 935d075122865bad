#!/bin/bash
# The parallel timing driver's speed-up on the quiet 16-core device machine,
# before (main at 110018b: warpsim_base) and after the partime3 branch
# (warpsim), in one call: `warpsim run FILE --mode timing --no-sampling
# --json --metrics all` on the four grids of ../parallel2 (reduceInterleaved
# at 8 waves, a stream copy, an FMA loop; reduceInterleaved at 2^23 ints)
# and a cuda::barrier kernel that reads %globaltimer (barrier.json: 8448
# blocks of 256, 8 waves; barrier_clock.cu's k_bar, its PTX from `warpsim
# compile`), with GOMAXPROCS (the timing driver's workers) = 1, 8 and 16 in
# three rounds and 2 and 4 in the first, the two builds alternating run by
# run; then reduceInterleaved at 2^23 ints once on 1 and 8 cores. Every
# output is compared, as it is made, with the baseline's on one core.
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT/json"
nproc
lscpu | grep -E "Model name|^CPU\(s\)|Thread|Socket|MHz" || true
xz -d -c bins.tar.xz | tar xf - || python3 -c "import lzma,tarfile; tarfile.open(fileobj=lzma.open('bins.tar.xz')).extractall('.')"
chmod +x warpsim warpsim_base
R=$OUT/results.txt
TIMEFORMAT='%R %U %S'
one() { # name binary cores launchfile round
	local name=$1 bin=$2 w=$3 f=$4 r=$5 rc j
	j=$OUT/json/$name.$bin.w$w.r$r.json
	{ time GOMAXPROCS=$w timeout 60 ./$bin run "$f" --mode timing --no-sampling --json --metrics all \
		> "$j" 2> "$OUT/json/$name.$bin.w$w.r$r.err" ; rc=$? ; } 2> "$OUT/time.tmp"
	echo "$name $bin cores=$w round=$r wall_user_sys=[$(cat "$OUT/time.tmp")] rc=$rc $(tail -c 200 "$OUT/json/$name.$bin.w$w.r$r.err" | tr '\n' ' ')" | tee -a "$R"
	if cmp -s "$OUT/json/$name.warpsim_base.w1.r1.json" "$j"; then echo "  identical to $name.warpsim_base.w1.r1.json" >> "$R"
	else echo "  $j DIFFERS from $name.warpsim_base.w1.r1.json" | tee -a "$R"; fi
}
for r in 1 2 3; do
	cores="1 8 16"
	[ $r = 1 ] && cores="1 2 4 8 16"
	for k in ri_8w copy_2p22 fma_8w barrier; do
		for w in $cores; do
			for b in warpsim_base warpsim; do one $k $b $w $k.json $r; done
		done
	done
done
for w in 1 8; do for b in warpsim_base warpsim; do one ri_2p23 $b $w ri_2p23.json 1; done; done
echo "outputs identical to the baseline's on one core: $(grep -c '  identical' "$R"), differing: $(grep -c DIFFERS "$R")" | tee -a "$R"
cd "$OUT" && tar czf json.tgz json && rm -rf json time.tmp
