package cudart

import (
	"fmt"
	"os"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// CUDA IPC between processes (cuda/shim/warpsim_rt_ipc.c). On a GPU the
// processes of a machine share the device: one opens another's allocation
// and reads and writes the same bytes. Here each program has a simulated
// GPU of its own whose memory is one file (window.go), so a handle names
// that file — the exporting program's pid and descriptor, reachable as
// /proc/PID/fd/FD, and its inode, which tells a reused pid or descriptor
// from it — and the allocation's offset there. Opening it makes a fresh
// allocation of this window and maps the other file's pages over it, here
// (so copies and fills see them, and the simulator's bytes for the
// allocation, which are these pages, do too) and in the program, which
// maps them at the same address itself: kernels, copies and memsets in
// either process then see one set of bytes. An interprocess event is three
// words of the exporting program's memory, opened the same way: how many
// records were issued, the highest one completed (opIpcEventRecord raises
// it in stream order) and the simulated time it completed at (ipcEvent); a
// stream that waits on it waits, in stream order, until the records issued
// before the wait have completed, and its simulated time moves to theirs;
// a host that synchronizes with it, or queries it done, has its simulated
// time moved to theirs likewise (opIpcEventHostWait).

func (s *Server) ipcOp(op uint32, p *payloadReader) reply {
	switch op {
	case opIpcShare:
		s.win.mu.Lock()
		s.win.shared = true
		s.win.mu.Unlock()
		return reply{}
	case opIpcOpen:
		pid, fd, ino, off, size := p.u32(), p.u32(), p.u64(), p.u64(), p.u64()
		if p.err != nil {
			return reply{code: ErrorInvalidValue}
		}
		return s.ipcOpen(pid, fd, ino, off, size)
	case opIpcClose:
		addr := p.u64()
		if p.err != nil || !s.ipcOpened[addr] {
			return reply{code: ErrorInvalidValue}
		}
		// A kernel on any stream may still use the range.
		s.waitFor(s.issuedSeq())
		delete(s.ipcOpened, addr)
		if err := s.dev.Free(addr); err != nil {
			return reply{code: ErrorInvalidValue}
		}
		return reply{}
	case opIpcEventRecord, opIpcEventWait:
		stream, addr, ticket := p.u32(), p.u64(), p.u64()
		if p.err != nil {
			return reply{code: ErrorInvalidValue}
		}
		done, ok1 := s.win.word(addr)
		at, ok2 := s.win.word(addr + 8)
		if !ok1 || !ok2 {
			return reply{code: ErrorInvalidResourceHandle, diag: fmt.Appendf(nil, "warpsim runtime: interprocess event at %#x: not in device memory\n", addr)}
		}
		ev := ipcEvent{done: done, at: at}
		if op == opIpcEventRecord {
			s.enqueue(stream, func() { s.ipcRecord(stream, ev, ticket) })
		} else {
			s.enqueueExternal(stream, func() { s.ipcWait(stream, ev, ticket) })
		}
		return reply{code: s.stickyCode()}
	case opIpcEventHostWait:
		addr := p.u64()
		at, ok := s.win.word(addr + 8)
		if p.err != nil || !ok {
			return reply{code: ErrorInvalidResourceHandle}
		}
		s.ipcHostWait(at)
		return reply{}
	}
	return reply{code: ErrorInvalidValue}
}

// ipcOpen shows size bytes of process pid's device memory file (its
// descriptor fd, inode ino) from offset off at a fresh allocation.
func (s *Server) ipcOpen(pid, fd uint32, ino, off, size uint64) reply {
	const page = 4096
	f, err := openForeign(pid, fd, ino)
	if err != nil {
		// The exporting process has exited (the H200: an open of its
		// handle is cudaErrorInvalidResourceHandle,
		// testdata/runtimeapis/ipc_procs.h200.txt).
		return reply{code: ErrorInvalidResourceHandle, diag: fmt.Appendf(nil, "warpsim runtime: cudaIpcOpenMemHandle: %v\n", err)}
	}
	defer f.Close()
	if off%page != 0 || size == 0 {
		return reply{code: ErrorInvalidValue}
	}
	size = (size + page - 1) &^ (page - 1)
	addr, err := s.dev.Malloc(size)
	if err != nil {
		return reply{code: ErrorMemoryAllocation}
	}
	if err := s.win.attach(addr, int(f.Fd()), off, size); err != nil {
		s.dev.Free(addr)
		return reply{code: ErrorMapBufferObjectFailed, diag: fmt.Appendf(nil, "warpsim runtime: cudaIpcOpenMemHandle: %v\n", err)}
	}
	s.ipcOpened[addr] = true
	// Another process wrote these bytes: initialized, for initcheck.
	s.opt.Sanitize.hostWrote(addr, size)
	return reply{data: putU64s(addr)}
}

// openForeign opens process pid's descriptor fd, which must be the file
// of inode ino.
func openForeign(pid, fd uint32, ino uint64) (*os.File, error) {
	f, err := os.OpenFile(fmt.Sprintf("/proc/%d/fd/%d", pid, fd), os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("the exporting process's device memory: %w", err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil || st.Ino != ino {
		f.Close()
		return nil, fmt.Errorf("process %d's descriptor %d is not the exporting process's device memory (it has exited)", pid, fd)
	}
	return f, nil
}

// attach maps size bytes of file fd from offset off over the allocation
// at addr, which then shows them until it is released.
func (w *window) attach(addr uint64, fd int, off, size uint64) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	i := 0
	for i < len(w.regions) && w.regions[i].base != addr {
		i++
	}
	if i == len(w.regions) || w.regions[i].size < size {
		return fmt.Errorf("no allocation of %d bytes at %#x", size, addr)
	}
	at := addr - w.base
	if _, err := unix.MmapPtr(fd, int64(off), unsafe.Pointer(&w.mem[at]), uintptr(size),
		unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_FIXED); err != nil {
		return fmt.Errorf("mapping the exporting process's memory: %w", err)
	}
	w.regions[i].foreign = true
	w.shared = true
	return nil
}

// word is the 8-byte word at device address addr, inside an allocation.
func (w *window) word(addr uint64) (*uint64, bool) {
	if addr%8 != 0 {
		return nil, false
	}
	b, ok := w.span(addr, 8)
	if !ok {
		return nil, false
	}
	return (*uint64)(unsafe.Pointer(&b[0])), true
}

// ipcEvent is an interprocess event's state in device memory that another
// process may share (cuda/shim/warpsim_rt_ipc.c makes it): after the word
// of records issued, which only the programs touch, done, the highest
// record completed, and at, the latest simulated time (ns on the
// recording process's timeline) at which a record completed.
type ipcEvent struct{ done, at *uint64 }

// ipcRecord completes record ticket of ev on stream (queued in stream
// order): it reads the stream's time as an event's record does, then
// raises at to it and done to the ticket, in that order, so a process
// that sees the ticket done sees a time at least the record's.
func (s *Server) ipcRecord(stream uint32, ev ipcEvent, ticket uint64) {
	s.mu.Lock()
	ns := s.clock.mark(stream)
	s.mu.Unlock()
	raise(ev.at, uint64(max(ns, 0)))
	raise(ev.done, ticket)
}

// ipcWait holds stream until the records of ev up to ticket have
// completed, in whichever process made them, and then moves the stream's
// simulated time to the time ev's records completed when that is later:
// a wait never finishes before the record it waits for, on the simulated
// clock as on the host's (the two processes' timelines count from their
// own starts, as though they started together).
func (s *Server) ipcWait(stream uint32, ev ipcEvent, ticket uint64) {
	if !s.awaitWord(ev.done, ticket) {
		return
	}
	at := int64(atomic.LoadUint64(ev.at))
	s.mu.Lock()
	s.clock.wait(stream, at)
	s.mu.Unlock()
}

// ipcHostWait says the host has seen an interprocess event's records
// complete, whose time is in the word at: as for an event of its own
// (opEventSync), it issues nothing before.
func (s *Server) ipcHostWait(at *uint64) {
	s.mu.Lock()
	s.clock.hostWaits(int64(atomic.LoadUint64(at)))
	s.mu.Unlock()
}

// raise sets *word to ticket unless it holds a later one already.
func raise(word *uint64, ticket uint64) {
	for {
		v := atomic.LoadUint64(word)
		if v >= ticket || atomic.CompareAndSwapUint64(word, v, ticket) {
			return
		}
	}
}

// awaitWord holds the executor until *word reaches ticket (another
// process's stream completes the record) and reports whether it did. It
// gives up when the program has gone (its queued work is dropped then
// anyway).
func (s *Server) awaitWord(word *uint64, ticket uint64) bool {
	pause := 20 * time.Microsecond
	for atomic.LoadUint64(word) < ticket {
		if s.programLeft.Load() {
			return false
		}
		s.mu.Lock()
		gone := s.abandoned
		s.mu.Unlock()
		if gone {
			return false
		}
		time.Sleep(pause)
		pause = min(2*pause, 2*time.Millisecond)
	}
	return true
}
