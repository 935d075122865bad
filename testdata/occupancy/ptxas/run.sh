#!/bin/bash
# run.sh: ptxas's register allocation for every PTX file in the repository.
#
# Made on the device machine (H100 80GB HBM3, CUDA 13.0's ptxas) from the
# folder holding ptx.tar.gz (the repository's *.ptx, less the deliberately
# malformed ptx/testdata/errors and internal/ir/testdata/check, plus
# the lessons' PTX under shared/lessons/ptx: README.md), with
#   tar -czf ptx.tar.gz <files>;  OUT=<folder> bash run.sh
# Every file is compiled by `ptxas -v -O3` for sm_90 (sm_90a where its
# .target is sm_90a), and also for sm_80 where its .target is sm_8x; the
# -v log of each compile, the SASS of each cubin (cuobjdump -sass) and
# ptxas_table.tsv (one row per entry function and arch, parsed from the
# logs by the awk below) come back in $OUT.
set -x
date -u
ptxas --version
nvidia-smi --query-gpu=name,driver_version --format=csv
W=/tmp/regest
rm -rf $W && mkdir -p $W/src $W/log $W/sass
tar -xzf ptx.tar.gz -C $W/src || exit 1
cd $W/src
find . -name '*.ptx' | sed 's|^\./||' | sort >$W/list
wc -l <$W/list

# jobs: "file arch" for each compile.
while read -r f; do
	t=$(grep -m1 -E '^[[:space:]]*\.target' "$f")
	case "$t" in
	*sm_90a*) echo "$f sm_90a" ;;
	*) echo "$f sm_90" ;;
	esac
	case "$t" in
	*sm_8[0-9]*) echo "$f sm_80" ;;
	esac
done <$W/list >$W/jobs
wc -l <$W/jobs

one() {
	f=$1
	a=$2
	key=$(echo "$f" | sed 's|/|__|g')
	{
		echo "=== $f $a"
		timeout 60 ptxas -v -O3 -arch=$a -o $W/sass/$key.$a.cubin "$f" 2>&1
		echo "=== rc $?"
	} >$W/log/$key.$a.log
	if [ -s $W/sass/$key.$a.cubin ]; then
		cuobjdump -sass $W/sass/$key.$a.cubin >$W/sass/$key.$a.sass 2>&1
	fi
	rm -f $W/sass/$key.$a.cubin
}
export -f one
export W
xargs -P 16 -L 1 bash -c 'one "$0" "$1"' <$W/jobs
ls $W/log | wc -l
ls $W/sass | wc -l

# One row per entry function: ptxas prints, for each, "Compiling entry
# function 'K' for 'sm_90'", "N bytes stack frame, N bytes spill stores, N
# bytes spill loads" and "Used N registers, used N barriers[, N bytes smem]
# ...".
cat $W/log/*.log | awk -v q="'" '
BEGIN { OFS = "\t"; print "file", "arch", "kernel", "regs", "spill_stores", "spill_loads", "stack", "smem", "barriers" }
/^=== rc / { next }
/^=== / { file = $2; arch = $3; k = ""; next }
/Compiling entry function/ { split($0, p, q); k = p[2]; fp = ""; st = 0; ss = 0; sl = 0; next }
/Function properties for/ { fp = $0; sub(/.*Function properties for /, "", fp); next }
/bytes stack frame/ && k != "" && fp == k { st = $1; ss = $5; sl = $9; next }
/Used [0-9]+ registers/ && k != "" {
	r = $0; sub(/.*Used /, "", r); sub(/ registers.*/, "", r)
	b = 0; if ($0 ~ /used [0-9]+ barriers/) { b = $0; sub(/.*used /, "", b); sub(/ barriers.*/, "", b) }
	sm = 0; if ($0 ~ /bytes smem/) { sm = $0; sub(/ bytes smem.*/, "", sm); sub(/.*, /, "", sm) }
	print file, arch, k, r, ss, sl, st, sm, b
	k = ""
}' >$OUT/ptxas_table.tsv
wc -l $OUT/ptxas_table.tsv
head -5 $OUT/ptxas_table.tsv
grep -l '=== rc [^0]' $W/log/*.log | wc -l
grep -h -A3 '=== rc [^0]' $W/log/*.log | head -5
for l in $(grep -l '=== rc [^0]' $W/log/*.log | head -20); do head -4 $l; done
(cd $W && tar -cJf $OUT/ptxas_logs.tar.xz log && tar -cJf $OUT/sass.tar.xz sass)
ls -la $OUT
date -u
