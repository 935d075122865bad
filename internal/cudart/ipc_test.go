package cudart

import (
	"os"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// TestIPCAttach: an allocation of one window that attaches another
// window's memory file (another process's device memory, opened through
// /proc/self/fd here) shows that window's bytes, and writes through either
// are seen by the other; once released it shows its own file's (zero)
// pages again while the exporter's bytes stay; a descriptor whose inode is
// not the exporter's is refused, as after the exporter has exited; the
// window says it is shared (launch replay then rehashes memory).
func TestIPCAttach(t *testing.T) {
	const base, size, page = 0x7000_0000_0000, 1 << 30, 4096
	exp, err := newWindow(-1, base, size, size)
	if err != nil {
		t.Fatal(err)
	}
	imp, err := newWindow(-1, base, size, size)
	if err != nil {
		t.Fatal(err)
	}
	src, err := exp.Bytes(base+4*page, 2*page)
	if err != nil {
		t.Fatal(err)
	}
	copy(src[page:], "exported")
	var st unix.Stat_t
	if err := unix.Fstat(exp.fd, &st); err != nil {
		t.Fatal(err)
	}
	if _, err := openForeign(uint32(os.Getpid()), uint32(imp.fd), st.Ino); err == nil {
		t.Error("a descriptor of another file was accepted as the exporter's")
	}
	f, err := openForeign(uint32(os.Getpid()), uint32(exp.fd), st.Ino)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	at := uint64(base + 64*page)
	dst, err := imp.Bytes(at, 2*page)
	if err != nil {
		t.Fatal(err)
	}
	if imp.hostMapped() {
		t.Fatal("a window of device memory only says it is host-mapped")
	}
	if err := imp.attach(at, int(f.Fd()), 4*page, 2*page); err != nil {
		t.Fatal(err)
	}
	if got := string(dst[page : page+8]); got != "exported" {
		t.Errorf("the attached allocation reads %q, want the exporter's %q", got, "exported")
	}
	copy(dst, "imported")
	if got := string(src[:8]); got != "imported" {
		t.Errorf("the exporter reads %q after the importer wrote, want %q", got, "imported")
	}
	if !imp.hostMapped() {
		t.Error("a window showing another process's memory does not say it is shared")
	}
	imp.Release(at, 2*page)
	if dst[page] != 0 {
		t.Errorf("the released range still shows the exporter's bytes (%q)", dst[page:page+8])
	}
	if got := string(src[page : page+8]); got != "exported" {
		t.Errorf("releasing the importer's range changed the exporter's bytes to %q", got)
	}
}

// TestIPCEventWord: a stream's wait (awaitWord) returns once another
// process's record (raise, here from other goroutines, in any order)
// reaches its ticket, and a record never lowers the word.
func TestIPCEventWord(t *testing.T) {
	s := &Server{}
	var word uint64
	var wg sync.WaitGroup
	for _, ticket := range []uint64{3, 1, 2} {
		wg.Add(1)
		go func() { defer wg.Done(); raise(&word, ticket) }()
	}
	s.awaitWord(&word, 3)
	wg.Wait()
	raise(&word, 2)
	if word != 3 {
		t.Errorf("word %d after records 1 to 3 and a late 2, want 3", word)
	}
}

// TestIPCHostWaitNeverBeforeRecord: a host that synchronized with another
// process's interprocess event issues its next launch no earlier than the
// record (the recorder's time), and a host already later stays where it is.
func TestIPCHostWaitNeverBeforeRecord(t *testing.T) {
	var done, at uint64
	ev := ipcEvent{done: &done, at: &at}
	producer := &Server{clock: newTimeline(1)}
	producer.clock.run(1, engineH2D, 5000)
	producer.ipcRecord(1, ev, 1)
	waiter := &Server{clock: newTimeline(1)}
	waiter.ipcHostWait(ev.at)
	if got := waiter.clock.issue(); got != 5000 {
		t.Errorf("the host issues a launch at %d ns after its wait, want the record's 5000", got)
	}
	later := &Server{clock: newTimeline(1)}
	later.clock.hostWaits(9000)
	later.ipcHostWait(ev.at)
	if got := later.clock.issue(); got != 9000 {
		t.Errorf("a host at 9000 ns waited on a record at 5000 and issues at %d, want 9000", got)
	}
}

// TestIPCWaitNeverBeforeRecord: a stream's wait on another process's
// interprocess event finishes, on its simulated clock, no earlier than the
// record it waits for (the recorder's time, ipcEvent.at), and never moves
// a stream that is later already back; with records from two processes
// the wait takes the latest completed. Each Server is one process's
// runtime; the words stand for the event's page of device memory.
func TestIPCWaitNeverBeforeRecord(t *testing.T) {
	var done, at uint64
	ev := ipcEvent{done: &done, at: &at}
	producer := &Server{clock: newTimeline(1)}
	producer.clock.run(1, engineH2D, 5000) // a copy of 5 µs, then the record
	waiter := &Server{clock: newTimeline(1)}
	released := make(chan struct{})
	go func() { waiter.ipcWait(3, ev, 1); close(released) }()
	producer.ipcRecord(1, ev, 1)
	<-released
	if got := waiter.clock.ready(3); got != 5000 {
		t.Errorf("the waiting stream is at %d ns after the wait, want the record's 5000", got)
	}
	later := &Server{clock: newTimeline(1)}
	later.clock.run(2, engineH2D, 9000)
	later.ipcWait(2, ev, 1)
	if got := later.clock.ready(2); got != 9000 {
		t.Errorf("a stream at 9000 ns waited on a record at 5000 and is at %d, want 9000", got)
	}
	// A second process records ticket 2 at 7000 ns, then the producer's
	// third record completes at 6000 ns on its own clock.
	other := &Server{clock: newTimeline(1)}
	other.clock.run(1, engineH2D, 7000)
	other.ipcRecord(1, ev, 2)
	producer.clock.run(1, engineH2D, 1000)
	producer.ipcRecord(1, ev, 3)
	last := &Server{clock: newTimeline(1)}
	last.ipcWait(1, ev, 3)
	if got := last.clock.ready(1); got != 7000 {
		t.Errorf("after records at 5000, 7000 and 6000 ns a wait for all three ends at %d, want 7000", got)
	}
}
