// The crew: the threads a parallel grid's quanta are shared over (overlap),
// started at the grid's first parallel quantum and kept until the grid
// ends, each quantum handed to them through counters instead of a
// goroutine started for each thread every quantum.

package timing

import (
	"cmp"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// spinNS is how long a crew thread with nothing to do (the quantum not
// handed out yet, the replay's chain not done, the other threads not done
// with the quantum) polls its counter before it sleeps: on a machine with a
// core for each thread the next quantum usually comes sooner, and a thread
// that polls takes it up without a system call or the wake-up of a
// sleeping thread. It orders host work only.
const spinNS = 200_000

// machineHasRoom tells whether the machine's load (Linux's one-minute load
// average: threads running or waiting for a core) leaves a core for each
// of them, with one thread of slack: where it does not, a polling thread
// spins on a core that another thread, often the one it waits for, would
// use, and on a loaded 2-core machine the crew's polling took most of a
// program's CPU (PolyBench's adi under warpsim prof at load 30: 11.8
// CPU-s, 3.2 with no polling, the same output and trace). Read at most
// once a second (a grid starts a crew: the nested lesson launches 44,000);
// true where the load cannot be read (the rule before: cores and
// GOMAXPROCS only). It orders host work only.
func machineHasRoom() bool {
	now := hostClock()
	if at := loadCheckedAt.Load(); at != 0 && now-at < 1e9 {
		return roomCached.Load()
	}
	room := true
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if load, ok := parseLoadAvg(string(b)); ok {
			room = loadLeavesRoom(load, runtime.NumCPU())
		}
	}
	roomCached.Store(room)
	loadCheckedAt.Store(max(now, 1))
	return room
}

var (
	loadCheckedAt atomic.Int64 // hostClock of the last reading of the load, 0: none yet
	roomCached    atomic.Bool
)

// parseLoadAvg returns the one-minute load average of /proc/loadavg's
// text ("0.52 0.58 0.59 2/345 12345").
func parseLoadAvg(s string) (float64, bool) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return 0, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil || v < 0 {
		return 0, false
	}
	return v, true
}

// loadLeavesRoom: a load of at most one thread more than the cores leaves
// a polling crew its cores (its own threads are part of the load).
func loadLeavesRoom(load float64, cpus int) bool {
	return load <= float64(cpus)+1
}

// gate is a counter that only grows, which threads wait on to reach a
// value: they poll it for spinNS (when spin) and then sleep on a condition
// variable, which add and set wake only when someone sleeps.
type gate struct {
	_        [64]byte
	v        atomic.Uint64
	_        [64]byte
	sleepers atomic.Int32
	mu       sync.Mutex
	cond     sync.Cond
}

// set makes the counter v (no less than it was).
func (g *gate) set(v uint64) {
	g.v.Store(v)
	g.wake()
}

// add adds d to the counter and returns the sum.
func (g *gate) add(d uint64) uint64 {
	v := g.v.Add(d)
	g.wake()
	return v
}

// wake wakes the threads sleeping on g. (A sleeper counts itself before
// it reads the counter, and the counter is written before the sleepers
// are read: one of the two sees the other's write.)
func (g *gate) wake() {
	if g.sleepers.Load() > 0 {
		g.mu.Lock()
		g.cond.Broadcast()
		g.mu.Unlock()
	}
}

// waitFor waits until the counter is at least v and returns it.
func (g *gate) waitFor(v uint64, spin bool) uint64 {
	if x := g.v.Load(); x >= v {
		return x
	}
	if spin {
		t0 := hostClock()
		for i := 1; ; i++ {
			if x := g.v.Load(); x >= v {
				return x
			}
			// (No runtime.Gosched here: it takes the scheduler's lock,
			// which fifteen polling threads would contend for; the
			// runtime preempts a polling goroutine when it must.)
			if i%256 == 0 && hostClock()-t0 > spinNS {
				break
			}
		}
	}
	g.mu.Lock()
	if g.cond.L == nil {
		g.cond.L = &g.mu
	}
	g.sleepers.Add(1)
	for g.v.Load() < v {
		g.cond.Wait()
	}
	g.sleepers.Add(-1)
	x := g.v.Load()
	g.mu.Unlock()
	return x
}

