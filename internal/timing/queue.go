// Bandwidth: a server of so many bytes per cycle (queue, the L1's data
// path) and a bucketed one for the device-wide L2 and DRAM, whose requests
// arrive out of time order from the SMs' quanta (bucketQueue).

package timing

// queue is a bandwidth-limited server: requests occupy it for their bytes
// at its rate, in arrival order.
type queue struct {
	bytesPerCycle float64
	free          float64 // cycle the server is next free
}

// take serves n bytes arriving at cycle t and returns the cycle they have
// passed through.
func (q *queue) take(t uint64, n float64) uint64 {
	start := float64(t)
	if q.free > start {
		start = q.free
	}
	q.free = start + n/q.bytesPerCycle
	return uint64(q.free + 0.999)
}

// bucketQueue is a device-wide bandwidth-limited server that SMs reach out
// of time order within a quantum: its capacity is accounted per bucket of
// cycles, and a request takes the first bucket at or after its arrival that
// has room, so what it costs depends on the load around its time, not on
// which SM happened to be simulated first.
type bucketQueue struct {
	perBucket float64 // bytes a bucket serves
	used      []float64
	cleared   uint64 // buckets below this index are free for reuse
	// top is one past the highest bucket index written since reset: a
	// grid of a few microseconds touches a few hundred of the ring's
	// buckets, and reset clears only those (a grid's start cleared all
	// 65,536 of each queue: most of the time of 44,000 tiny device-launched
	// grids).
	top uint64
	// fullLo and fullHi are a run of buckets [fullLo, fullHi) known to
	// be full (a bucket stays full until advance or reset clears it), so
	// that take skips them instead of looking at each again: a saturated
	// queue's requests each passed the same hundreds of full buckets.
	fullLo, fullHi uint64
	// past keeps what the buckets advance cleared served, by bucket index
	// modulo pastRing: the queue's recent use (load), which advance would
	// otherwise forget at each quantum.
	past []float64
	// writes, on the DRAM's bus with a write/read cost (newDRAMQueue),
	// counts the write-backs' bytes apart, bucket by bucket as this queue
	// serves them, so that writeLoad can tell the writes' share of the
	// bus's recent use from the reads'.
	writes *bucketQueue
	// sources, on the DRAM's bus (newDRAMQueue), tells whose fetches
	// are still queued (behindOthers).
	sources *queueSources
}

// queueSources keeps, of the sources (SMs; -1 for no SM's side) that took
// a queue, the two whose latest requests pass through it last, with the
// cycles they do: the latest of any source's but one is then the later
// of the two that is not that one's.
type queueSources struct {
	src [2]int
	end [2]uint64
}

// note records a request of source src that passes through at cycle end.
func (r *queueSources) note(src int, end uint64) {
	switch {
	case end == 0:
		return
	case r.end[0] > 0 && r.src[0] == src:
		r.end[0] = max(r.end[0], end)
	case r.end[1] > 0 && r.src[1] == src:
		r.end[1] = max(r.end[1], end)
	case end > r.end[1]:
		r.src[1], r.end[1] = src, end
	}
	if r.end[1] > r.end[0] {
		r.src[0], r.src[1] = r.src[1], r.src[0]
		r.end[0], r.end[1] = r.end[1], r.end[0]
	}
}

// othersUntil is the cycle the last request of a source other than src
// passes through (0: none).
func (r *queueSources) othersUntil(src int) uint64 {
	if r.end[0] > 0 && r.src[0] != src {
		return r.end[0]
	}
	return r.end[1]
}

const (
	bucketShift = 4 // 16-cycle buckets
	bucketRing  = 1 << 16
	pastRing    = 1 << 8 // buckets of past use kept (4,096 cycles)
)

func newQueue(bytesPerCycle float64) *bucketQueue {
	return &bucketQueue{perBucket: bytesPerCycle * (1 << bucketShift), used: make([]float64, bucketRing)}
}

func (q *bucketQueue) reset() {
	if q.top >= bucketRing {
		clear(q.used)
	} else {
		clear(q.used[:q.top])
	}
	q.cleared = 0
	q.top = 0
	q.fullLo, q.fullHi = 0, 0
	clear(q.past)
	if q.writes != nil {
		q.writes.reset()
	}
	if q.sources != nil {
		*q.sources = queueSources{}
	}
}

// advance frees the buckets before cycle t: no request arrives before t
// any more.
func (q *bucketQueue) advance(t uint64) {
	b := t >> bucketShift
	if b <= q.cleared {
		return
	}
	if q.past != nil {
		for k := max(q.cleared, b-min(b, pastRing)); k < b; k++ {
			q.past[k%pastRing] = q.used[k%bucketRing]
		}
	}
	if b-q.cleared >= bucketRing {
		clear(q.used)
	} else {
		for k := q.cleared; k < b; k++ {
			q.used[k%bucketRing] = 0
		}
	}
	q.cleared = b
	q.fullLo, q.fullHi = 0, 0
	if q.writes != nil {
		q.writes.advance(t)
	}
}

// load is the share of its bandwidth the queue served in the n buckets
// (n at most pastRing) before the one of cycle t: cleared buckets from past
// (a bucket served in full counts 1; a bucket is never more than full).
// It needs keepPast.
func (q *bucketQueue) load(t uint64, n int) float64 {
	k := t >> bucketShift
	lo := k - min(k, uint64(n))
	s := 0.0
	for b := lo; b < k; b++ {
		u := q.used[b%bucketRing]
		if b < q.cleared {
			u = q.past[b%pastRing]
		}
		s += min(u, q.perBucket)
	}
	return s / (float64(n) * q.perBucket)
}

// takeWrite is take for n bytes of write-back, counted among the writes
// too when the queue keeps them apart (newDRAMQueue).
func (q *bucketQueue) takeWrite(t uint64, n float64) uint64 {
	if q.writes != nil {
		q.writes.take(t, n)
	}
	return q.take(t, n)
}

// writeLoad is the share of the queue's bandwidth its write-backs took in
// the n buckets before the one of cycle t (load's window; 0 when the
// queue does not keep its writes apart).
func (q *bucketQueue) writeLoad(t uint64, n int) float64 {
	if q.writes == nil {
		return 0
	}
	return q.writes.load(t, n)
}

// keepPast makes advance keep the buckets' use for load.
func (q *bucketQueue) keepPast() {
	if q.past == nil {
		q.past = make([]float64, pastRing)
	}
}

// take serves n bytes arriving at cycle t and returns the cycle they have
// passed through.
func (q *bucketQueue) take(t uint64, n float64) uint64 {
	k0 := t >> bucketShift
	k, i := k0, 0
	if k >= q.fullLo && k < q.fullHi {
		// (What the loop below would find, bucket by bucket.)
		i = int(q.fullHi - k)
		k = q.fullHi
	}
	for ; i < bucketRing-1; i++ {
		u := &q.used[k%bucketRing]
		if *u < q.perBucket {
			*u += n
			q.top = max(q.top, k+1)
			start := k << bucketShift
			at := start + uint64(*u/q.perBucket*(1<<bucketShift))
			// Buckets k0 up to k (and k itself, now full) are full.
			hi := k
			if *u >= q.perBucket {
				hi = k + 1
			}
			if k0 >= q.fullLo && k0 <= q.fullHi {
				q.fullHi = max(q.fullHi, hi)
			} else if hi > k0 {
				q.fullLo, q.fullHi = k0, hi
			}
			return max(at, t)
		}
		k++
	}
	return t + bucketRing<<bucketShift
}
