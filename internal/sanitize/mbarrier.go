package sanitize

import (
	"fmt"

	"github.com/warpsim/warpsim/internal/engine"
)

// Mbarrier implements engine.MbarChecker: a warp's misuse of an mbarrier
// object, reported as compute-sanitizer reports it on the H100
// (testdata/sanitize/mbar). synccheck names each misusing thread —
// "Barrier error detected. Missing init." for an object no mbarrier.init
// made valid or one mbarrier.inval invalidated, "Barrier error detected.
// Barrier overflow." for an arrival of more than the phase's pending count
// — with the object's shared address, and stops the kernel. The misuses
// the GPU itself stops the kernel for (an arrival on a never-initialized
// object, an overflow) are a hardware exception to memcheck, "Unknown
// Error" for every thread of the warp; racecheck and initcheck report
// nothing but the kernel fails all the same.
func (s *Sanitizer) Mbarrier(site *engine.CheckSite, m *engine.CheckMbar) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch s.opt.Tool {
	case Synccheck:
		for b := m.Lanes; b != 0; b &= b - 1 {
			l := trailing(b)
			msg := "Barrier error detected. Missing init."
			if m.Kind[l] == engine.MbarOverflow {
				msg = "Barrier error detected. Barrier overflow."
			}
			s.report(append([]string{msg, "    " + where(site), "    " + byThread(site, l),
				fmt.Sprintf("    Barrier is located at shared address %#x", s.opt.SharedBase+m.Addr[l])}, siteFrames(site)...)...)
		}
		return s.stop(false)
	case Memcheck:
		if !m.Fatal {
			return true
		}
		for b := site.Live; b != 0; b &= b - 1 {
			s.report(append([]string{"Unknown Error", "    " + where(site), "    " + byThread(site, trailing(b))}, siteFrames(site)...)...)
		}
	}
	return s.stop(!m.Fatal)
}
