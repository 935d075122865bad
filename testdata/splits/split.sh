#!/bin/bash
# usage (from the repository root): bash testdata/splits/split.sh internal/timing/scoreboard.go testdata/splits/scoreboard24.spec
# Splits SRC by SPEC with the splitter (pure moves), then shows that the moved lines, sorted, equal the old
# file's and that the package's sorted ^func lines are unchanged; gofmt and go vet the package.
set -euo pipefail
src=$1 spec=$2
dir=$(dirname "$src")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/splitter" ./testdata/splits/splitter
cp "$src" "$tmp/orig.go"
grep -h '^func' "$dir"/*.go | sort > "$tmp/funcs.before"
"$tmp/splitter" "$src" "$spec"
new=("$src")
while IFS='|' read -r file _; do
	case $file in '' | '#'*) continue ;; esac
	new+=("$dir/$file")
done < "$spec"
bash testdata/splits/check.sh "$tmp/orig.go" "${new[@]}"
grep -h '^func' "$dir"/*.go | sort | diff "$tmp/funcs.before" - && echo "FUNC LINES IDENTICAL"
test -z "$(gofmt -l "$dir")"
go vet "./$dir"
wc -l "${new[@]}"
