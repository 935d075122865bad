#!/usr/bin/env bash
# Records what ptxas says about the cases in ../*.ptx, the oracle of
# TestCheckAgainstPtxas. Run where the CUDA toolkit is (ptxas on PATH):
#   bash record.sh > ptxas.txt
# types_*.ptx: every case line of the kernel body (a line with ';' that is not
# a declaration, label, ret or the parameter load) is compiled alone, the other
# case lines blanked so line numbers stay, and its verdict printed as
#   FILE:LINE ok        or   FILE:LINE error MESSAGE
# Other files are compiled whole: FILE ok, or FILE error MESSAGE per line.
# version_X.Y lines compile an empty kernel declaring that .version and
# .target sm_90; target_T_X.Y lines one declaring .version X.Y and .target T.
set -u
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
echo "# $(ptxas --version | tail -n 1)"
verdict() { # NAME FILE [ARCH]
  local out
  if out=$(ptxas -arch="${3:-sm_90}" -o "$tmp/out.cubin" "$2" 2>&1); then
    echo "$1 ok"
  else
    printf '%s\n' "$out" | grep -v '^$' | sed "s|$2|FILE|g; s|^|$1 error |"
  fi
}
for f in types_*.ptx; do
  cases=$(awk '/^\{/ {body=1; next} body && /;/ && !/^[ \t]*\.reg/ && !/^[ \t]*ret;/ && !/ld\.param\.u64 %rd1, \[k_param_0\]/ && !/^[ \t]*\$/ {print NR}' "$f")
  for n in $cases; do
    awk -v keep="$n" -v cases=" $(echo $cases) " 'index(cases, " " NR " ") && NR != keep {print "//"; next} {print}' "$f" > "$tmp/case.ptx"
    verdict "$f:$n" "$tmp/case.ptx"
  done
done
for f in *.ptx; do
  case "$f" in types_*) continue ;; esac
  verdict "$f" "$f"
done
for v in 1.0 1.4 1.5 1.6 2.3 2.4 3.2 3.3 4.3 4.4 5.0 5.1 6.5 6.6 7.8 7.9 8.0 8.5 8.8 8.9 9.0 9.1 9.2 10.0; do
  printf '.version %s\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n' "$v" > "$tmp/v.ptx"
  verdict "version_$v" "$tmp/v.ptx"
done
for tv in sm_75:6.2 sm_75:6.3 sm_80:6.5 sm_80:7.0 sm_86:7.0 sm_86:7.1 sm_87:7.3 sm_87:7.4 sm_89:7.7 sm_89:7.8 sm_90:7.7 sm_90:7.8 sm_90a:7.8 sm_90a:8.0; do
  t=${tv%%:*} v=${tv##*:}
  printf '.version %s\n.target %s\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n' "$v" "$t" > "$tmp/v.ptx"
  verdict "target_${t}_$v" "$tmp/v.ptx" "$t"
done
rm -rf "$tmp"
