#!/bin/bash
# Exploratory: parallel driver variants (throwaway build warpsim_exp: the
# branch at 8115e8a with explore.diff applied, never committed as code).
# WARPSIM_PARV: 0 the driver as it is (a goroutine per worker each
# quantum), 1 a pool of threads kept for the grid (one list, costliest SM
# first), 2 the pool with each thread's home SMs (sm.id mod threads) then
# stealing, 3 as 2 with the threads locked to OS threads, 4 as 2 without
# spinning; WARPSIM_AHEAD: the most workers on which SMs run ahead (2 as
# committed); WARPSIM_PARSTAT prints per grid the quanta, the host time in
# the quanta (overlap) and between them (serial), and the SMs' and the
# replay's busy time (work) and work / (workers x overlap) (eff);
# WARPSIM_PARPROF writes a CPU profile of the large grid.
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}
nproc; lscpu | grep -E "Model name|^CPU\(s\)|Socket|NUMA node" || true
xz -d -c exp.tar.xz | tar xf - || python3 -c "import lzma,tarfile; tarfile.open(fileobj=lzma.open('exp.tar.xz')).extractall('.')"
chmod +x warpsim_exp
R=$OUT/explore.txt
TIMEFORMAT='%R %U %S'
one() { # grid cores variant ahead round [extra env]
	local k=$1 w=$2 v=$3 a=$4 r=$5 rc
	{ time env $6 WARPSIM_PARSTAT=1 WARPSIM_PARV=$v WARPSIM_AHEAD=$a GOMAXPROCS=$w timeout 60 ./warpsim_exp run $k.json --mode timing --no-sampling --json --metrics all \
		> $OUT/j.$k.w$w.v$v.a$a.r$r.json 2> $OUT/err.tmp ; rc=$? ; } 2> $OUT/time.tmp
	echo "$k w=$w v=$v a=$a r=$r [$(cat $OUT/time.tmp)] rc=$rc $(grep parstat $OUT/err.tmp | tail -1)" | tee -a $R
	cmp -s $OUT/j.$k.w1.v0.a2.r1.json $OUT/j.$k.w$w.v$v.a$a.r$r.json || echo "  DIFFERS $k w=$w v=$v a=$a" | tee -a $R
}
for k in copy_2p22 ri_8w fma_8w barrier; do one $k 1 0 2 1; done
for r in 1 2; do
  for k in copy_2p22 ri_8w fma_8w barrier; do
    for va in "0 2" "1 2" "2 2" "3 2" "4 2" "2 8" "3 8"; do one $k 8 $va $r; done
    for va in "0 2" "2 2" "3 2"; do one $k 16 $va $r; done
  done
done
one copy_2p22 8 0 2 9 WARPSIM_PARPROF=$OUT/prof.copy.v0.w8
one copy_2p22 8 2 2 9 WARPSIM_PARPROF=$OUT/prof.copy.v2.w8
one copy_2p22 1 0 2 9 WARPSIM_PARPROF=$OUT/prof.copy.v0.w1
one barrier 8 2 2 9 WARPSIM_PARPROF=$OUT/prof.bar.v2.w8
rm -f $OUT/j.*.json $OUT/err.tmp $OUT/time.tmp
