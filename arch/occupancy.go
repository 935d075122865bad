package arch

import (
	"fmt"
	"math"
	"strings"
)

// Unlimited is a per-resource block limit that does not bind (a kernel with
// no registers or no shared memory).
const Unlimited = math.MaxInt32

// maxInputBytes bounds the sizes Occupancy does arithmetic on: 1 GiB, far
// above any part's shared memory or block size.
const maxInputBytes = 1 << 30

// Carveout is a shared-memory carveout preference, what
// cudaFuncAttributePreferredSharedMemoryCarveout takes: a percentage of the
// SM's maximum shared memory. The zero value is no preference.
type Carveout int

// CarveoutDefault is no preference: the driver configures as much shared
// memory as the launch can use.
const CarveoutDefault Carveout = 0

// CarveoutPercent is a preference of p percent (0…100) of the maximum shared
// memory per SM.
func CarveoutPercent(p int) Carveout { return Carveout(p + 1) }

// Percent returns the preferred percentage, and false for no preference.
func (c Carveout) Percent() (int, bool) { return int(c) - 1, c != CarveoutDefault }

// OccupancyInput is one kernel launch as the occupancy calculator sees it.
type OccupancyInput struct {
	BlockSize     int // threads per block
	RegsPerThread int // as ptxas allocated them (cudaFuncAttributes.numRegs)
	StaticShared  int // bytes of .shared variables (cudaFuncAttributes.sharedSizeBytes)
	DynamicShared int // bytes given at launch
	Carveout      Carveout
}

// Limit names a resource that bounds the blocks an SM holds.
type Limit uint8

const (
	LimitWarps     Limit = iota + 1 // warp (thread) slots per SM
	LimitRegisters                  // the register file
	LimitShared                     // shared memory
	LimitBlocks                     // block slots per SM
)

func (l Limit) String() string {
	switch l {
	case LimitWarps:
		return "warps"
	case LimitRegisters:
		return "registers"
	case LimitShared:
		return "shared memory"
	case LimitBlocks:
		return "blocks"
	}
	return fmt.Sprintf("Limit(%d)", l)
}

// OccupancyResult is the calculator's answer for one OccupancyInput.
type OccupancyResult struct {
	// BlocksPerSM is what cudaOccupancyMaxActiveBlocksPerMultiprocessor
	// returns; 0 when the block cannot launch (Reason says why).
	BlocksPerSM   int
	WarpsPerBlock int
	WarpsPerSM    int // active warps: BlocksPerSM × WarpsPerBlock
	ThreadsPerSM  int // active threads: BlocksPerSM × BlockSize
	Occupancy     float64

	// Limits are the resources whose own limit equals BlocksPerSM, in the
	// order warps, registers, shared memory, blocks (as the driver's
	// limiting-factor bits); empty when the block cannot launch.
	Limits []Limit

	// The blocks per SM each resource alone allows (Unlimited when it does
	// not bind).
	BlockLimitWarps, BlockLimitRegs, BlockLimitShared, BlockLimitBlocks int

	RegsPerWarp    int // registers allocated to one warp (per-warp archs)
	RegsPerBlock   int // registers allocated to one block
	SharedPerBlock int // shared memory allocated to one block: static + dynamic + reserved, rounded to the unit
	// SharedCapacity is the shared memory per SM the driver configures for
	// this launch: the carveout on 7.0 and later (the smallest that holds
	// BlocksPerSM blocks, or the preference when one is given), the fixed
	// or cache-config size before.
	SharedCapacity int
	// SharedAvailable is the shared memory per SM that BlockLimitShared
	// divides: the maximum with no carveout preference, else the preference
	// rounded up to a carveout step (or the step that holds one block).
	SharedAvailable int

	// Reason is why no block can launch ("" when one can).
	Reason string
	// Notes are remarks worth printing (opt-in needed, preference ignored).
	Notes []string
}

// Launchable reports whether at least one block fits on an SM.
func (r OccupancyResult) Launchable() bool { return r.BlocksPerSM > 0 }