// cursor is a worker's place in its list of SMs for the quantum, on a
// cache line of its own (the other workers steal through it). As a list's
// cursor (take) it counts the SMs taken from the list's head, by its
// owner, in its low 32 bits and those taken from its tail, by the others,
// in its high 32; as the settling's, SMs taken one after another.
type cursor struct {
	_ [64]byte
	i atomic.Int64
	_ [56]byte
}

// take claims the next SM of a list of n: from its head for its owner,
// from its tail for another worker (steal); false when none is left.
func (c *cursor) take(n int, steal bool) (int, bool) {
	for {
		v := c.i.Load()
		h, t := int(uint32(v)), int(uint64(v)>>32)
		if h+t >= n {
			return 0, false
		}
		if steal {
			if c.i.CompareAndSwap(v, v+1<<32) {
				return n - 1 - t, true
			}
		} else if c.i.CompareAndSwap(v, v+1) {
			return h, true
		}
	}
}

// crew is a parallel grid's threads: worker 0 is the grid's goroutine
// (which also runs the replay's chain), workers 1 to n-1 goroutines that
// live until stopCrew. Quantum number e is handed out by raising epoch to e;
// each worker runs it (crewQuantum) and adds one to done; the grid's
// goroutine waits for done to reach (n-1)·e.
//
// The quantum's SMs are dealt out to the n workers by SM index, the same
// SMs to the same worker every quantum (an SM's state — register files,
// scoreboards, L1 tags, arenas — can stay in the caches of the core that
// ran it last, though the runtime pins no goroutine to a core), each list
// costliest first by the SM's last quantum's host time; a worker done with
// its list takes SMs from the others' tails (their cheapest left), so no
// thread waits while another has SMs left. The grid's goroutine runs its
// list after the replay's chain and its share of the settling, and the
// others take from its tail what that time leaves: an SM moves to another
// thread only to even the quantum's end out, not (as when the grid's
// goroutine had no list and only took) a tenth of the SMs every quantum,
// whose megabytes of state then moved between cores twice. Which thread
// runs an SM changes nothing it computes.
type crew struct {
	n     int
	spin  bool
	epoch gate
	done  gate
	// hand is the quantum's number once the replay's chain is done, and
	// arena the arena it left to settle (-1: none).
	hand  gate
	arena int
	lists [][]*smT
	curs  []cursor
	// settle hands out the SMs to settle (index in s.sms), settled counts
	// those settled (the last marks the replay done: runAhead).
	settle, settled cursor
	// f is the quantum's work on an SM (overlap's).
	f     func(sm *smT)
	quit  bool
	first any // the first panic of the quantum, raised again by overlap
	mu    sync.Mutex
}

// startCrew starts the grid's crew of s.workers threads.
func (s *gridState) startCrew() {
	n := s.workers
	c := &crew{n: n, lists: make([][]*smT, n), curs: make([]cursor, n)}
	// Polling makes sense only where each thread can have a core: no more
	// threads than the process may run at once or the machine has cores,
	// and a machine not already busy with more runnable threads than cores
	// (machineHasRoom).
	c.spin = n <= runtime.GOMAXPROCS(0) && n <= runtime.NumCPU() && machineHasRoom()
	s.crew = c
	for w := 1; w < n; w++ {
		go s.crewLoop(c, w)
	}
}

// stopCrew ends the grid's crew (it is waiting for a quantum).
func (s *gridState) stopCrew() {
	c := s.crew
	if c == nil {
		return
	}
	s.crew = nil
	c.quit = true
	c.epoch.set(c.epoch.v.Load() + 1)
}

