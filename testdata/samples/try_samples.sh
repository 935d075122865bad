#!/usr/bin/env bash
# Builds and runs NVIDIA's cuda-samples with warpsim cc, unchanged, and prints
# a Markdown table: sample, builds?, result, time (build and run).
#
#   git clone https://github.com/NVIDIA/cuda-samples /tmp/cuda-samples
#   go build -o /tmp/warpsim ./cmd/warpsim
#   bash testdata/samples/try_samples.sh /tmp/cuda-samples [/tmp/warpsim] > table.md
#
# Every program in Samples/0_Introduction and Samples/2_Concepts_and_Techniques
# is tried, except those that need a closed library (cuBLAS, cuRAND, NVRTC, the
# driver API's libcuda), OpenGL/EGL, MPI or several GPUs: those are listed as
# skipped with the reason. Each sample is compiled as its CMakeLists.txt does
# (all its .cu and .cpp files, -I Common and its own inc/) and run from its
# own directory, so it finds its data files. The last lines of each build and
# run log go to $LOGDIR (default /tmp/warpsim-samples-logs).
# Environment: WARPSIM_MODE (default functional: the timing driver is not
# needed to check results), TIMEOUT (seconds per run, default 300),
# ONLY="name name" to try a few samples.
set -u
root=${1:?usage: try_samples.sh CUDA_SAMPLES_CHECKOUT [WARPSIM]}
warpsim=${2:-warpsim}
root=$(cd "$root" && pwd)
logdir=${LOGDIR:-/tmp/warpsim-samples-logs}
mkdir -p "$logdir"
export WARPSIM_MODE=${WARPSIM_MODE:-functional} WARPSIM_PROGRESS=0
timeout_s=${TIMEOUT:-300}

# Samples that cannot be tried, and why.
skip_reason() {
  case $1 in
    *_nvrtc) echo "needs NVRTC (closed library)" ;;
    *Drv|matrixMulDynlinkJIT|simpleDrvRuntime|vectorAddMMAP|threadMigration|streamOrderedAllocationIPC)
      echo "needs the driver API (libcuda)" ;;
    simpleCUDA2GL|simpleTexture3D|FunctionPointers|boxFilter|imageDenoising|particles) echo "needs OpenGL" ;;
    EGLStream_*) echo "needs EGL" ;;
    simpleMPI) echo "needs MPI" ;;
    simpleMultiGPU|simpleP2P|streamOrderedAllocationP2P) echo "needs several GPUs" ;;
    UnifiedMemoryStreams) echo "needs cuBLAS (closed library)" ;;
    MC_EstimatePiInlineQ) echo "needs cuRAND's Sobol state and host library (curand.h: closed)" ;;
    MC_EstimatePiP|MC_EstimatePiQ) echo "needs cuRAND's host library (curand.h: closed)" ;;
  esac
}

echo "| sample | builds? | result | build s | run s |"
echo "| --- | --- | --- | --- | --- |"
for dir in "$root"/Samples/0_Introduction/*/ "$root"/Samples/2_Concepts_and_Techniques/*/; do
  dir=${dir%/}
  name=$(basename "$dir")
  if [ -n "${ONLY:-}" ] && ! [[ " $ONLY " == *" $name "* ]]; then continue; fi
  reason=$(skip_reason "$name")
  if [ -n "$reason" ]; then
    echo "| $name | skipped | $reason | | |"
    continue
  fi
  srcs=$(cd "$dir" && ls *.cu *.cpp src/*.cu src/*.cpp 2>/dev/null | tr '\n' ' ')
  incs="-I $root/Common"
  [ -d "$dir/inc" ] && incs="$incs -I $dir/inc"
  flags=""
  grep -q OpenMP "$dir/CMakeLists.txt" 2>/dev/null && flags="-Xcompiler -fopenmp"
  exe=$(mktemp -u /tmp/warpsim-sample-XXXXXX)
  t0=$(date +%s.%N)
  (cd "$dir" && "$warpsim" cc -I "$root/Common" ${incs#-I $root/Common} $flags $srcs -o "$exe") > "$logdir/$name.build" 2>&1
  bstatus=$?
  t1=$(date +%s.%N)
  bt=$(printf '%.1f' "$(echo "$t1 - $t0" | bc)")
  if [ $bstatus -ne 0 ]; then
    first=$(grep -m1 -E 'error' "$logdir/$name.build" | sed -e "s|$root/||g" -e 's/|/\\|/g' | cut -c1-150)
    echo "| $name | no | $first | $bt | |"
    continue
  fi
  t0=$(date +%s.%N)
  (cd "$dir" && timeout "$timeout_s" "$exe" < /dev/null) > "$logdir/$name.run" 2>&1
  rstatus=$?
  t1=$(date +%s.%N)
  rt=$(printf '%.1f' "$(echo "$t1 - $t0" | bc)")
  rm -f "$exe"
  pass=$(grep -m1 -iE 'passed|success|succeeded|returned OK|\bPASS\b' "$logdir/$name.run" | cut -c1-60 | sed 's/|/\\|/g')
  last=$(grep -v '^$' "$logdir/$name.run" | tail -n 1 | cut -c1-100 | sed 's/|/\\|/g')
  if [ $rstatus -eq 124 ]; then
    result="timed out after ${timeout_s} s"
  # The sample's own verdict, where it prints one, decides (simpleTexture
  # passes with "0.00(%) of bytes mismatched" within its tolerance).
  elif [ $rstatus -eq 0 ] && [ -n "$pass" ] && ! grep -qE 'FAIL|returned ERROR' "$logdir/$name.run"; then
    result="PASSED ($pass)"
  # A device assertion's message ("Assertion `x` failed.") and "failed as
  # expected" are what simpleAssert means to provoke; its verdict follows.
  elif [ $rstatus -eq 0 ] && ! grep -vE 'Assertion `.*` failed\.$|failed as expected' "$logdir/$name.run" |
    grep -qE 'FAIL|[Ff]ailed|[1-9][0-9]* [Ff]ailures|[Mm]ismatch|ERROR'; then
    if [ -n "$pass" ]; then result="PASSED ($pass)"; else result="ran, exit 0 ($last)"; fi
  else
    result="FAILED, exit $rstatus: $last"
  fi
  echo "| $name | yes | $result | $bt | $rt |"
done
