#!/bin/bash
# run_gpu.sh: run on a machine with CUDA (nvcc) and an sm_90 GPU, from any directory.
# Builds the mathref shards (mathref_K.cu: default flags; mathref_ftz_K.cu: -ftz=true) with
# nvcc -O3 -arch=sm_90, runs them, and writes into $OUT:
#   ref.bin.gz       every function, 1024 random inputs (fewer for trivial ones) + specials, seed 1
#   ref_ftz.bin.gz   the f32 functions built with -ftz=true, same inputs
#   big_f32.bin.gz, big_f64.bin.gz   8192 (f32) and 4096 (f64) random inputs (development only, not committed)
#   libdevice.10.bc, ptx.tgz, sass.txt.gz, log.txt   (development only, not committed)
set -u
cd "$(dirname "$0")"
W=/tmp/mathref
mkdir -p "$W"
ls -la /usr/local/cuda*/nvvm/libdevice/ > "$OUT/log.txt" 2>&1
cp /usr/local/cuda/nvvm/libdevice/libdevice.10.bc "$OUT/" 2>>"$OUT/log.txt"
{ nvcc --version; nvidia-smi -L; } >>"$OUT/log.txt" 2>&1

build() { # dir source extra-flags
	mkdir -p "$W/$1"
	local skip=""
	for try in 1 2; do
		timeout 120 nvcc -O3 -arch=sm_90 $3 $skip --keep --keep-dir "$W/$1" -o "$W/$1/prog" "$2" >"$W/$1/build.log" 2>&1
		local rc=$?
		echo "build $1 try $try rc=$rc skip=[$skip]" >>"$OUT/log.txt"
		[ $rc = 0 ] || [ $rc = 124 ] && return
		head -c 3000 "$W/$1/build.log" >>"$OUT/log.txt"
		skip=$(grep -o -E '__nv_[a-z0-9_]+|k_[a-z0-9_]+' "$W/$1/build.log" | sed -E 's/^(__nv_|k_)//' | sort -u | sed 's/^/-DSKIP_/' | tr '\n' ' ')
	done
}
for k in 0 1 2 3; do build n$k mathref_$k.cu "" & done
for k in 0 1; do build z$k mathref_ftz_$k.cu "-ftz=true" & done
wait

for k in 0 1 2 3; do
	( cd "$W/n$k" && ./prog ref.bin 1024 1 all; ./prog big32.bin 8192 2 f32; ./prog big64.bin 4096 3 f64 ) >>"$OUT/log.txt" 2>&1
done
for k in 0 1; do
	( cd "$W/z$k" && ./prog ref.bin 1024 1 all ) >>"$OUT/log.txt" 2>&1
done
python3 merge.py "$W/ref.bin" "$W"/n?/ref.bin && gzip -9c "$W/ref.bin" >"$OUT/ref.bin.gz"
python3 merge.py "$W/ref_ftz.bin" "$W"/z?/ref.bin && gzip -9c "$W/ref_ftz.bin" >"$OUT/ref_ftz.bin.gz"
python3 merge.py "$W/big32.bin" "$W"/n?/big32.bin && gzip -6c "$W/big32.bin" >"$OUT/big_f32.bin.gz"
python3 merge.py "$W/big64.bin" "$W"/n?/big64.bin && gzip -6c "$W/big64.bin" >"$OUT/big_f64.bin.gz"
( cd "$W" && tar czf "$OUT/ptx.tgz" */*.ptx )
for d in "$W"/n? "$W"/z?; do echo "=== $d"; cuobjdump -sass "$d/prog"; done 2>&1 | gzip -6 >"$OUT/sass.txt.gz"
ls -la "$OUT" >>"$OUT/log.txt"
cat "$OUT/log.txt"
