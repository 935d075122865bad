// Package runtime is the simulator side of warpsim's CUDA runtime. A program
// built by `warpsim cc` carries a small C runtime (cuda/shim) that starts
// `warpsim __runtime` on its first CUDA call and sends it every operation
// over a pipe; Server executes them on a Device with CUDA's semantics:
// sticky errors after a kernel fault, printf output released at
// synchronization points, events that read a device clock, and a profile of
// every launch written at exit for `warpsim prof`.
package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/profile"
)

// Options configure a Server.
type Options struct {
	// NewDevice makes the simulated device; it is called again by
	// cudaDeviceReset. printf receives the device's printf output;
	// progress, when the device can, is called as blocks complete.
	NewDevice func(a *arch.Arch, printf io.Writer, progress func(done, total int)) Device
	Arch      *arch.Arch
	// ProfilePath, when set, receives the profile (JSON) at exit.
	ProfilePath string
	// LaunchBlocking is CUDA_LAUNCH_BLOCKING=1: a launch is also a
	// synchronization, so its printf output and its fault come with it.
	LaunchBlocking bool
	// Progress, when set, is called with each launch's name and its
	// completed and total blocks while it runs, and with done == total when
	// it ends.
	Progress func(kernel string, done, total int)
	// Sanitize, when set, runs the program under a sanitizer (sanitize.go).
	Sanitize *Sanitizing
}

// Server executes one program's CUDA operations.
type Server struct {
	opt     Options
	dev     Device
	printf  lockedBuffer
	modules []Module
	kernels []Kernel
	// dynShared holds cudaFuncAttributeMaxDynamicSharedMemorySize per kernel.
	dynShared map[int]int
	clockNS   int64
	fault     *Fault // raised by a kernel, not yet seen by the program
	sticky    Error
	launches  []Record
	running   string // the kernel being launched, for progress reports
	// devMu guards dev against Interrupt and Progress, which other
	// goroutines call; interrupted is an interrupted launch's fault.
	devMu       sync.Mutex
	interrupted *Fault
}

// ErrInterrupted is Serve's error after an interrupt (Server.Interrupt)
// stopped a launch; the report has been written to stderr.
var ErrInterrupted = errors.New("interrupted")

// Interrupt stops the launch running now, if the device can (SIGINT); it
// reports whether one was running.
func (s *Server) Interrupt(reason string) bool {
	s.devMu.Lock()
	d, ok := s.dev.(interface{ Interrupt(string) bool })
	s.devMu.Unlock()
	return ok && d.Interrupt(reason)
}

// Progress reports the launch running now, if the device can tell.
func (s *Server) Progress() (p warpsim.LaunchProgress, ok bool) {
	s.devMu.Lock()
	d, isSim := s.dev.(*simDevice)
	s.devMu.Unlock()
	if !isSim {
		return p, false
	}
	return d.Progress()
}

// Record is one launch in the profile.
type Record struct {
	Kernel    string           `json:"kernel"`
	Mangled   string           `json:"mangled"`
	Grid      [3]uint32        `json:"grid"`
	Block     [3]uint32        `json:"block"`
	Shared    uint32           `json:"shared_bytes"`
	Regs      int              `json:"regs"`
	StaticSh  int              `json:"static_shared_bytes"`
	StartNS   int64            `json:"start_ns"`
	NS        int64            `json:"ns"`
	Simulated bool             `json:"simulated_time"`
	Counters  profile.Counters `json:"counters"`
	Fault     string           `json:"fault,omitempty"`
	// FromDevice marks a grid launched by device code (dynamic
	// parallelism), which nvprof's summary counts apart from host calls.
	// It follows the host launch it ran under.
	FromDevice bool `json:"from_device,omitempty"`
	// Count, when above 1, folds that many device-launched grids of one
	// host launch that had the same kernel, shape and counters (a fan-out
	// of thousands of identical children is one record): NS is then their
	// total time, MinNS and MaxNS the extremes, StartNS the first's start.
	Count int   `json:"count,omitempty"`
	MinNS int64 `json:"min_ns,omitempty"`
	MaxNS int64 `json:"max_ns,omitempty"`
}

// Calls is the number of launches r stands for.
func (r *Record) Calls() int { return max(r.Count, 1) }

// Range is the shortest and the longest of r's launches.
func (r *Record) Range() (lo, hi int64) {
	if r.Count > 1 {
		return r.MinNS, r.MaxNS
	}
	return r.NS, r.NS
}

