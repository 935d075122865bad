#!/bin/sh
# compress-recordings.sh: gzip the GPU recordings of random data that tests
# read through internal/testenv.ReadRecording (testdata/tensor/in and out,
# testdata/conformance/*/expected), keeping a file plain unless gzip saves at
# least a fifth of it. The recording scripts write plain files; run this after
# adding recordings. Idempotent.
set -eu
cd "$(dirname "$0")"
for f in tensor/in/*.bin tensor/out/*.bin conformance/*/expected/*/*.bin; do
	[ -f "$f" ] || continue
	size=$(wc -c <"$f")
	gzip -9 -n -c "$f" >"$f.gz.tmp"
	zsize=$(wc -c <"$f.gz.tmp")
	if [ $((zsize * 5)) -le $((size * 4)) ]; then
		mv "$f.gz.tmp" "$f.gz" && rm "$f"
	else
		rm "$f.gz.tmp"
	fi
done
