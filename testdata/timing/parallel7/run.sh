#!/bin/bash
# The parallel timing driver's speed-up on the quiet 16-core device machine,
# main at 28054c3 (prof_base) against the persist branch (prof: a parallel
# grid's threads live for the whole grid, crew.go), in one call:
# ../parallel4/prof.go built from each tree (CGO_ENABLED=0 go build -trimpath
# -ldflags='-s -w') runs FILE's launches in timing mode without sampling on N
# workers (GOMAXPROCS = N) and prints every metric of every launch as JSON,
# on the four grids of ../parallel3 (reduceInterleaved at 8 waves, a stream
# copy, an FMA loop, a cuda::barrier kernel reading %globaltimer), N = 1, 2,
# 4, 8 and 16 in the first round and 1, 8 and 16 in two more, the two builds
# alternating run by run, each under /usr/bin/time (wall, user, system
# seconds, minor page faults, maximum resident KB); runs past LIMIT seconds
# are skipped. Every output is compared, as it is made, with the baseline's
# on one worker. The two builds travel as one xz tar (bins.tar.xz) beside
# this script in the call's .dev/persist, with the launch files and PTX in
# in/.
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT/json"
nproc
lscpu | grep -E "Model name|^CPU\(s\)|Thread|Socket|MHz|L2|L3" || true
nvidia-smi -L || true
cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || true
uname -r
cat /proc/loadavg
xz -d < bins.tar.xz | tar xf - || exit 1
chmod +x prof prof_base
R=$OUT/results.txt
LIMIT=${LIMIT:-200} # seconds: later runs are skipped, so the results are packed in time
TIME=/usr/bin/time
[ -x $TIME ] || TIME=
TIMEFORMAT='wall_user_sys_faults_maxkb=[%R %U %S - -]'
one() { # name binary cores launchfile round
	local name=$1 bin=$2 w=$3 f=$4 r=$5 rc j
	if [ $SECONDS -gt $LIMIT ]; then echo "$name $bin cores=$w round=$r skipped (past ${LIMIT}s)" | tee -a "$R"; return; fi
	j=$OUT/json/$name.$bin.w$w.r$r.json
	if [ -n "$TIME" ]; then
		GOMAXPROCS=$w $TIME -f 'wall_user_sys_faults_maxkb=[%e %U %S %R %M]' -o "$OUT/time.tmp" timeout 30 ./$bin "in/$f" $w > "$j" 2> "$OUT/json/$name.$bin.w$w.r$r.err"; rc=$?
	else
		{ time GOMAXPROCS=$w timeout 30 ./$bin "in/$f" $w > "$j" 2> "$OUT/json/$name.$bin.w$w.r$r.err" ; rc=$? ; } 2> "$OUT/time.tmp"
	fi
	echo "$name $bin cores=$w round=$r $(tr '\n' ' ' < "$OUT/time.tmp") rc=$rc $(tail -c 200 "$OUT/json/$name.$bin.w$w.r$r.err" | tr '\n' ' ')" | tee -a "$R"
	if cmp -s "$OUT/json/$name.prof_base.w1.r1.json" "$j"; then echo "  identical to $name.prof_base.w1.r1.json" >> "$R"
	else echo "  $j DIFFERS from $name.prof_base.w1.r1.json" | tee -a "$R"; fi
}
for r in 1 2 3; do
	cores="1 8 16"
	[ $r = 1 ] && cores="1 2 4 8 16"
	echo "round $r load $(cat /proc/loadavg)" >> "$R"
	for k in ri_8w copy_2p22 fma_8w barrier; do
		for w in $cores; do
			for b in prof_base prof; do one $k $b $w $k.json $r; done
		done
	done
done
echo "outputs identical to the baseline's on one worker: $(grep -c '  identical' "$R"), differing: $(grep -c DIFFERS "$R")" | tee -a "$R"
echo "seconds: $SECONDS"
cd "$OUT" && tar czf json.tgz json && rm -rf json time.tmp
