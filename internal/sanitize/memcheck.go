package sanitize

import (
	"fmt"

	"github.com/warpsim/warpsim/internal/engine"
	"github.com/warpsim/warpsim/internal/ir"
)

// memcheck checks every lane's access against the exact allocation (global),
// the block's shared memory, and the thread's live stack frames (local),
// and its natural alignment. It reports every faulting lane, and those
// lanes stop there (a.Stop) while the kernel goes on, as compute-sanitizer
// does: on the H100 each thread stopped at its first invalid access and
// every other running thread went on to its own (96 threads, 96 reports;
// testdata/hostile/memcheck_h100.txt, sanitize_continue). It reports
// false when some lane was stopped.
func (s *Sanitizer) memcheck(site *engine.CheckSite, a *engine.CheckAccess) bool {
	ok := true
	n := uint64(a.Size)
	for m := site.Exec; m != 0; m &= m - 1 {
		l := trailing(m)
		sp, addr := a.Space[l], a.Addr[l]
		var where []string
		switch sp {
		case engine.SpaceGlobal:
			where = s.checkGlobal(site, addr, n)
		case engine.SpaceShared:
			if addr%n != 0 {
				where = []string{fmt.Sprintf("Access to %#x is misaligned", addr+s.opt.SharedBase)}
			} else if addr+n > uint64(site.SharedBytes) || addr+n < addr {
				where = []string{fmt.Sprintf("Access to %#x is out of bounds", addr+s.opt.SharedBase)}
			}
		case engine.SpaceRemoteShared:
			// another block of the cluster (mapa, map_shared_rank), in
			// the H100's words (testdata/sanitize/probe5, dsmem_oob)
			rank, off := engine.RemoteShared(addr)
			if off%n != 0 {
				where = []string{fmt.Sprintf("Access to %#x in CTA %d is misaligned", off+s.opt.SharedBase, rank)}
			} else if off+n > uint64(site.SharedBytes) || off+n < off {
				where = []string{fmt.Sprintf("Access to %#x in CTA %d is out of bounds", off+s.opt.SharedBase, rank)}
			}
		case engine.SpaceLocal:
			// the thread's stack, which grows down from StackTop: on the
			// H100 a write past the kernel's frame (past the top) was
			// reported (probe5/recursive_stack), one below the innermost
			// frame, inside the stack, was not (probe6/local_below). The
			// parameter scratch is the GPU's registers: not checked.
			switch {
			case addr >= uint64(site.Scratch):
			case addr%n != 0:
				where = []string{fmt.Sprintf("Access to %#x is misaligned", addr)}
			case addr < uint64(site.StackLow) || addr+n > uint64(site.StackTop) || addr+n < addr:
				where = []string{fmt.Sprintf("Access to %#x is out of bounds", addr)}
			case s.opt.CheckLocal:
				where = outsideLocals(site, addr, n)
			}
		}
		if where == nil {
			continue
		}
		ok = false
		a.Stop |= 1 << l
		lines := append([]string{
			fmt.Sprintf("Invalid %s %s of size %d bytes", spaceName(sp), opWord(a.Op), n),
			"    " + whereLoc(site),
			"    " + byThread(site, l),
		}, indent(where)...)
		s.report(append(lines, siteFrames(site)...)...)
	}
	return ok
}

// whereLoc is `at …` for memcheck and initcheck.
func whereLoc(site *engine.CheckSite) string { return where(site) }

func indent(lines []string) []string {
	for i := range lines {
		lines[i] = "    " + lines[i]
	}
	return lines
}

// checkGlobal describes what is wrong with a global access, or returns nil.
func (s *Sanitizer) checkGlobal(site *engine.CheckSite, addr, n uint64) []string {
	mem := site.Mem
	if addr%n != 0 {
		out := []string{fmt.Sprintf("Access to %#x is misaligned", addr)}
		if a := mem.Nearest(addr); a != nil {
			out = append(out, relative(addr, a))
		}
		return out
	}
	if _, ok := mem.Find(addr, n); ok {
		return nil
	}
	if addr >= deviceHeapLow && addr < engine.GlobalBase-engine.OverrunGuard {
		// Device malloc's blocks live here, apart from the allocations
		// Find sees. (The last GiB below the first allocation is an
		// underrun of it.) Where the memory can say which blocks are live,
		// an access outside them is reported as compute-sanitizer does
		// (device_heap.cu); otherwise the engine's own check faults.
		if h, ok := any(mem).(heapMemory); ok && !h.HeapHas(addr, n) {
			return []string{fmt.Sprintf("Access to %#x is out of bounds", addr), "and is located in the device heap"}
		}
		return nil
	}
	out := []string{fmt.Sprintf("Access to %#x is out of bounds", addr)}
	if f, ok := mem.FreedAt(addr); ok {
		by := ""
		if f.By != "" {
			by = " by " + f.By
		}
		return append(out, fmt.Sprintf("and is %d bytes inside an allocation at %#x of size %s bytes that was freed%s",
			addr-f.Base, f.Base, commas(f.Size), by))
	}
	if a := mem.Nearest(addr); a != nil {
		out = append(out, relative(addr, a))
	}
	return out
}