// LimitNames is the limiting resources as one string, "registers, warps".
func (r OccupancyResult) LimitNames() string {
	s := make([]string, len(r.Limits))
	for i, l := range r.Limits {
		s[i] = l.String()
	}
	return strings.Join(s, ", ")
}

// Occupancy computes how many blocks of a kernel an SM holds at once, by the
// rules of NVIDIA's occupancy calculator (cuda_occupancy.h), which is what
// cudaOccupancyMaxActiveBlocksPerMultiprocessor answers on the device:
//
//   - warps: a block takes ceil(BlockSize/32) warp slots (rounded up to 2 on
//     1.x); MaxWarpsPerSM / that.
//   - blocks: MaxBlocksPerSM.
//   - registers, from 2.0 on: a warp gets RegsPerThread×32 registers rounded
//     up to the allocation unit (256), all from one of the SM's
//     SubPartitions; a sub-partition holds floor(RegsPerSM/SubPartitions /
//     per-warp) warps, and the SM SubPartitions times that, shared among
//     blocks of ceil(BlockSize/32) warps. A block must also pass the
//     hardware's per-block check, which assumes its warps rounded up to a
//     multiple of SubPartitions. On 1.x registers go to the whole block:
//     RegsPerThread × 32 × warps (rounded to 2) rounded up to the unit.
//   - shared memory: static + dynamic + the reserved 1 KiB per block (8.0
//     on), rounded up to the unit (128 B on 8.x/9.x, 256 B on 3.x–7.x), into
//     the SM's capacity. With no carveout preference the capacity is the
//     maximum (the driver picks a carveout large enough); with a preference
//     it is the preference rounded up to a carveout step, unless one block
//     does not fit in it.
//
// The answer is the least of the four; a zero comes with a Reason.
func (a *Arch) Occupancy(in OccupancyInput) OccupancyResult {
	var r OccupancyResult
	switch {
	case in.BlockSize <= 0:
		r.Reason = fmt.Sprintf("block size %d: a block needs at least one thread", in.BlockSize)
		return r
	case in.RegsPerThread < 0:
		r.Reason = fmt.Sprintf("%d registers per thread: cannot be negative", in.RegsPerThread)
		return r
	case in.StaticShared < 0 || in.DynamicShared < 0:
		r.Reason = "shared memory size cannot be negative"
		return r
	case in.StaticShared > maxInputBytes || in.DynamicShared > maxInputBytes || in.BlockSize > maxInputBytes:
		// Far beyond any limit; refused before the arithmetic can overflow.
		r.Reason = fmt.Sprintf("too much shared memory per block or too large a block (over %d)", maxInputBytes)
		return r
	}
	warps := ceilDiv(in.BlockSize, a.WarpSize)
	r.WarpsPerBlock = warps
	warpsAlloc := roundUp(warps, a.WarpAllocGranularity)

	// Warp slots.
	if in.BlockSize > a.MaxThreadsPerBlock {
		r.Reason = fmt.Sprintf("block of %d threads exceeds the maximum of %d threads per block on %s",
			in.BlockSize, a.MaxThreadsPerBlock, a.SMName())
	} else {
		r.BlockLimitWarps = a.MaxWarpsPerSM / warpsAlloc
	}

	r.BlockLimitBlocks = a.MaxBlocksPerSM

	// Registers.
	regLimit, regReason := a.regLimit(in.RegsPerThread, warps, &r)
	r.BlockLimitRegs = regLimit
	if r.Reason == "" {
		r.Reason = regReason
	}

	// Shared memory.
	smemLimit, smemReason := a.sharedLimit(in, &r)
	r.BlockLimitShared = smemLimit
	if r.Reason == "" {
		r.Reason = smemReason
	}

	blocks := min(r.BlockLimitWarps, r.BlockLimitBlocks, r.BlockLimitRegs, r.BlockLimitShared)
	if r.Reason != "" {
		blocks = 0
	}
	r.BlocksPerSM = blocks
	if blocks == 0 {
		if r.Reason == "" {
			r.Reason = "no block fits on an SM" // not reached: every zero limit sets a reason
		}
		return r
	}
	for _, l := range []struct {
		lim   Limit
		value int
	}{{LimitWarps, r.BlockLimitWarps}, {LimitRegisters, r.BlockLimitRegs}, {LimitShared, r.BlockLimitShared}, {LimitBlocks, r.BlockLimitBlocks}} {
		if l.value == blocks {
			r.Limits = append(r.Limits, l.lim)
		}
	}
	r.WarpsPerSM = blocks * warps
	r.ThreadsPerSM = blocks * in.BlockSize
	r.Occupancy = float64(r.WarpsPerSM) / float64(a.MaxWarpsPerSM)
	if _, pref := in.Carveout.Percent(); !pref && a.SharedCarveoutsKiB != nil {
		// The driver configures the smallest carveout that holds the blocks.
		r.SharedCapacity, _ = a.carveoutFor(blocks * r.SharedPerBlock)
	}
	return r
}

