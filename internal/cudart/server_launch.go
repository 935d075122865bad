// Modules and launches: retargeting PTX, kernel lookup, launch validation and running a kernel on the device.

package cudart

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/warpsim/warpsim/arch"
)

// moduleName names a module for messages after the source file its
// .file 1 directive names (reduce.cu → reduce.ptx), as `warpsim cc` made
// it from that file.
func moduleName(ptx []byte, n int) string {
	if m := fileRE.FindSubmatch(ptx); m != nil {
		base := path.Base(string(m[1]))
		return strings.TrimSuffix(base, path.Ext(base)) + ".ptx"
	}
	return fmt.Sprintf("module%d.ptx", n)
}

// retarget lets a program compiled once run under any simulated arch (a
// DESIGN.md contract: WARPSIM_ARCH picks the GPU at run time): PTX that
// targets a newer architecture than the simulated one is simulated as
// compiled, with its .target lowered to the arch's, and a note says that
// the real part would refuse it (cudaErrorNoKernelImageForDevice).
func (s *Server) retarget(name string, ptx []byte) ([]byte, []byte) {
	m := targetRE.FindSubmatchIndex(ptx)
	if m == nil {
		return ptx, nil
	}
	sm, err := strconv.Atoi(string(ptx[m[2]:m[3]]))
	a := s.opt.Arch
	if err != nil || sm <= a.ComputeCapability() {
		return ptx, nil
	}
	out := make([]byte, 0, len(ptx))
	out = append(out, ptx[:m[2]]...)
	out = strconv.AppendInt(out, int64(a.ComputeCapability()), 10)
	out = append(out, ptx[m[1]:]...)
	note := fmt.Appendf(nil, "warpsim: note: %s was compiled for sm_%d; simulating it on %s (sm_%d) as compiled, which the real %s would refuse (no kernel image for the device); compile with -arch=sm_%d to match\n",
		name, sm, a.Name, a.ComputeCapability(), a.FullName, a.ComputeCapability())
	return out, note
}

var targetRE = regexp.MustCompile(`(?m)^\s*\.target\s+sm_(\d+)[a-z]?`)

var fileRE = regexp.MustCompile(`(?m)^\s*\.file\s+1\s+"([^"]+)"`)

func (s *Server) kernel(id uint32) (Kernel, bool) {
	if int(id) >= len(s.kernels) {
		return nil, false
	}
	return s.kernels[id], true
}

// launch validates the configuration as the CUDA runtime does and queues
// the kernel; the reply comes at once. A fault is kept until the next
// synchronizing call, where the program sees it.
func (s *Server) launch(p *payloadReader) reply { return s.launchAs(p, false) }

// launchAs is opLaunch, or opLaunchCooperative when coop (coop.go).
func (s *Server) launchAs(p *payloadReader, coop bool) reply {
	return s.launchWith(p, coop, Dim3{})
}

// launchWith is launchAs with a cluster shape (cluster.go).
func (s *Server) launchWith(p *payloadReader, coop bool, cluster Dim3) reply {
	stream, kid := p.u32(), p.u32()
	cfg := LaunchConfig{
		Grid:        Dim3{X: p.u32(), Y: p.u32(), Z: p.u32()},
		Block:       Dim3{X: p.u32(), Y: p.u32(), Z: p.u32()},
		SharedBytes: p.u32(),
		Cooperative: coop,
		Cluster:     cluster,
	}
	params := bytes.Clone(p.rest())
	if p.err != nil {
		return reply{code: ErrorInvalidValue}
	}
	rep := reply{}
	if c := s.stickyCode(); c != Success {
		rep.code = c
		return rep
	}
	k, ok := s.kernel(kid)
	if !ok {
		rep.code = ErrorInvalidDeviceFunction
		return rep
	}
	if e := s.checkConfig(int(kid), k, cfg, len(params)); e != nil {
		rep.code = Error(e.Code)
		if e.KernelBounds {
			// The H100's code differs from what CUDA documents for it
			// (arch.CheckLaunch): say why.
			rep.diag = fmt.Appendf(nil, "warpsim: launch of %s: %s\n", k.Name(), e.Msg)
		}
		return rep
	}
	s.mu.Lock()
	issued := s.clock.issue()
	s.mu.Unlock()
	seq := s.enqueueAs(stream, func() { s.runKernel(stream, k, cfg, params, issued) }, true)
	if s.opt.LaunchBlocking {
		s.waitFor(seq)
		s.flush(&rep)
	}
	return rep
}

// share is the fraction of the device's resident blocks a launch's grid
// takes (timing.go's gridShare).
func (s *Server) share(k Kernel, cfg LaunchConfig) float64 {
	if s.opt.Arch == nil {
		return 1
	}
	return gridShare(cfg.Grid.Threads(), s.blocksPerSM(k, cfg), s.opt.Arch.SMs)
}

