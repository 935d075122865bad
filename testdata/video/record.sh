#!/bin/bash
# Records the video-instruction probe on the device machine (nvcc 13, sm_90),
# run from a folder holding gen_probe.py; writes video.tar.gz into $OUT.
# 1. Generates video_simd.cu with every form; ptxas refuses some forms: each
#    refusal (its PTX line lies in one form's function) moves that form to
#    dropped.txt with ptxas's message, and the probe is generated again
#    without it, until ptxas takes the whole probe.
# 2. Builds it (nvcc -O3 -arch=sm_90), runs it twice (the second run must
#    print the same bytes), and keeps the SASS of every form (cuobjdump).
set -x
R=rec
mkdir -p $R/diag
nvidia-smi --query-gpu=name,driver_version,clocks.current.sm,clocks.max.sm --format=csv > $R/GPU.txt
nvcc --version | tail -2 >> $R/GPU.txt
: > $R/dropped.txt
for try in 1 2 3 4 5 6; do
  python3 gen_probe.py cu $R/dropped.txt > video_simd.cu
  timeout 120 nvcc -arch=sm_90 -std=c++17 -ptx -o probe.ptx video_simd.cu > $R/diag/ptx.$try.log 2>&1 || { echo "PTX FAIL"; break; }
  if timeout 240 ptxas -arch=sm_90 probe.ptx -o probe.cubin > $R/diag/ptxas.$try.log 2>&1; then
    echo "ptxas takes the probe on try $try"
    break
  fi
  python3 gen_probe.py drop $R/dropped.txt probe.ptx $R/diag/ptxas.$try.log > new.txt
  cat new.txt
  if [ ! -s new.txt ]; then echo "ptxas errors not attributable to a form"; head -20 $R/diag/ptxas.$try.log; break; fi
  cat new.txt >> $R/dropped.txt
done
cp video_simd.cu $R/
python3 gen_probe.py kept $R/dropped.txt > $R/video_simd.forms.txt
timeout 300 nvcc -O3 -arch=sm_90 -std=c++17 -o probe video_simd.cu > $R/diag/build.log 2>&1 || echo "BUILD FAIL"
timeout 60 ./probe > $R/video_simd.h100.txt 2> $R/video_simd.h100.stderr
echo $? > $R/video_simd.h100.exit
timeout 60 ./probe > second.txt 2>&1
cmp second.txt $R/video_simd.h100.txt && echo "second run: same bytes" > $R/diag/determinism.txt || echo "second run DIFFERS" > $R/diag/determinism.txt
head -c 300 $R/video_simd.h100.txt; wc -l $R/video_simd.h100.txt $R/video_simd.forms.txt
timeout 120 cuobjdump -sass probe > $R/diag/video_simd.sass 2>&1
gzip -9 $R/video_simd.h100.txt $R/diag/video_simd.sass
tar czf $OUT/video.tar.gz $R
ls -l $OUT
