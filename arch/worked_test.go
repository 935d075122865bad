package arch

import (
	"math"
	"strings"
	"testing"
)

// workedCase is one published or hand-derived occupancy example. Each
// expectation comes from the cited text or from arithmetic written out in
// the case's comment, never from the calculator.
type workedCase struct {
	name   string
	arch   string
	in     OccupancyInput
	blocks int     // active blocks per SM
	occ    float64 // occupancy, 0…1 (checked to 0.1 %)
	limit  Limit   // one of the limiting resources (0: cannot launch)
	reason string  // substring of Reason when the block cannot launch
}

var workedCases = []workedCase{
	// G80, CC 1.0: 768 threads, 24 warps, 8 blocks, 8192 registers per SM;
	// registers go to whole blocks in units of 256, warps counted in pairs.
	//
	// The seed lesson on SMs and warps: 16 registers per thread leaves
	// 8192/16 = 512 threads. With 256-thread blocks (8 warps) a block takes
	// 16×32×8 = 4096 registers, so 8192/4096 = 2 blocks = 512 threads = 16
	// warps (67 %); the thread limit alone would allow 768/256 = 3.
	{name: "seed/16regs/256threads", arch: "g80", in: OccupancyInput{BlockSize: 256, RegsPerThread: 16}, blocks: 2, occ: 16.0 / 24, limit: LimitRegisters},
	// 128-thread blocks: 16×32×4 = 2048 registers, 8192/2048 = 4 blocks = 512 threads.
	{name: "seed/16regs/128threads", arch: "g80", in: OccupancyInput{BlockSize: 128, RegsPerThread: 16}, blocks: 4, occ: 16.0 / 24, limit: LimitRegisters},
	// 32 registers leave 8192/32 = 256 threads: one 256-thread block (8192 registers).
	{name: "seed/32regs/256threads", arch: "g80", in: OccupancyInput{BlockSize: 256, RegsPerThread: 32}, blocks: 1, occ: 8.0 / 24, limit: LimitRegisters},
	// 64 registers: a 256-thread block needs 16384 > 8192: it cannot launch at all.
	{name: "seed/64regs/256threads", arch: "g80", in: OccupancyInput{BlockSize: 256, RegsPerThread: 64}, reason: "too many registers"},
	// 64 registers with 128 threads: 64×32×4 = 8192 registers, exactly one block.
	{name: "seed/64regs/128threads", arch: "g80", in: OccupancyInput{BlockSize: 128, RegsPerThread: 64}, blocks: 1, occ: 4.0 / 24, limit: LimitRegisters},
	// Kirk & Hwu, Programming Massively Parallel Processors, ch. 5 (G80):
	// 10 registers, 16×16 blocks: 3 blocks use 7680 registers: 768 threads,
	// full occupancy. One more register (11×256 = 2816 per block) and
	// 3×2816 = 8448 > 8192: 2 blocks, a third of the threads lost.
	{name: "pmpp/10regs", arch: "g80", in: OccupancyInput{BlockSize: 256, RegsPerThread: 10}, blocks: 3, occ: 1, limit: LimitWarps},
	{name: "pmpp/11regs", arch: "g80", in: OccupancyInput{BlockSize: 256, RegsPerThread: 11}, blocks: 2, occ: 16.0 / 24, limit: LimitRegisters},
	// CUDA C Best Practices Guide (CUDA 3.x–4.x, "Calculating Occupancy"),
	// compute capability 1.0/1.1: 128-thread blocks with 12 registers give
	// 83 % with 5 active blocks; 256-thread blocks only 2 (66 %).
	// 12×32×4 = 1536 → 8192/1536 = 5; 12×32×8 = 3072 → 2.
	{name: "bpg/12regs/128threads", arch: "g80", in: OccupancyInput{BlockSize: 128, RegsPerThread: 12}, blocks: 5, occ: 20.0 / 24, limit: LimitRegisters},
	{name: "bpg/12regs/256threads", arch: "g80", in: OccupancyInput{BlockSize: 256, RegsPerThread: 12}, blocks: 2, occ: 16.0 / 24, limit: LimitRegisters},
	// Warp allocation granularity 2: a 32-thread block holds two warp slots,
	// so 24/2 = 12 > 8: the 8-block limit binds at 8 warps (33 %).
	{name: "warp-pairs/32threads", arch: "g80", in: OccupancyInput{BlockSize: 32, RegsPerThread: 8}, blocks: 8, occ: 8.0 / 24, limit: LimitBlocks},
	// Shared memory in 512-byte units: 4000 bytes → 4096, 16384/4096 = 4.
	{name: "smem-unit/4000B", arch: "g80", in: OccupancyInput{BlockSize: 64, RegsPerThread: 8, StaticShared: 4000}, blocks: 4, occ: 8.0 / 24, limit: LimitShared},
	{name: "block-too-large", arch: "g80", in: OccupancyInput{BlockSize: 768}, reason: "exceeds the maximum of 512 threads"},

	// GT200, CC 1.3: 1024 threads, 16384 registers in units of 512 per block.
	// Programming Guide 3.x §4.2 formula Rblock = ceil(ceil(T, 64) × Rk, 512)
	// (GW = 2 warps = 64 threads): 256 threads × 32 registers = 8192 →
	// 2 blocks (16 warps, 50 %); 4096 B of shared memory would allow 4.
	{name: "xls/32regs/256threads/4096B", arch: "gt200", in: OccupancyInput{BlockSize: 256, RegsPerThread: 32, StaticShared: 4096}, blocks: 2, occ: 0.5, limit: LimitRegisters},
	// 17 registers × 96 threads (3 warps → 4 allocated): 17×32×4 = 2176 →
	// 2560 (unit 512): 16384/2560 = 6 blocks = 18 warps (56 %).
	{name: "units/17regs/96threads", arch: "gt200", in: OccupancyInput{BlockSize: 96, RegsPerThread: 17}, blocks: 6, occ: 18.0 / 32, limit: LimitRegisters},

	// Fermi, CC 2.0: 1536 threads, 48 warps, 8 blocks, 32768 registers, 63 per
	// thread, allocated per warp in units of 64, across 2 sub-partitions.
	// The classic Fermi launch failure: 1024-thread blocks fit 32 registers
	// (32×32 per warp × 32 warps = 32768) but not 33 (1056 → 1088 × 32 =
	// 34816 > 32768: "too many resources requested for launch").
	{name: "1024threads/32regs", arch: "c2050", in: OccupancyInput{BlockSize: 1024, RegsPerThread: 32}, blocks: 1, occ: 32.0 / 48, limit: LimitRegisters},
	{name: "1024threads/33regs", arch: "c2050", in: OccupancyInput{BlockSize: 1024, RegsPerThread: 33}, reason: "too many registers"},
	{name: "64regs", arch: "c2050", in: OccupancyInput{BlockSize: 128, RegsPerThread: 64}, reason: "exceed the maximum of 63"},
	// cuda_occupancy.h (CUDA 7.0): on Fermi 21 registers are allocated in
	// units of 128: 672 → 768 per warp, 16384/768 = 21 warps per
	// sub-partition, 42 per SM; 352-thread blocks (11 warps) → 3 blocks.
	// (With the plain unit of 64 it would be 704 → 23 → 46 → 4 blocks.)
	{name: "wide-unit/21regs/352threads", arch: "c2050", in: OccupancyInput{BlockSize: 352, RegsPerThread: 21}, blocks: 3, occ: 33.0 / 48, limit: LimitRegisters},
	{name: "wide-unit/20regs/352threads", arch: "c2050", in: OccupancyInput{BlockSize: 352, RegsPerThread: 20}, blocks: 4, occ: 44.0 / 48, limit: LimitWarps},

	// Kepler K40, CC 3.5, and Maxwell and Pascal: 65536 registers, 2048
	// threads. CUDA C Programming Guide §5.2.3 ("Multiprocessor Level"):
	// with 64 registers and 512-thread blocks two blocks (32 warps) fit,
	// since they need 2×512×64 registers, exactly the register file; one
	// more register and only one block (16 warps) fits.
	{name: "pg/64regs/512threads", arch: "k40", in: OccupancyInput{BlockSize: 512, RegsPerThread: 64}, blocks: 2, occ: 0.5, limit: LimitRegisters},
	{name: "pg/65regs/512threads", arch: "k40", in: OccupancyInput{BlockSize: 512, RegsPerThread: 65}, blocks: 1, occ: 0.25, limit: LimitRegisters},
	// 16 blocks per SM: 64-thread blocks reach only 32 warps (50 %).
	{name: "16blocks/64threads", arch: "k40", in: OccupancyInput{BlockSize: 64, RegsPerThread: 16}, blocks: 16, occ: 0.5, limit: LimitBlocks},
	// 48 KiB of shared memory per SM: 12 KiB blocks → 4.
	{name: "smem/12KiB", arch: "k40", in: OccupancyInput{BlockSize: 128, RegsPerThread: 16, StaticShared: 12 * 1024}, blocks: 4, occ: 0.25, limit: LimitShared},

	// Maxwell, CC 5.2. Maxwell Tuning Guide: the maximum of active blocks per
	// SM doubles to 32, "improving occupancy for kernels with small block
	// sizes of 64 or fewer threads": 64-thread blocks reach 64 warps (100 %),
	// where Kepler stops at 50 %.
	{name: "32blocks/64threads", arch: "gtx980", in: OccupancyInput{BlockSize: 64, RegsPerThread: 16}, blocks: 32, occ: 1, limit: LimitWarps},
	// 96 KiB per SM but 48 KiB per block: two 48 KiB blocks.
	{name: "smem/48KiB", arch: "gtx980", in: OccupancyInput{BlockSize: 256, RegsPerThread: 16, DynamicShared: 48 * 1024}, blocks: 2, occ: 0.25, limit: LimitShared},
	{name: "smem/48KiB+1", arch: "gtx980", in: OccupancyInput{BlockSize: 256, RegsPerThread: 16, DynamicShared: 48*1024 + 1}, reason: "too much shared memory"},
	{name: "pg/65regs/512threads", arch: "gtx980", in: OccupancyInput{BlockSize: 512, RegsPerThread: 65}, blocks: 1, occ: 0.25, limit: LimitRegisters},

	// Pascal P100, CC 6.0: the Programming Guide's example as written for
	// 6.x (2 sub-partitions: 32768/2048 = 16 warps each).
	{name: "pg/64regs/512threads", arch: "p100", in: OccupancyInput{BlockSize: 512, RegsPerThread: 64}, blocks: 2, occ: 0.5, limit: LimitRegisters},
	{name: "pg/65regs/512threads", arch: "p100", in: OccupancyInput{BlockSize: 512, RegsPerThread: 65}, blocks: 1, occ: 0.25, limit: LimitRegisters},
	// The GP10x check (cuda_occupancy.h): 192 registers = 6144 per warp.
	// GP100's two halves hold 32768/6144 = 5 warps each, 10 in all, so a
	// 320-thread block (10 warps, 61440 registers) would fit; but GP10x's
	// quarters hold 16384/6144 = 2 each, 8 in all, and the driver refuses on
	// GP100 what GP10x cannot run. 256 threads (8 warps) fit both.
	{name: "gp10x-check/192regs/320threads", arch: "p100", in: OccupancyInput{BlockSize: 320, RegsPerThread: 192}, reason: "sub-partitions"},
	{name: "gp10x-check/192regs/256threads", arch: "p100", in: OccupancyInput{BlockSize: 256, RegsPerThread: 192}, blocks: 1, occ: 8.0 / 64, limit: LimitRegisters},

	// Volta V100, CC 7.0. CUDA C Best Practices Guide, "Calculating
	// Occupancy": 128-thread blocks with 37 registers give 75 % with 12
	// active blocks; 320-thread blocks only 4 (63 %). 37×32 = 1184 → 1280;
	// 16384/1280 = 12 warps per sub-partition, 48 per SM.
	{name: "bpg/37regs/128threads", arch: "v100", in: OccupancyInput{BlockSize: 128, RegsPerThread: 37}, blocks: 12, occ: 0.75, limit: LimitRegisters},
	{name: "bpg/37regs/320threads", arch: "v100", in: OccupancyInput{BlockSize: 320, RegsPerThread: 37}, blocks: 4, occ: 40.0 / 64, limit: LimitRegisters},
	// 96 KiB per SM with opt-in: one 96 KiB block launches, one byte more does not.
	{name: "smem/96KiB", arch: "v100", in: OccupancyInput{BlockSize: 256, RegsPerThread: 32, DynamicShared: 96 * 1024}, blocks: 1, occ: 8.0 / 64, limit: LimitShared},
	{name: "smem/96KiB+1", arch: "v100", in: OccupancyInput{BlockSize: 256, RegsPerThread: 32, DynamicShared: 96*1024 + 1}, reason: "too much shared memory"},
	// A carveout preference of 25 % (24 KiB) is rounded up to the 32 KiB
	// step: 10 KiB blocks → 3, where the default (96 KiB) gives 9.
	{name: "carveout/25pct", arch: "v100", in: OccupancyInput{BlockSize: 64, RegsPerThread: 32, StaticShared: 10 * 1024, Carveout: CarveoutPercent(25)}, blocks: 3, occ: 6.0 / 64, limit: LimitShared},
	{name: "carveout/default", arch: "v100", in: OccupancyInput{BlockSize: 64, RegsPerThread: 32, StaticShared: 10 * 1024}, blocks: 9, occ: 18.0 / 64, limit: LimitShared},

	// Turing T4, CC 7.5: 1024 threads (32 warps) and 16 blocks per SM.
	// Turing Tuning Guide: "the maximum number of concurrent warps per SM is
	// 32"; a 1024-thread block fills the SM; 64 registers × 256 threads:
	// 2048 per warp, 8 warps per sub-partition, 32 per SM = 4 blocks (100 %).
	{name: "1024threads", arch: "t4", in: OccupancyInput{BlockSize: 1024, RegsPerThread: 32}, blocks: 1, occ: 1, limit: LimitWarps},
	{name: "64regs/256threads", arch: "t4", in: OccupancyInput{BlockSize: 256, RegsPerThread: 64}, blocks: 4, occ: 1, limit: LimitWarps},
	{name: "16blocks/32threads", arch: "t4", in: OccupancyInput{BlockSize: 32, RegsPerThread: 16}, blocks: 16, occ: 0.5, limit: LimitBlocks},

	// Ampere A100, CC 8.0. Programming Guide (8.x): 164 KiB per SM, up to
	// 163 KiB per block, 1 KiB reserved per block: a 163 KiB block uses all
	// 164 KiB; one byte more cannot launch. 100 KiB blocks: 101 KiB each,
	// one per SM.
	{name: "smem/163KiB", arch: "a100", in: OccupancyInput{BlockSize: 128, RegsPerThread: 32, DynamicShared: 163 * 1024}, blocks: 1, occ: 4.0 / 64, limit: LimitShared},
	{name: "smem/163KiB+1", arch: "a100", in: OccupancyInput{BlockSize: 128, RegsPerThread: 32, DynamicShared: 163*1024 + 1}, reason: "too much shared memory"},
	{name: "smem/100KiB", arch: "a100", in: OccupancyInput{BlockSize: 128, RegsPerThread: 32, DynamicShared: 100 * 1024}, blocks: 1, occ: 4.0 / 64, limit: LimitShared},
	// 40 KiB blocks: 41 KiB with the reservation, 164/41 = 4 exactly.
	{name: "smem/40KiB", arch: "a100", in: OccupancyInput{BlockSize: 128, RegsPerThread: 32, DynamicShared: 40 * 1024}, blocks: 4, occ: 16.0 / 64, limit: LimitShared},

	// RTX 3090, CC 8.6: 1536 threads (48 warps), 16 blocks per SM (Ampere
	// GA102 whitepaper / Programming Guide): a 1024-thread block leaves a
	// third of the SM idle (66.7 %); 768-thread blocks fill it.
	{name: "1024threads", arch: "rtx3090", in: OccupancyInput{BlockSize: 1024, RegsPerThread: 32}, blocks: 1, occ: 32.0 / 48, limit: LimitWarps},
	{name: "768threads", arch: "rtx3090", in: OccupancyInput{BlockSize: 768, RegsPerThread: 32}, blocks: 2, occ: 1, limit: LimitWarps},
	{name: "16blocks/64threads", arch: "rtx3090", in: OccupancyInput{BlockSize: 64, RegsPerThread: 32}, blocks: 16, occ: 32.0 / 48, limit: LimitBlocks},

	// Ada RTX 4090, CC 8.9: 24 blocks per SM: 64-thread blocks now fill the
	// 48 warps (100 %).
	{name: "24blocks/64threads", arch: "rtx4090", in: OccupancyInput{BlockSize: 64, RegsPerThread: 32}, blocks: 24, occ: 1, limit: LimitWarps},
	{name: "smem/99KiB", arch: "rtx4090", in: OccupancyInput{BlockSize: 64, RegsPerThread: 32, DynamicShared: 99 * 1024}, blocks: 1, occ: 2.0 / 48, limit: LimitShared},

	// Hopper H100, CC 9.0 (beside the driver recording): 227 KiB per block,
	// 228 KiB per SM.
	{name: "smem/227KiB", arch: "h100", in: OccupancyInput{BlockSize: 128, RegsPerThread: 32, DynamicShared: 227 * 1024}, blocks: 1, occ: 4.0 / 64, limit: LimitShared},
	{name: "smem/227KiB+1", arch: "h100", in: OccupancyInput{BlockSize: 128, RegsPerThread: 32, DynamicShared: 227*1024 + 1}, reason: "too much shared memory"},
	// The 128-byte shared memory unit of 8.x/9.0 (cuda_occupancy.h), which
	// the driver recording cannot tell from 256: 20096 dynamic + 1024
	// reserved = 21120 = 165 × 128 bytes, 233472/21120 = 11.05 → 11 blocks;
	// rounded to 256 (21248) it would be 10.98 → 10.
	{name: "smem-unit-128", arch: "h100", in: OccupancyInput{BlockSize: 32, RegsPerThread: 16, DynamicShared: 20096}, blocks: 11, occ: 11.0 / 64, limit: LimitShared},
	{name: "256regs", arch: "h100", in: OccupancyInput{BlockSize: 128, RegsPerThread: 256}, reason: "exceed the maximum of 255"},
	{name: "block1025", arch: "h100", in: OccupancyInput{BlockSize: 1025}, reason: "exceeds the maximum of 1024 threads"},
	{name: "block0", arch: "h100", in: OccupancyInput{BlockSize: 0}, reason: "at least one thread"},
	{name: "negative-regs", arch: "h100", in: OccupancyInput{BlockSize: 32, RegsPerThread: -1}, reason: "negative"},

	// Hopper H200, CC 9.0: the H100's SM (beside its own driver recording,
	// testdata/h200_occupancy_driver.txt, whose heavy64 row at 256 threads
	// says 3). 72 registers × 32 = 2304 a warp (9 units of 256), 8 warps =
	// 18432 a block, 65536/18432 = 3.6 → 3 blocks = 24 warps (37.5 %).
	{name: "72regs/256threads", arch: "h200", in: OccupancyInput{BlockSize: 256, RegsPerThread: 72}, blocks: 3, occ: 24.0 / 64, limit: LimitRegisters},
}

