package timing

import (
	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/tensor"
)

// measured holds the generations the model has figures for. The H100's
// are this project's own measurements; the older generations' are partly
// cited, partly carried over, and each says which:
//
//	[H100]  testdata/timing/DERIVATION.md: microbenchmarks run on an H100
//	        80GB HBM3 (CUDA 13.0) by this project; § numbers refer to it.
//	[PG]    CUDA C++ Programming Guide, "Throughput of Native Arithmetic
//	        Instructions" (results per clock per SM), from which
//	        Interval = 32 lanes / (per-SM rate / 4 sub-partitions).
//	[TC]    the tensor pipe (TensorPipe): the H100's mma.sync measured by
//	        this project (testdata/tensorlesson), its wgmma and the A100's
//	        and V100's rates from NVIDIA's whitepapers, their latencies from
//	        the microbenchmark papers each preset cites.
//	[ASIM]  Accel-Sim's tuned Quadro V100 configuration
//	        (configs/tested-cfgs/SM7_QV100/gpgpusim.config): L1 and shared
//	        latency 20, L2 160 cycles plus DRAM 100 on top, kernel launch
//	        5000 cycles.
//	[CDP]   device launches: ConcurrentKernels is the Programming Guide's
//	        "maximum number of resident grids per device" (32 for 3.5,
//	        128 for 7.0 and later); the H100's grid management unit starts
//	        a device-launched grid every 1.06 µs (the reduce lesson's
//	        gpuRecursiveReduceNosync: 16 384 device launches in 17.3–17.5
//	        ms, examples/lessons/h100/h100_seed_runs.txt), 2100 cycles at
//	        1.98 GHz, carried over [GEN] to the A100 and V100 as 2100
//	        cycles at their clocks. The H100's device-launch latency (ChildStartNS,
//	        from the launching instruction to the child's start) is 14.7
//	        µs: gpuRecursiveReduce2 is a chain of 8 dependent device
//	        launches, 0.1288 ms in CUDA-event time (h100_seed_runs.txt, the
//	        warm run), less ~4 µs of event overhead (DERIVATION.md §7), less
//	        the model's own 3.9 µs per level with a 3 µs latency: 3 + 11.7
//	        µs. The K40's two figures come the same way from the lesson's
//	        K40 run (nested4.cu under nvprof, the times the demo prints,
//	        cmd/warpsim/demo_nested.go): gpuRecursiveReduceNosync's 16 384
//	        device launches in 59 ms are one grid started per 3.6 µs
//	        (ChildLaunchNS), and gpuRecursiveReduce2's chain of 8 device
//	        launches takes 0.797 ms, of which the model's own grids take
//	        0.083 ms: 89 µs from each launching instruction to its child's
//	        start (ChildStartNS; it was an unmeasured 5 µs, which made the
//	        chain 0.123 ms, faster than reduceNeighbored's 0.19 ms where
//	        the K40 took 1.5 times longer for it). Like the H100's, these
//	        are consistency checks on the lesson, not predictions. The V100
//	        and A100 keep an unmeasured 3 µs.
//	[GEN]   not measured or found for this part: carried over from the
//	        H100's figures (scaled by clock where they are in ns), so the
//	        preset answers "what if" questions by its clock, SM count, caches,
//	        pipe rates and DRAM bandwidth rather than by measured latencies.
var measured = withDerivedPresets(map[string]*Params{
	"h100": {
		// [H100] §1 latencies: FFMA/IMAD 4, DFMA 8, MUFU 17, cvt pair 23,
		// SHFL 26; §2 rates per SM per cycle: FFMA 128, DFMA/IMAD 64, MUFU
		// 16, F2I 16, SHFL 32 (I2FP runs at the fp32 rate: cvt to f32 is on
		// the FMA pipe, and the f32→s32→f32 pair's 23 cycles leave 19 for
		// F2I); §4 LDS 23 and +2 per extra wavefront; §3 L1
		// hit 37 (41 per chase step less its IMAD), L2 hit 254 cycles at
		// 1.589 GHz and ~291 at 1.98 GHz = 100 cycles + 94.6 ns, DRAM 577 at
		// 1.589 and 685 at 1.98 = 134 cycles + 276 ns unloaded, taken as
		// 134 + 300 ns: the latency streaming kernels see at low occupancy
		// (§5, §8: stream_copy at one block per SM), 64 bytes per miss
		// (§5: 45 B per random 4-byte load); §5 2.35 TB/s copy, 2.07 TB/s
		// read, 2.1 TB/s effective until the nineteenth round. 3.0 TB/s,
		// measured, taken with DRAMLatencySpreadNS 80 (queued fetches
		// only), FarBytesPerNS 2190 and RMWLineBytes 131 (testdata/
		// timing/dram/JOURNAL.md, nineteenth and twenty-second rounds;
		// held back since the thirteenth): testdata/timing/dram's study rows
		// (SPLIT.md) read and write whole sectors at 3.0 TB/s each on one
		// bus, d_read8_b256_m256 268.4 MB in 89.2 µs, d_write8_b256_m256
		// 246.2 MB in 82.6 µs; 2.9, 3.0, 3.1 TB/s gave the study rows
		// +7.1/+2.4, +3.6/+1.1, +0.4/-0.1% (testdata/timing/dram/JOURNAL.md, twelfth
		// round); §6 same-address atomics 0.73 ns each, 66.5 same-address lane
		// updates per ns over distinct lines and 59 coalesced sector updates
		// per ns (471 lane atomics/ns): 62 updates per ns; §7 empty kernel 2.24 µs
		// (and 2.21 µs in the seed recordings at 1.98 GHz), block dispatch
		// 0.6 ns per block GPU-wide and 80 ns between two blocks on one SM
		// (127 cycles at 1.589 GHz). §3: an SM sees about 25 MiB of the 50 MiB L2
		// (two partitions; 32–48 MiB footprints miss): L2Bytes 25 MiB. L2
		// bandwidth was not measurable (§5): 5.5 TB/s
		// assumed, above the 61 random loads per cycle measured.
		// [MECH] testdata/timing/mechanisms (mech.cu, run.sh: nvcc 13.0
		// -O3 -arch=sm_90, ncu --clock-control base at 1.589 GHz, caches
		// flushed; SPLIT.md fixed the calibration rows before fitting):
		// PartialSectorBytes 80: st_stride_s4 (2^20 4-byte stores at a
		// 16-byte lane stride, 2^19 sectors each written 8 of 32 bytes)
		// takes 10.0 µs against 3.4 µs for the same stores coalesced
		// (st_stride_s1), and s2/s8 scale with the partial sectors (4.96,
		// 19.5 µs): 19 ps a partial sector device-wide, fitted in the model
		// to 80 bytes of the L2's 5.5 TB/s. RMWLineBytes 82: st_stride_s32
		// (2^20 partial sectors, one per 128-byte line, 128 MiB) takes
		// 48.5 µs with dram__bytes_read = dram__bytes_write = 32 MiB
		// (every partial sector read back from DRAM and written); fitted
		// so that the lines the model's L2 evicts take that time: 82 at 2.1
		// TB/s, 131 at DRAMBytesPerNS 3000 (the same DRAM time a line,
		// (32 + 82) × 3.0 / 2.1 − 32). Whole sectors written to the same lines (st_full_s32) read
		// 83 KB and take 6.7 µs. UnifiedL1: reread (one block of 1024 per
		// SM re-reading F bytes 4 times) keeps its L1 hit rate at 74.6%
		// (3 of 4 passes) up to F = 192 KiB and drops to 61.7% at 256 KiB,
		// as 256 KiB less the 8 KiB carveout leaves (TestL1CarveoutCapacity;
		// DERIVATION.md §3's chase: 192 KiB hits, 256 KiB misses).
		// [BLOCKS] testdata/timing/blocks (blocks.cu, run.sh: one device
		// call, nvcc 13.0 -O3 -arch=sm_90, every block's SM, clock64 and
		// %globaltimer at entry and exit, events at 1.98 GHz and ncu
		// --clock-control base at 1.587 GHz; analyze.py h100 prints the
		// table in testdata/timing/blocks/JOURNAL.md): BlockRetireNS 140: with one
		// block an SM (e32x1, s32x1, ss32x1c) a block's first instruction
		// comes a median 336-369 cycles after the last one of the block
		// it replaces at 1.587 GHz, 367-402 at 1.98 GHz (227 cycles + 84
		// ns), of which ncu counts 142-168 active (sm__cycles_active less
		// the blocks' stamped lifetimes): BlockLaunch's 127 active cycles
		// and 140 ns (222 cycles at 1.587 GHz) inactive before. It was 200
		// ns, fitted on sb_b256_l1 before the drain and the first wave
		// were modelled. FirstDispatchNS 0.1: the first wave's blocks
		// start within 256 ns for 2112 blocks, 224 for 1056, 160 for 264
		// (GPU-wide %globaltimer spread; mechanisms2's H200 gave 105 ns +
		// 0.087 ns a block), while later blocks come at 0.6 ns a block
		// (BlockDispatchNS: e128 and e256, 12 672 and 6336 empty blocks,
		// take 0.61 and 0.62 ns a block). StoreDrain: a warp that exited
		// with stores waiting behind the L2's read-modify-writes (ss32x1:
		// one warp an SM, 1024 partial sectors) stays 5204 cycles (ncu's
		// drain stall per warp), as long as a __threadfence after the
		// same stores (ss32x1f, 5491 cycles of membar), its SM's next
		// block waiting too (gap 4512 cycles); after whole-sector stores
		// the L2 takes at once (ss32x1c) 43, as after none (e32x1).
		// StoreWindow 4: the strided stores' blocks all live until the
		// kernel's end (st32: every block's stamped lifetime a median
		// 59 319 of 64 747 SM-active cycles, 47% occupancy), not one warp
		// after another as a greedy scheduler issuing all of a warp's
		// stores at once gives; a window of 1, 2, 4, 8 stores a warp gave
		// the mechanisms' calibration rows of st (SPLIT.md) an
		// achieved-occupancy error of 3.1, 2.9, 2.8, 6.6 points.
		// [SBOCC] testdata/timing/sbocc (sbocc.cu, run.sh: one device
		// call, nvcc 13.0 -O3 -arch=sm_90, every warp's clock64 at entry,
		// after each copy and at exit, ncu --clock-control base at 1.58
		// GHz; analyze.py h100): DRAMWaitSpread 0.75, DRAMReorderNS 300.
		// Under load (1024 blocks of 256 copying 16 floats a thread, 64
		// warps an SM) one load-store iteration takes 916 cycles on
		// average with a standard deviation of 316, independent from one
		// iteration to the next; alone (one block an SM) 650 and 145: the
		// wait behind the other requests, about 266 cycles, spreads as
		// much as it lasts, so warps of one block end apart (a median 1070
		// cycles between the first and the last; the model had 94). The
		// factor was chosen on the mechanisms' calibration row sb_b256_l1
		// (occupancy 74.3%; the model 77.2 without, 75.2 at 0.5, 74.3 at
		// 0.75, 73.4 at 1); with it the model's warps of one block in the
		// same one-wave copy end a median 1529 cycles apart, active 0.956
		// of the block's residence against the H100's 0.952. The bound on the wait spread (the
		// H100's reorder window is not measured) was chosen on the
		// occupancy sweep's streams (occ_stream_r8 and _r16, calibration;
		// with an exponential spread of a quarter of the wait, tried
		// first: 13.4 and 13.4 µs at 300 ns, 13.8 and 13.6 at 500, 14.2
		// and 14.6 unbounded; 13.0 and 13.0 without the spread, 11.7 and
		// 12.2 on the H100; now 13.2 and 13.3), where a warp waits for
		// many lines at once and so for the slowest of their spread waits.
		// The draw is uniform (a place within the reorder window), not the
		// exponential first tried, whose tail made the reduce lesson's
		// reduceInterleaved slower than reduceNeighboredLess.
		// DRAMLatencySpreadNS 80 ns (thirteenth round, taken in the
		// nineteenth with the DRAM at 3.0 TB/s; testdata/timing/dram/JOURNAL.md): the
		// part of the spread that is not the queue's. sbocc/spread.py splits the per-iteration
		// stamps: the eight warps of a block at one iteration read eight
		// adjacent lines of one page at about the same time from one SM,
		// and their iterations still differ, sd 65 cycles one block an SM
		// (i_b256_l16_g132, the DRAM at 11% of its bandwidth) and 79 a
		// quarter wave (i_b256_l64), 165 with the wave full (i_b256_l16:
		// the queue's spread on top); a uniform draw of that sd has a
		// half-width of sd·√3, 113-137 cycles, 71-87 ns at 1.576 GHz: 80
		// (their mean's). Nothing was fitted on it. The same lines read in
		// two recordings have that part uncorrelated (0.02, -0.01, 0.01):
		// it is the request's, not the line's (no bank or row slow for an
		// address), so it is drawn whatever the load; the model draws it
		// from the address only to stay deterministic.
		// DRAMLatencySpreadLoaded: drawn only for a fetch that queued
		// behind others (sixteenth round's rule, taken in the nineteenth):
		// every row it was measured on had 132 SMs' lines at the DRAM at
		// once, while one block's lone fetches show none: a TMA box's first
		// load of 4 to 128 lines from an idle GPU (testdata/timing/
		// wgmma/h100b, TestTensorCopyMbarrierWait) takes 1,285-1,429
		// cycles, the model 1,315-1,432 undrawn and 1,470-1,582 drawn per
		// line (its slowest line's draw); one block's cold constant walk,
		// cp.async's one-warp rows and k_tx1's stamps likewise (drawn:
		// +1-2 points each, three past their bounds). Queued behind
		// another SM's fetch, not behind its own burst's (twenty-second
		// round, behindOthers): at 3.0 TB/s one SM's lines pass the bus
		// within a 16-cycle bucket, and counted as queued they drew for
		// the TMA boxes of 256 and 512 lines (+14/+15%; +4/+6% with the
		// rule, +5/+8% at 2.1 TB/s) and for one warp's cold wmma
		// fragments on the h200 (testdata/timing/imma's study row
		// ch_s8_d1_s16_w1 +36.8%; +33.8% with the rule, as at 2.1 TB/s).
		// DRAMBankNS 39 ns measured, left at 0 in the preset (fourteenth
		// round, testdata/timing/dramload/JOURNAL.md: taken only with the DRAM at 3.0
		// TB/s, which the preset has since the nineteenth round; not yet
		// run on its sets with it): testdata/timing/
		// dramload (dramload.cu, run.sh: one warp's chase over random
		// lines from SM 0 while the other 131 SMs stream reads, ncu
		// --clock-control base at 1.589 GHz; analyze.py h100) waits 603
		// cycles a line alone (597 with W = 0 to 2), +44 with the DRAM at 59%
		// of 3.0 TB/s, +117 at 78%, +244 at 89%, +580 at 98%: an M/D/1 mean wait
		// S·ρ/(2(1−ρ)) gives S = 61, 66, 60 and (ρ capped at 0.95) 61 cycles:
		// 62 cycles, 39 ns (read off the rseq study rows of SPLIT.md alone).
		// [DRAMRW] Reads among writes (sixteenth round, testdata/timing/dram/JOURNAL.md
		// "Reads among writes"; arithmetic on recorded study rows, nothing
		// fitted by simulation). Measured, left at 0 in the preset (taken
		// only with the read bandwidth, 3.0, which the preset has since the
		// nineteenth round; not yet run on its sets with them):
		// L2DirtyWays 13: the H100 keeps 20.4-22.2 MB of a kernel's
		// stores dirty at its end whatever it reads (testdata/timing/dram
		// study rows d_write8_b256_m64/_m256, d_copy8_b256_m32/_m64/_m256:
		// bytes stored less dram__bytes_write), a mean of 21.3 MB of the
		// model's 26.2 MB: 13.0 of 16 ways (the H200's study rows 23.9-26.9
		// of 31.5 MB: 12.9). DRAMTurnaround 0.2: at 256 MiB reads move
		// 3.04 TB/s, writes 2.98, a copy 2.86 of both (the same study
		// rows): a copy's bus time 1 + 0.2/4 = 3.0/2.86 of its bytes'.
		// DRAMWriteDrainNS 504, DRAMWriteModeShare 1.6: dramload's
		// cseq_w4_s200 (study) chase takes 909.8 cycles, sd 306.8, where
		// reads alone at its traffic (2.14 TB/s; rseq_w4 and rseq_w6
		// interpolated) take 688.4, sd 158: the writes add 221.4 on the
		// mean and 262 of sd (in quadrature). A wait uniform in [0, D)
		// with probability q has mean q·D/2 and variance q·D²/3-(q·D/2)²:
		// D = 801 cycles at 1.590 GHz (504 ns), q = 0.553, 1.59 times the
		// writes' share of 3.0 TB/s (1045 GB/s). Checked, not fitted, on
		// the H200 (testdata/timing/h200's dramload, its 4.35 TB/s of
		// reads, 1.499 GHz): cseq_w2, w3, w4, w6 wait 94, 140, 148, 221
		// cycles beyond its reads alone at the same traffic; the two
		// figures say 94, 131, 164, 210.
		// [SHORTOCC] testdata/timing/shortocc (shortocc.cu, run.sh: one
		// device call, nvcc 13.0 -O3 -arch=sm_90, every warp's clock64 at
		// entry, after each copy and at exit, ncu --clock-control base at
		// 1.58 GHz, caches flushed; analyze.py h100 prints the tables):
		// DRAMFarNS 98, FarBytesPerNS 1750. A wave of 4096 blocks of 64
		// threads each copying its own 4 KiB page (m_w_b64_l16) has blocks
		// of two kinds, 11 500 and 15 000 cycles, by the parity of address
		// bits 12, 13, 16, 17, 19, 23 and the SM's side (86.5% of the
		// blocks; farPage, smSide): the L2's two partitions. One block an
		// SM (m_i_b256_l16_g132), a far miss's iteration takes 709 cycles
		// on average, a near one 560: 149 cycles, 94 ns at 1.58 GHz (98
		// taken: the medians, 687 and 532, differ by 155); the DRAM
		// latency stays the mean of the two (a chase measured it over many
		// pages). With every SM full the difference grows to 244-385
		// cycles (m_i_b64_l16_g4096, m_i_b256_l16_g1024): the link between
		// the partitions, which half a copy's reads and half its writes
		// cross. Its bandwidth was chosen on m_w_b64_l16's two kinds of
		// blocks, p25 and p75 of their lifetimes 11 763 and 15 301 cycles
		// (3538 apart): 1700, 1750, 1800 GB/s gave 4122, 3616, 3170 apart
		// with the DRAM at 2.1 TB/s; re-chosen at 3.0 TB/s on the same
		// blocks' ratio p75/p25 (the H100's 1.30): 1750, 2000, 2250 GB/s
		// gave 1.69, 1.45, 1.30 (testdata/timing/dram/JOURNAL.md, twelfth round):
		// 2250 with the DRAM at 3.0 TB/s (not taken yet). [L2STORE] The
		// H200's 132 SMs' whole-sector stores cross at 2.19 TB/s (the far
		// half of 4.33; st_e16s16_g132, p4 less p1) and its cold reads at
		// 1.9 TB/s or more (ld_e16s16_g132_p4): the link carries at least
		// 2190 GB/s, which alone fits the store rows (+1.0%, +0.2%), but
		// with the DRAM at 2.1 TB/s leaves m_w_b64_l16's blocks 1.16x
		// apart (a separate path for the stores, or a far read's request
		// waiting behind them, 1.16-1.20x); with the DRAM at 3.0 TB/s it
		// gives 1.35x (2250: 1.31x; the H100 1.30x): 2190 with the DRAM at
		// 3.0 TB/s (testdata/timing/l2store/JOURNAL.md, eighteenth and nineteenth rounds).
		// LoadAfterStore: shortcopy's loop (mechanisms/mech.cu) loads
		// after storing through pointers that may alias, so ptxas keeps
		// each iteration's load after the last one's store, which waits
		// for its data: sb_b256_l64 (calibration row, 64 iterations)
		// took 30.6 µs on the H100, the model 12.5 µs with the iterations
		// overlapped, 27.5 µs with them in turn.
		// HoistLoads: ptxas hoists the loads of an unrolled loop above the
		// FMAs that consume earlier ones (rowreuse's SASS,
		// testdata/timing/mechanisms/h100/sass.txt.gz: 32 LDG of 16
		// iterations before their FFMAs), so a warp has a block's loads in
		// flight at once; rowreuse_bc (one address a warp) went from
		// +121/+179% to +6/+13% with no figure fitted.
		// [MECH2] testdata/timing/mechanisms2 (mech2.cu, run.sh; an H200,
		// the same GH100 SM and block scheduler): L1Wavefronts: a warp's
		// global load takes max(1, sectors/4, data-stage wavefronts) SM
		// cycles of the L1 (l1wave: 32 lines at one offset 32.1 cycles,
		// 32 wavefronts; at 32 offsets 8.8, one wavefront; one line 1.1).
		// L2AccessBytes 56.7: random 4-byte loads hitting L2 run at 97 G
		// loads/s GPU-wide (§5, occ_chase_l2 at R = 2..16, calibration
		// rows): 5500 B/ns / 97 per ns = 56.7 bytes a line access.
		Latency: classTable(4, map[ir.Class]uint32{
			ir.ClassFMA: 4, ir.ClassFP64: 8, ir.ClassSFU: 17, ir.ClassConv: 19, ir.ClassIMul: 4,
			ir.ClassBranch: 6, ir.ClassWarp: 26, ir.ClassConst: 4, ir.ClassLocal: 37, ir.ClassDevRT: 40,
		}),
		Interval: classTable(1, map[ir.Class]uint32{
			ir.ClassFP64: 2, ir.ClassSFU: 8, ir.ClassConv: 8, ir.ClassIMul: 2, ir.ClassWarp: 4,
		}),
		Tensor: TensorPipe{
			// [TC] The tensor pipe, MEASURED on this H100 for mma.sync
			// (testdata/tensorlesson/h100/mb_stdout.txt: mb.cu, chains of
			// mma.sync in one block of 1-32 warps, clock64 per warp; the
			// issue intervals are at 8 warps per sub-partition and 8
			// independent chains a warp, the latencies a dependent chain's
			// cycles per instruction):
			//   m16n8k16 f16→f32 6.24, bf16 6.23, f16→f16 6.04, m16n8k8
			//   tf32 6.23, m16n8k32 s8 6.25, m16n8k8 f16 4.26, m8n8k4 f64
			//   16.01 cycles per instruction per sub-partition; dependent:
			//   29.9 (m16n8k16 f16/bf16, m16n8k8 tf32, m16n8k32 s8), 30.9
			//   (f16→f16), 28.9 (m16n8k8 f16), 28.0 (f64).
			// One HMMA of 2048 f16 multiply-adds (or 1024 tf32, 4096 s8)
			// costs 6.25 cycles, one of half that (m16n8k8 f16) 4.25: 4
			// (resp. 2) cycles at 512 multiply-adds a cycle, the
			// whitepaper's dense wgmma rate per sub-partition (989.4 dense
			// f16 TFLOPS at 1830 MHz over 132 SMs: 2048 per SM), plus 2.25
			// cycles (Overhead 144/64) per instruction; tf32 half, 8-bit
			// double that rate. f64: 256 multiply-adds in 16 cycles, 16 a
			// cycle (64 per SM), no overhead. Latency after the pipe time:
			// 23 (6.25 + 23 → 30 cycles; m16n8k8: 28), f64 12 (28).
			// Release: one warp's independent chains do not overlap across
			// the loop's back edge: per iteration of ILP chains a warp takes
			// 32.1, 44.1, 68.9 cycles for ILP 2, 4, 8, not max(30, 6.25 ×
			// ILP) (the first MMA of an iteration waits for the previous
			// iteration's last): the loop's branch waits until 13 cycles
			// after the last MMA's pipe time, and the model's branch takes 6
			// more (6.25 × ILP + 19: 32, 44, 69). f64's loops are bound by
			// the pipe instead (34, 68, 144 cycles): no release.
			// wgmma runs at the whitepaper's dense rate with no
			// per-instruction overhead (f16/bf16 512, tf32 256, fp8/int8
			// 1024 per sub-partition: measured below). Not measured here
			// (no recordings): fp8 mma.sync at
			// the 8-bit rate; s4/u4 and b1 at 2x and 8x it (the A100's
			// ratios; the H100 runs them on fewer units, an upper bound).
			MACs: tensorTable(map[tensor.Elem]uint32{
				tensor.F16: 512, tensor.BF16: 512, tensor.TF32: 256, tensor.E4M3: 1024, tensor.E5M2: 1024,
				tensor.S8: 1024, tensor.U8: 1024, tensor.S4: 2048, tensor.U4: 2048, tensor.B1: 8192, tensor.F64: 16,
			}),
			InstMACs: tensorTable(map[tensor.Elem]uint32{
				tensor.F16: 2048, tensor.BF16: 2048, tensor.TF32: 1024, tensor.E4M3: 4096, tensor.E5M2: 4096,
				tensor.S8: 4096, tensor.U8: 4096, tensor.S4: 8192, tensor.U4: 8192, tensor.B1: 32768, tensor.F64: 256,
			}),
			Overhead: tensorTable(map[tensor.Elem]uint32{
				tensor.F16: 144, tensor.BF16: 144, tensor.TF32: 144, tensor.E4M3: 144, tensor.E5M2: 144,
				tensor.S8: 144, tensor.U8: 144, tensor.S4: 144, tensor.U4: 144, tensor.B1: 144,
			}),
			Latency: tensorTable(map[tensor.Elem]uint32{
				tensor.F16: 23, tensor.BF16: 23, tensor.TF32: 23, tensor.E4M3: 23, tensor.E5M2: 23,
				tensor.S8: 23, tensor.U8: 23, tensor.S4: 23, tensor.U4: 23, tensor.B1: 23, tensor.F64: 12,
			}),
			Release: tensorTable(map[tensor.Elem]uint32{
				tensor.F16: 13, tensor.BF16: 13, tensor.TF32: 13, tensor.E4M3: 13, tensor.E5M2: 13,
				tensor.S8: 13, tensor.U8: 13, tensor.S4: 13, tensor.U4: 13, tensor.B1: 13,
			}),
			// [TC-wmma] MEASURED on this H100
			// (testdata/programs3/nvcc/h100/mb2.txt and mb2.mma.sass:
			// mb2.cu, nvcc 13's wmma and mma.sync on register fragments,
			// chains at ILP 1-8, 1-32 warps, clock64 per warp).
			// nvcc builds wmma tf32 m16n16k8 from four HMMA.1684.F32.TF32
			// (512 multiply-adds each) and wmma s8/u8 m16n16k16 and
			// m32n8k16 from two IMMA.16816 (2048 each), where mma.sync
			// m16n8k8 tf32 and m16n8k32 s8 are single HMMA.1688 and
			// IMMA.16832: at 4 warps per sub-partition, ILP 8, a wmma tf32
			// takes 17.15 cycles per sub-partition (4 × 4.25) and an s8 one
			// 8.42 (2 × 4.25); mma.sync m16n8k4 tf32 and m16n8k16 s8 issue
			// every 4.47 and 4.42 (1 × 4.25). f16, bf16 (two HMMA.16816) and
			// f64 (one DMMA.884) wmma are mma.sync's instructions.
			WmmaInstMACs: tensorTable(map[tensor.Elem]uint32{
				tensor.TF32: 512, tensor.S8: 2048, tensor.U8: 2048,
			}),
			// ReleaseMMAs 3: a one-warp loop of independent MMAs takes, per
			// iteration, the MMAs' pipe time plus 3 of them after the last
			// (the Release above with the model's 6-cycle branch: 6.25 ×
			// ILP + 19 for the 6.25-cycle HMMA.16816), and 4.25 × ILP + 13
			// for the 4.25-cycle ones: m16n8k8 f16 (tensorlesson's
			// mb_stdout.txt: 30.1, 46.9 cycles at ILP 4, 8), m16n8k16 s8
			// and m16n8k4 tf32 (mb2.txt: 31.0, 47.0).
			ReleaseMMAs: 3,
			// WmmaReleaseMMAs 5: nvcc's wmma loops (mb2.txt, one warp)
			// take per iteration their HMMAs' pipe time plus about 31
			// cycles at ILP 4 and 8 in f16 and bf16 (83.2, 131.3: 8 and 16
			// HMMA.16816), 17-19 in s8 and tf32 (53.2, 85.3; 87.2, 151.3:
			// 4.25-cycle IMMA.16816 and HMMA.1684): five MMA times after
			// the last, less the branch, where mma.sync loops take three.
			// Why ptxas's wmma code waits longer is not known (the loops'
			// SASS is the same MMAs and a branch).
			WmmaReleaseMMAs: 5,
			// ChainLatency: a straight-code chain of wmma.mma on one
			// accumulator (testdata/timing/imma, im.cu's ch_*_d1_s*: fully
			// unrolled, one warp, clock64 over 16-256 steps; the study
			// rows) takes 16.0 cycles a step in s8/u8 (ch_u8_d1_s64/s256:
			// 1018, 4090 cycles, 16.0 a step; ch_s8_d1_s16 15.4) and 24.0
			// in bf16 (ch_bf16_d1_s256: 6156, 24.05), where the same chain
			// in a loop of one step an iteration takes 28.0 and 32.1 (the
			// Latency and the release above): ptxas issues the step's two
			// IMMA.16816 (HMMA.16816) on the accumulator's halves, each
			// waiting only for its half of the step before, and the tensor
			// core forwards an accumulator to the next MMA ChainLatency
			// cycles after that MMA started. f16 is taken as bf16 (the
			// same HMMA.16816; its rows are held out); tf32 and the 8-bit
			// float types were not recorded, nor mma.sync in straight
			// code (not applied: wmma.mma only).
			ChainLatency: tensorTable(map[tensor.Elem]uint32{
				tensor.S8: 16, tensor.U8: 16, tensor.F16: 24, tensor.BF16: 24,
			}),
			// wgmma m64nNk16 f16 → f32, measured on the H100
			// (testdata/timing/wgmma/h100/mb_stdout.txt, TestWgmmaMicrobenchmarks):
			// four to a group at N = 64 and 128 run at the dense rate above
			// (2032–2043 multiply-adds an SM a cycle); at N = 8 one wgmma
			// an SM every 18.1–18.6 cycles (one or four warpgroups); a lone
			// warpgroup's dependent chain 54.5, 82.6, 119.6 and 195.5
			// cycles an iteration at N = 8, 64, 128, 256: 14 of them the
			// loop's own instructions, the rest 31 + 1.18 × the
			// multiply-adds' time. bf16 runs on the same HGMMA path; the
			// other types were not recorded.
			// The second recording (testdata/timing/wgmma/h100b, every
			// type, 1-4 warpgroups): m64nNk8 tf32, m64nNk32 e4m3 and s8
			// take the same cycles as m64nNk16 f16/bf16 (the MACs rates
			// above: 32 bytes of K a wgmma at any type), at least 18 cycles
			// a wgmma, and their results come alike but s8's (integer
			// accumulation): a lone warpgroup's chain 50.75, 78.76, 110.75,
			// 174.75 cycles an iteration at N = 8..256 (the steady slope
			// between 16 and 128 iterations), 14.4 of them the loop's, the
			// rest 32 + 1.00 × the multiply-adds' time. Two to four
			// warpgroups' chains run at the pipe's rate (wgs × 18.1, 32.2,
			// 64.2, 128.3 cycles) where that is slower: the tensor cores
			// take the wgmma queued by all warpgroups in turn (tensorIssue).
			// e5m2 and u8 (not recorded) as e4m3 and s8, on the same QGMMA
			// and IGMMA paths.
			WgmmaQueue: 4,
			WgmmaMinCycles: tensorTable(map[tensor.Elem]uint32{
				tensor.F16: 18, tensor.BF16: 18, tensor.TF32: 18, tensor.E4M3: 18, tensor.E5M2: 18, tensor.S8: 18, tensor.U8: 18,
			}),
			WgmmaLatency: tensorTable(map[tensor.Elem]uint32{
				tensor.F16: 31, tensor.BF16: 31, tensor.TF32: 31, tensor.E4M3: 31, tensor.E5M2: 31, tensor.S8: 32, tensor.U8: 32,
			}),
			WgmmaResultPct: tensorTable(map[tensor.Elem]uint32{
				tensor.F16: 118, tensor.BF16: 118, tensor.TF32: 118, tensor.E4M3: 118, tensor.E5M2: 118, tensor.S8: 100, tensor.U8: 100,
			}),
		},
		// [SHFL] testdata/triton3/study/dot (gen_dot.py, run_dot.sh
		// mb_long and mb_shfl; 256 dependent shuffles a lane, one warp, ncu
		// at base clock): shfl.sync.bfly with an immediate mask 23.5 and
		// 24.2 cycles (two calls), with the mask in a register 26.0,
		// shfl.sync.idx with its lane from the data 26.1 (DERIVATION.md
		// §1's 26) or from a register off the chain 26.0: the immediate
		// form is 2 cycles sooner.
		ShflImmLatency: 24,
		// [MOV] ptxas's SASS has no instruction for the movs ir marks
		// MovFolded (the study half of testdata/triton3: its SASS moves
		// against the PTX's movs, TestFoldedMovsAgainstSASS; study/dot's
		// none_ chains of 256 dependent movs run in the bare kernel's
		// time on the H100, TestFoldedMovChains).
		MovFold: true,
		// [SHFL-SCHED] ptxas interleaves independent shuffle chains of a
		// basic block whatever the PTX's order: testdata/triton3/study/
		// sched (gen_sched.py, run_sched.sh; one H200, ncu, cycles): 8
		// chains of 20 butterfly-argmin steps take 3,527 cycles over the
		// bare kernel written chain after chain, 3,643 step by step and
		// 3,642 grouped by kind, in the same SASS (1,176 instructions);
		// warpsim took 7,607, 7,303 and 3,742 in the PTX's order. Its
		// SASS (30 registers) keeps three chains' shuffles in flight: the
		// shuffles go under the hoisting register bound (heldShfl).
		HoistShfl: true,
		// [STARVE] IssueStarveCycles 64, MEASURED (testdata/timing/
		// warplaunch: warplaunch.cu, run.sh; one H200 call, nvcc 13.0,
		// ncu --clock-control base at 1.497 GHz, every warp's clock64 at
		// entry): full SMs of warps spinning 4000 cycles on clock64 (s256,
		// s1024) start every warp of a block within 49 cycles (p90) and
		// end the kernel in 15 232 and 15 904 ns; greedy-then-oldest
		// without a bound keeps an SM's youngest warps from their first
		// instruction until the oldest exit (+26%, +24%; the H100's
		// blocks s256 +31.8%). 32, 64 and 128 tried on those three study
		// rows: duration MAE 2.8, 2.7, 3.1%, occupancy 1.2, 0.6, 1.3
		// points; 64 taken.
		IssueStarveCycles: 64,
		SharedLatency:     23, SharedConflict: 2, SregLatency: 20, L1HitLatency: 37,
		L2HitCycles: 100, L2HitNS: 94.6, DRAMCycles: 134, DRAMNS: 300, AtomicNS: 0.73, AtomicOpsPerNS: 62,
		BarrierLatency: 20, L1BytesPerCycle: 128, L2BytesPerNS: 5500, DRAMBytesPerNS: 3000, DRAMFetch: 64,
		// [CL] Clusters, MEASURED on this H100 (testdata/timing/clusters:
		// cluster_mb.cu, run.sh; clock64 in the kernel): a round of
		// barrier.cluster.arrive + wait takes 753, 774, 776, 817 and 898
		// cycles for clusters of 1, 2, 4, 8 and 16 blocks (one warp a
		// block; four warps 761–897), __syncthreads 14–20; a dependent
		// ld.shared::cluster chain in a neighbour's shared memory 194–210
		// cycles a load (the block's own 36); atomicAdd on bins spread
		// over the cluster's shared memory 54, 80 and 114 cycles per warp
		// instruction at 2, 4 and 8 blocks (16, 24 and 28 of its lanes
		// remote), doubling with the warps: 3.4 cycles a remote lane.
		// That round is a fence and the barrier (testdata/timing/syncmem:
		// clus_mb.cu, run.sh): ptxas puts MEMBAR.ALL.GPU before a release
		// arrival (the default), so the fence is FenceGPU's, and a
		// barrier.cluster.arrive.relaxed round takes 65 cycles in a
		// cluster of 2 (69 under ncu), a fence + relaxed round 760 (a
		// default one 759): ClusterBarrier 60 (it was 750, the fence in).
		// [DSMEM] A remote atomic's cost by what its lanes name, MEASURED on
		// an H200 (the H100's SM; testdata/timing/rowwalk: rowwalk_mb.cu's
		// dsm_atom, clusters of 4 blocks of 256 on 12 SMs, 64 atomicAdds a
		// thread; Nsight Compute at base clock): 32 lanes on the 32 words of one
		// 128-byte line of the next rank take 16.4 cycles
		// a warp instruction, on 14 sectors (hashed bins) 59.5, on one word
		// 99.5; over three ranks 39 (10.8 sectors) and 80 (22). The lanes
		// on one sector go together, those on one word one after another:
		// DSMEMAtomSectorCycles 3.5 a sector and DSMEMAtomCycles 2.8 a lane
		// on a word another lane named first, chosen on those study rows
		// (3.0-3.5 and 2.8-3.1 tried: mean error 6.0-8.7%). The H100's
		// cluster_mb rows above (bins spread, a lane a sector) are the
		// sector figure.
		ClusterBarrier: 60, ClusterBarrierPerBlock: 9, DSMEMLatency: 190, DSMEMAtomCycles: 2.8, DSMEMAtomSectorCycles: 3.5,
		// [FN] Memory ordering, MEASURED on this H100 (testdata/timing/fences:
		// fence_mb.cu, run.sh; clock64 in the kernel, cycles a loop
		// iteration of one warp): fence.acq_rel.cta 9; fence.acq_rel.gpu,
		// fence.sc.gpu, fence.acq_rel.cluster and membar.gl 656–669 (one
		// warp; 687–731 with 132 blocks of 4 warps); fence.acq_rel.sys
		// 1,507–1,601 (2,676–2,703 loaded). atom.add at .gpu on a word of
		// its own: relaxed 37 an iteration, its result in a dependent chain
		// 538; .acquire 531 (the warp waits for the result); .release 661
		// (a fence first); .acq_rel 1,181 (both). The model's chain (nvcc's
		// PTX) took 307 cycles: AtomicReturnNS adds the 113 ns (at 1.98 GHz)
		// it lacked. A warp's atom on 32 words of their own issues every
		// 36.4 cycles, four warps' every 150 (37.5 a warp): the SM sends
		// an atomic's addresses about one a cycle (AtomicLaneCycles 1; the
		// model gives 39.7 and 135.7).
		FenceCTA: 9, FenceGPU: 660, FenceSys: 1550, AtomicReturnNS: 113, AtomicLaneCycles: 1,
		// [AGG] Warp-aggregated atomics, MEASURED on this H100
		// (testdata/timing/atomagg: agg.cu, run.sh; clock64 in the kernel,
		// the slowest warp's cycles a loop iteration, 132 blocks of 4
		// warps on one word): ptxas compiles an atomic on a uniform
		// address into one update a warp (ir.AggElect): 772.7 cycles for
		// 528 warps' atom.add.u32, 1.46 cycles an update, AtomicNS's rate
		// (the model 766.9; unaggregated, the same 32 lanes a warp take
		// 24,676, the model 24,425). f32 adds are never aggregated and
		// serialize at 3.51 cycles an update (59,230 for 16,896 lanes;
		// red.add.f32 57,953): AtomicFloatNS 1.77 at 1.98 GHz. f16, bf16
		// and f64 adds not measured: taken as f32's. One warp's loop of
		// aggregated atomics (one address, the results not awaited) issues
		// an atom.add.u32 every 31.3 cycles (38.9 in k_time<1,0>; 49.5 in
		// testdata/timing/fences, the same SASS), an atom.add.u64 every
		// 53.0, a red.add.u32 every 6.4 (7.6 with REDUX): AtomicInstCycles,
		// the least an SM's aggregated atomic holds it, FITTED to these
		// rows with the loops' other instructions (the model: 36.1, 36.1,
		// 27.9, 53.5, 7.0, 7.0). Not applied to per-lane atomics: the
		// calibration's atomics_global_* (unaggregated) keep their
		// occupancy (4.7 points; 8.1 with the floor).
		AtomicFloatNS: 1.77, AtomicInstCycles: [3]float64{20, 46, 6.4},
		// [RED] red.global, MEASURED on this H100 (testdata/timing/syncmem:
		// red_mb.cu, run.sh; clock64 in the kernel, the slowest warp's
		// cycles a red, 256 a thread, each lane its own address): one
		// warp's reds on its own line issue every 6.4 cycles, on 32 lines
		// (a lane each) every 30.6, an atom on one line every 36.4
		// ([FN]): a red goes a line at a time (AtomicLaneCycles each); 4
		// and 16 warps of one SM, one line each, 4.8 and 5.0 cycles a red
		// of the SM: RedInstCycles 4.9. On 132 SMs the L2 sets the pace
		// (16 warps: 281 cycles a red a warp, 7.5 lines a cycle; 32 lines
		// a red: 1,589): a warp's red waits for its RedWindow-th last to
		// be done at the L2 (the L2's answer, which the quantum model
		// gives two quanta on at the earliest). RedWindow 56, CHOSEN for
		// the loaded rows (132 SMs of 16 warps: own line, 32 lines, new
		// lines; mean |error| 11.6%; one warp alone then takes 10.5
		// cycles a red for the H100's 6.4, 128 would give 6.3 but the
		// loaded rows 17-39% fast).
		RedInstCycles: 4.9, RedWindow: 56,
		// [CONST] Constant memory, MEASURED on this H100
		// (testdata/timing/syncmem: const_mb.cu, run.sh; clock64, one
		// thread chasing through a __constant__ array): a step 64 bytes
		// on misses once in four steps, 128 bytes every other one, 256
		// bytes and more every one: a miss brings 256 bytes
		// (ConstBlockBytes). A miss from DRAM takes 649-747 cycles, from
		// the L2 about 320, a hit 42 (a footprint of 4 KiB and more 107-148:
		// a second level, not modelled); the SMs keep nothing across
		// launches (a relaunch misses as from the L2). The model serves
		// the miss as a global load of the block's sectors.
		ConstBlockBytes: 256,
		// [PARAM] A kernel's parameters, MEASURED on this H100
		// (testdata/timing/kstart: kstart.cu, run.sh; one warp's
		// %clock64 around each read, ncu --cache-control all and none,
		// twelfth round): ptxas reads parameters from constant bank 0
		// (c[0x0][0x210 + offset]: ParamBankOffset; %ntid at 0x0). A
		// chain through the parameters takes 72 cycles a step to a part of
		// the bank the block has not read (0x238, 0x240, 0x280, 0x300,
		// 0x400, 0x800 after 0x218) and 14 to one it has (0x21c after
		// 0x218): ParamChunkBytes 32 (0x218 and 0x238 miss apart, so at
		// most 32), ParamMissCycles 62 (the miss's 58 cycles over the
		// hit's step, on the class latency's 4; an FFMA on a parameter
		// waits 64 cycles, on one 0x300 bytes on 62), alike with the L2
		// flushed and kept (the bank does not come from memory); the
		// second wave's blocks on an SM miss as the first's (kstart's
		// 264-block run: the same median of 76 cycles a step), so the
		// lines are the block's. ptxas reads a parameter at its use
		// (k_imc: the ULDC just before the FFMA, after the first
		// %clock64, where nvcc's PTX has the ld.param at the top): the
		// model asks for a line the block lacks when the read's first
		// consumer would issue.
		ParamChunkBytes: 32, ParamMissCycles: 62, ParamBankOffset: 0x210,
		// A global variable's address: ptxas reads it from c[0x4] (the
		// module's bank of addresses, in memory). kstart's k_sym, one
		// warp, ncu with the L2 flushed: its first load issues 696 cycles
		// after the kernel's first instruction where k_ptr's, through a
		// pointer parameter, issues after 55 (the parameter's miss):
		// SymFirstMissCycles 660, which gives the model's k_sym that
		// step (fitted on this row). Later blocks find the line in the L2:
		// SymMissCycles 320, [CONST]'s miss from the L2 (k_sym with the
		// L2 kept, not fitted: 285).
		SymFirstMissCycles: 660, SymMissCycles: 320,
		// [CPA] cp.async, MEASURED on this H100 (testdata/timing/cpasync:
		// cpasync_mb.cu, run.sh): eight warps' 4-byte coalesced copies from
		// L1 take 38.3 cycles a warp instruction (4.8 an SM), 16-byte ones
		// 58.0 (7.3: 512 bytes at 70 a cycle); copies of 32 lines of their
		// own that miss the L1 448 a warp instruction with .ca (56 an SM:
		// 1.75 a line allocated) and 269 with .cg (33.6: the L1's one line
		// a cycle). The shared-memory side (testdata/timing/ldgsts:
		// ldgsts_mb.cu, run.sh in triton_stamps; eight warps, L1 hits, an
		// SM's cycles a warp instruction): one line written to 1, 2, 4, 8,
		// 32 wavefronts 2.45, 3.5, 4.8, 8.8, 33.3; 4, 8, 32 lines written
		// to a wavefront each 4.8, 9.2, 34.4; 4 lines in two wavefronts
		// each 9.2, 8 lines in one each 9.1, 32 lines with 32 lanes on one
		// bank 35.5: a wavefront a cycle, the lanes that read one line
		// writing together, plus 0.8 a copy; at least 2.45.
		CpAsyncCycles: 2.45, CpAsyncLineCycles: 1.75, CpAsyncWavefrontCycles: 1, CpAsyncIssueCycles: 0.8,
		CpAsyncBytesPerCycle: 70,
		// [CPI] cp.async issue, MEASURED on this H100 (testdata/timing/
		// f16mm: inflight_mb.cu, run2.sh; one block, each thread 32 16-byte
		// .cg copies back to back, addresses computed before): one warp
		// issues a copy (4 lines, 4 wavefronts) every 11.2 cycles (367 for
		// 32), reading or zero-filling alike: 2.24 a wavefront and one more
		// (ldgsts_mb.cu's one-warp rows, testdata/timing/ldgsts, rounds of 8
		// copies and a wait: 8 and 32 wavefronts 22.5 and 70.6 a copy, the
		// rule 20.2 and 73.9); four warps 12 a warp for their first 16 copies
		// then 16-19 (465 for 32), eight warps 3.9 an SM from the start
		// (935): the SM's L1 data path (4.8 cycles a 4-line copy,
		// cpAsyncL1Bytes) with some 100 cycles of work queued, the copies
		// beyond it waiting in the warps.
		CpAsyncWarpCycles: 2.24, CpAsyncQueueCycles: 100,
		// testdata/timing/stld (stld_mb.cu, membar.gl after 16-byte coalesced stores of 1-8 warps: 1.0-1.04
		// cycles a sector from the last store's issue to the fence's end, less its 700 cycles with few stores; one
		// sector a lane, 16, 4 or 2 bytes of it: 1.24-1.28; eight warps' issue ran 1,000 cycles of sectors ahead).
		StoreSectorCycles: 1.0, StorePartialCycles: 1.25, StoreQueueCycles: 1000,
		// [L2STORE] testdata/timing/l2store (l2store.cu, run.sh: one device call on an H200, the H100's GH100
		// SMs and L2; nvcc 13.0 -O3 -arch=sm_90, ncu --clock-control base at 1.48-1.50 GHz, L2 flushed; study
		// rows of SPLIT.md): a 4-byte store a 128-byte line takes one SM's port 2.0 cycles a line
		// (st_e4s128_g1_p4 176,768 ns for 131,072 lines, less the 2.35 us st_e16s16_g1_p4 leaves beyond its
		// sector a cycle), where 4-byte stores to four sectors of a line take 1.25 a sector (st_e4s32_g1_p4):
		// StorePartialLineCycles 2, held back at 0 (with it testdata/timing/blocks' ss32x1, one warp an SM
		// storing a partial sector a line past the L2, goes from +22% to +39%; testdata/timing/l2store/JOURNAL.md).
		// testdata/timing/stmerge (merge_mb.cu): a lane's eight successive 4-byte stores to one sector of its own
		// reach the L2 as one sector write (lts__t_sectors_srcunit_tex_op_write 65 for 512 stores of 2 warps, 129
		// for 1,024 of one warp; the fence ends 840 cycles in, as coalesced stores' 743, against 1,297 for a sector
		// a store) while the other warps' stores between them span 8 lines, not when they span 24 (4 warps) or
		// 56 (8 warps): a store merges when its own 8 lines are among the last 16 to 31 the port took; 16. A line
		// all merged still takes the port a sector's time (the one-warp row 23% short without it, the two-warp 6.5%).
		StoreMergeLines: 16,
		// [SHW] A warp's shared accesses reach the SM's shared pipe in order, a wavefront every 2 cycles (as
		// SharedConflict spaces a conflicted load's); the pipe takes one a cycle from all warps. MEASURED on an H200
		// (the H100's SM; testdata/timing/stsconf2: stsconf2_mb.cu, run.sh; clock64 in the kernel, cycles a store):
		// one warp's 8- and 32-way conflicted stores 15.9 and 63.4 (2 a wavefront), four warps' 32.0 and 127.7 for
		// four stores (1 a wavefront an SM); a conflict-free load behind one warp's 32-way store 62 cycles later
		// than behind a conflict-free one (95.75 against 33.75 a step).
		SharedWarpCycles: 2,
		// [COLDLINES] A global load's lines through the L1's miss path, MEASURED on this H100
		// (testdata/timing/coldlines: coldlines_mb.cu, run.sh; clock64 in the kernel): one block's loads of 64
		// to 256 lines at once leave it at about two cycles a line once a few dozen are queued (eight warps' 64
		// loads of four lines issue in 345-404 cycles; 256 lines from the L2 are back in 871-942 cycles, one in
		// 348), from the L2 and from DRAM alike: 64 bytes a cycle of missing sectors (a hit's data 128, l1wave).
		// One warp issues a four-line load every 11-14 cycles there (the one-warp rows: 216 cycles for 16),
		// as a four-line cp.async (CpAsyncWarpCycles): 2.24 a line of its last load, and one more.
		// [L1REUSE] And at least a cycle a line it misses, MEASURED on the device's H200 (the same GH100 SM;
		// testdata/timing/l1reuse: l1reuse_mb.cu, run.sh; clock64, one block of 16 warps): a load whose 32 lanes
		// read one sector of each of 32 lines the L1 does not hold takes 32.1-32.2 cycles an SM, the lines at 32
		// different offsets (one data-stage wavefront; 16 cycles at 64 bytes a cycle) as at one offset (32
		// wavefronts), through ld.global, .nc, .ca and .cg alike; where the lines are in the L1, 15.4 and 32.1.
		LoadMissBytesPerCycle: 64, LoadMissLineCycles: 1, LoadWarpCycles: 2.24,
		// [INFLIGHT] One warp keeps at most 32 global loads waiting for their data, MEASURED on this H100
		// (testdata/timing/inflight: inflight_mb.cu, run.sh; clock64 in the kernel, Nsight Compute's base
		// clock): one thread's N independent loads of distinct lines take 487 cycles at N=32 and 1,376 at
		// 128 from the L2 (264 for one), 1,201 and 3,083 from DRAM (645 for one): past a few dozen, an L2
		// hit's or a DRAM read's latency for every 26 to 32 more. 32 lanes a line each keep hundreds of lines in
		// flight (not bounded by it). LoadWindow 32 puts the model's one-thread rows (N = 1 to 128) at 12.2%
		// MAE against 22.4% without it (24 and 28 give a full latency's step at N = 32 the H100 does not have).
		LoadWindow: 32,
		// [TM] A tensor copy's first round takes 430–570 cycles longer on
		// the H100 than the model's copy from DRAM (testdata/timing/wgmma/
		// h100b: tile, boxes 16x16 to 256x128; cp.async.bulk's first rounds,
		// with no tensor map, do not): the TMA unit fetches the tensor map
		// first, about 500 cycles at 1.98 GHz (250 ns). Since the L2's far
		// partition (DRAMFarNS), the model's copy of a box's rows from 8
		// pages or more waits for its far half, 49 ns later than the mean
		// the excess was measured over: 200.
		TensorMapFetchNS: 200,
		// [BULK] A bulk store's group wait, MEASURED on this H100
		// (testdata/timing/bulkwait: bulkwait_mb.cu, run2.sh in
		// triton_stamps; one warp): a TMA store of a 4 KiB box through a
		// map the TMA unit holds has read its source 220 cycles after its
		// issue (cp.async.bulk.wait_group.read), its writes 44 later;
		// through a map made just before (tensormap.cp_fenceproxy,
		// fence.proxy.tensormap acquire) 521, the first store of a kernel
		// 465: the map's fetch overlaps the rest. A non-tensor bulk store
		// of 4 KiB 256. BulkReadCycles 177 plus 4 KiB at 96 bytes a cycle
		// (CopyBytesPerCycle) is 220. A commit_group and a
		// wait_group.read with nothing in flight (UTMACMDFLUSH, DEPBAR):
		// 37 (testdata/timing/tmcold; BulkWaitCycles 35, the commit's
		// issue the rest).
		BulkReadCycles: 177, BulkWaitCycles: 35,
		// [TMF] Device-side tensor maps, MEASURED on this H100
		// (testdata/timing/tensormap: tmfence_mb.cu, run.sh; one warp,
		// cycles a round): 13 tensormap.replace by lane 0 126 (9.7 each);
		// tensormap.cp_fenceproxy alone 15, fence.proxy.tensormap acquire
		// alone 11.5, the two in turn 314 (the acquire waits for the
		// release's copy to reach global memory: an L2 round trip). The
		// copy is 32 atomic exchanges (ATOMG.E.EXCH, no destination) on the
		// map's line, which the acquire waits for (DEPBAR): with the line
		// not in the L2, as in a kernel Nsight Compute times, the two take
		// 755 (testdata/timing/tmcold: tmcold_mb.cu, its run.sh), 434 with
		// it; the model sends the copy through the L2 as an atomic whose
		// answer is its acknowledgement (scoreboard.go, atomicAck).
		// Triton guards each replace with its own predicate (@%p, lane 0),
		// which ptxas makes a branch region each: zeroing the map and 13
		// such replaces take 578 cycles where the 13 in one if take 150
		// (testdata/timing/tmcold: tmbranch_mb.cu, run2.sh; one warp of
		// four making the map): 33 a replace, the guard's setp 3.5 of it
		// in the model.
		TensormapReplaceCycles: 10, TensormapCopyCycles: 15, TensormapAcquireCycles: 11, TensormapGuardCycles: 29,
		// [SLOW] The out-of-line paths of div.rn.f32 and sqrt.rn.f32,
		// MEASURED on this H100 (testdata/triton3/study/slow: gen_slow.py,
		// run_slow.sh; one warp, 16 independent operations, lane 0's
		// operands of one kind, the other lanes' normal; Nsight Compute's
		// sm__cycles_elapsed.max less the all-normal case's, over 16, base
		// clock): per kind, in engine.SlowDivNaN … order, 180 (NaN), 268
		// (Inf/x), 239 (x/Inf), 266 (x/0), 239 (0/x), 198 (0/0), 485
		// (subnormal/x), 419 (x/subnormal), 359 (1/2^127), 290 (a quotient
		// of 2^130), 269 (2^-125/1.5), 361 (a quotient of 2^-130); sqrt of
		// 0 119, of -2 140, of NaN 163, of +Inf 212, of a subnormal 212,
		// of 2^-103 207. With every lane's operands special, 0/0 costs 182
		// and sqrt(-2) 116: 16 and 24 less (SlowPathAll*). Two lanes on
		// two paths cost both less what they share: NaN with subnormal/x
		// 547 (118 shared), 0/0 with a quotient of 2^130 401 (87), sqrt of
		// -2 with a subnormal 321 (31): SlowPathSharedDiv 102 (the two
		// divisions' mean), SlowPathSharedSqrt 31. Four and eight warps
		// with 0/0 in lane 0 take 194 and 201 a call, as one warp: the
		// sub-partitions run their warps' subroutines side by side.
		SlowPathCycles:    [engine.SlowPaths]uint32{180, 268, 239, 266, 239, 198, 485, 419, 359, 290, 269, 361, 119, 140, 163, 212, 212, 207},
		SlowPathAllDiv:    16,
		SlowPathAllSqrt:   24,
		SlowPathSharedDiv: 102, SlowPathSharedSqrt: 31,
		// [ROUND] The directed rounding forms (.rz, .rm, .rp) of division,
		// reciprocal and square root, MEASURED on this H100
		// (testdata/triton3/study/round: gen_round.py, run_round.sh; one
		// warp, 16 dependent operations on normal operands, Nsight
		// Compute's sm__cycles_elapsed.max less the case without them,
		// over 16, base clock; the .rm and .rz rows' mean): div.f32 259
		// (262.5, 254.8), div.f64 275 (273.2, 276.9), rcp.f64 290
		// (288.6, 291.2), sqrt.f64 287 (288.8, 285.9), all subroutine
		// calls (16 independent calls 265–304 a call: no overlap);
		// sqrt.f32 94 (94.9, 93.4), inline.
		RoundedCycles: [RoundedKinds]uint32{259, 275, 290, 287, 94},
		// [IEEE] The .rn forms ptxas inlines (the same call: 16 dependent
		// operations, over 16): div.f32 64, rcp.f32 86, sqrt.f32 63,
		// div.f64 131, rcp.f64 79, sqrt.f64 91 cycles; 16 independent ones
		// 64, 92, 59, 128, 62, 83 each (the warp runs one at a time).
		IEEECycles: [IEEEKinds]uint32{64, 86, 63, 131, 79, 91},
		// [LIBCALL] A call of a libdevice function in clang's code (warpsim
		// runs it natively; ptxas CALLs libdevice's routine, the code nvcc
		// would inline), MEASURED on an H200 (the H100's SM;
		// testdata/libm20: lmb.cu, run.sh; clang 22's PTX through ptxas
		// with nvcc 13's code of each __nv_ function spliced in, typical
		// inputs). Slots: Nsight Compute's smsp__inst_executed a call (one
		// warp's chain of 64 calls less the chain without them, over 64:
		// the call's moves, CALL, the routine's path and RET); XU, FP64:
		// its smsp__inst_executed_pipe_xu and _fp64 the same way. Cycles:
		// the chain's clock64 cycles a call less the 45 the model gives
		// the rest of a call (its issue and the result's way back); sinf
		// and sqrtf fitted jointly with testdata/programs3/clangcode/stamps
		// (115 and 91: chains -3.5% and +4.3%, stamps +3.5% and -4.4%).
		// The math functions not measured on their own (ir.LibcallMathF32,
		// LibcallMathF64: 12 of 39 kept out by a hash before the call,
		// testdata/libm20/PREDICTIONS.md, and the rest of libdevice's math
		// routines) take the measured functions' median per precision
		// (20 float, 7 double). Integer helpers, conversions and the like
		// (ir.LibcallOther) keep 24 issue slots and the class latency.
		Libcall: libcallCosts(
			LibcallCost{Slots: 34, Cycles: 124, XU: 1},
			LibcallCost{Slots: 58, Cycles: 309, XU: 1, FP64: 19},
			map[string]LibcallCost{
				"sinf":     {Slots: 33, Cycles: 115, XU: 1},
				"cosf":     {Slots: 34, Cycles: 128, XU: 1},
				"sqrtf":    {Slots: 19, Cycles: 91, XU: 1},
				"expf":     {Slots: 18, Cycles: 76, XU: 1},
				"exp2f":    {Slots: 13, Cycles: 49, XU: 1},
				"logf":     {Slots: 35, Cycles: 98},
				"log2f":    {Slots: 36, Cycles: 104},
				"log10f":   {Slots: 35, Cycles: 99},
				"log1pf":   {Slots: 33, Cycles: 117},
				"powf":     {Slots: 93, Cycles: 298, XU: 4},
				"tanf":     {Slots: 30, Cycles: 137, XU: 2},
				"asinf":    {Slots: 33, Cycles: 124, XU: 1},
				"acosf":    {Slots: 35, Cycles: 128, XU: 1},
				"atan2f":   {Slots: 52, Cycles: 233, XU: 2},
				"sinhf":    {Slots: 33, Cycles: 125, XU: 3},
				"erfcf":    {Slots: 55, Cycles: 145, XU: 4},
				"fmodf":    {Slots: 43, Cycles: 262, XU: 2},
				"sinpif":   {Slots: 31, Cycles: 93, XU: 3},
				"normcdff": {Slots: 70, Cycles: 189, XU: 4},
				"rsqrtf":   {Slots: 13, Cycles: 49, XU: 1},
				"log":      {Slots: 90, Cycles: 321, XU: 1, FP64: 30},
				"sin":      {Slots: 55, Cycles: 301, XU: 2, FP64: 16},
				"cos":      {Slots: 56, Cycles: 305, XU: 2, FP64: 16},
				"pow":      {Slots: 212, Cycles: 826, XU: 1, FP64: 87},
				"erf":      {Slots: 130, Cycles: 408, XU: 5, FP64: 42},
				"log1p":    {Slots: 61, Cycles: 313, XU: 1, FP64: 22},
				"sqrt":     {Slots: 28, Cycles: 126, XU: 1, FP64: 8},
			}),
		// [FETCH] Instruction fetch, MEASURED on this H100
		// (testdata/timing/icache: gen.py's icache_mb.cu and
		// icache_jump.cu, run.sh and run2.sh; one warp's %clock64 per pass
		// over N independent FFMAs, nvcc 13 -O3 sm_90, SASS = PTX
		// instructions there; under ncu --cache-control all, base clock):
		// a first pass takes 86 + 2.17 cycles an instruction for N = 128 to
		// 2048 (cold), a later one 1.04: FetchLineCycles 17.4 a 128-byte
		// line, alike for 1, 4 and 32 warps a block and 1 or 132 blocks
		// (per SM). Loops of 33 KB run warm, of 50 and 65 KB at 2.2 cycles
		// an instruction on every pass: IcacheBytes 40 KB. A forward
		// branch over 1 KB of code costs 56 cycles more cold than warm
		// (jump_1024: 91 against 35 a segment): FetchMiss 50 with the
		// stream (TestFetchMicrobenchmarks). Code beyond the first 64 KB
		// comes at 12.9 cycles an instruction (icache_8192, icache_32768:
		// 103 cycles a line) and a jump there takes 720 (jump_4096's
		// segments past 64 KB; a cold constant-cache miss, constlat,
		// takes 724). InstBytes 16, a SASS instruction; MovBytes 5.8: a
		// PTX mov is 0.36 SASS instructions (ptxas 13 folds immediates
		// into their users and copies away: ld_special_f32's 2,628 movs
		// became 958 MOV, HFMA2 and UMOV; testdata/triton3/study,
		// ptxops.py, third Triton batch, issue 18), an instruction ptxas
		// expands its issue slots (fetch.go, codeBytes). Before: 19.8 for
		// every PTX instruction, 16 × 1.24, the median SASS per PTX
		// instruction of the first Triton corpus (triton_sass_counts.txt),
		// which made the libdevice kernels' code 1.4–1.5 times too long.
		// Nsight Compute's
		// duration less the first pass grows by 300 ns from 3 to 17 KB of
		// code (icache_128 to icache_1024, one warp: 2364, 2512, 2671 ns)
		// and no further (2654, 2493, 2944 ns at 34, 50, 66 KB): the
		// launch fetches the first 16 KB, FetchLaunchLineNS 2.7 a line.
		// MEASURED (testdata/triton3/study/fetch, eleventh round:
		// gen_fetch.py, run_fetch.sh; one warp's %clock64 around a region,
		// ncu --cache-control all): a branch does not stop the stream,
		// taken or not (far code with a branch not taken every two lines:
		// 99 cycles a line, straight 95; a taken branch over 1, 2 or 4
		// lines costs the lines it skips, over 8 a restart), and each
		// sub-partition streams its own (four warps on four pieces of far
		// code: 6730-8150 cycles, one warp on one 7607). FetchAhead 6:
		// a stream runs at most ceil(FetchFarMiss / FetchFarLineCycles) =
		// 6 lines past its warps (the lines of one far request's latency
		// in flight; a warp slower than the far stream, far_mufu at 136
		// cycles a line, never waits: at least 5).
		FetchLineCycles: 17.4, FetchMiss: 50, FetchNearBytes: 64 << 10, FetchFarLineCycles: 103, FetchFarMiss: 560,
		IcacheBytes: 40 << 10, FetchAhead: 6, InstBytes: 16, MovBytes: 5.8, FetchLaunchBytes: 16 << 10, FetchLaunchLineNS: 2.7,
		// [PRINTF] Device printf, MEASURED on this H100 (testdata/timing/
		// printf: printf.cu, record.sh, one device call; Nsight Compute at
		// 1.589 GHz, caches flushed, launch 1; fitted on SPLIT.md's study
		// rows alone, printf_fit.py): a single call's time less the empty
		// kernel's is 30.9 µs + 61.8 ns a format byte (i1, a0, d1: 3 bytes,
		// i4 12, i8 24: 31.2, 30.4, 31.6, 31.9, 32.3 µs), 152 ns a lane
		// past the first (32 lanes against one), a %s 1.6 µs + 228 ns a
		// byte of the longest lane's string (s1, 5 and 13 bytes); of the
		// 30.9 µs, 7.6 µs is the cold fetch of vprintf's code (ncu's
		// no_instruction stall of those calls: 1.76 a warp instruction
		// over 6,837). Warps anywhere print one at a time: each warp more
		// adds 9.5 µs (four warps of one block 9.47, 32 warps 10.33, 132
		// warps on 132 SMs 8.94), the lock's hold: its handoff, a host-
		// memory atomic's round trip and a system fence (sysmem.cu,
		// record2.sh: 1,905 + 1,288 cycles at 1.589 GHz, 2.01 µs), and
		// 237 ns a lane ((9.58 - 2.01) / 32).
		Printf: PrintfCost{CallNS: 23367, FormatByteNS: 61.8, StringNS: 1605, StringByteNS: 228, LaneNS: 151.7, ColdNS: 7559,
			HandoffNS: 2009, LockLaneNS: 236.6},
		// [RN] testdata/timing/rncost (gen.py's PTX, run.py, run.sh; one
		// device call, %clock64 a step): the reduce lesson's loop with
		// nvcc's rem.u32 takes 122 cycles a step more than with clang's
		// mask for one warp, 244 and 266 for eight and sixteen warps a
		// sub-partition (ncu: the XU 37% busy, math_pipe_throttle and
		// mio_throttle on its I2F, MUFU.RCP and F2I): DivXU, the XU's
		// intervals above. Its chain stays the class latencies' (I2F, MUFU,
		// VIADD, F2I and eleven integer steps: 103): the 130 cycles one
		// warp's step shows made syncmem's k_bulk, whose (i*3+r) % words
		// ptxas interleaves across unrolled iterations, 40% slow.
		DivXU:   true,
		L1Bytes: 192 * 1024, L2Bytes: 25 << 20, StoreToLoad: 150,
		PartialSectorBytes: 80, RMWLineBytes: 131, StoreDrain: true, StoreWindow: 4, LoadAfterStore: true, UnifiedL1: true, HoistLoads: true, L1Wavefronts: true, L2AccessBytes: 56.7,
		// [UNROLL] LoopUnroll 4, ConstBankLive on (ptxas.loop_unroll,
		// ptxas.const_bank_live): ptxas's loop body is four of the PTX's
		// and its loads run ahead of earlier iterations' arithmetic
		// (testdata/programs9/unroll: 3mm's loop +166% -> +12%, layer3's
		// with its count a parameter +68% -> -14%), for the loops whose SASS
		// shows it (ir's rule, from the SASS of 87 loops of programs3, 8, 9
		// and mlp: docs/timing-model.md, "ptxas's unrolled loop body"), and
		// the hoisting bound leaves out the parameters ptxas reads again
		// from the constant bank (mm3_kernel's SASS). ConstBankLive went on
		// in the fifteenth round with WmmaRounds below (programs9's nvcc
		// PTX 13.5% -> 8.2%; testdata/programs3/JOURNAL.md, fifteenth round).
		LoopUnroll: 4,
		// [UNROLL26] UnrollFree and UnrollOverhead on (ptxas.unroll_free,
		// ptxas.unroll_overhead): ptxas unrolls a counted loop of register
		// arithmetic four times too (ir's rule, from the SASS of
		// testdata/timing/fp64pipe and rowwalk: bodies of 7 to 21
		// instructions four PTX bodies long, of 35 or more not), and its
		// unrolled body steps its counter, compares and branches once
		// (mix_f: 64 FFMA, one IADD3, one ISETP, one BRA). One warp on the
		// H200: mix_f 5,131 cycles, the model 7,782 -> 5,094 (+51.7% ->
		// -0.7%), dfma4 +28.5% -> +0.9%, rowwalk's dchain4 +27.0% -> +5.1%
		// (docs/timing-model.md, "ptxas's unrolled loop body").
		UnrollFree: true, UnrollOverhead: true,
		// [FP64] HoistFixed for the fp64 pipe (ptxas.hoist_fixed.fp64):
		// ptxas interleaves a block's independent DFMA chains, which the
		// PTX writes chain after chain (testdata/timing/fp64pipe: fp64_mb.cu,
		// run.sh; one device call on the H200, clock64 around each loop):
		// one warp's four chains of DFMA take 8.8 cycles a step (dfma4),
		// eight 18.4 (2.3 a DFMA), one chain 8.4-8.9 (the loop's counter,
		// compare and branch under the chain); the PTX's order in turn
		// made them 17.4, 31.4 and 11.1-12.4.
		// [FMA] and for the FP32 pipe (ptxas.hoist_fixed.fma, fma25): nvcc
		// writes mix_f's four FFMA chains two steps of a chain at a time,
		// ptxas's SASS issues them round-robin (fp64_mb.sass.txt: R10, R24,
		// R18, R26 in turn, 64 FFMA a body); one warp takes 5.0 cycles a
		// step, the model 10.6 in the PTX's order, 7.6 with the hoist (the
		// rest is the PTX body's loop overhead, four steps a branch where
		// ptxas's body has sixteen). Not for imul (mix_i's IMADs are
		// already interleaved in the PTX: no change) nor alu (the loop's
		// counter and compare, hoisted, move the fp64 pipe's one-chain
		// rows at 32 warps from -2.2..+3.6% to +18.9..+25.8%).
		HoistFixed: hoistClasses(ir.ClassFP64, ir.ClassFMA),
		// [HOIST] UnrolledHoistBound stays off (ptxas.unrolled_hoist_bound=1
		// turns it on): it gives the loads ptxas hoists in an unrolled
		// loop (testdata/timing/hoist: 127 held-out kernels, mean
		// |model - SASS| 9.1 loads off, 1.9 on; rowreuse 32 -> 12, ptxas
		// 8), but the model's time does not answer as the H200's does:
		// rowreuse's loop with all 32 ahead (__launch_bounds__(256, 1))
		// takes the H200 7.8% less than with 8, the model the same, and
		// TestMechanisms' l1_rowreuse_nc_k32 goes -11.9% -> -14.0%
		// (docs/timing-model.md, "ptxas's partial hoist").
		// [WMMAORDER] ptxas's order inside a wmma k step (ptxas.wmma_rounds):
		// tf32 fragments converted in place a k-slice at a time, 8-bit
		// operands the other way round packed from bytes before the other
		// operand's loads (testdata/programs3/wmmagemm, wg.sass; testdata/
		// programs3/JOURNAL.md, fifteenth round).
		WmmaRounds:    true,
		ConstBankLive: true,
		// [WMMAREUSE] a loop's k steps share their fragments' registers
		// (ptxas.wmma_reuse): a step's wmma.load waits for the MMAs of the
		// step before to start (wg.sass's gg and gs loops; testdata/
		// programs3/JOURNAL.md, sixteenth round).
		WmmaReuse: true,
		// [WMMAGROUPS] an 8-bit operand read a byte an element sends its
		// second half of LDG.E.U8 when the first half's data is back
		// (ptxas.wmma_group_rounds): wg.sass's gg s8 step; testdata/
		// programs3/JOURNAL.md, seventeenth round.
		WmmaGroupRounds: true,
		// [WMMASLICES] a converted tf32 A fragment's k-slices sent one
		// after another through the memory system (ptxas.wmma_slice_groups):
		// testdata/timing/wmmatf32's study SASS; testdata/timing/wmmatf32/JOURNAL.md,
		// eighteenth round.
		WmmaSliceGroups: true,
		// [WMMASTRAIGHT] in straight code ptxas sends every fragment load
		// before the first consumer (ptxas.wmma_rounds_loop_only): wg.sass's
		// ch kernels; testdata/programs3/JOURNAL.md, seventeenth round.
		WmmaRoundsLoopOnly: true,
		// [WMMAREPEATS] a wmma.mma repeating an earlier one's value in
		// straight code is not issued (ptxas.wmma_repeats): ptxas computes
		// it once (testdata/timing/wmmacse, twenty-first round).
		WmmaRepeats:    true,
		DRAMWaitSpread: 0.75, DRAMReorderNS: 300, DRAMFarNS: 98, FarBytesPerNS: 2190, DRAMLatencySpreadNS: 80, DRAMLatencySpreadLoaded: true,
		// [TLB] Address translation, MEASURED on this H100 (helper
		// mmtime's coldlines_mb.cu, its k_chase under Nsight Compute at
		// 1.589 GHz, the L2 flushed: testdata/timing/coldlines, with
		// its script): a launch's first read of a 32 MiB region the
		// launch before did not read takes 1,219-1,584 cycles where the
		// same read of a region it read takes 582-720 (+731 on the mean:
		// 460 ns), and at 32 MiB steps each of the 15 new regions 1,333
		// where read the launch before 636 (+697: 439 ns), while 2 MiB
		// steps pay once in 32 MiB: TLBRegionBytes 32 MiB, TLBWalkNS 450.
		// The launch's first read of a region the launch before read
		// costs 48 cycles (30 ns) more than the rest, a new region's first
		// read 68 (43 ns): TLBMissNS 35. Plain runs (boost clock, the
		// pages all written at the program's start) pay no walk and 80
		// cycles (40 ns) on the launch's first read: the model times as
		// Nsight Compute does. A program's launches (TLBPrograms) pay the
		// walks by the program's own history, plainly too: on an H200
		// (testdata/timing/firstlaunch, prog20) a program's first launch
		// of a 1-block read kernel took +757-886 ns under Nsight Compute
		// over the same kernel warm (two cold regions: its input and its
		// stamp buffer), +342-360 ns with one cold region, +437-650 ns
		// with 132 blocks; plain runs' first reads +600-1,100 cycles at
		// 1.98 GHz.
		TLBRegionBytes: 32 << 20, TLBWalkNS: 450, TLBMissNS: 35, TLBPrograms: true,
		// [DRAIN] BlockRateFloor, MEASURED (testdata/timing/shortocc,
		// the study rows m_e64_x1, m_s64_x1 and m_e64_x6: their ncu
		// durations and every warp's %globaltimer at entry and exit;
		// testdata/timing/shortocc/JOURNAL.md, "The block scheduler's retirement rate"):
		// one wave of 4224 empty blocks of 64 has exited 928 ns after its
		// first block began and the kernel lasts 4320 ns more (an empty
		// one-block kernel 2240: 2080 ns for the wave, 0.49 ns a block);
		// the same wave spinning 3000 cycles has exited at 2720 ns and
		// the kernel lasts 4288 more, so the blocks' retirements are
		// taken after they ran, one per BlockDispatchNS device-wide,
		// and the grid ends when the last is (retirementDrain): -41.7%
		// and -27.0% without, -5.0% and +0.8% with. Six waves of them
		// end 2400 ns after their last block: the last wave's turns.
		KernelNS: 2200, BlockDispatchNS: 0.6, FirstDispatchNS: 0.1, BlockRateFloor: true, BlockLaunch: 127, BlockRetireNS: 140, LaunchGapNS: 4700,
		DeviceLaunch: 2000, ChildStartNS: 14700, DeviceSyncNS: 10000,
		// [COPY] testdata/timing/wgmma/h100b (mb.cu's bulk and tile: one
		// thread's cp.async.bulk / cp.async.bulk.tensor.2d of 512 bytes
		// to 64 KiB and its mbarrier wait, from the L2): 990 cycles at
		// 64 KiB, 648 at 32 KiB, 476 at 16 KiB, 342 cycles a further 32
		// KiB: the copy unit writes 96 bytes a cycle into shared memory.
		ChildLaunchNS: 1060, ConcurrentKernels: 128, CopyBytesPerCycle: 96,
		Source: "H100: measured (testdata/timing/DERIVATION.md)",
	},
	"a100": {
		// [PG] 8.0: 64 fp32 FMA per SM per clock on GA100 (2 cycles a warp
		// per sub-partition), 32 fp64, 16 MUFU; latencies and memory [GEN]
		// from the H100.
		Latency: classTable(4, map[ir.Class]uint32{
			ir.ClassFMA: 4, ir.ClassFP64: 8, ir.ClassSFU: 17, ir.ClassConv: 12, ir.ClassIMul: 4,
			ir.ClassBranch: 6, ir.ClassWarp: 26, ir.ClassConst: 4, ir.ClassLocal: 37, ir.ClassDevRT: 40,
		}),
		Interval: classTable(1, map[ir.Class]uint32{
			ir.ClassFMA: 2, ir.ClassFP64: 4, ir.ClassSFU: 8, ir.ClassConv: 8, ir.ClassIMul: 2, ir.ClassWarp: 4,
		}),
		Tensor: TensorPipe{
			// [TC] NVIDIA's A100 whitepaper: 1024 dense f16/bf16 multiply-adds
			// per SM per clock (256 per sub-partition: an m16n8k16 every 8
			// cycles), tf32 half, int8 double, int4 4x, b1 16x, f64 (DMMA) 64
			// per SM. Latency: Sun et al., "Dissecting Tensor Cores via
			// Microbenchmarks: Latency, Throughput and Numeric Behaviors"
			// (IEEE TPDS 2022, arXiv 2206.02874) measure mma.sync on the
			// A100 at about 32 cycles from issue to result for m16n8k16,
			// taken here as 8 of issue plus 24 for every type.
			MACs: tensorTable(map[tensor.Elem]uint32{
				tensor.F16: 256, tensor.BF16: 256, tensor.TF32: 128,
				tensor.S8: 512, tensor.U8: 512, tensor.S4: 1024, tensor.U4: 1024, tensor.B1: 4096, tensor.F64: 16,
			}),
			Latency: tensorTable(map[tensor.Elem]uint32{
				tensor.F16: 24, tensor.BF16: 24, tensor.TF32: 24,
				tensor.S8: 24, tensor.U8: 24, tensor.S4: 24, tensor.U4: 24, tensor.B1: 24, tensor.F64: 24,
			}),
		},
		SharedLatency: 23, SharedConflict: 2, SregLatency: 20, L1HitLatency: 37,
		L2HitCycles: 100, L2HitNS: 94.6, DRAMCycles: 134, DRAMNS: 276, AtomicNS: 0.73, AtomicOpsPerNS: 62,
		BarrierLatency: 20, L1BytesPerCycle: 128, L2BytesPerNS: 3800, DRAMFetch: 64,
		L1Bytes: 164 * 1024,
		// [TLB] the H100's address translation (no source at hand measured
		// this GPU's under Nsight Compute; Jia et al. 2018 give the V100's
		// TLB reach, not a launch's walks): [GEN].
		TLBRegionBytes: 32 << 20, TLBWalkNS: 450, TLBMissNS: 35,
		KernelNS: 2500, BlockDispatchNS: 0.6, BlockLaunch: 64, LaunchGapNS: 4700,
		DeviceLaunch: 2000, ChildStartNS: 3000, DeviceSyncNS: 10000,
		ChildLaunchNS: 1489, ConcurrentKernels: 128,
		// the H100's instruction fetch (fetch.go, [FETCH]), not measured on the A100.
		FetchLineCycles: 17.4, FetchMiss: 50, FetchNearBytes: 64 << 10, FetchFarLineCycles: 103, FetchFarMiss: 560,
		IcacheBytes: 40 << 10, FetchAhead: 6, InstBytes: 16, MovBytes: 5.8, FetchLaunchBytes: 16 << 10, FetchLaunchLineNS: 2.7,
		Source: "A100: pipe rates from the CUDA Programming Guide; latencies and memory carried over from the H100's measurements",
	},
	"v100": {
		// [PG] 7.x: 64 fp32 per SM per clock (2 cycles a warp per
		// sub-partition), 32 fp64 (4 cycles); [ASIM]: L1 and shared 20
		// cycles, L2 160, DRAM 160 + 100, launch 5000 cycles at 1447 MHz
		// (3.5 µs).
		Latency: classTable(4, map[ir.Class]uint32{
			ir.ClassFMA: 4, ir.ClassFP64: 8, ir.ClassSFU: 17, ir.ClassConv: 12, ir.ClassIMul: 4,
			ir.ClassBranch: 6, ir.ClassWarp: 26, ir.ClassConst: 4, ir.ClassLocal: 20, ir.ClassDevRT: 40,
		}),
		Interval: classTable(1, map[ir.Class]uint32{
			ir.ClassFMA: 2, ir.ClassFP64: 4, ir.ClassSFU: 8, ir.ClassConv: 8, ir.ClassIMul: 2, ir.ClassWarp: 4,
		}),
		Tensor: TensorPipe{
			// [TC] NVIDIA's V100 whitepaper: 8 tensor cores per SM of 64
			// f16 multiply-adds per clock (128 per sub-partition: a wmma
			// m16n16k16 every 32 cycles, an mma.sync m8n8k4 every 2); f16
			// inputs only. Latency as the A100's (Jia et al., "Dissecting
			// the NVIDIA Volta GPU Architecture via Microbenchmarking",
			// arXiv 1804.06826, time Volta's HMMA sequences; not re-derived
			// here).
			MACs:    tensorTable(map[tensor.Elem]uint32{tensor.F16: 128}),
			Latency: tensorTable(map[tensor.Elem]uint32{tensor.F16: 24}),
		},
		SharedLatency: 20, SharedConflict: 2, SregLatency: 20, L1HitLatency: 20,
		L2HitCycles: 160, DRAMCycles: 260, AtomicNS: 0.73, AtomicOpsPerNS: 62,
		BarrierLatency: 20, L1BytesPerCycle: 128, L2BytesPerNS: 2100, DRAMFetch: 64,
		L1Bytes: 128 * 1024,
		// [TLB] the H100's address translation (no source at hand measured
		// this GPU's under Nsight Compute; Jia et al. 2018 give the V100's
		// TLB reach, not a launch's walks): [GEN].
		TLBRegionBytes: 32 << 20, TLBWalkNS: 450, TLBMissNS: 35,
		KernelNS: 3500, BlockDispatchNS: 0.8, BlockLaunch: 64, LaunchGapNS: 5000,
		DeviceLaunch: 2000, ChildStartNS: 3000, DeviceSyncNS: 10000,
		ChildLaunchNS: 1373, ConcurrentKernels: 128,
		// the H100's instruction fetch (fetch.go, [FETCH]), not measured on the V100.
		FetchLineCycles: 17.4, FetchMiss: 50, FetchNearBytes: 64 << 10, FetchFarLineCycles: 103, FetchFarMiss: 560,
		IcacheBytes: 40 << 10, FetchAhead: 6, InstBytes: 16, MovBytes: 5.8, FetchLaunchBytes: 16 << 10, FetchLaunchLineNS: 2.7,
		Source: "V100: pipe rates from the CUDA Programming Guide; memory latencies and launch from Accel-Sim's QV100 configuration",
	},
	"k40": {
		// [PG] 3.5: 192 fp32 per SM per clock over 4 schedulers (a warp a
		// cycle each), 64 fp64 (2 cycles), 32 integer multiply (4 cycles);
		// Kepler's dependent-issue latency is longer (11 cycles: the
		// Programming Guide's "about 11 cycles" arithmetic latency on 3.x,
		// Best Practices Guide); memory [GEN] from the H100 at the K40's
		// 745 MHz clock and 288 GB/s; no L1 caching of global loads by
		// default on 3.5 (loads go to L2).
		Latency: classTable(11, map[ir.Class]uint32{
			ir.ClassFMA: 11, ir.ClassFP64: 11, ir.ClassSFU: 20, ir.ClassConv: 20, ir.ClassIMul: 11,
			ir.ClassBranch: 10, ir.ClassWarp: 30, ir.ClassConst: 9, ir.ClassLocal: 40, ir.ClassDevRT: 60,
		}),
		Interval: classTable(1, map[ir.Class]uint32{
			ir.ClassFP64: 2, ir.ClassSFU: 4, ir.ClassConv: 4, ir.ClassIMul: 4, ir.ClassWarp: 2,
		}),
		SharedLatency: 26, SharedConflict: 2, SregLatency: 20, L1HitLatency: 35,
		L2HitCycles: 100, L2HitNS: 94.6, DRAMCycles: 134, DRAMNS: 276, AtomicNS: 1.5, AtomicOpsPerNS: 16,
		BarrierLatency: 24, L1BytesPerCycle: 64, L2BytesPerNS: 500, DRAMFetch: 32,
		L1Bytes:  0,
		KernelNS: 5000, BlockDispatchNS: 2, BlockLaunch: 64, LaunchGapNS: 7000,
		DeviceLaunch: 2000, ChildStartNS: 89000, DeviceSyncNS: 20000,
		ChildLaunchNS: 3600, ConcurrentKernels: 32,
		// the H100's instruction fetch (fetch.go, [FETCH]) in K40 cycles,
		// not measured on the K40; Kepler's SASS is 8 bytes an instruction
		// and a scheduling word every 7: InstBytes 9.1 a SASS
		// instruction, a mov 0.36 of one as on the H100 (MovBytes 3.3).
		FetchLineCycles: 17.4, FetchMiss: 50, FetchNearBytes: 64 << 10, FetchFarLineCycles: 103, FetchFarMiss: 560,
		IcacheBytes: 40 << 10, FetchAhead: 6, InstBytes: 9.1, MovBytes: 3.3, FetchLaunchBytes: 16 << 10, FetchLaunchLineNS: 2.7,
		Source: "K40: pipe rates from the CUDA Programming Guide; latencies and memory carried over from the H100 at the K40's clock and bandwidth",
	},
})
