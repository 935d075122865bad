#!/bin/bash
# The parallel timing driver's speed-up on the quiet 16-core device machine,
# main at 7511c380 (prof_base) against the tpar branch (prof: a device's
# grids reuse its SMs, pooled blocks and workers keep what they grew), in
# one call; ../parallel8/run.sh's method. Built from each tree with
# CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' ../parallel4/prof.go:
# it runs FILE's launches in timing mode without sampling on N workers
# (GOMAXPROCS = N) and prints every metric of every launch as JSON. The
# four grids of ../parallel3 (reduceInterleaved at 8 waves, a stream copy,
# an FMA loop, a cuda::barrier kernel reading %globaltimer); N = 1, 2, 4, 8
# and 16 in the first round, 1 and 8 in two more, the two builds
# alternating run by run, each under /usr/bin/time (wall, user, system
# seconds, minor faults, maximum resident KB, involuntary and voluntary
# context switches); runs past LIMIT seconds are skipped. Every output is
# compared, as it is made, with the baseline's on one worker.
#
# After the first round: prof_instr (the branch with
# ../parallel7/instr.diff: a PT7 line per parallel grid, where its wall
# time goes on its crew) on the four grids at 8 and 16 workers; and
# ri_x4 (the reduction's two launches four times over on one device and
# module, where the branch's reuse of SMs, blocks and slots between grids
# shows) at 1 and 8 workers, both builds. The three builds travel as one
# xz tar (bins.tar.xz) beside this script, the launch files and PTX in in/.
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT/json"
nproc
lscpu | grep -E "Model name|^CPU\(s\)|Thread|Socket|MHz|L2|L3" || true
nvidia-smi -L || true
uname -r
cat /proc/loadavg
xz -d < bins.tar.xz | tar xf - || exit 1
chmod +x prof prof_base prof_instr
R=$OUT/results.txt
LIMIT=${LIMIT:-205} # seconds: later runs are skipped, so the results are packed in time
TF='wall_user_sys_faults_maxkb_ivcs_vcs=[%e %U %S %R %M %c %w]'
one() { # name binary cores launchfile round
	local name=$1 bin=$2 w=$3 f=$4 r=$5 rc j
	if [ $SECONDS -gt $LIMIT ]; then echo "$name $bin cores=$w round=$r skipped (past ${LIMIT}s)" | tee -a "$R"; return; fi
	j=$OUT/json/$name.$bin.w$w.r$r.json
	GOMAXPROCS=$w /usr/bin/time -f "$TF" -o "$OUT/time.tmp" timeout 40 ./$bin "in/$f" $w > "$j" 2> "$OUT/json/$name.$bin.w$w.r$r.err"; rc=$?
	echo "$name $bin cores=$w round=$r $(tr '\n' ' ' < "$OUT/time.tmp") rc=$rc $(grep -v PT7 "$OUT/json/$name.$bin.w$w.r$r.err" | tail -c 200 | tr '\n' ' ')" | tee -a "$R"
	grep PT7 "$OUT/json/$name.$bin.w$w.r$r.err" | sed 's/^/  /' | tee -a "$R"
	if cmp -s "$OUT/json/$name.prof_base.w1.r1.json" "$j"; then echo "  identical to $name.prof_base.w1.r1.json" >> "$R"
	else echo "  $j DIFFERS from $name.prof_base.w1.r1.json" | tee -a "$R"; fi
}
for r in 1 2 3; do
	cores="1 8"
	[ $r = 1 ] && cores="1 2 4 8 16"
	echo "round $r load $(cat /proc/loadavg)" >> "$R"
	for k in ri_8w copy_2p22 fma_8w barrier; do
		for w in $cores; do
			for b in prof_base prof; do one $k $b $w $k.json $r; done
		done
	done
	if [ $r = 1 ]; then
		echo "instrumented load $(cat /proc/loadavg)" >> "$R"
		for k in ri_8w copy_2p22 fma_8w barrier; do
			for w in 8 16; do one $k prof_instr $w $k.json 1; done
		done
		echo "repeated launches load $(cat /proc/loadavg)" >> "$R"
		for w in 1 8; do
			for b in prof_base prof; do one ri_x4 $b $w ri_x4.json 1; done
		done
	fi
done
echo "outputs identical to the baseline's on one worker: $(grep -c '  identical' "$R"), differing: $(grep -c DIFFERS "$R")" | tee -a "$R"
echo "seconds: $SECONDS"
cd "$OUT" && tar czf json.tgz json && rm -rf json time.tmp
