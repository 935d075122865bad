// Package cudart is the simulator side of warpsim's CUDA runtime. A program
// built by `warpsim cc` carries a small C runtime (cuda/shim) that starts
// `warpsim __runtime` on its first CUDA call and sends it every operation
// over a pipe; Server executes them on a Device with CUDA's semantics:
// sticky errors after a kernel fault, printf output released at
// synchronization points, events that read a device clock, and a profile of
// every launch written at exit for `warpsim prof`.
package cudart

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
	"sync/atomic"
	"time"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
	"github.com/warpsim/warpsim/metrics"
	"github.com/warpsim/warpsim/ptx/origin"
)

// Options configure a Server.
type Options struct {
	// NewDevice makes the simulated device, its allocations in mem from
	// address base; it is called again by cudaDeviceReset. printf receives
	// the device's printf output; progress, when the device can, is called
	// as blocks complete.
	NewDevice func(a *arch.Arch, printf io.Writer, progress func(done, total int), mem Backing, base uint64) Device
	Arch      *arch.Arch
	// ProfilePath, when set, receives the profile (JSON) at exit.
	ProfilePath string
	// ProfileBlocks keeps each grid's block spans (where and when each
	// block ran) in the profile, for prof --trace.
	ProfileBlocks bool
	// LaunchBlocking is CUDA_LAUNCH_BLOCKING=1: a launch is also a
	// synchronization, so its printf output and its fault come with it.
	LaunchBlocking bool
	// Progress, when set, is called with each launch's name and its
	// completed and total blocks while it runs, and with done == total when
	// it ends.
	Progress func(kernel string, done, total int)
	// Sanitize, when set, runs the program under a sanitizer (sanitize.go).
	Sanitize *Sanitizing
	// SettingsErr, when set, is the answer to the program's hello: a bad
	// setting (ReadSettings) the program hears of at its first CUDA call.
	SettingsErr *SettingsError
	// Window is the memory file the program shares (its fd 5), and
	// Callbacks and CallbacksDone the pipes on which host functions are run
	// (fds 6 and 7); nil in tests that speak the protocol directly.
	Window                   *os.File
	Callbacks, CallbacksDone *os.File
}

// Server executes one program's CUDA operations. The goroutine that reads
// requests answers them; queued work (launches, asynchronous copies and
// memsets, event records, host functions) runs on one executor goroutine
// in the order it was issued, which is one valid order of CUDA's streams.
type Server struct {
	opt     Options
	dev     Device
	win     *window
	printf  lockedBuffer
	modules []Module
	kernels []Kernel
	// origins is the compiler each module's header names (ptx/origin), by
	// module index.
	origins []origin.Origin
	// mallocs are the program's allocations not yet freed (opMalloc), the
	// addresses opFree accepts.
	mallocs map[uint64]bool
	// ipcOpened are the ranges opIpcOpen showed another process's memory
	// at, the addresses opIpcClose accepts.
	ipcOpened map[uint64]bool
	// dynShared holds cudaFuncAttributeMaxDynamicSharedMemorySize per kernel.
	dynShared map[int]int
	// carveout holds cudaFuncAttributePreferredSharedMemoryCarveout per
	// kernel (a hint: the occupancy calculator does not read it).
	carveout map[int]int32
	running  atomic.Pointer[string] // the kernel being run, for progress reports
	// devMu guards dev against Interrupt and Progress, which other
	// goroutines call; interrupted is an interrupted launch's fault.
	devMu       sync.Mutex
	interrupted atomic.Pointer[Fault]

	// mu guards the rest, shared with the executor; cond signals progress.
	mu         sync.Mutex
	cond       *sync.Cond
	queue      []queued
	current    *queued // the operation the executor runs now
	issued     uint64  // sequence number of the last queued operation
	done       uint64  // every operation up to this one has run
	closing    bool
	streamLast map[uint32]uint64 // last operation queued on each stream
	events     map[uint32]*eventState
	clock      *timeline
	// hostSeen is the host's simulated time as its queries see it, beyond
	// its issue clock (timeline.host): the end of the copies to or from
	// host memory it waited for (opHostCopy), and how far its polling
	// reached (queryReady).
	hostSeen    int64
	fault       *Fault // raised by a kernel, not yet seen by the program
	pending     Error  // a launch refused by the device, seen at the next synchronization
	pendingDiag string
	abandoned   bool // the program is gone: queued work is dropped
	// programLeft: the program's request pipe closed or this process was
	// reparented (gone.go), set before the queued work is dropped.
	programLeft atomic.Bool
	// signalStopped: a signal that reached the program too stopped the
	// launch running now (InterruptIfProgramGoes).
	signalStopped atomic.Bool
	sticky        Error
	launches      []Record
	// compilers is the compiler of each kernel the program looked up, by
	// mangled name, for the profile (Record.Compiler).
	compilers map[string]string
}

