package timing

import (
	"math/rand"
	"testing"
)

// The one-core speed-ups that must not change a result: each shortcut is
// checked against the plain computation it replaces, written out here.

// scanFind is cache.find without its memo: the set's ways, one by one.
func scanFind(c *cache, line uint64) int {
	base := c.setOf(line) * c.ways
	for w := base; w < base+c.ways; w++ {
		if c.lines[w].tag == line+1 {
			return w
		}
	}
	return -1
}

// TestCacheFindMemo: whatever loads, stores, drops and invalidations a
// cache goes through, find (which remembers its last answer) answers as a
// scan of the set's ways does, for the line just asked and for others.
func TestCacheFindMemo(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	c := newCache(8<<10, 4) // 16 sets of 4 ways: evictions are frequent
	const lines = 200
	for i := 0; i < 200000; i++ {
		sec := uint64(rng.Intn(lines * 4))
		switch op := rng.Intn(100); {
		case op < 40:
			c.lookup(sec)
		case op < 60:
			c.fill(sec, uint64(i), rng.Intn(2) == 0)
		case op < 75:
			c.write(sec, uint64(i), 1+rng.Intn(32))
		case op < 85:
			c.update(sec, uint64(i), rng.Intn(2) == 0)
		case op < 95:
			c.drop(sec)
		case op < 96:
			c.invalidate()
		default:
			c.readyOf(sec)
		}
		for _, line := range []uint64{sec >> 2, uint64(rng.Intn(lines))} {
			if got, want := c.find(line), scanFind(c, line); got != want {
				t.Fatalf("step %d: find(%d) = %d, the set's ways say %d", i, line, got, want)
			}
		}
	}
}

// scanQueue is bucketQueue.take without its run of known-full buckets:
// bucket by bucket from the request's own.
type scanQueue struct {
	perBucket float64
	used      []float64
	cleared   uint64
}

func (q *scanQueue) advance(t uint64) {
	b := t >> bucketShift
	if b <= q.cleared {
		return
	}
	if b-q.cleared >= bucketRing {
		clear(q.used)
	} else {
		for k := q.cleared; k < b; k++ {
			q.used[k%bucketRing] = 0
		}
	}
	q.cleared = b
}

func (q *scanQueue) take(t uint64, n float64) uint64 {
	k := t >> bucketShift
	for i := 0; i < bucketRing-1; i++ {
		u := &q.used[k%bucketRing]
		if *u < q.perBucket {
			*u += n
			at := k<<bucketShift + uint64(*u/q.perBucket*(1<<bucketShift))
			return max(at, t)
		}
		k++
	}
	return t + bucketRing<<bucketShift
}

// TestBucketQueueSkipsFullRuns: a saturated bucket queue, its requests
// arriving out of order around a moving start of the quantum (advance) and
// through resets, answers every request as a bucket-by-bucket scan does.
func TestBucketQueueSkipsFullRuns(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	q := newQueue(3.5)
	ref := &scanQueue{perBucket: q.perBucket, used: make([]float64, bucketRing)}
	var base uint64
	for i := 0; i < 300000; i++ {
		switch op := rng.Intn(1000); {
		case op < 20:
			base += uint64(rng.Intn(300))
			q.advance(base)
			ref.advance(base)
		case op < 21:
			q.reset()
			ref = &scanQueue{perBucket: q.perBucket, used: make([]float64, bucketRing)}
			base = 0
		default:
			at := base + uint64(rng.Intn(400))
			n := float64(1 + rng.Intn(128))
			if got, want := q.take(at, n), ref.take(at, n); got != want {
				t.Fatalf("request %d (%g bytes at cycle %d): served at %d, the scan says %d", i, n, at, got, want)
			}
		}
	}
}
