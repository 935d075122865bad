#!/bin/bash
# bar6 (issue 19, nineteenth round): the parallel timing driver's speed-up
# on the quiet 16-core device machine, three builds alternating run by run:
# prof_base (main at cc40de06), prof_crew (the grid's goroutine keeps a
# list of SMs of its own in the crew, a worker out of SMs takes from the
# others' tails) and prof_huge (prof_crew and the engine's register files
# in huge-page-aligned slabs advised MADV_HUGEPAGE). Each built here with
# CGO_ENABLED=0 go build -trimpath -ldflags='-s -w'
# ../parallel4/prof.go (a launch file's launches in timing mode without
# sampling on N workers, GOMAXPROCS = N, every metric of every launch as
# JSON; a third argument writes a CPU profile). The four grids of
# ../parallel3 at 1, 8 and 16 workers, three rounds, each run under
# /usr/bin/time (wall, user, system seconds, minor faults, maximum
# resident KB, involuntary and voluntary context switches); runs past
# LIMIT seconds are skipped. Every output is compared, as it is made, with
# prof_base's on one worker. After the first round: eight one-worker
# prof_base processes of the barrier grid at once, then one alone (the
# host's own share), and CPU profiles of the barrier grid on 1 and 8
# workers (prof_base, prof_huge).
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT/json"
nproc
lscpu | grep -E "Model name|^CPU\(s\)|Thread|Socket|MHz|L2|L3" || true
nvidia-smi -L || true
uname -r
cat /proc/loadavg
echo "thp: $(cat /sys/kernel/mm/transparent_hugepage/enabled) defrag: $(cat /sys/kernel/mm/transparent_hugepage/defrag)"
grep -E "MemFree|AnonHuge" /proc/meminfo
xz -d < bins.tar.xz | tar xf - || exit 1
chmod +x prof_base prof_crew prof_huge
R=$OUT/results.txt
LIMIT=${LIMIT:-250} # seconds: later runs are skipped, so the results are packed in time
TF='wall_user_sys_faults_maxkb_ivcs_vcs=[%e %U %S %R %M %c %w]'
one() { # name binary cores launchfile round [profile]
	local name=$1 bin=$2 w=$3 f=$4 r=$5 p=$6 rc j
	if [ $SECONDS -gt $LIMIT ]; then echo "$name $bin cores=$w round=$r skipped (past ${LIMIT}s)" | tee -a "$R"; return; fi
	j=$OUT/json/$name.$bin.w$w.r$r.json
	GOMAXPROCS=$w /usr/bin/time -f "$TF" -o "$OUT/time.tmp" timeout 40 ./$bin "in/$f" $w $p > "$j" 2> "$OUT/json/$name.$bin.w$w.r$r.err"; rc=$?
	echo "$name $bin cores=$w round=$r $(tr '\n' ' ' < "$OUT/time.tmp") rc=$rc $(tail -c 200 "$OUT/json/$name.$bin.w$w.r$r.err" | tr '\n' ' ')" | tee -a "$R"
	if cmp -s "$OUT/json/$name.prof_base.w1.r1.json" "$j"; then echo "  identical to $name.prof_base.w1.r1.json" >> "$R"
	else echo "  $j DIFFERS from $name.prof_base.w1.r1.json" | tee -a "$R"; fi
}
for r in 1 2 3; do
	echo "round $r load $(cat /proc/loadavg)" >> "$R"
	for k in ri_8w copy_2p22 fma_8w barrier; do
		for w in 1 8 16; do
			for b in prof_base prof_crew prof_huge; do one $k $b $w $k.json $r; done
		done
	done
	if [ $r = 1 ]; then
		echo "host share load $(cat /proc/loadavg)" >> "$R"
		for i in 1 2 3 4 5 6 7 8; do
			GOMAXPROCS=1 /usr/bin/time -f "$TF" -o "$OUT/share.$i" ./prof_base in/barrier.json 1 > "$OUT/json/share.$i.json" 2>/dev/null &
		done
		wait
		for i in 1 2 3 4 5 6 7 8; do echo "barrier prof_base cores=1 one of eight at once: $(cat "$OUT/share.$i")" | tee -a "$R"; cmp -s "$OUT/json/share.$i.json" "$OUT/json/barrier.prof_base.w1.r1.json" || echo "  share.$i DIFFERS" | tee -a "$R"; rm -f "$OUT/share.$i" "$OUT/json/share.$i.json"; done
		GOMAXPROCS=1 /usr/bin/time -f "$TF" -o "$OUT/time.tmp" ./prof_base in/barrier.json 1 > /dev/null 2>&1
		echo "barrier prof_base cores=1 alone right after: $(cat "$OUT/time.tmp")" | tee -a "$R"
		echo "profiles load $(cat /proc/loadavg)" >> "$R"
		for b in prof_base prof_huge; do
			for w in 1 8; do one barrier $b $w barrier.json p "$OUT/json/barrier.$b.w$w.cpu.pprof"; done
		done
	fi
done
echo "outputs identical to the baseline's on one worker: $(grep -c '  identical' "$R"), differing: $(grep -c DIFFERS "$R")" | tee -a "$R"
grep -E "AnonHuge" /proc/meminfo
echo "seconds: $SECONDS"
cd "$OUT" && tar czf json.tgz json && rm -rf json time.tmp
