#!/bin/bash
# Profiles conformance cases' nvcc variant with Nsight Compute on the GPU
# machine, with the metrics of shared/groundtruth/h100_ncu_seed_kernels.csv:
#   bash testdata/gpu/profile_cases.sh OUTDIR CASE...
# writes OUTDIR/ncu_<case>.csv (ncu --csv: one row per kernel launch and
# metric) and logs under /tmp/diag/. The CSVs are committed as
# testdata/gpu/ncu/<case>.csv: ground truth for the simulator's metrics.
set -u
OUT=${1:?usage: profile_cases.sh OUTDIR CASE...}
shift
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT/testdata/conformance"
mkdir -p /tmp/diag
M=smsp__sass_average_branch_targets_threads_uniform.pct,smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__thread_inst_executed_per_inst_executed.ratio,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct,smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__warps_launched.sum
for c in "$@"; do
  rm -rf /tmp/diag/prof_expected && cp -r "$c/expected" /tmp/diag/prof_expected 2>/dev/null
  timeout 240 ncu --csv --log-file "/tmp/diag/ncu_$c.log" --metrics "$M" python3 "$ROOT/testdata/gpu/record.py" "$c" nvcc \
    > "$OUT/ncu_$c.csv" 2> "/tmp/diag/ncu_$c.err" || echo "ncu $c: exit $?"
  rm -rf "$c/expected" && cp -r /tmp/diag/prof_expected "$c/expected" 2>/dev/null
  echo "ncu $c: $(wc -l < "$OUT/ncu_$c.csv") lines"
done
