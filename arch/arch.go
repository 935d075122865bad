// Package arch holds GPU architecture presets as data and the occupancy
// calculator that answers as the CUDA driver does.
package arch

// Arch is one GPU preset. Fields are figures of the real part; see presets.go
// for each figure's source.
type Arch struct {
	Name     string // preset key, lower case: "h100", "a100", "k40", "g80", …
	FullName string // what cudaGetDeviceProperties reports as name
	Major    int    // compute capability
	Minor    int

	SMs                int
	WarpSize           int
	MaxThreadsPerBlock int
	MaxBlockDim        [3]int
	MaxGridDim         [3]int
	MaxThreadsPerSM    int
	MaxWarpsPerSM      int
	MaxBlocksPerSM     int

	RegsPerSM     int
	RegsPerBlock  int
	RegsPerThread int // architectural maximum per thread

	SharedPerSM            int // bytes
	SharedPerBlock         int // default limit per block (48 KiB on modern parts)
	SharedPerBlockOptin    int // with cudaFuncAttributeMaxDynamicSharedMemorySize
	ReservedSharedPerBlock int

	ClockKHz       int
	MemClockKHz    int
	MemBusWidth    int // bits
	L2Bytes        int
	TotalGlobalMem uint64
	ConstMem       int
}

// ComputeCapability is Major*10+Minor (90 for sm_90).
func (a *Arch) ComputeCapability() int { return a.Major*10 + a.Minor }

// IndependentThreadScheduling is true from Volta (sm_70) on.
func (a *Arch) IndependentThreadScheduling() bool { return a.Major >= 7 }