// queued is one operation on a stream's queue.
type queued struct {
	seq    uint64
	stream uint32
	run    func()
	kernel bool // a launch (the others may write memory behind launch replay's back: memoryWritten)
	// external: it waits for something outside the simulator (a host
	// function, another process's event), so a query does not wait for it.
	external bool
}

type eventState struct {
	seq uint64 // the record operation; the event is complete once it ran
	ns  int64  // the time it recorded
}

// ErrInterrupted is Serve's error after an interrupt (Server.Interrupt)
// stopped a launch; the report has been written to stderr.
var ErrInterrupted = errors.New("interrupted")

// Interrupt stops the launch running now, if the device can (SIGINT); it
// reports whether one was running.
func (s *Server) Interrupt(reason string) bool {
	s.devMu.Lock()
	d, ok := under(s.dev).(interface{ Interrupt(string) bool })
	s.devMu.Unlock()
	return ok && d.Interrupt(reason)
}

// Progress reports the launch running now, if the device can tell.
func (s *Server) Progress() (p warpsim.LaunchProgress, ok bool) {
	s.devMu.Lock()
	d, isSim := under(s.dev).(*simDevice)
	s.devMu.Unlock()
	if !isSim {
		return p, false
	}
	return d.Progress()
}

// under is the device a sanitizer wraps (the device itself when none
// does), for the abilities the wrapper does not pass on.
func under(d Device) Device {
	if sd, ok := d.(*sanDevice); ok {
		return sd.Device
	}
	return d
}

// noteCompiler keeps the compiler of a kernel the program looked up.
func (s *Server) noteCompiler(mangled string, o origin.Origin) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.compilers == nil {
		s.compilers = map[string]string{}
	}
	s.compilers[mangled] = o.String()
}

