package runtime

import "github.com/warpsim/warpsim/arch"

// ErrorCooperativeLaunchTooLarge is cudaErrorCooperativeLaunchTooLarge: a
// cooperative grid with more blocks than can be resident at once.
const ErrorCooperativeLaunchTooLarge Error = 720

// launchCooperative is cudaLaunchCooperativeKernel: an ordinary launch
// whose blocks may synchronize the whole grid (grid_group::sync()), which
// the simulator allows because every block is resident at once.
func (s *Server) launchCooperative(p *payloadReader) reply { return s.launchAs(p, true) }

// checkCooperative is the driver's check of a cooperative launch: the grid
// may have at most the occupancy calculator's active blocks per SM (for
// this kernel, block size and dynamic shared memory) times the SM count.
func (s *Server) checkCooperative(k Kernel, cfg LaunchConfig) Error {
	if !cfg.Cooperative {
		return Success
	}
	a := s.opt.Arch
	res := a.Occupancy(arch.OccupancyInput{
		BlockSize: int(cfg.Block.Threads()), RegsPerThread: k.RegsPerThread(),
		StaticShared: k.StaticSharedBytes(), DynamicShared: int(cfg.SharedBytes),
	})
	if cfg.Grid.Threads() > uint64(res.BlocksPerSM)*uint64(a.SMs) {
		return ErrorCooperativeLaunchTooLarge
	}
	return Success
}