// Profile is what the runtime writes at exit for `warpsim prof`.
type Profile struct {
	Arch     string   `json:"arch"`
	Device   string   `json:"device"`
	Launches []Record `json:"launches"`
}

// NewServer makes a server with a fresh device.
func NewServer(opt Options) *Server {
	s := &Server{opt: opt, dynShared: map[int]int{}}
	s.dev = s.newDevice()
	return s
}

func (s *Server) newDevice() Device {
	var progress func(done, total int)
	if s.opt.Progress != nil {
		progress = func(done, total int) { s.opt.Progress(s.running, done, total) }
	}
	dev := s.opt.NewDevice(s.opt.Arch, &s.printf, progress)
	if s.opt.Sanitize != nil {
		dev = s.opt.Sanitize.wrap(dev)
	}
	return dev
}

// Serve answers requests from r on w until the program exits or the pipe
// closes. The profile is written either way.
func (s *Server) Serve(r io.Reader, w io.Writer) error {
	defer s.writeProfile()
	if s.opt.Sanitize != nil {
		defer s.opt.Sanitize.finish()
	}
	for {
		req, err := readRequest(r)
		if err == io.EOF {
			if s.fault != nil {
				fmt.Fprintf(os.Stderr, "warpsim: the program exited before synchronizing with a faulted kernel:\n%s\n", s.fault.Report)
			}
			return nil
		}
		if err != nil {
			return err
		}
		rep := s.handle(req)
		if f := s.interrupted; f != nil {
			// The user stopped the program (Ctrl-C): say where the kernel
			// was, and stop; the program itself is being interrupted too.
			fmt.Fprintf(os.Stderr, "%s\n", f.Report)
			return ErrInterrupted
		}
		if s.opt.Sanitize != nil {
			s.opt.Sanitize.reply(req.op, &rep)
		}
		if err := writeReply(w, rep); err != nil {
			return err
		}
		if req.op == opExit {
			return nil
		}
	}
}

// flush releases the device printf output and surfaces a pending fault, as
// a CUDA synchronization does.
func (s *Server) flush(rep *reply) {
	rep.out = s.printf.take()
	if s.fault != nil {
		rep.diag = append(rep.diag, s.fault.Report...)
		if len(rep.diag) > 0 && rep.diag[len(rep.diag)-1] != '\n' {
			rep.diag = append(rep.diag, '\n')
		}
		s.sticky = s.fault.Code
		s.fault = nil
	}
	if s.sticky != Success && rep.code == Success {
		rep.code = s.sticky
	}
}