// regAllocUnit is the register allocation unit for regs registers per thread.
func (a *Arch) regAllocUnit(regs int) int {
	for _, n := range a.RegAllocUnitWide {
		if n == regs {
			return a.RegAllocUnitWideSize
		}
	}
	return a.RegAllocUnit
}

// regLimit is the blocks per SM the register file allows, or 0 and why.
func (a *Arch) regLimit(regs, warps int, r *OccupancyResult) (int, string) {
	if regs > a.RegsPerThread {
		return 0, fmt.Sprintf("%d registers per thread exceed the maximum of %d on %s", regs, a.RegsPerThread, a.SMName())
	}
	if a.RegAllocPerBlock {
		warpsAlloc := roundUp(warps, a.WarpAllocGranularity)
		r.RegsPerBlock = roundUp(regs*a.WarpSize*warpsAlloc, a.RegAllocUnit)
		if r.RegsPerBlock == 0 {
			return Unlimited, ""
		}
		if r.RegsPerBlock > a.RegsPerBlock {
			return 0, fmt.Sprintf("too many registers for one block: %d threads × %d registers need %d registers, the limit per block is %d",
				warps*a.WarpSize, regs, r.RegsPerBlock, a.RegsPerBlock)
		}
		return a.RegsPerSM / r.RegsPerBlock, ""
	}
	r.RegsPerWarp = roundUp(regs*a.WarpSize, a.regAllocUnit(regs))
	r.RegsPerBlock = r.RegsPerWarp * warps
	if r.RegsPerWarp == 0 {
		return Unlimited, ""
	}
	n, reason := a.regLimitPartitioned(r.RegsPerWarp, warps, a.SubPartitions)
	if n > 0 && a.RegCheckSubPartitions != 0 {
		if m, _ := a.regLimitPartitioned(r.RegsPerWarp, warps, a.RegCheckSubPartitions); m == 0 {
			return 0, fmt.Sprintf("too many registers for one block: %d warps × %d registers would not fit an SM of %d sub-partitions, which the driver requires on %s",
				warps, r.RegsPerWarp, a.RegCheckSubPartitions, a.SMName())
		}
	}
	return n, reason
}

// regLimitPartitioned applies the per-warp register rules for an SM of parts
// sub-partitions.
func (a *Arch) regLimitPartitioned(perWarp, warps, parts int) (int, string) {
	perBlock := perWarp * warps
	assumed := perWarp * roundUp(warps, parts) // the hardware's per-block check
	if perBlock > a.RegsPerBlock || assumed > a.RegsPerBlock {
		return 0, fmt.Sprintf("too many registers for one block: %d warps × %d registers (rounded up to %d warps for the per-block check) exceed the limit of %d per block",
			warps, perWarp, roundUp(warps, parts), a.RegsPerBlock)
	}
	warpsPerSM := (a.RegsPerSM / parts / perWarp) * parts
	if n := warpsPerSM / warps; n > 0 {
		return n, ""
	}
	return 0, fmt.Sprintf("too many registers for one block: the register file holds %d warps of %d registers, the block has %d warps",
		warpsPerSM, perWarp, warps)
}