// runKernel runs a queued launch on the executor and clocks it on its
// stream, not before issued (when the host launched it).
func (s *Server) runKernel(stream uint32, k Kernel, cfg LaunchConfig, params []byte, issued int64) {
	if s.broken() {
		return
	}
	name := k.DemangledName()
	s.running.Store(&name)
	start := time.Now()
	res, err := s.dev.Launch(k, cfg, params)
	wall := time.Since(start).Nanoseconds()
	if s.opt.Progress != nil {
		blocks := int(cfg.Grid.Threads())
		s.opt.Progress(name, blocks, blocks)
	}
	rec := Record{
		Kernel: name, Mangled: k.Name(),
		Grid: [3]uint32{cfg.Grid.X, cfg.Grid.Y, cfg.Grid.Z}, Block: [3]uint32{cfg.Block.X, cfg.Block.Y, cfg.Block.Z},
		Shared: cfg.SharedBytes, Regs: k.RegsPerThread(), StaticSh: k.StaticSharedBytes(),
	}
	var f *Fault
	var ce *ConfigError
	var children []Record
	s.mu.Lock()
	defer s.mu.Unlock()
	rec.Compiler = s.compilers[rec.Mangled]
	switch {
	case err == nil:
		rec.Counters = res.Counters
		rec.Replayed = res.Replayed
		rec.NS, rec.Simulated = kernelNanos(res, wall)
		rec.Timing = s.profTiming(res.Timing)
		rec.Lines = res.Lines
		if len(res.Children) > 0 {
			children = childRecords(res.Children, res.Timing)
			for i := range children {
				children[i].Timing = s.profTiming(children[i].Timing)
				// Device code launches kernels of its own module.
				children[i].Compiler = rec.Compiler
			}
			if !rec.Simulated {
				// The host time covers the children's simulation too;
				// each grid's time is its own.
				for _, c := range children {
					rec.NS -= c.NS
				}
				rec.NS = max(rec.NS, 1)
			}
		}
	case errors.As(err, &f):
		s.fault = f
		rec.NS = max(wall, 1)
		rec.Fault = f.Report
		if f.Interrupted {
			s.interrupted.Store(f)
		}
	case errors.As(err, &ce):
		s.pending = Error(ce.Code)
		s.pendingDiag = "warpsim: " + ce.Msg + "\n"
		return
	default:
		// Not a kernel fault: a simulator limitation (unsupported
		// instruction …). The program sees a launch failure at its next
		// synchronization, with the reason on stderr.
		s.fault = &Fault{Code: ErrorLaunchFailure, Report: "warpsim: " + err.Error()}
		rec.NS = max(wall, 1)
		rec.Fault = err.Error()
	}
	// The stream's clock advances by the whole launch: the timing model's
	// span of all its grids, or the grids' times one after another.
	total := rec.NS
	for _, c := range children {
		total += c.NS
	}
	if err == nil && rec.Simulated {
		total = res.Nanos
		if res.GridNanos > 0 {
			rec.NS = res.GridNanos
		}
	}
	if !rec.Simulated {
		// Host time: at least minHostTimedNS on the clock (timing.go).
		total = max(total, minHostTimedNS)
	}
	rec.StartNS, _ = s.clock.runGrid(stream, total, s.share(k, cfg), issued)
	s.launches = append(s.launches, rec)
	for _, c := range children {
		c.StartNS += rec.StartNS
		if !rec.Simulated {
			c.StartNS += rec.NS // one after another, after the parent
		}
		s.launches = append(s.launches, c)
	}
}

// maxDynamicShared is the most dynamic shared memory a launch of kernel kid
// may ask for: what cudaFuncSetAttribute set, else 48 KB less the
// kernel's static shared memory.
func (s *Server) maxDynamicShared(kid int, k Kernel) int {
	if v, ok := s.dynShared[kid]; ok {
		return v
	}
	return s.opt.Arch.SharedPerBlock - k.StaticSharedBytes()
}

// checkConfig answers what the CUDA runtime answers before a launch starts
// (arch.CheckLaunch), with the dynamic shared memory limit the program set
// by cudaFuncSetAttribute.
func (s *Server) checkConfig(kid int, k Kernel, cfg LaunchConfig, paramBytes int) *arch.LaunchError {
	lim := k.LaunchLimits()
	if v, ok := s.dynShared[kid]; ok {
		lim.MaxDynamicShared = v
	}
	g, b := cfg.Grid, cfg.Block
	if e := s.opt.Arch.CheckLaunch(lim, arch.LaunchShape{Grid: [3]uint32{g.X, g.Y, g.Z}, Block: [3]uint32{b.X, b.Y, b.Z},
		DynamicShared: int(cfg.SharedBytes), ParamBytes: paramBytes, Cooperative: cfg.Cooperative}); e != nil {
		return e
	}
	if code := s.checkCluster(kid, k, cfg); code != Success {
		c := cfg.Cluster
		return &arch.LaunchError{Code: int(code), Msg: fmt.Sprintf("cluster (%d,%d,%d) of grid (%d,%d,%d): cluster misconfiguration", c.X, c.Y, c.Z, g.X, g.Y, g.Z)}
	}
	return nil
}