func TestWorkedExamples(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range workedCases {
		seen[c.arch] = true
		t.Run(c.arch+"/"+c.name, func(t *testing.T) {
			a := MustLookup(c.arch)
			r := a.Occupancy(c.in)
			if c.reason != "" {
				if r.Launchable() || !strings.Contains(r.Reason, c.reason) {
					t.Fatalf("got %d blocks, reason %q; want no launch, reason containing %q", r.BlocksPerSM, r.Reason, c.reason)
				}
				return
			}
			if r.BlocksPerSM != c.blocks {
				t.Fatalf("blocks per SM = %d, want %d (limits warps %d regs %d smem %d blocks %d)",
					r.BlocksPerSM, c.blocks, r.BlockLimitWarps, r.BlockLimitRegs, r.BlockLimitShared, r.BlockLimitBlocks)
			}
			if math.Abs(r.Occupancy-c.occ) > 0.001 {
				t.Errorf("occupancy = %.4f, want %.4f", r.Occupancy, c.occ)
			}
			found := false
			for _, l := range r.Limits {
				found = found || l == c.limit
			}
			if !found {
				t.Errorf("limits = %v, want %v among them", r.Limits, c.limit)
			}
		})
	}
	for _, a := range All() {
		if !seen[a.Name] {
			t.Errorf("preset %s has no worked example", a.Name)
		}
	}
}
