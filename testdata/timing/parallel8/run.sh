#!/bin/bash
# The parallel timing driver's speed-up on the quiet 16-core device machine,
# main at 2b1f2a7 (prof_base) against the partime5 branch (prof: per-SM
# state padded off other SMs' cache lines), in one call. Built from each
# tree with CGO_ENABLED=0 go build -trimpath -ldflags='-s -w'
# ../parallel4/prof.go: it runs FILE's launches in timing mode without
# sampling on N workers (GOMAXPROCS = N) and prints every metric of every
# launch as JSON. The four grids of ../parallel3 (reduceInterleaved at 8
# waves, a stream copy, an FMA loop, a cuda::barrier kernel reading
# %globaltimer); N = 1, 2, 4, 8 and 16 in the first round, 1 and 8 in two
# more, the two builds alternating run by run, each under /usr/bin/time
# (wall, user, system seconds, minor faults, maximum resident KB,
# involuntary and voluntary context switches); runs past LIMIT seconds are
# skipped. Every output is compared, as it is made, with the baseline's on
# one worker.
#
# The host's own share (conc): after the first round, K one-worker
# processes of the branch at once (K = 8, then 1 alone as the reference),
# on the FMA loop and on the reduction, each under
# /usr/bin/time: if eight independent one-worker runs each take longer than
# one alone, that part of an 8-worker run's extra CPU is the host's (clocks
# with eight cores busy, the shared L3, the hypervisor), not the simulator's.
# /proc/stat's cpu line (steal among its columns) is printed before and
# after. The two builds travel as one xz tar (bins.tar.xz) beside this
# script in the call's .dev/partime5, with the launch files and PTX in in/.
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT/json"
nproc
lscpu | grep -E "Model name|^CPU\(s\)|Thread|Socket|MHz|L2|L3" || true
nvidia-smi -L || true
cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || true
uname -r
cat /proc/loadavg
grep '^cpu ' /proc/stat
xz -d < bins.tar.xz | tar xf - || exit 1
chmod +x prof prof_base
R=$OUT/results.txt
LIMIT=${LIMIT:-150} # seconds: later runs are skipped, so the results are packed in time
TF='wall_user_sys_faults_maxkb_ivcs_vcs=[%e %U %S %R %M %c %w]'
one() { # name binary cores launchfile round
	local name=$1 bin=$2 w=$3 f=$4 r=$5 rc j
	if [ $SECONDS -gt $LIMIT ]; then echo "$name $bin cores=$w round=$r skipped (past ${LIMIT}s)" | tee -a "$R"; return; fi
	j=$OUT/json/$name.$bin.w$w.r$r.json
	GOMAXPROCS=$w /usr/bin/time -f "$TF" -o "$OUT/time.tmp" timeout 30 ./$bin "in/$f" $w > "$j" 2> "$OUT/json/$name.$bin.w$w.r$r.err"; rc=$?
	echo "$name $bin cores=$w round=$r $(tr '\n' ' ' < "$OUT/time.tmp") rc=$rc $(tail -c 200 "$OUT/json/$name.$bin.w$w.r$r.err" | tr '\n' ' ')" | tee -a "$R"
	if cmp -s "$OUT/json/$name.prof_base.w1.r1.json" "$j"; then echo "  identical to $name.prof_base.w1.r1.json" >> "$R"
	else echo "  $j DIFFERS from $name.prof_base.w1.r1.json" | tee -a "$R"; fi
}
conc() { # name launchfile copies tag
	local name=$1 f=$2 k=$3 tag=$4 i
	echo "conc $name copies=$k $tag load $(cat /proc/loadavg)" | tee -a "$R"
	for i in $(seq 1 $k); do
		GOMAXPROCS=1 /usr/bin/time -f "$TF" -o "$OUT/conc.$i" timeout 60 ./prof "in/$f" 1 > "$OUT/conc.$i.json" 2>/dev/null &
	done
	sleep 1; grep MHz /proc/cpuinfo | sort | uniq -c | head -4 | tee -a "$R"
	wait
	for i in $(seq 1 $k); do
		echo "conc $name copies=$k $tag #$i $(cat "$OUT/conc.$i")" | tee -a "$R"
		cmp -s "$OUT/json/$name.prof_base.w1.r1.json" "$OUT/conc.$i.json" && echo "  identical to $name.prof_base.w1.r1.json" >> "$R" || echo "  conc $name #$i DIFFERS" | tee -a "$R"
	done
	rm -f "$OUT"/conc.*
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
		for k in fma_8w ri_8w; do
			conc $k $k.json ${CONC:-8} together
			conc $k $k.json 1 alone
		done
	fi
done
grep '^cpu ' /proc/stat
echo "outputs identical to the baseline's on one worker: $(grep -c '  identical' "$R"), differing: $(grep -c DIFFERS "$R")" | tee -a "$R"
echo "seconds: $SECONDS"
cd "$OUT" && tar czf json.tgz json && rm -rf json time.tmp
