#!/bin/bash
# Records the held-out video probe on the device machine (nvcc 13, sm_90),
# run from a folder holding gen_heldout.py and gen_probe.py; writes
# heldout.tar.gz into $OUT. Same steps as ../record.sh: ptxas refusals are
# dropped form by form, the probe is built, run twice, and its SASS kept.
set -x
R=rec
mkdir -p $R/diag
nvidia-smi --query-gpu=name,driver_version,clocks.current.sm,clocks.max.sm --format=csv > $R/GPU.txt
nvcc --version | tail -2 >> $R/GPU.txt
cp dropped.seed $R/dropped.txt  # ptxas refuses vmad negating the product and c (first call, diag/ptx.1.log)
for try in 1 2 3 4 5 6; do
  python3 gen_heldout.py cu $R/dropped.txt > video_heldout.cu
  timeout 120 nvcc -arch=sm_90 -std=c++17 -ptx -o probe.ptx video_heldout.cu > $R/diag/ptx.$try.log 2>&1 || { echo "PTX FAIL"; break; }
  if timeout 240 ptxas -arch=sm_90 probe.ptx -o probe.cubin > $R/diag/ptxas.$try.log 2>&1; then
    echo "ptxas takes the probe on try $try"
    break
  fi
  python3 gen_heldout.py drop $R/dropped.txt probe.ptx $R/diag/ptxas.$try.log > new.txt
  cat new.txt
  if [ ! -s new.txt ]; then echo "ptxas errors not attributable to a form"; head -20 $R/diag/ptxas.$try.log; break; fi
  cat new.txt >> $R/dropped.txt
done
cp video_heldout.cu $R/
python3 gen_heldout.py kept $R/dropped.txt > $R/video_heldout.forms.txt
timeout 300 nvcc -O3 -arch=sm_90 -std=c++17 -o probe video_heldout.cu > $R/diag/build.log 2>&1 || echo "BUILD FAIL"
timeout 60 ./probe > $R/video_heldout.h100.txt 2> $R/video_heldout.h100.stderr
echo $? > $R/video_heldout.h100.exit
timeout 60 ./probe > second.txt 2>&1
cmp second.txt $R/video_heldout.h100.txt && echo "second run: same bytes" > $R/diag/determinism.txt || echo "second run DIFFERS" > $R/diag/determinism.txt
head -c 300 $R/video_heldout.h100.txt; wc -l $R/video_heldout.h100.txt $R/video_heldout.forms.txt
timeout 120 cuobjdump -sass probe > $R/diag/video_heldout.sass 2>&1
gzip -9 $R/video_heldout.h100.txt $R/diag/video_heldout.sass
tar czf $OUT/heldout.tar.gz $R
ls -l $OUT
