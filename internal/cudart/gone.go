package cudart

import (
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// programGone is the reason a launch stops when the program that started
// the simulator is gone (killed, or exited without its goodbye).
const programGone = "the program exited (its request pipe closed)"

// watchProgram stops the work of a program that is gone, so the simulator
// dies with its program instead of running a kernel on for nobody: it
// watches the program's end of the request pipe (POLLHUP once every writer
// closed it, as when the program is killed) and this process's parent
// (the program; another parent means it died and this process was
// reparented). Either marks the server abandoned, which drops the queued
// work, and interrupts the launch running now. After the program's
// orderly exit request (exiting) it does nothing. The returned stop ends
// the watch.
func (s *Server) watchProgram(f *os.File, exiting *atomic.Bool) (stop func()) {
	raw, err := f.SyscallConn()
	if err != nil {
		return func() {}
	}
	fd := -1
	raw.Control(func(p uintptr) { fd = int(p) })
	if fd < 0 {
		return func() {}
	}
	parent := os.Getppid()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			fds := []unix.PollFd{{Fd: int32(fd), Events: 0}}
			n, err := unix.Poll(fds, 200)
			hup := err == nil && n > 0 && fds[0].Revents&(unix.POLLHUP|unix.POLLERR|unix.POLLNVAL) != 0
			if !hup && os.Getppid() == parent {
				continue
			}
			s.programLeft.Store(true)
			if !exiting.Load() {
				s.abandon()
			}
			return
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

// abandon drops the program's queued work and stops the launch running
// now: the program is gone.
func (s *Server) abandon() {
	s.mu.Lock()
	s.abandoned = true
	s.cond.Broadcast()
	s.mu.Unlock()
	// A Ctrl-C reaches the program and this process together; the
	// program's death must not pre-empt the interrupt's own report.
	time.Sleep(signalGrace)
	s.Interrupt(programGone)
}

// signalGrace is how long abandon leaves a signal that also reached this
// process to stop the launch first.
const signalGrace = 150 * time.Millisecond

// ProgramSignalGrace is how long InterruptIfProgramGoes waits for the
// program to die of a signal that reached it too.
const ProgramSignalGrace = time.Second

// InterruptIfProgramGoes is what a signal that reached the program and this
// process alike (Ctrl-C reaches the process group) does to the launch
// running now: if the program dies of it within grace (its request pipe
// closes, or this process is reparented), the launch stops and its report
// says, for reason, where its warps were; if the program lives on, its own
// handler took the signal, and the simulator goes on, as a GPU goes on with
// a kernel whose program caught SIGINT. It reports whether it stopped the
// launch.
func (s *Server) InterruptIfProgramGoes(reason string, grace time.Duration) bool {
	for end := time.Now().Add(grace); ; time.Sleep(10 * time.Millisecond) {
		if s.programLeft.Load() {
			if !s.Interrupt(reason) {
				return false
			}
			s.signalStopped.Store(true)
			return true
		}
		if time.Now().After(end) {
			return false
		}
	}
}

// EnvReportLock names the file the simulator holds a lock on while it
// lives (HoldReportLock); `warpsim prof` and `warpsim sanitize` set it.
const EnvReportLock = "WARPSIM_REPORT_LOCK"

// HoldReportLock takes an exclusive lock on path+".lock" for as long as
// this process lives (the lock goes with the process, however it ends):
// `warpsim sanitize` and `warpsim prof` wait for it after their program
// ends (WaitReportLock), so a simulator still writing the report of a
// program that died of a signal is waited for instead of finding its
// directory gone.
func HoldReportLock(path string) {
	if path == "" {
		return
	}
	f, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return
	}
	if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil {
		f.Close()
		return
	}
	heldLocks = append(heldLocks, f) // kept open: the lock lasts
}

var heldLocks []*os.File

// WaitReportLock waits until no simulator holds path+".lock" (see
// HoldReportLock), at most limit; at once when there is none.
func WaitReportLock(path string, limit time.Duration) {
	f, err := os.OpenFile(path+".lock", os.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer f.Close()
	for end := time.Now().Add(limit); ; time.Sleep(20 * time.Millisecond) {
		if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil || time.Now().After(end) {
			return
		}
	}
}
