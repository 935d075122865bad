#!/bin/bash
# prof_instr (the persist branch with instr.diff: PT7 lines, per grid, of
# where a parallel grid's wall time goes on its crew) and prof (the branch)
# on the four grids, 8 and 16 workers (GOMAXPROCS = workers), one run each.
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
cat /proc/loadavg
xz -d < bins2.tar.xz | tar xf - || exit 1
for k in ri_8w copy_2p22 fma_8w barrier; do
	for w in 8 16; do
		for b in prof prof_instr; do
			/usr/bin/time -f "$k $b cores=$w wall_user_sys=[%e %U %S]" -o /tmp/t.txt env GOMAXPROCS=$w timeout 20 ./$b in/$k.json $w > /tmp/o.json 2> /tmp/e.txt
			cat /tmp/t.txt; grep PT7 /tmp/e.txt
			[ $b = prof_instr ] && { cmp -s /tmp/o.json /tmp/p.json && echo "  output identical to prof's" || echo "  output DIFFERS from prof's"; }
			cp /tmp/o.json /tmp/p.json
		done
	done
done
echo "seconds: $SECONDS"
