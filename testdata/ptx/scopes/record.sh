#!/bin/bash
# record.sh runs on the H100 machine (from the lead's .dev/ptxscope copy):
# ptxas -arch=sm_90 on every cases/*.ptx (verdicts.txt: exit status and
# messages), then every accepted one on the GPU (out_<case>.bin, 32 threads x
# 32 bytes). Results go to $OUT (outs.tar holds the .bin files).
set -x
sh gen_cases.sh
nvidia-smi -L
ptxas --version > "$OUT/ptxas_version.txt" 2>&1
nvcc -o host host.c -lcuda || echo "HOST BUILD FAILED"
mkdir -p outs
: > verdicts.txt
for f in cases/*.ptx; do
	n=$(basename "$f" .ptx)
	start=$(date +%s.%N)
	timeout 60 ptxas -arch=sm_90 -o "outs/$n.cubin" "$f" > "outs/$n.log" 2>&1
	rc=$?
	end=$(date +%s.%N)
	echo "== $n ptxas_rc=$rc" >> verdicts.txt
	sed "s#^#  #" "outs/$n.log" >> verdicts.txt
	echo "  (ptxas $(awk "BEGIN{print $end - $start}") s)" >> verdicts.txt
	if [ $rc = 0 ]; then
		echo "  gpu: $(./host "outs/$n.cubin" "outs/out_$n.bin" 2>&1)" >> verdicts.txt
	fi
done
cat verdicts.txt
cp verdicts.txt "$OUT/"
tar cf "$OUT/outs.tar" outs/*.bin outs/*.log
