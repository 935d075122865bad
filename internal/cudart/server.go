// The Server: its options and state, and the request loop; the server_*.go files hold what the requests do.

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
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
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
