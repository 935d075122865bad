#!/bin/bash
# The parallel timing driver's speed-up on the quiet 16-core device machine,
# before (main at 665b86b: warpsim_base) and after the partime2 branch
# (warpsim), in one call: `warpsim run FILE --mode timing --no-sampling
# --json --metrics all` on three grids of at least 8 waves timed in full
# detail (reduceInterleaved, a stream copy, an FMA loop), with GOMAXPROCS
# (the timing driver's workers) = 1, 2, 4, 8 and 16, three rounds, the two
# builds alternating; then the reduce lesson's reduceInterleaved at 2^23
# ints (31 waves, the earlier measurements' grid) once on 1 and 8 cores.
# Every output is compared with the baseline's on one core.
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
	local name=$1 bin=$2 w=$3 f=$4 r=$5 rc
	{ time GOMAXPROCS=$w timeout 60 ./$bin run "$f" --mode timing --no-sampling --json --metrics all \
		> "$OUT/json/$name.$bin.w$w.r$r.json" 2> "$OUT/json/$name.$bin.w$w.r$r.err" ; rc=$? ; } 2> "$OUT/time.tmp"
	echo "$name $bin cores=$w round=$r wall_user_sys=[$(cat "$OUT/time.tmp")] rc=$rc $(tail -c 200 "$OUT/json/$name.$bin.w$w.r$r.err" | tr '\n' ' ')" | tee -a "$R"
}
for r in 1 2 3; do
	for k in ri_8w copy_2p22 fma_8w; do
		for w in 1 2 4 8 16; do
			for b in warpsim_base warpsim; do one $k $b $w $k.json $r; done
		done
	done
done
for b in warpsim_base warpsim; do for w in 1 8; do one ri_2p23 $b $w ri_2p23.json 1; done; done
cd "$OUT/json"
for k in ri_8w copy_2p22 fma_8w ri_2p23; do
	for f in $k.*.json; do
		if cmp -s "$k.warpsim_base.w1.r1.json" "$f"; then echo "$f identical to $k.warpsim_base.w1.r1.json"; else echo "$f DIFFERS from $k.warpsim_base.w1.r1.json"; fi
	done
done | tee -a "$R" | grep -c identical
grep -h DIFFERS "$R" | head
cd "$OUT" && tar czf json.tgz json && rm -rf json time.tmp
cat "$R" | grep -v identical
