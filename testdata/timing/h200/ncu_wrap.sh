#!/bin/bash
# ncu_wrap.sh (installed as `ncu` first on PATH by record.sh): runs Nsight Compute as asked; if a run with
# --clock-control base fails, runs it again with --clock-control none and notes it in $NCU_FALLBACK_LOG.
self=$(dirname "$(readlink -f "$0")")
REAL=$(PATH=$(echo "$PATH" | tr ':' '\n' | grep -vx "$self" | paste -sd:) command -v ncu)
[ -z "$REAL" ] && { echo "ncu_wrap: no ncu on PATH" >&2; exit 127; }
"$REAL" "$@"; rc=$?
if [ $rc -ne 0 ] && [[ " $* " == *" --clock-control base "* ]]; then
  echo "rc=$rc with --clock-control base; again with none: $*" >> "${NCU_FALLBACK_LOG:-/tmp/ncu_fallback.txt}"
  args=(); for a in "$@"; do [ "$a" = base ] && a=none; args+=("$a"); done
  "$REAL" "${args[@]}"; rc=$?
fi
exit $rc