// stopped is the fault of a launch an interrupt stopped, nil when none.
func (s *Server) stopped() *Fault {
	return s.interrupted.Load()
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
	Counters  metrics.Counters `json:"counters"`
	Fault     string           `json:"fault,omitempty"`
	// Timing is the timing model's account of the grid (WARPSIM_MODE=timing,
	// the default): what prof's timing metrics and --trace read. Its block
	// spans are kept only when the profile asks for them
	// (Options.ProfileBlocks). A folded record (Count) carries its first
	// grid's.
	Timing *metrics.Timing `json:"timing,omitempty"`
	// FromDevice marks a grid launched by device code (dynamic
	// parallelism), which nvprof's summary counts apart from host calls.
	// It follows the host launch it ran under.
	FromDevice bool `json:"from_device,omitempty"`
	// Compiler is the compiler that wrote the kernel's PTX, from the
	// module's header (ptx/origin): "clang" (warpsim cc's device code),
	// "nvcc 13.0", or "" when the header names none.
	Compiler string `json:"compiler,omitempty"`
	// Replayed marks a launch that was not executed: it repeated a
	// recorded launch on the same device memory and took that launch's
	// change to memory and counters (WARPSIM_REPLAY, engine/memo.go).
	Replayed bool `json:"replayed,omitempty"`
	// Count, when above 1, folds that many device-launched grids of one
	// host launch that had the same kernel, shape and counters (a fan-out
	// of thousands of identical children is one record): NS is then their
	// total time, MinNS and MaxNS the extremes, StartNS the first's start.
	Count int   `json:"count,omitempty"`
	MinNS int64 `json:"min_ns,omitempty"`
	MaxNS int64 `json:"max_ns,omitempty"`
	// Lines are the grid's per-instruction counts, for prof --report and
	// --export (WARPSIM_PROFILE_LINES=1; host-launched grids only).
	Lines []metrics.FuncLines `json:"lines,omitempty"`
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

// NewServer makes a server; its device is made when the program says
// hello and names the memory they share.
func NewServer(opt Options) *Server {
	s := &Server{opt: opt, dynShared: map[int]int{}, carveout: map[int]int32{}, mallocs: map[uint64]bool{}, ipcOpened: map[uint64]bool{}, streamLast: map[uint32]uint64{},
		events: map[uint32]*eventState{}, clock: newTimeline(128)}
	if opt.Arch != nil {
		s.clock.maxGrids = residentGrids(opt.Arch)
	}
	s.cond = sync.NewCond(&s.mu)
	go s.execute()
	return s
}

func (s *Server) newDevice() Device {
	var progress func(done, total int)
	if s.opt.Progress != nil {
		progress = func(done, total int) {
			name := ""
			if p := s.running.Load(); p != nil {
				name = *p
			}
			s.opt.Progress(name, done, total)
		}
	}
	dev := s.opt.NewDevice(s.opt.Arch, &s.printf, progress, s.win, s.win.base)
	if s.opt.Sanitize != nil {
		dev = s.opt.Sanitize.wrap(dev)
	}
	return dev
}

// Serve answers requests from r on w until the program exits or the pipe
// closes. The profile is written either way.
func (s *Server) Serve(r io.Reader, w io.Writer) error {
	// A program that dies (SIGKILL, SIGTERM, a crash) takes its launches
	// with it; the watch outlives the deferred calls below, which wait for
	// the running launch (gone.go).
	var exiting atomic.Bool
	if f, ok := r.(*os.File); ok {
		defer s.watchProgram(f, &exiting)()
	}
	defer s.writeProfile()
	if s.opt.Sanitize != nil {
		// After the queued work (stop) and before the profile: leaks,
		// then the summary.
		defer s.opt.Sanitize.finish()
	}
	defer s.stop()
	for {
		req, err := readRequest(r)
		if err == io.EOF && s.stopped() == nil {
			s.mu.Lock()
			f := s.fault
			s.mu.Unlock()
			s.abandon()
			if f != nil {
				fmt.Fprintf(os.Stderr, "warpsim: the program exited before synchronizing with a faulted kernel:\n%s\n", f.Report)
				return nil
			}
			if s.signalStopped.Load() {
				// Ctrl-C while a kernel ran and the program was not
				// waiting here (between requests, a launch queued): the
				// program died of it and its pipe closed before the
				// interrupt's report. Say where the kernel was, as when
				// the program waits (below), once the launch has stopped.
				s.stop()
				if f := s.stopped(); f != nil {
					fmt.Fprintf(os.Stderr, "%s\n", f.Report)
					return ErrInterrupted
				}
			}
			return nil
		}
		if f := s.stopped(); f != nil {
			// The program is gone or asks for more after an interrupt.
			fmt.Fprintf(os.Stderr, "%s\n", f.Report)
			return ErrInterrupted
		}
		if err != nil {
			return err
		}
		if req.op == opExit {
			exiting.Store(true)
		}
		rep := s.handle(req)
		if f := s.stopped(); f != nil {
			// The user stopped the program (Ctrl-C): say where the kernel
			// was, and stop; the program itself is being interrupted too.
			fmt.Fprintf(os.Stderr, "%s\n", f.Report)
			s.mu.Lock()
			s.abandoned = true
			s.mu.Unlock()
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

// stop ends the executor once the queued work has run.
func (s *Server) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.done < s.issued && !s.closing {
		s.cond.Wait()
	}
	s.closing = true
	s.cond.Broadcast()
}

// execute is the executor goroutine: it runs queued operations in order.
func (s *Server) execute() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		for len(s.queue) == 0 && !s.closing {
			s.cond.Wait()
		}
		if len(s.queue) == 0 {
			return
		}
		q := s.queue[0]
		s.queue = s.queue[1:]
		s.current = &q
		s.mu.Unlock()
		q.run()
		if !q.kernel {
			s.memoryWritten()
		}
		s.mu.Lock()
		s.current = nil
		s.done = q.seq
		s.cond.Broadcast()
	}
}

// enqueue puts run on stream's queue and returns its sequence number.
func (s *Server) enqueue(stream uint32, run func()) uint64 { return s.enqueueAs(stream, run, false) }

// enqueueAs is enqueue; kernel marks a launch.
func (s *Server) enqueueAs(stream uint32, run func(), kernel bool) uint64 {
	return s.enqueueOp(queued{stream: stream, run: run, kernel: kernel})
}

// enqueueExternal is enqueue for an operation that waits for something
// outside the simulator (queued.external).
func (s *Server) enqueueExternal(stream uint32, run func()) uint64 {
	return s.enqueueOp(queued{stream: stream, run: run, external: true})
}

func (s *Server) enqueueOp(q queued) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.issued++
	q.seq = s.issued
	s.queue = append(s.queue, q)
	stream := q.stream
	s.streamLast[stream] = s.issued
	s.cond.Broadcast()
	return s.issued
}

// waitFor blocks until operation seq has run.
func (s *Server) waitFor(seq uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.done < seq {
		s.cond.Wait()
	}
}

