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
