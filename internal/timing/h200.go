package timing

// The H200 (arch preset "h200") is the H100's GH100 chip with HBM3e: the
// same SMs, L1, L2 slices and clocks (its driver reports the H100's every
// per-SM and per-block limit and its 1980 MHz; testdata/timing/h200/h200/
// props.txt), a 6016-bit bus at 3201 MHz instead of 5120 at 2619, and 60 MiB
// of L2 enabled instead of 50. Its timing parameters are therefore the
// H100's measured ones ([H100], every source comment in presets.go) but for
// the memory figures below, each chosen on the study rows of
// testdata/timing/h200/SPLIT.md (written before the device call), and the
// launch figures, from testdata/timing/h200launch's study rows. The first
// recording ran the H100's own microbenchmarks unchanged on the H200
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
	// DRAM bandwidth: the H100's measured 3.0 TB/s (the rate its DRAM
	// reads and writes at; presets.go §5) scaled by what the same kernels
	// moved on the two GPUs at 256 MiB (study rows; bytes read plus written
	// over ncu's duration): writes 3.94 against 2.98 TB/s (×1.32), a copy's
	// reads and writes 3.84 against 2.86 (×1.34), reads 4.31 against 3.01
	// (×1.43). The reads' ×1.43, as the H100's figure is its reads' rate:
	// 4290, within the ratios TestH200PresetFigures holds it to, and
	// chosen on the study rows through the h200 preset (testdata/
	// timing/dram/JOURNAL.md, nineteenth round): d_read8_b256_m64 +36.4% at 3000, +5.9% at 4000,
	// -0.2% at 4290; d_copy8_b256_m16 and _m32 +1.5/+6.3%, +0.8/+5.3%,
	// +0.7/+5.3%; d_write8_b256_m64 +2.6% at each (its far stores held to
	// the partitions' link). Until the nineteenth round the H100's figure
	// was an effective 2.1 TB/s and this one 3000 (×1.43 of it).
	p.DRAMBytesPerNS = 4290
	// DRAM latency: a lone warp's chase over DRAM (../dramload rseq_w0,
	// study) takes 555 cycles at 1.499 GHz on the H200 (s200; 537 at 1.494
	// for s48) where the H100 took 603 at 1.589 (575 for s48): less the
	// 134 cycles the H100's figure keeps, 281 and 270 ns against 294 and
	// 278, 11 ns less on the mean. The H100's 300 ns (its unloaded 276
	// taken as what streaming kernels see) less 11: 289.
	p.DRAMNS = 289
	// A kernel's fixed cost: the H200 starts and ends a kernel about 0.5
	// µs sooner than the H100, on the same SMs and block scheduler.
	// MEASURED (testdata/timing/h200launch: launchcost.cu, run.sh; one
	// device call, Nsight Compute at --clock-control base, 1.46-1.50 GHz,
	// five launches a configuration): an empty kernel of one block of 32
	// to 1024 threads lasts a median 1568, 1728, 1760, 1728, 1728, 1760
	// ns, of which the model's own (a block's dispatch, BlockLaunch, its
	// warps' exit) is 88-93 ns: 1640, where the H100's 2200 came from its
	// 2240 ns (testdata/timing/DERIVATION.md §7). Block dispatch is the
	// H100's: the grids of 2112 and 8448 blocks take what the model gives
	// them within 1.2% at 1640.
	p.KernelNS = 1640
	// A grid's blocks each cost BlockDispatchNS at its end whatever the
	// waves (the same recording): 132, 264, 528, 1056, 2112, 4224 and 8448
	// blocks of 32 threads end 1824, 1920, 1984, 2336, 3008, 4256 and 6880
	// ns after their launch, the first six one wave; 2112 of 256 threads,
	// two waves, 2976: BlockRateFloor, as the H100 (presets.go, [DRAIN]).
	// Back-to-back <<<1,32>>> launches (CUDA events, 1000 launches): 3.43-
	// 3.48 µs a launch in ../bench/launch.cu, 3.60-3.63 in launchcost.cu;
	// the host's launch call alone 3.37-4.07 µs, so the gap is the host's,
	// as on the H100 (4.7 µs); a CUDA graph's kernels follow each other
	// every 0.53 µs.
	p.LaunchGapNS = 3500
	p.Source = "H200: the H100's measurements (the same GH100 chip); L2, DRAM bandwidth and latency, and a kernel's fixed cost measured on the H200 (testdata/timing/h200, h200launch)"
	return &p
}
