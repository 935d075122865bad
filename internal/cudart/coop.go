package cudart

import (
	"fmt"

	"github.com/warpsim/warpsim/arch"
)

// ErrorCooperativeLaunchTooLarge is cudaErrorCooperativeLaunchTooLarge: a
// cooperative grid with more blocks than can be resident at once
// (arch.CheckLaunch).
const ErrorCooperativeLaunchTooLarge Error = arch.ErrCooperativeLaunchTooLarge

// launchCooperative is cudaLaunchCooperativeKernel: an ordinary launch
// whose blocks may synchronize the whole grid (grid_group::sync()), which
// the simulator allows because every block is resident at once.
func (s *Server) launchCooperative(p *payloadReader) reply { return s.launchAs(p, true) }

// blocksPerSM is the occupancy calculator's resident blocks per SM for a
// launch of k with cfg (the cooperative limit and the SMs' share, server_launch.go).
func (s *Server) blocksPerSM(k Kernel, cfg LaunchConfig) int {
	return s.opt.Arch.Occupancy(arch.OccupancyInput{
		BlockSize: int(cfg.Block.Threads()), RegsPerThread: k.RegsPerThread(),
		StaticShared: k.StaticSharedBytes(), DynamicShared: int(cfg.SharedBytes),
	}).BlocksPerSM
}

// aliaser is a device that can give an allocation's bytes a second range
// of device addresses (warpsim.Device.Alias).
type aliaser interface {
	Alias(addr, dev, size uint64) error
	Unalias(addr uint64) error
}

// managedAlias is opManagedAlias: the program has mapped the host shadow of
// a __managed__ variable onto the variable's pages, or a range it
// registered with cudaHostRegister onto a window allocation, and kernels
// that get the host's address must reach the bytes there.
func (s *Server) managedAlias(p *payloadReader) reply {
	host, dev, size := p.u64(), p.u64(), p.u64()
	a, ok := s.dev.(aliaser)
	if p.err != nil || !ok {
		return reply{code: ErrorInvalidValue}
	}
	if err := a.Alias(host, dev, size); err != nil {
		return reply{code: ErrorInvalidValue, diag: fmt.Appendf(nil, "warpsim: host memory at %#x: %v\n", host, err)}
	}
	return reply{}
}

// unalias is opUnalias: cudaHostUnregister ends the alias at the host
// address.
func (s *Server) unalias(p *payloadReader) reply {
	host := p.u64()
	a, ok := s.dev.(aliaser)
	if p.err != nil || !ok {
		return reply{code: ErrorInvalidValue}
	}
	s.waitFor(s.issuedSeq()) // a queued kernel may still use it
	if err := a.Unalias(host); err != nil {
		return reply{code: ErrorInvalidValue}
	}
	return reply{}
}