// sharedLimit is the blocks per SM shared memory allows, or 0 and why. It
// sets SharedPerBlock and SharedCapacity.
func (a *Arch) sharedLimit(in OccupancyInput, r *OccupancyResult) (int, string) {
	used := in.StaticShared + in.DynamicShared
	r.SharedPerBlock = roundUp(used+a.ReservedSharedPerBlock, a.SharedAllocUnit)

	perBlockMax := a.SharedPerBlock
	if a.Major >= 7 && used > a.SharedPerBlock {
		perBlockMax = a.SharedPerBlockOptin
		r.Notes = append(r.Notes, fmt.Sprintf("more than %d bytes of shared memory per block needs cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize) at launch",
			a.SharedPerBlock))
	}
	if r.SharedPerBlock > perBlockMax+a.ReservedSharedPerBlock {
		return 0, fmt.Sprintf("too much shared memory per block: %d bytes (static %d + dynamic %d%s) exceed the limit of %d per block on %s",
			used, in.StaticShared, in.DynamicShared, reservedNote(a), perBlockMax, a.SMName())
	}

	capacity := a.SharedPerSM
	if pct, ok := in.Carveout.Percent(); ok {
		if a.SharedCarveoutsKiB == nil {
			r.Notes = append(r.Notes, fmt.Sprintf("a carveout preference has no effect on %s", a.SMName()))
		} else {
			if pct < 0 || pct > 100 {
				return 0, fmt.Sprintf("carveout preference %d%% is not in 0…100", pct)
			}
			pref, _ := a.carveoutFor(pct * a.SharedPerSM / 100)
			if pref >= r.SharedPerBlock {
				capacity = pref
			} else {
				// One block does not fit the preference: the driver takes
				// the smallest carveout that holds one.
				capacity, _ = a.carveoutFor(r.SharedPerBlock)
				r.Notes = append(r.Notes, fmt.Sprintf("carveout preference of %d%% (%d bytes) is too small for one block; the driver uses %d bytes",
					pct, pref, capacity))
			}
		}
	}
	r.SharedCapacity = capacity
	r.SharedAvailable = capacity
	if r.SharedPerBlock == 0 {
		return Unlimited, ""
	}
	return capacity / r.SharedPerBlock, ""
}

func reservedNote(a *Arch) string {
	if a.ReservedSharedPerBlock == 0 {
		return ""
	}
	return fmt.Sprintf(", plus %d reserved", a.ReservedSharedPerBlock)
}

// carveoutFor rounds bytes up to the next shared-memory carveout of the SM,
// and reports false when none is large enough (then it returns the largest).
func (a *Arch) carveoutFor(bytes int) (int, bool) {
	for _, k := range a.SharedCarveoutsKiB {
		if bytes <= k*kib {
			return k * kib, true
		}
	}
	if n := len(a.SharedCarveoutsKiB); n > 0 {
		return a.SharedCarveoutsKiB[n-1] * kib, false
	}
	return a.SharedPerSM, bytes <= a.SharedPerSM
}

// MaxThreadsPerBlockFor is the largest block a kernel using regs registers
// per thread can launch with, as cudaFuncGetAttributes reports it in
// maxThreadsPerBlock: the device's maximum, lowered to the most warps whose
// registers one SM can hold.
func (a *Arch) MaxThreadsPerBlockFor(regs int) int {
	for w := a.MaxThreadsPerBlock / a.WarpSize; w > 0; w-- {
		var r OccupancyResult
		if n, _ := a.regLimit(regs, w, &r); n > 0 {
			return min(w*a.WarpSize, a.MaxThreadsPerBlock)
		}
	}
	return 0
}

func ceilDiv(x, y int) int { return (x + y - 1) / y }

func roundUp(x, unit int) int {
	if unit <= 1 {
		return x
	}
	return ceilDiv(x, unit) * unit
}
