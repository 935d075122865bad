package sanitize

import (
	"fmt"
	"strconv"

	"github.com/warpsim/warpsim/internal/engine"
)

// shadow holds one bit per byte of an allocation: set once something wrote
// the byte (a host copy or memset, a kernel store or atomic).
type shadow struct {
	size uint64
	bits []uint64
}

func (sh *shadow) mark(off, n uint64) {
	end := min(off+n, sh.size)
	for i := off; i < end; i++ {
		sh.bits[i>>6] |= 1 << (i & 63)
	}
}

// firstUnset returns whether some byte of [off, off+n) was never written.
func (sh *shadow) unset(off, n uint64) bool {
	end := min(off+n, sh.size)
	for i := off; i < end; i++ {
		if sh.bits[i>>6]>>(i&63)&1 == 0 {
			return true
		}
	}
	return false
}

// initcheck tracks the allocations the host made (cudaMalloc): module
// variables and anything else are initialized by definition.
type initcheck struct {
	shadows map[uint64]*shadow // by allocation base
	last    *shadow
	lastAt  uint64
}

// HostAlloc records a new allocation, none of whose bytes is initialized.
func (s *Sanitizer) HostAlloc(addr, size uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.opt.Tool != Initcheck {
		return
	}
	s.init.shadows[addr] = &shadow{size: size, bits: make([]uint64, (size+63)/64)}
	s.init.last = nil
}

// HostFree forgets an allocation; with --track-unused-memory, its bytes
// nothing wrote are reported first.
func (s *Sanitizer) HostFree(addr uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sh := s.init.shadows[addr]; sh != nil && s.opt.TrackUnused {
		s.unused(addr, sh)
	}
	delete(s.init.shadows, addr)
	s.init.last = nil
}

// HostWrite records that the host wrote n bytes at addr (a copy or memset)
// into the allocation at base.
func (s *Sanitizer) HostWrite(base, addr, n uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sh := s.init.shadows[base]; sh != nil && addr >= base {
		sh.mark(addr-base, n)
	}
}

func (ic *initcheck) find(mem *engine.Memory, addr, n uint64) (*shadow, uint64) {
	a, ok := mem.Find(addr, n)
	if !ok {
		return nil, 0
	}
	if ic.last != nil && ic.lastAt == a.Base {
		return ic.last, a.Base
	}
	sh := ic.shadows[a.Base]
	ic.last, ic.lastAt = sh, a.Base
	return sh, a.Base
}

// initcheck reports loads of global bytes nothing wrote and marks what
// stores and atomics write. It never stops the kernel.
func (s *Sanitizer) initcheck(site *engine.CheckSite, a *engine.CheckAccess) {
	if a.Bounds {
		return // where an asynchronous copy will write: its bytes land later
	}
	n := uint64(a.Size)
	for m := site.Exec; m != 0; m &= m - 1 {
		l := trailing(m)
		if a.Space[l] != engine.SpaceGlobal {
			continue
		}
		addr := a.Addr[l]
		sh, base := s.init.find(site.Mem, addr, n)
		if sh == nil {
			continue
		}
		if a.Op == engine.CheckLoad && sh.unset(addr-base, n) {
			s.report(append([]string{
				fmt.Sprintf("Uninitialized __global__ memory read of size %d bytes", n),
				"    " + where(site),
				"    " + byThread(site, l),
				fmt.Sprintf("    Address %#x", addr)}, siteFrames(site)...)...)
		}
		if a.Op != engine.CheckLoad {
			sh.mark(addr-base, n)
		}
	}
}

// unused reports the bytes of the allocation at base that nothing wrote,
// in the H100's words (testdata/sanitize/probe2/recorded/unused_memory.*,
// probe3/recorded/unused_gaps.*): one range, "at offset"; several, from
// the first to the last unwritten byte, "between offsets … (inclusive)",
// with the count of unwritten bytes; none written, "Not written any
// memory."; then the share unused, to 6 significant digits.
func (s *Sanitizer) unused(base uint64, sh *shadow) {
	var n, first, last uint64
	runs := 0
	prevSet := true
	for i := uint64(0); i < sh.size; i++ {
		set := sh.bits[i>>6]>>(i&63)&1 != 0
		if !set {
			if n == 0 {
				first = i
			}
			if prevSet {
				runs++
			}
			n++
			last = i
		}
		prevSet = set
	}
	if n == 0 {
		return
	}
	var what string
	switch {
	case n == sh.size:
		what = "Not written any memory."
	case runs == 1:
		what = fmt.Sprintf("Not written %d bytes at offset %#x (%#x)", n, first, base+first)
	default:
		what = fmt.Sprintf("Not written %d bytes between offsets %#x (%#x) and %#x (%#x) (inclusive)", n, first, base+first, last, base+last)
	}
	pct := strconv.FormatFloat(100*float64(n)/float64(sh.size), 'g', 6, 64)
	s.report(fmt.Sprintf(" Unused memory in allocation %#x of size %s bytes", base, commas(sh.size)),
		"    "+what, "    "+pct+"% of allocation were unused.")
}