func (s *Server) handle(req request) (rep reply) {
	p := &payloadReader{b: req.payload}
	defer func() {
		if p.err != nil && rep.code == Success {
			rep = reply{code: ErrorInvalidValue, diag: []byte("warpsim runtime: malformed request\n")}
		}
	}()
	switch req.op {
	case opHello:
		if v := p.u32(); v != protocolVersion {
			p.err = nil
			return reply{code: ErrorInsufficientDriver, diag: fmt.Appendf(nil,
				"warpsim: this program was built by a different version of warpsim (runtime protocol %d, this warpsim speaks %d); rebuild it with warpsim cc\n", v, protocolVersion)}
		}
		return reply{data: encodeProps(s.opt.Arch)}
	case opModule:
		name := moduleName(req.payload, len(s.modules))
		ptx, note := s.retarget(name, req.payload)
		m, err := s.dev.LoadModule(name, ptx)
		if err != nil {
			return reply{code: ErrorInvalidPtx, diag: fmt.Appendf(note, "warpsim: cannot load the program's PTX:\n%v\n", err)}
		}
		s.modules = append(s.modules, m)
		return reply{diag: note, data: putU32s(uint32(len(s.modules) - 1))}
	case opKernel:
		mid := p.u32()
		name := string(p.rest())
		if int(mid) >= len(s.modules) {
			return reply{code: ErrorInvalidDeviceFunction}
		}
		k, err := s.modules[mid].Kernel(name)
		if err != nil {
			// The reason is data, not a diagnostic: the C side may look in
			// other modules first (relocatable device code) and shows it only
			// if the kernel is nowhere.
			return reply{code: ErrorInvalidDeviceFunction, data: fmt.Appendf(nil, "warpsim: %v\n", err)}
		}
		s.kernels = append(s.kernels, k)
		params := k.Params()
		out := putU32s(uint32(len(s.kernels)-1), uint32(k.ParamBytes()), uint32(len(params)))
		for _, prm := range params {
			out = append(out, putU32s(uint32(prm.Offset), uint32(prm.Size))...)
		}
		return reply{data: out}
	case opMalloc:
		size := p.u64()
		if s.sticky != Success {
			return reply{code: s.sticky}
		}
		addr, err := s.dev.Malloc(size)
		if err != nil {
			return reply{code: ErrorMemoryAllocation}
		}
		return reply{data: putU64s(addr)}
	case opFree:
		addr := p.u64()
		if err := s.dev.Free(addr); err != nil {
			return reply{code: ErrorInvalidValue}
		}
		return reply{}
	case opWrite:
		addr := p.u64()
		src := p.rest()
		rep = reply{}
		s.flush(&rep)
		if rep.code == Success && s.dev.Write(addr, src) != nil {
			rep.code = ErrorInvalidValue
		}
		return rep
	case opRead:
		addr, n := p.u64(), p.u64()
		rep = reply{}
		s.flush(&rep)
		if rep.code != Success {
			return rep
		}
		if n > maxPayload {
			rep.code = ErrorInvalidValue
			return rep
		}
		buf := make([]byte, n)
		if s.dev.Read(addr, buf) != nil {
			rep.code = ErrorInvalidValue
			return rep
		}
		rep.data = buf
		return rep
	case opCopy:
		dst, src, n := p.u64(), p.u64(), p.u64()
		if s.sticky != Success {
			return reply{code: s.sticky}
		}
		if n > maxPayload {
			return reply{code: ErrorInvalidValue}
		}
		buf := make([]byte, n)
		if s.dev.Read(src, buf) != nil || s.dev.Write(dst, buf) != nil {
			return reply{code: ErrorInvalidValue}
		}
		return reply{}
	case opMemset:
		addr, v, n := p.u64(), p.u64(), p.u64()
		if s.sticky != Success {
			return reply{code: s.sticky}
		}
		if s.dev.Memset(addr, byte(v), n) != nil {
			return reply{code: ErrorInvalidValue}
		}
		return reply{}
	case opLaunch:
		return s.launch(p)
	case opSync:
		rep = reply{}
		s.flush(&rep)
		return rep
	case opGlobal:
		mid := p.u32()
		name := string(p.rest())
		if int(mid) >= len(s.modules) {
			return reply{code: ErrorInvalidSymbol}
		}
		addr, size, ok := s.modules[mid].Global(name)
		if !ok {
			return reply{code: ErrorInvalidSymbol}
		}
		return reply{data: putU64s(addr, size)}
	case opOccupancy:
		kid, block, dyn := p.u32(), p.u32(), p.u32()
		k, ok := s.kernel(kid)
		if !ok {
			return reply{code: ErrorInvalidDeviceFunction}
		}
		if block == 0 {
			return reply{code: ErrorInvalidValue}
		}
		res := s.opt.Arch.Occupancy(arch.OccupancyInput{
			BlockSize: int(block), RegsPerThread: k.RegsPerThread(),
			StaticShared: k.StaticSharedBytes(), DynamicShared: int(dyn),
		})
		return reply{data: putU32s(uint32(res.BlocksPerSM))}
	case opEvent:
		return reply{code: s.sticky, data: putU64s(uint64(s.clockNS))}
	case opReset:
		rep = reply{}
		rep.out = s.printf.take()
		s.fault, s.sticky = nil, Success
		s.modules, s.kernels = nil, nil
		s.dynShared = map[int]int{}
		dev := s.newDevice()
		s.devMu.Lock()
		s.dev = dev
		s.devMu.Unlock()
		return rep
	case opExit:
		// Output a kernel printed after the last synchronization is lost,
		// as on a GPU (the CUDA programming guide: the buffer is not
		// flushed at exit).
		return reply{}
	case opLimit:
		return s.limit(p.u32(), p.u32() != 0, p.u64())
	case opFuncAttr:
		kid := p.u32()
		k, ok := s.kernel(kid)
		if !ok {
			return reply{code: ErrorInvalidDeviceFunction}
		}
		if len(p.b) >= 8 {
			attr, val := p.u32(), p.u32()
			if attr == 8 { // cudaFuncAttributeMaxDynamicSharedMemorySize
				if int(val) > s.opt.Arch.SharedPerBlockOptin-k.StaticSharedBytes() {
					return reply{code: ErrorInvalidValue}
				}
				s.dynShared[int(kid)] = int(val)
			}
			return reply{}
		}
		a := s.opt.Arch
		maxDyn := a.SharedPerBlock - k.StaticSharedBytes()
		if v, ok := s.dynShared[int(kid)]; ok {
			maxDyn = v
		}
		maxThreads := a.MaxThreadsPerBlockFor(k.RegsPerThread())
		return reply{data: putU64s(uint64(k.StaticSharedBytes()), 0, uint64(k.LocalBytes()), uint64(maxThreads),
			uint64(k.RegsPerThread()), uint64(a.ComputeCapability()), uint64(a.ComputeCapability()), uint64(maxDyn))}
	}
	return reply{code: ErrorNotSupported, diag: fmt.Appendf(nil, "warpsim runtime: unknown operation %d (the program and warpsim are from different versions?)\n", req.op)}
}

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

