package timing

// The H200 (arch preset "h200") is the H100's GH100 chip with HBM3e: the
// same SMs, L1, L2 slices and clocks (its driver reports the H100's every
// per-SM and per-block limit and its 1980 MHz; testdata/timing/h200/h200/
// props.txt), a 6016-bit bus at 3201 MHz instead of 5120 at 2619, and 60 MiB
// of L2 enabled instead of 50. Its timing parameters are therefore the
// H100's measured ones ([H100], every source comment in presets.go) but for
// the memory figures below, each chosen on the study rows of
// testdata/timing/h200/SPLIT.md (written before the device call), which
// ran the H100's own microbenchmarks unchanged on the H200
// (testdata/timing/h200/record.sh; Nsight Compute at --clock-control base,
// which locks the H200 at 1.46-1.50 GHz where it locked the H100 at 1.58).

// withDerivedPresets adds to the measured presets those made from another
// one (the H200's from the H100's), in one place rather than through init.
func withDerivedPresets(m map[string]*Params) map[string]*Params {
	m["h200"] = h200Params(m["h100"])
	return m
}

// h200Params is the H200's preset made from the H100's.
func h200Params(h100 *Params) *Params {
	p := *h100
	// L2: the model's L2 is the share of the L2 one SM sees (the H100's
	// 25 MiB of its 50: two partitions; presets.go §3). The H200 has the
	// same two partitions of the larger L2 its driver reports (62914560
	// bytes): 30 MiB. Not fitted; the copies' write-back during the kernel
	// shows the larger L2 (d_copy8_b256_m32 writes 8.0 MB back on the H200,
	// 12.1 MB on the H100: h200/dram/ncu.csv, ../dram/h100/ncu.csv).
	p.L2Bytes = 30 << 20
	// DRAM bandwidth: the H100's 2.1 TB/s is an effective figure under
	// the 3.0 TB/s its DRAM reads and writes at (presets.go §5;
	// docs/calibration.md, twelfth to fourteenth rounds). The H200's is the
	// same figure scaled by what the same kernels moved on the two GPUs at
	// 256 MiB (study rows; bytes read plus written over ncu's duration):
	// writes 3.94 against 2.98 TB/s (×1.32), a copy's reads and writes 3.84
	// against 2.86 (×1.34), reads 4.31 against 3.01 (×1.43). Of the two
	// ends, 2800 (×1.34, the copy the H100's figure stands for) and 3000
	// (×1.43), the study rows the machine could run (the copies at 16, 32
	// and 64 MiB, the read and write at 64; warpsim run --arch h200 --mode
	// timing --clock <ncu's> --set bandwidth.dram=2800|3000) choose 3000:
	// the model is slow on every one of them at either, 2800 by 32.6% on
	// the mean, 3000 by 30.7% (docs/calibration.md, "The H200").
	p.DRAMBytesPerNS = 3000
	// DRAM latency: a lone warp's chase over DRAM (../dramload rseq_w0,
	// study) takes 555 cycles at 1.499 GHz on the H200 (s200; 537 at 1.494
	// for s48) where the H100 took 603 at 1.589 (575 for s48): less the
	// 134 cycles the H100's figure keeps, 281 and 270 ns against 294 and
	// 278, 11 ns less on the mean. The H100's 300 ns (its unloaded 276
	// taken as what streaming kernels see) less 11: 289.
	p.DRAMNS = 289
	p.Source = "H200: the H100's measurements (the same GH100 chip); L2, DRAM bandwidth and latency measured on the H200 (testdata/timing/h200)"
	return &p
}
