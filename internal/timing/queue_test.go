package timing

import "testing"

// TestQueueThroughput: a bandwidth-limited server passes requests at its
// rate in arrival order.
func TestQueueThroughput(t *testing.T) {
	q := queue{bytesPerCycle: 64}
	var last uint64
	for i := 0; i < 100; i++ {
		last = q.take(0, 128) // 2 cycles each
	}
	if last != 200 {
		t.Errorf("100 requests of 128 B at 64 B/cycle done at %d, want 200", last)
	}
	if got := q.take(1000, 64); got != 1001 {
		t.Errorf("a request after the queue drained: %d, want 1001", got)
	}
}

// TestBucketQueueThroughput: the device-wide queue serves its bytes per
// bucket of cycles whatever order the requests come in, and a request that
// finds its bucket full waits for the next with room.
func TestBucketQueueThroughput(t *testing.T) {
	for _, tc := range []struct {
		name  string
		order []uint64 // arrival cycles, in the order they are taken
	}{
		{"in time order", []uint64{0, 0, 0, 0, 16, 16, 16, 16}},
		{"out of order", []uint64{16, 0, 16, 0, 16, 0, 16, 0}},
	} {
		q := newQueue(8) // 128 B per 16-cycle bucket
		var end uint64
		for _, at := range tc.order {
			end = max(end, q.take(at, 64))
		}
		// 512 B at 8 B/cycle: 64 cycles.
		if end != 64 {
			t.Errorf("%s: the last of 8 requests of 64 B at 8 B/cycle done at %d, want 64", tc.name, end)
		}
	}
	q := newQueue(8)
	q.take(0, 128)
	if got := q.take(0, 8); got < 16 {
		t.Errorf("a request arriving at a full bucket passed at %d, before the next bucket", got)
	}
	q.advance(1 << 20)
	if got := q.take(1<<20, 8); got != 1<<20+1 {
		t.Errorf("after advance, an idle queue: %d, want %d", got, 1<<20+1)
	}
}

// TestBucketQueueResetAsNew: after reset, a queue serves a sequence of
// requests exactly as a new one does, whether the requests before it
// stayed within a few buckets (reset clears only those) or went round the
// whole ring.
func TestBucketQueueResetAsNew(t *testing.T) {
	seq := []uint64{0, 3, 3, 40, 17, 900, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5}
	for _, before := range []struct {
		name    string
		buckets uint64 // requests of a full bucket each, one a bucket from cycle 0
	}{
		{"a few buckets", 70},
		{"the whole ring and more", bucketRing + 70},
	} {
		used, fresh := newQueue(8), newQueue(8)
		for k := range before.buckets {
			used.take(k<<bucketShift, 128)
		}
		used.reset()
		for i, at := range seq {
			if got, want := used.take(at, 96), fresh.take(at, 96); got != want {
				t.Errorf("after %s: request %d at %d passed at %d, a new queue's at %d", before.name, i, at, got, want)
			}
		}
	}
}