// launch validates the configuration as the CUDA runtime does, then runs
// the kernel to completion. A fault is kept until the next synchronizing
// call, where the program sees it.
func (s *Server) launch(p *payloadReader) reply {
	kid := p.u32()
	cfg := LaunchConfig{
		Grid:        Dim3{p.u32(), p.u32(), p.u32()},
		Block:       Dim3{p.u32(), p.u32(), p.u32()},
		SharedBytes: p.u32(),
	}
	params := p.rest()
	if p.err != nil {
		return reply{code: ErrorInvalidValue}
	}
	// A launch is a flush point for earlier kernels' printf output.
	rep := reply{out: s.printf.take()}
	if s.sticky != Success {
		rep.code = s.sticky
		return rep
	}
	k, ok := s.kernel(kid)
	if !ok {
		rep.code = ErrorInvalidDeviceFunction
		return rep
	}
	if code := s.checkConfig(int(kid), k, cfg); code != Success {
		rep.code = code
		return rep
	}
	if len(params) != k.ParamBytes() {
		rep.code = ErrorInvalidValue
		return rep
	}
	name := k.DemangledName()
	s.running = name
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
		Shared: cfg.SharedBytes, Regs: k.RegsPerThread(), StaticSh: k.StaticSharedBytes(), StartNS: s.clockNS,
	}
	var f *Fault
	var ce *ConfigError
	var children []Record
	switch {
	case err == nil:
		rec.Counters = res.Counters
		rec.NS = wall
		if res.Nanos > 0 {
			rec.NS, rec.Simulated = res.Nanos, true
		}
		if len(res.Children) > 0 {
			children = childRecords(res.Children)
			if !rec.Simulated {
				// The host time covers the children's simulation too;
				// each grid's time is its own.
				for _, c := range children {
					rec.NS -= c.NS
				}
				rec.NS = max(rec.NS, 0)
			}
			for i := range children {
				children[i].StartNS += rec.StartNS + rec.NS
			}
		}
	case errors.As(err, &f):
		s.fault = f
		rec.NS = wall
		rec.Fault = f.Report
		if f.Interrupted {
			s.interrupted = f
		}
	case errors.As(err, &ce):
		rep.code = ce.Code
		rep.diag = fmt.Appendf(nil, "warpsim: %s\n", ce.Msg)
		return rep
	default:
		// Not a kernel fault: a simulator limitation (unsupported
		// instruction …). The program sees a launch failure at its next
		// synchronization, with the reason on stderr.
		s.fault = &Fault{Code: ErrorLaunchFailure, Report: "warpsim: " + err.Error()}
		rec.NS = wall
		rec.Fault = err.Error()
	}
	s.clockNS += rec.NS
	s.launches = append(s.launches, rec)
	for _, c := range children {
		s.clockNS += c.NS
		s.launches = append(s.launches, c)
	}
	if s.opt.LaunchBlocking {
		out := rep.out
		s.flush(&rep)
		rep.out = append(out, rep.out...)
	}
	return rep
}