// queryReady answers cudaStreamQuery and cudaEventQuery for the work up
// to operation seq, which ends at end() on the simulated clock: from
// simulated time, never from how far the simulation has got, so the answer
// is the same however loaded the host is. The work is done when its end is
// not after the host's simulated time (timeline.host, or hostSeen). To
// know its end the query waits for the work to be simulated, unless an
// operation up to seq waits for something outside the simulator (a host
// function, another process's event): that work is not done. A query that
// finds the work not done moves the host's polling time half the way to
// its end (at least queryNS), so a program that polls sees it done after a
// few dozen queries, however long the work, while the host's issue clock
// stays where it was; a query that finds it done after polling says the
// host waited until then.
func (s *Server) queryReady(seq uint64, end func() int64) bool {
	s.mu.Lock()
	blocked := s.current != nil && s.current.external && s.current.seq <= seq
	for _, q := range s.queue {
		if q.seq > seq {
			break
		}
		blocked = blocked || q.external
	}
	s.mu.Unlock()
	if blocked {
		return false
	}
	s.waitFor(seq)
	s.mu.Lock()
	defer s.mu.Unlock()
	now := max(s.clock.host, s.hostSeen)
	if e := end(); e > now {
		s.hostSeen = now + max(queryNS, (e-now)/2)
		return false
	}
	s.clock.hostWaits(now)
	return true
}

// streamSeq is the operation a synchronization with stream must wait for:
// its last, and for the legacy default stream (or a blocking stream, which
// waits for it) the last on every blocking stream.
func (s *Server) streamSeq(stream uint32) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if stream == 0 {
		seq := uint64(0)
		for id, v := range s.streamLast {
			if !s.clock.nonBlocking[id] {
				seq = max(seq, v)
			}
		}
		return seq
	}
	return s.streamLast[stream]
}

// broken reports whether the context has faulted: queued work then no
// longer runs, as on a GPU after a sticky error.
func (s *Server) broken() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fault != nil || s.sticky != Success || s.abandoned
}

// flush releases the device printf output and surfaces a pending fault, as
// a CUDA synchronization does.
func (s *Server) flush(rep *reply) {
	rep.out = append(rep.out, s.printf.take()...)
	s.mu.Lock()
	defer s.mu.Unlock()
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
	if s.pending != Success && rep.code == Success {
		rep.code = s.pending
		rep.diag = append(rep.diag, s.pendingDiag...)
		s.pending, s.pendingDiag = Success, ""
	}
}

// stickyCode is the context's sticky error, Success when there is none.
func (s *Server) stickyCode() Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sticky
}

