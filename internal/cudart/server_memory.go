// Copies and memsets on the shared memory window, in stream order.

package cudart

import "fmt"

// memoryWritten tells launch replay (warpsim.Options.Replay) that device
// memory may have changed other than by a launch: the next launch's memory
// is hashed again rather than taken from the last launch's record.
func (s *Server) memoryWritten() {
	if d, ok := s.dev.(interface{ MemoryWritten() }); ok {
		d.MemoryWritten()
	}
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
	return s.settle(seq, async != 0)
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
	return s.settle(seq, async != 0)
}

// settle answers a copy or memset queued as operation seq: at once for the
// Async call; for the synchronous one when the work is done, with the
// errors a synchronizing call returns (flush).
func (s *Server) settle(seq uint64, async bool) reply {
	if async {
		return reply{}
	}
	s.waitFor(seq)
	return s.flushed()
}

// flushed is a synchronizing call's reply: the errors flush gives it.
func (s *Server) flushed() reply {
	var rep reply
	s.flush(&rep)
	return rep
}
