#!/bin/bash
# Second round: ptxas (-arch=sm_90) on hand2.ptx (gen_hand2.py's forms), its SASS into $OUT.
set -x
ptxas --version | tail -n 1 > $OUT/ptxas.txt
ptxas -arch=sm_90 -o hand2.cubin hand2.ptx && cuobjdump -sass hand2.cubin | gzip > $OUT/hand2.sass.gz
ls -la $OUT