func (s *Server) handle(req request) (rep reply) {
	p := &payloadReader{b: req.payload}
	defer func() {
		if p.err != nil && rep.code == Success {
			rep = reply{code: ErrorInvalidValue, diag: []byte("warpsim runtime: malformed request\n")}
		}
	}()
	if req.op != opHello && s.dev == nil {
		if req.op == opExit {
			return reply{}
		}
		return reply{code: ErrorInitializationError, diag: []byte("warpsim runtime: request before hello\n")}
	}
	switch req.op {
	case opLaunch, opLaunchCooperative, opLaunchCluster:
		if s.win.hostMapped() {
			// The program may have written its pinned or managed memory.
			s.memoryWritten()
		}
	default:
		// A copy, a memset, an allocation, a free, a synchronization
		// after which the program writes memory: launch replay hashes the
		// memory again.
		s.memoryWritten()
	}
	switch req.op {
	case opHello:
		return s.hello(p)
	case opModule:
		name := moduleName(req.payload, len(s.modules))
		ptx, note := s.retarget(name, req.payload)
		m, err := s.dev.LoadModule(name, ptx)
		if err != nil {
			return reply{code: ErrorInvalidPtx, diag: fmt.Appendf(note, "warpsim: cannot load the program's PTX:\n%v\n", err)}
		}
		s.modules = append(s.modules, m)
		s.origins = append(s.origins, origin.Of(ptx))
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
		s.noteCompiler(k.Name(), s.origins[mid])
		params := k.Params()
		out := putU32s(uint32(len(s.kernels)-1), uint32(k.ParamBytes()), uint32(len(params)))
		for _, prm := range params {
			out = append(out, putU32s(uint32(prm.Offset), uint32(prm.Size))...)
		}
		return reply{data: out}
	case opMalloc:
		size, kind := p.u64(), allocKind(p.u32())
		if c := s.stickyCode(); c != Success {
			return reply{code: c}
		}
		s.win.mu.Lock()
		s.win.nextKind = kind
		s.win.mu.Unlock()
		addr, err := s.dev.Malloc(size)
		s.win.mu.Lock()
		s.win.nextKind = kindDevice
		s.win.mu.Unlock()
		if err != nil {
			return reply{code: ErrorMemoryAllocation}
		}
		s.mallocs[addr] = true
		if kind != kindDevice {
			s.opt.Sanitize.hostMemory(addr, size)
		}
		return reply{data: putU64s(addr)}
	case opFree:
		addr, stream, async := p.u64(), p.u32(), p.u32()
		if p.err != nil {
			return reply{}
		}
		if !s.mallocs[addr] {
			// Not the start of the program's allocation (inside one, freed
			// already, a module's variable, a host pointer).
			return reply{code: ErrorInvalidValue}
		}
		delete(s.mallocs, addr)
		if async != 0 {
			s.win.setFreeing(addr, true)
			s.enqueue(stream, func() {
				s.dev.Free(addr)
				s.win.setFreeing(addr, false)
			})
			return reply{}
		}
		// cudaFree waits for the whole device, non-blocking streams too: a
		// kernel on any stream may still use the memory (the H100's
		// cudaFree and cudaFreeHost wait for a kernel on a
		// cudaStreamNonBlocking stream: testdata/hostile/h100.txt,
		// free_nonblocking).
		s.waitFor(s.issuedSeq())
		if err := s.dev.Free(addr); err != nil {
			return reply{code: ErrorInvalidValue}
		}
		return reply{}
	case opHostCopy:
		stream, flags, dev, n := p.u32(), p.u32(), p.u64(), p.u64()
		if p.err != nil {
			return reply{}
		}
		dir := copyDir(flags & 0xff)
		api := ""
		if flags&hostCopyAsync != 0 {
			api = "cudaMemcpyAsync"
		}
		if dev != 0 {
			if _, ok := s.win.live(dev, n); !ok {
				return reply{api: api, code: ErrorInvalidValue, diag: fmt.Appendf(nil, "warpsim runtime: copy of %d bytes at %#x: not inside an allocation\n", n, dev)}
			}
		}
		s.waitFor(s.streamSeq(stream))
		rep = reply{}
		s.flush(&rep)
		if rep.code == Success {
			s.mu.Lock()
			s.clock.run(stream, dir.engine(), copyNanos(s.opt.Arch, dir, n, true))
			if flags&hostCopyAsync == 0 {
				// cudaMemcpy returns once the copy is done.
				s.hostSeen = max(s.hostSeen, s.clock.ready(stream))
			}
			s.mu.Unlock()
			if dir == hostToDevice && dev != 0 {
				// The program writes the bytes once it has the reply.
				s.opt.Sanitize.hostWrote(dev, n)
			}
		}
		return rep
	case opCopy:
		return s.copy(p)
	case opMemset:
		return s.memset(p)
	case opLaunch:
		return s.launch(p)
	case opLaunchCooperative:
		return s.launchCooperative(p)
	case opLaunchCluster, opOccupancyCluster, opPotentialCluster:
		return s.clusterOp(req.op, p) // cluster.go
	case opManagedAlias:
		return s.managedAlias(p)
	case opUnalias:
		return s.unalias(p)
	case opVMReserve, opVMMap, opVMUnmap:
		return s.vmmOp(req.op, p) // vmm.go
	case opIpcShare, opIpcOpen, opIpcClose, opIpcEventRecord, opIpcEventWait, opIpcEventHostWait:
		return s.ipcOp(req.op, p) // ipc.go
	case opStickyError:
		if s.opt.Sanitize != nil {
			s.opt.Sanitize.stickyError(p)
		}
		return reply{}
	case opSync:
		s.waitFor(s.issuedSeq())
		s.mu.Lock()
		s.clock.hostWaits(s.clock.ready(0))
		for id := range s.clock.stream {
			s.clock.hostWaits(s.clock.stream[id])
		}
		s.mu.Unlock()
		rep = reply{}
		s.flush(&rep)
		return rep
	case opStreamSync:
		stream := p.u32()
		s.waitFor(s.streamSeq(stream))
		s.mu.Lock()
		s.clock.hostWaits(s.clock.ready(stream))
		s.mu.Unlock()
		rep = reply{}
		s.flush(&rep)
		return rep
	case opStreamQuery:
		stream := p.u32()
		if !s.queryReady(s.streamSeq(stream), func() int64 { return s.clock.ready(stream) }) {
			return reply{code: ErrorNotReady}
		}
		// Done: the stream's launches' errors, as a synchronizing call
		// returns them (the H100: a faulted kernel's cudaStreamQuery
		// returns its error, testdata/engine/its).
		rep = reply{}
		s.flush(&rep)
		return rep
	case opStreamCreate:
		stream, flags := p.u32(), p.u32()
		s.mu.Lock()
		s.clock.nonBlocking[stream] = flags&1 != 0
		s.clock.stream[stream] = s.clock.ready(stream)
		s.mu.Unlock()
		return reply{}
	case opStreamWait:
		stream, ev := p.u32(), p.u32()
		s.mu.Lock()
		e := s.events[ev]
		s.mu.Unlock()
		if e == nil {
			return reply{} // an event never recorded: nothing to wait for
		}
		s.enqueue(stream, func() {
			s.mu.Lock()
			s.clock.wait(stream, e.ns)
			s.mu.Unlock()
		})
		return reply{}
	case opEventRecord:
		ev, stream := p.u32(), p.u32()
		if p.err != nil {
			return reply{}
		}
		e := &eventState{}
		s.mu.Lock()
		s.events[ev] = e
		s.mu.Unlock()
		e.seq = s.enqueue(stream, func() {
			s.mu.Lock()
			e.ns = s.clock.mark(stream)
			s.mu.Unlock()
		})
		return reply{code: s.stickyCode()}
	case opEventQuery:
		ev := p.u32()
		s.mu.Lock()
		e := s.events[ev]
		s.mu.Unlock()
		if e != nil && !s.queryReady(e.seq, func() int64 { return e.ns }) {
			return reply{code: ErrorNotReady}
		}
		return reply{code: s.stickyCode()}
	case opEventSync:
		ev := p.u32()
		s.mu.Lock()
		e := s.events[ev]
		s.mu.Unlock()
		if e != nil {
			s.waitFor(e.seq)
			s.mu.Lock()
			s.clock.hostWaits(e.ns)
			s.mu.Unlock()
		}
		rep = reply{}
		s.flush(&rep)
		return rep
	case opEventElapsed:
		a, b := p.u32(), p.u32()
		s.mu.Lock()
		defer s.mu.Unlock()
		ea, eb := s.events[a], s.events[b]
		switch {
		case ea == nil || eb == nil:
			return reply{code: ErrorInvalidResourceHandle}
		case s.done < ea.seq || s.done < eb.seq:
			return reply{code: ErrorNotReady}
		}
		return reply{code: s.sticky, data: putU64s(uint64(eb.ns - ea.ns))}
	case opHostFunc:
		stream, id := p.u32(), p.u32()
		if p.err != nil {
			return reply{}
		}
		if s.opt.Callbacks == nil || s.opt.CallbacksDone == nil {
			return reply{code: ErrorNotSupported, diag: []byte("warpsim runtime: no host-callback pipes\n")}
		}
		s.enqueueExternal(stream, func() { s.runHostFunc(id) })
		return reply{}
	case opMemInfo:
		free, total := s.win.memInfo()
		return reply{data: putU64s(free, total)}
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
		if int(dyn) > s.maxDynamicShared(int(kid), k) {
			// More than the function may be launched with (48 KB less its
			// static shared memory, unless it opted in to more): no block
			// fits, as the H100 answers (testdata/programs5/occupancy_api).
			return reply{data: putU32s(0)}
		}
		res := s.opt.Arch.Occupancy(arch.OccupancyInput{
			BlockSize: int(block), RegsPerThread: k.RegsPerThread(),
			StaticShared: k.StaticSharedBytes(), DynamicShared: int(dyn),
		})
		return reply{data: putU32s(uint32(res.BlocksPerSM))}
	case opReset:
		s.waitFor(s.issuedSeq())
		rep = reply{}
		rep.out = s.printf.take()
		s.mu.Lock()
		s.fault, s.sticky, s.pending = nil, Success, Success
		s.events = map[uint32]*eventState{}
		s.mu.Unlock()
		s.modules, s.kernels = nil, nil
		s.dynShared = map[int]int{}
		s.carveout = map[int]int32{}
		s.win.releaseAll()
		s.mallocs = map[uint64]bool{}
		s.ipcOpened = map[uint64]bool{}
		dev := s.newDevice()
		s.devMu.Lock()
		s.dev = dev
		s.devMu.Unlock()
		return rep
	case opExit:
		// Queued work finishes (its profile records count), but output a
		// kernel printed after the last synchronization is lost, as on a
		// GPU (the CUDA programming guide: the buffer is not flushed at
		// exit).
		s.waitFor(s.issuedSeq())
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
			if attr == 14 { // cudaFuncAttributeNonPortableClusterSizeAllowed
				s.setNonPortable(int(kid), val != 0)
			}
			if attr == 8 { // cudaFuncAttributeMaxDynamicSharedMemorySize
				if int(val) > s.opt.Arch.SharedPerBlockOptin-k.StaticSharedBytes() {
					return reply{code: ErrorInvalidValue}
				}
				s.dynShared[int(kid)] = int(val)
			}
			if attr == 9 { // cudaFuncAttributePreferredSharedMemoryCarveout
				// A percentage, or cudaSharedmemCarveoutDefault (-1).
				c := int32(val)
				if c < -1 || c > 100 {
					return reply{code: ErrorInvalidValue}
				}
				s.carveout[int(kid)] = c
			}
			return reply{}
		}
		a := s.opt.Arch
		maxDyn := s.maxDynamicShared(int(kid), k)
		carveout := int32(-1)
		if v, ok := s.carveout[int(kid)]; ok {
			carveout = v
		}
		maxThreads := a.MaxThreadsPerBlockFor(k.RegsPerThread())
		if b := k.BoundThreads(); b > 0 {
			maxThreads = min(maxThreads, b)
		}
		cd := kernelClusterDims(k)
		return reply{data: putU64s(uint64(k.StaticSharedBytes()), uint64(k.ConstBytes()), uint64(k.LocalBytes()), uint64(maxThreads),
			uint64(k.CompiledRegs()), uint64(a.ComputeCapability()), uint64(a.ComputeCapability()), uint64(maxDyn),
			uint64(cd.X), uint64(cd.Y), uint64(cd.Z), b2u64(s.isNonPortable(int(kid))), uint64(int64(carveout)))}
	}
	return reply{code: ErrorNotSupported, diag: fmt.Appendf(nil, "warpsim runtime: unknown operation %d (the program and warpsim are from different versions?)\n", req.op)}
}

