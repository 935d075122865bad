package arch

import "fmt"

// PotentialBlockSize is cudaOccupancyMaxPotentialBlockSize's answer.
type PotentialBlockSize struct {
	BlockSize   int // the block size with the most active threads per SM
	MinGridSize int // blocks to fill the device at that size: BlocksPerSM × SMs
	BlocksPerSM int
	Occupancy   float64
}

// MaxPotentialBlockSize answers as cudaOccupancyMaxPotentialBlockSize does
// (its implementation in cuda_runtime.h / cuda_occupancy.h): it tries block
// sizes from the largest the kernel may use (the device limit, the
// kernel's register-bound MaxThreadsPerBlockFor and blockSizeLimit when not
// zero) down in steps of the warp size, keeps the first size with the most
// active threads per SM (so ties go to the larger block), and stops early
// once an SM is full. in.BlockSize is ignored; dynamicShared, when not nil,
// gives the dynamic shared memory for a block size (the
// blockSizeToDynamicSMemSize callback), otherwise in.DynamicShared is used.
// The error says why no block size can launch.
func (a *Arch) MaxPotentialBlockSize(in OccupancyInput, dynamicShared func(blockSize int) int, blockSizeLimit int) (PotentialBlockSize, error) {
	var best PotentialBlockSize
	if in.RegsPerThread < 0 || in.StaticShared < 0 || in.DynamicShared < 0 || blockSizeLimit < 0 {
		return best, fmt.Errorf("registers, shared memory and block size limit cannot be negative")
	}
	limit := min(a.MaxThreadsPerBlock, a.MaxThreadsPerBlockFor(in.RegsPerThread))
	if limit == 0 {
		limit = a.MaxThreadsPerBlock // too many registers: the occupancy says why below
	}
	if blockSizeLimit > 0 {
		limit = min(limit, blockSizeLimit)
	}
	maxThreads := a.MaxThreadsPerSM
	bestThreads := 0
	var lastReason string
	for aligned := roundUp(limit, a.WarpSize); aligned > 0; aligned -= a.WarpSize {
		bs := min(aligned, limit)
		q := in
		q.BlockSize = bs
		if dynamicShared != nil {
			q.DynamicShared = dynamicShared(bs)
		}
		r := a.Occupancy(q)
		if !r.Launchable() {
			lastReason = r.Reason
		}
		if threads := r.BlocksPerSM * bs; threads > bestThreads {
			bestThreads = threads
			best = PotentialBlockSize{BlockSize: bs, BlocksPerSM: r.BlocksPerSM, Occupancy: r.Occupancy}
		}
		if bestThreads == maxThreads {
			break
		}
	}
	if bestThreads == 0 {
		return best, fmt.Errorf("no block size can launch: %s", lastReason)
	}
	best.MinGridSize = best.BlocksPerSM * a.SMs
	return best, nil
}
