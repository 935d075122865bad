#!/bin/bash
# mode_cost.sh CHECKOUT WARPSIM SAMPLE_DIR... builds each of NVIDIA's
# cuda-samples named (relative to a checkout of github.com/NVIDIA/cuda-samples)
# with `warpsim cc -I Common`, runs it from its own directory with
# WARPSIM_MODE=functional and WARPSIM_MODE=timing (the default for programs,
# sampled), and prints a markdown table of the wall, user and system seconds
# of each run (user and system include the `warpsim __runtime` co-process,
# which the program waits for). MODES narrows the modes; TAG names the
# binaries and logs (/tmp/mode-cost-NAME-TAG*) so that two runs can go side
# by side. docs/performance.md has the numbers it gave.
#
#   bash testdata/samples/mode_cost.sh /tmp/cuda-samples warpsim \
#     Samples/0_Introduction/asyncAPI Samples/2_Concepts_and_Techniques/dct8x8
set -u
root=$(cd "${1:?usage: mode_cost.sh CUDA_SAMPLES_CHECKOUT WARPSIM SAMPLE_DIR...}" && pwd)
warpsim=${2:?usage: mode_cost.sh CUDA_SAMPLES_CHECKOUT WARPSIM SAMPLE_DIR...}
shift 2
export WARPSIM_PROGRESS=0
tag=${TAG:-run}
echo "| sample | mode | wall s | user s | sys s | exit |"
echo "| --- | --- | ---: | ---: | ---: | ---: |"
for rel in "$@"; do
  dir=$root/$rel
  name=$(basename "$dir")
  srcs=$(cd "$dir" && ls *.cu *.cpp 2>/dev/null | tr '\n' ' ')
  exe=/tmp/mode-cost-$name-$tag
  if ! (cd "$dir" && "$warpsim" cc -I "$root/Common" $srcs -o "$exe") > "$exe.build" 2>&1; then
    echo "| $name | build failed (see $exe.build) | | | | |"
    continue
  fi
  for mode in ${MODES:-functional timing}; do
    /usr/bin/time -f "%e %U %S" -o "$exe.$mode.time" \
      env WARPSIM_MODE="$mode" bash -c "cd '$dir' && '$exe' < /dev/null" > "$exe.$mode.out" 2>&1
    st=$?
    read -r e u s < <(tail -n 1 "$exe.$mode.time") # after a "non-zero status" line
    echo "| $name | $mode | $e | $u | $s | $st |"
  done
done
