package cudart

import "github.com/warpsim/warpsim/arch"

// encodeProps is the hello reply: the device name in 64 bytes, then the
// figures in the order the C side's fill_props reads them.
func encodeProps(a *arch.Arch) []byte {
	name := make([]byte, 64)
	copy(name[:63], a.FullName)
	figs := []int64{
		int64(a.Major), int64(a.Minor), int64(a.SMs), int64(a.WarpSize), int64(a.MaxThreadsPerBlock),
		int64(a.MaxBlockDim[0]), int64(a.MaxBlockDim[1]), int64(a.MaxBlockDim[2]),
		int64(a.MaxGridDim[0]), int64(a.MaxGridDim[1]), int64(a.MaxGridDim[2]),
		int64(a.MaxThreadsPerSM), int64(a.MaxBlocksPerSM), int64(a.RegsPerSM), int64(a.RegsPerBlock),
		int64(a.SharedPerSM), int64(a.SharedPerBlock), int64(a.SharedPerBlockOptin), int64(a.ReservedSharedPerBlock),
		int64(a.ClockKHz), int64(a.MemClockKHz), int64(a.MemBusWidth), int64(a.L2Bytes),
		int64(a.TotalGlobalMem), int64(a.ConstMem),
	}
	out := name
	for _, f := range figs {
		out = append(out, putU64s(uint64(f))...)
	}
	return out
}