// issuedSeq is the last operation queued on any stream.
func (s *Server) issuedSeq() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.issued
}

// hello checks the program's protocol version, maps the memory it shares
// and makes the device. A bad setting is the answer instead.
func (s *Server) hello(p *payloadReader) reply {
	v := p.u32()
	if v != protocolVersion {
		p.err = nil
		return reply{code: ErrorInsufficientDriver, diag: fmt.Appendf(nil,
			"warpsim: this program was built by a different version of warpsim (runtime protocol %d, this warpsim speaks %d); rebuild it with warpsim cc\n", v, protocolVersion)}
	}
	if e := s.opt.SettingsErr; e != nil {
		return reply{code: e.Code, diag: []byte(e.Msg + "\n")}
	}
	base, size, fds := p.u64(), p.u64(), p.u32()
	if p.err != nil {
		// A client without a window (the protocol tests): make one here.
		p.err = nil
		base, size, fds = 0x6000_0000_0000, 1<<44, 0
	}
	if s.win == nil {
		fd := -1
		if fds&1 != 0 && s.opt.Window != nil {
			fd = int(s.opt.Window.Fd())
		}
		w, err := newWindow(fd, base, size, uint64(s.opt.Arch.TotalGlobalMem))
		if err != nil {
			return reply{code: ErrorInitializationError, diag: fmt.Appendf(nil, "warpsim runtime: %v\n", err)}
		}
		s.win = w
		dev := s.newDevice()
		s.devMu.Lock()
		s.dev = dev
		s.devMu.Unlock()
	}
	return reply{data: encodeProps(s.opt.Arch)}
}