// crewLoop is worker w's life: a quantum each time the epoch is raised.
func (s *gridState) crewLoop(c *crew, w int) {
	for e := uint64(1); ; e++ {
		c.epoch.waitFor(e, c.spin)
		if c.quit {
			return
		}
		s.crewQuantum(c, w)
		c.done.add(1)
	}
}

// crewQuantum is worker w's part of a quantum: SMs (its own, then the
// others'), then, once the replay's chain is done, SMs to settle.
func (s *gridState) crewQuantum(c *crew, w int) {
	s.crewRun(c, func() { s.crewSMs(c, w) })
	e := c.epoch.v.Load()
	c.hand.waitFor(e, c.spin)
	if i := c.arena; i >= 0 {
		s.crewRun(c, func() { s.crewSettle(c, i) })
	}
}

// crewRun runs work, keeping the quantum's first panic for overlap.
func (s *gridState) crewRun(c *crew, work func()) {
	defer func() {
		if r := recover(); r != nil {
			c.mu.Lock()
			if c.first == nil {
				c.first = fmt.Sprintf("%v (at %s)", r, workerPanicSite())
			}
			c.mu.Unlock()
		}
	}()
	work()
}

// crewSMs runs the quantum's SMs from worker w's list, costliest first,
// and then from the others' tails.
func (s *gridState) crewSMs(c *crew, w int) {
	for k := range c.n {
		v := (w + k) % c.n
		l := c.lists[v]
		for {
			i, ok := c.curs[v].take(len(l), k > 0)
			if !ok {
				break
			}
			sm := l[i]
			t0 := hostClock()
			c.f(sm)
			sm.hostNS = hostClock() - t0
		}
	}
}

// crewSettle settles the SMs' futures of arena i until none is left; the
// last one done marks the replay done (runAhead's condition).
func (s *gridState) crewSettle(c *crew, i int) {
	for {
		j := int(c.settle.i.Add(1)) - 1
		if j >= len(s.sms) {
			return
		}
		s.settleSM(s.sms[j], i)
		if c.settled.i.Add(1) == int64(len(s.sms)) {
			s.replayed.Store(true)
		}
	}
}

// crewOverlap is overlap on the crew: the quantum's SMs dealt out, the
// quantum handed out, the replay's chain and the settling here, then this
// worker's list of SMs and what is left of the others', and a wait for
// the others to finish.
func (s *gridState) crewOverlap(replay func() int, f func(sm *smT)) {
	if s.crew == nil {
		s.startCrew()
	}
	c := s.crew
	for w := range c.lists {
		c.lists[w] = c.lists[w][:0]
		c.curs[w].i.Store(0)
	}
	for _, sm := range s.active {
		w := sm.id % c.n
		c.lists[w] = append(c.lists[w], sm)
	}
	for _, l := range c.lists {
		slices.SortStableFunc(l, func(a, b *smT) int { return cmp.Compare(b.hostNS, a.hostNS) })
	}
	c.settle.i.Store(0)
	c.settled.i.Store(0)
	c.f = f
	c.first = nil
	e := c.epoch.v.Load() + 1
	c.epoch.set(e)
	s.crewRun(c, func() {
		c.arena = -1
		defer func() {
			// (A panic in the chain hands out no arena to settle.)
			if c.hand.v.Load() < e {
				c.hand.set(e)
			}
		}()
		i := replay()
		if i < 0 {
			s.replayed.Store(true)
		}
		c.arena = i
		c.hand.set(e)
	})
	if i := c.arena; i >= 0 {
		s.crewRun(c, func() { s.crewSettle(c, i) })
	}
	s.crewRun(c, func() { s.crewSMs(c, 0) })
	c.done.waitFor(uint64(c.n-1)*e, c.spin)
	if c.first != nil {
		panic(c.first)
	}
}