// childRecords turns the grids launched from the device into profile
// records, folding those of one kernel, shape and counters into one record
// (Record.Count) and keeping first-run order. StartNS is relative to the
// first child's start.
func childRecords(children []ChildGrid) []Record {
	var start int64
	type key struct {
		mangled  string
		cfg      LaunchConfig
		counters profile.Counters
	}
	var recs []Record
	index := map[key]int{}
	for _, c := range children {
		k := key{c.Kernel.Name(), c.Config, c.Counters}
		if i, ok := index[k]; ok {
			r := &recs[i]
			if r.Count == 0 {
				r.Count, r.MinNS, r.MaxNS = 1, r.NS, r.NS
			}
			r.Count++
			r.NS += c.HostNanos
			r.MinNS = min(r.MinNS, c.HostNanos)
			r.MaxNS = max(r.MaxNS, c.HostNanos)
		} else {
			index[k] = len(recs)
			g, b := c.Config.Grid, c.Config.Block
			recs = append(recs, Record{
				Kernel: c.Kernel.DemangledName(), Mangled: c.Kernel.Name(),
				Grid: [3]uint32{g.X, g.Y, g.Z}, Block: [3]uint32{b.X, b.Y, b.Z}, Shared: c.Config.SharedBytes,
				Regs: c.Kernel.RegsPerThread(), StaticSh: c.Kernel.StaticSharedBytes(),
				StartNS: start, NS: c.HostNanos, Counters: c.Counters, FromDevice: true,
			})
		}
		start += c.HostNanos
	}
	return recs
}

// checkConfig answers what the CUDA runtime answers before a launch starts.
// A shape the device cannot run (a zero dimension, more threads per block
// than allowed, a block or grid dimension over its limit) is
// cudaErrorInvalidValue: CUDA 13 on an H100 (driver 580) returns that, not
// the cudaErrorInvalidConfiguration older runtimes returned (recorded by
// testdata/programs/error_config.cu in commit 988d404).
func (s *Server) checkConfig(kid int, k Kernel, cfg LaunchConfig) Error {
	a := s.opt.Arch
	b, g := cfg.Block, cfg.Grid
	if b.X == 0 || b.Y == 0 || b.Z == 0 || g.X == 0 || g.Y == 0 || g.Z == 0 {
		return ErrorInvalidValue
	}
	if b.X > uint32(a.MaxBlockDim[0]) || b.Y > uint32(a.MaxBlockDim[1]) || b.Z > uint32(a.MaxBlockDim[2]) ||
		b.Threads() > uint64(a.MaxThreadsPerBlock) {
		return ErrorInvalidValue
	}
	if g.X > uint32(a.MaxGridDim[0]) || g.Y > uint32(a.MaxGridDim[1]) || g.Z > uint32(a.MaxGridDim[2]) {
		return ErrorInvalidValue
	}
	limit := a.SharedPerBlock
	if v, ok := s.dynShared[kid]; ok {
		limit = k.StaticSharedBytes() + v
	}
	if k.StaticSharedBytes()+int(cfg.SharedBytes) > limit {
		return ErrorInvalidValue
	}
	if k.RegsPerThread() > 0 && b.Threads()*uint64(k.RegsPerThread()) > uint64(a.RegsPerBlock) {
		return ErrorLaunchOutOfResources
	}
	return Success
}

func (s *Server) writeProfile() {
	if s.opt.ProfilePath == "" {
		return
	}
	p := Profile{Arch: s.opt.Arch.Name, Device: s.opt.Arch.FullName, Launches: s.launches}
	if p.Launches == nil {
		p.Launches = []Record{}
	}
	b, err := json.Marshal(p)
	if err == nil {
		err = os.WriteFile(s.opt.ProfilePath, b, 0o644)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "warpsim: writing the profile: %v\n", err)
	}
}

// lockedBuffer collects device printf output; the engine may write from
// several goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) take() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf.Len() == 0 {
		return nil
	}
	out := bytes.Clone(b.buf.Bytes())
	b.buf.Reset()
	return out
}

// limitDevice is a Device that honours cudaLimitStackSize (0) and
// cudaLimitMallocHeapSize (2).
type limitDevice interface {
	SetLimit(limit uint32, v uint64) Error
	GetLimit(limit uint32) uint64
}

// limit answers cudaDeviceSetLimit and cudaDeviceGetLimit for the limits
// the simulator honours.
func (s *Server) limit(which uint32, set bool, v uint64) reply {
	d, ok := s.dev.(limitDevice)
	if !ok {
		if set {
			return reply{}
		}
		return reply{data: putU64s(map[uint32]uint64{0: 1024, 2: 8 << 20}[which])}
	}
	if set {
		return reply{code: d.SetLimit(which, v)}
	}
	return reply{data: putU64s(d.GetLimit(which))}
}