// memoryWritten tells launch replay (warpsim.Options.Replay) that device
// memory may have changed other than by a launch: the next launch's memory
// is hashed again rather than taken from the last launch's record.
func (s *Server) memoryWritten() {
	if d, ok := s.dev.(interface{ MemoryWritten() }); ok {
		d.MemoryWritten()
	}
}

// runHostFunc has the program's callback thread run host function id and
// waits until it has returned (stream order: the stream's next work waits).
func (s *Server) runHostFunc(id uint32) {
	if _, err := s.opt.Callbacks.Write(putU32s(id)); err != nil {
		return
	}
	var b [4]byte
	io.ReadFull(s.opt.CallbacksDone, b[:])
}

// copy runs a copy between two allocations of the window: at once when it
// is the program's cudaMemcpy (which returns when it is done), queued for
// cudaMemcpyAsync.
func (s *Server) copy(p *payloadReader) reply {
	stream, async := p.u32(), p.u32()
	dst, src, n := p.u64(), p.u64(), p.u64()
	if p.err != nil {
		return reply{}
	}
	if c := s.stickyCode(); c != Success {
		return reply{code: c}
	}
	dr, okd := s.win.live(dst, n)
	sr, oks := s.win.live(src, n)
	if !okd || !oks {
		api := ""
		if async != 0 {
			api = "cudaMemcpyAsync"
		}
		return reply{api: api, code: ErrorInvalidValue, diag: fmt.Appendf(nil, "warpsim runtime: copy of %d bytes from %#x to %#x: not inside allocations\n", n, src, dst)}
	}
	dir := deviceToDevice
	switch {
	case sr.kind == kindHost && dr.kind == kindHost:
		dir = hostToHost
	case sr.kind == kindHost:
		dir = hostToDevice
	case dr.kind == kindHost:
		dir = deviceToHost
	}
	seq := s.enqueue(stream, func() {
		if s.broken() {
			return
		}
		d, _ := s.win.span(dst, n)
		sb, _ := s.win.span(src, n)
		s.win.populate(dst, n)
		s.win.populate(src, n)
		copy(d, sb)
		s.opt.Sanitize.hostWrote(dst, n)
		s.mu.Lock()
		s.clock.run(stream, dir.engine(), copyNanos(s.opt.Arch, dir, n, false))
		s.mu.Unlock()
	})
	if async != 0 {
		return reply{}
	}
	s.waitFor(seq)
	rep := reply{}
	s.flush(&rep)
	return rep
}

