#!/bin/bash
# wmma20's one device call (twentieth round): SASS, Nsight Compute times and
# source-level stall sampling of programs3's wmma_bf16 (moved to the study
# half first), bk.cu (its kernel at K = 16..384, bf16 and f16), and im.cu's
# study GEMMs gc_rrk_w1 and gc_cru4_w1. Everything lands in $OUT/w20.tar.gz.
set -x
W=$OUT/w20; mkdir -p $W
F="-O3 -arch=sm_90a -std=c++17 -lineinfo"
nvidia-smi -q | grep -E "Product Name|Driver Version|CUDA Version" > $W/GPU.txt
nvcc --version >> $W/GPU.txt; ncu --version >> $W/GPU.txt
for p in wmma_bf16 bk im; do
  nvcc $F -o $p $p.cu -Xptxas -v 2> $W/$p.ptxas.txt || exit 1
  cuobjdump -sass $p > $W/$p.sass
done
./wmma_bf16 > $W/wmma_bf16.out; ./bk > $W/bk.out
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_elapsed.max,dram__sectors_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__inst_executed.sum
for r in 1 2 3; do
  ncu --metrics $M --csv ./bk > $W/bk.ncu$r.csv 2> $W/bk.ncu$r.err
  ncu --metrics $M --csv ./wmma_bf16 > $W/wmma_bf16.ncu$r.csv 2> $W/wmma_bf16.ncu$r.err
done
ncu --cache-control none --metrics $M --csv ./bk > $W/bk.warm.csv 2> $W/bk.warm.err
# source-level: every SASS instruction's stall samples (ncu's source page)
ncu --set full --import-source yes -o $W/bf16full -f ./wmma_bf16 > $W/bf16full.log 2>&1
ncu -i $W/bf16full.ncu-rep --page source --csv --print-source sass > $W/wmma_bf16.source.csv 2>&1
ncu --set full --import-source yes -k regex:bk -c 12 -o $W/bkfull -f ./bk > $W/bkfull.log 2>&1
ncu -i $W/bkfull.ncu-rep --page source --csv --print-source sass > $W/bk.source.csv 2>&1
ncu --set full --import-source yes --kernel-name-base mangled -k regex:'_Z2gcILi256ELi0ELb0ELb0E|_Z2gcILi0ELi4ELb1ELb0E' -o $W/gcfull -f ./im > $W/gcfull.log 2>&1
ncu -i $W/gcfull.ncu-rep --page source --csv --print-source sass > $W/gc.source.csv 2>&1
rm -f $W/*.ncu-rep
cd $OUT && tar czf w20.tar.gz w20 && rm -rf w20
ls -la $OUT