// relative places addr against allocation a, in compute-sanitizer's words
// (distances with thousands separators: "is 3,097 bytes after",
// testdata/hostile/memcheck_h100.txt).
func relative(addr uint64, a *engine.Alloc) string {
	size := commas(a.Size)
	switch {
	case addr < a.Base:
		return fmt.Sprintf("and is %s bytes before the nearest allocation at %#x of size %s bytes", commas(a.Base-addr), a.Base, size)
	case addr >= a.End():
		return fmt.Sprintf("and is %s bytes after the nearest allocation at %#x of size %s bytes", commas(addr-a.End()+1), a.Base, size)
	}
	return fmt.Sprintf("and is inside the nearest allocation at %#x of size %s bytes", a.Base, size)
}

// heapMemory is a memory with a device heap (device-side malloc): HeapHas
// reports whether [addr, addr+n) lies inside one live block.
type heapMemory interface {
	HeapHas(addr, n uint64) bool
}

// deviceHeapLow is where the engine's device heap (device-side malloc)
// begins: its window ends where cudaMalloc's allocations begin.
const deviceHeapLow = 0x0000_7e00_0000_0000

func trailing(m uint32) int {
	n := 0
	for m&1 == 0 {
		m >>= 1
		n++
	}
	return n
}

// outsideLocals is --check-local: an access inside a live call frame must
// lie within one of that frame's .local arrays, not in its padding or in
// what its call saved above it (the return address and saved registers, on
// the GPU). Frames grow down, each with its arrays at its top, so a write
// past a callee's last array lands in what its call saved: it is reported
// against the nearest array below it (beyond/callee_overflow). Accesses
// that name a variable directly (st.param [param0]: always inside it) pass.
func outsideLocals(site *engine.CheckSite, addr, n uint64) []string {
	if site.Inst.A[0] < 0 {
		return nil
	}
	in := false
	for _, f := range site.Frames {
		base := uint64(f.Base)
		if addr < base || addr >= uint64(f.Top) {
			continue
		}
		in = true
		for _, v := range f.Func.Locals {
			if lo := base + uint64(v.Offset); addr >= lo && addr+n <= lo+uint64(v.Size) {
				return nil
			}
		}
	}
	if !in {
		return nil
	}
	out := []string{fmt.Sprintf("Access to %#x is out of bounds", addr)}
	var near *ir.Param
	var nearFn *ir.Func
	var nearEnd uint64
	for _, f := range site.Frames {
		for i, v := range f.Func.Locals {
			if end := uint64(f.Base) + uint64(v.Offset+v.Size); end <= addr && (near == nil || end > nearEnd) {
				near, nearFn, nearEnd = &f.Func.Locals[i], f.Func, end
			}
		}
	}
	if near != nil {
		out = append(out, fmt.Sprintf("and is %d bytes after the local array %s of %s (%s bytes)", addr-nearEnd+1, near.Name, Signature(nearFn.Name), commas(uint64(near.Size))))
	}
	return out
}

// HeapFree implements engine.HeapChecker: memcheck reports a device-side
// free() of a block freed already or of a pointer outside the device heap
// (a cudaMalloc'd one, say) as the H100 does, and stops the kernel
// (testdata/sanitize/probe2: heap_double_free.cu, heap_free_global.cu).
// The other tools leave it to the engine, which faults the kernel.
func (s *Sanitizer) HeapFree(site *engine.CheckSite, lane int, addr uint64, double bool) bool {
	if s.opt.Tool != Memcheck {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	msg := "Malloc/Free Error encountered : Invalid pointer to device-side free"
	if double {
		msg = "Malloc/Free Error encountered : Device-side double free"
	}
	s.report(msg, "    "+where(site), "    "+byThread(site, lane), fmt.Sprintf("    Address %#x", addr))
	return s.stop(false)
}