// memset fills an allocation's bytes, queued or at once as copy.
func (s *Server) memset(p *payloadReader) reply {
	stream, async := p.u32(), p.u32()
	addr, v, n := p.u64(), p.u64(), p.u64()
	if p.err != nil {
		return reply{}
	}
	if c := s.stickyCode(); c != Success {
		return reply{code: c}
	}
	if _, ok := s.win.live(addr, n); !ok {
		return reply{code: ErrorInvalidValue}
	}
	seq := s.enqueue(stream, func() {
		if s.broken() {
			return
		}
		b, _ := s.win.span(addr, n)
		s.win.populate(addr, n)
		for i := range b {
			b[i] = byte(v)
		}
		s.opt.Sanitize.hostWrote(addr, n)
		s.mu.Lock()
		s.clock.run(stream, engineCompute, memsetNanos(s.opt.Arch, n))
		s.mu.Unlock()
	})
	if async != 0 {
		return reply{}
	}
	s.waitFor(seq)
	rep := reply{}
	s.flush(&rep)
	return rep
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

// profTiming is t as the profile keeps it: without the block spans unless
// they were asked for (they can be many).
func (s *Server) profTiming(t *metrics.Timing) *metrics.Timing {
	if t == nil || s.opt.ProfileBlocks {
		return t
	}
	c := *t
	c.Blocks = nil
	return &c
}

// childRecords turns the grids launched from the device into profile
// records, folding those of one kernel, shape and counters into one record
// (Record.Count) and keeping first-run order. With the timing model (host,
// the host-launched grid's timing, not nil) StartNS is relative to the host
// grid's start on the simulated timeline; without it, relative to the
// first child's start, the grids taken one after another.
func childRecords(children []ChildGrid, host *metrics.Timing) []Record {
	var start int64
	type key struct {
		mangled  string
		cfg      LaunchConfig
		counters metrics.Counters
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
			r.NS += c.duration()
			r.MinNS = min(r.MinNS, c.duration())
			r.MaxNS = max(r.MaxNS, c.duration())
		} else {
			index[k] = len(recs)
			g, b := c.Config.Grid, c.Config.Block
			recs = append(recs, Record{
				Kernel: c.Kernel.DemangledName(), Mangled: c.Kernel.Name(),
				Grid: [3]uint32{g.X, g.Y, g.Z}, Block: [3]uint32{b.X, b.Y, b.Z}, Shared: c.Config.SharedBytes,
				Regs: c.Kernel.RegsPerThread(), StaticSh: c.Kernel.StaticSharedBytes(),
				StartNS: start, NS: c.duration(), Simulated: c.Nanos > 0, Counters: c.Counters, FromDevice: true,
				Timing: c.Timing,
			})
			if t := c.Timing; t != nil && host != nil && t.ClockHz > 0 && t.StartCycle >= host.StartCycle {
				recs[len(recs)-1].StartNS = int64(float64(t.StartCycle-host.StartCycle) * 1e9 / t.ClockHz)
			}
		}
		start += c.duration()
	}
	return recs
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
	GetLimit(limit uint32) (uint64, Error)
}

// limit answers cudaDeviceSetLimit and cudaDeviceGetLimit for the limits
// the simulator honours.
func (s *Server) limit(which uint32, set bool, v uint64) reply {
	if set {
		// A new limit applies to kernels launched after it: the queued
		// ones run under the old one first.
		s.waitFor(s.issuedSeq())
	}
	d, ok := under(s.dev).(limitDevice)
	if !ok {
		if set {
			return reply{}
		}
		return reply{data: putU64s(map[uint32]uint64{0: 1024, 2: 8 << 20}[which])}
	}
	if set {
		return reply{code: d.SetLimit(which, v)}
	}
	v, code := d.GetLimit(which)
	if code != Success {
		return reply{code: code}
	}
	return reply{data: putU64s(v)}
}
