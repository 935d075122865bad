// Stream order: the executor of queued work, waits, host functions, synchronizations and events, sticky errors.

package cudart

import (
	"fmt"
	"io"
)

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

// issuedSeq is the last operation queued on any stream.
func (s *Server) issuedSeq() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.issued
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

// streamOp answers the synchronizations, stream queries and waits and the
// events: the host's simulated time moves to the end of the work it waits
// for, and a synchronizing call returns the errors flush gives it.
func (s *Server) streamOp(op uint32, p *payloadReader) (rep reply) {
	switch op {
	case opSync:
		s.waitFor(s.issuedSeq())
		s.mu.Lock()
		s.clock.hostWaits(s.clock.ready(0))
		for id := range s.clock.stream {
			s.clock.hostWaits(s.clock.stream[id])
		}
		s.mu.Unlock()
		return s.flushed()
	case opStreamSync:
		stream := p.u32()
		s.waitFor(s.streamSeq(stream))
		s.mu.Lock()
		s.clock.hostWaits(s.clock.ready(stream))
		s.mu.Unlock()
		return s.flushed()
	case opStreamQuery:
		stream := p.u32()
		if !s.queryReady(s.streamSeq(stream), func() int64 { return s.clock.ready(stream) }) {
			return reply{code: ErrorNotReady}
		}
		// Done: the stream's launches' errors, as a synchronizing call
		// returns them (the H100: a faulted kernel's cudaStreamQuery
		// returns its error, testdata/engine/its).
		return s.flushed()
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
		return s.flushed()
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
	}
	panic(fmt.Sprintf("warpsim internal error: streamOp of operation %d", op))
}
