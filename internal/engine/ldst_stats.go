// A memory request's footprint for the counters: sectors, shared-memory words and wavefronts.

package engine

import "github.com/warpsim/warpsim/internal/ir"

// memStats accumulates one request's footprint for the counters.
type memStats struct {
	global, shared, local, param int
	bytes                        uint64
	// paramOff is the parameter-buffer offset of the first lane's
	// parameter read plus one (0: none).
	paramOff uint64
}

// noteAccess adds one lane's access of n bytes at addr to the request's
// footprint: the sectors of a global access, the words of a shared one.
func (wp *warp) noteAccess(st *memStats, kind uint8, addr, n uint64) {
	switch kind {
	case accGlobal:
		st.global++
		st.bytes += n
		wp.noteSectors(addr, n)
	case accShared:
		st.shared++
		wp.noteWords(addr, n)
	case accLocal:
		st.local++
	case accParam:
		st.param++
		if st.paramOff == 0 {
			if addr >= ParamWindow && addr < ParamWindow+WindowSize {
				addr -= ParamWindow // a generic address (cvta.param)
			}
			st.paramOff = addr + 1
		}
	}
}

// noteSectors records the 32-byte sectors of a global access.
func (wp *warp) noteSectors(addr, n uint64) {
	for s := addr >> 5; s <= (addr+n-1)>>5; s++ {
		wp.sectors, wp.sectorsSorted = noteDistinct(wp.sectors, wp.sectorsSorted, &wp.sectorsSeen, s)
	}
}

// noteWords records the 4-byte words of a shared access.
func (wp *warp) noteWords(addr, n uint64) {
	for w := addr >> 2; w <= (addr+n-1)>>2; w++ {
		wp.words, wp.wordsSorted = noteDistinct(wp.words, wp.wordsSorted, &wp.wordsSeen, w)
	}
}

// distinctFilter is a 256-bit filter of the values in a set that
// noteDistinct keeps: a value whose bit is clear is not in the set, so
// only a value whose bit is set needs the search (about one in sixteen
// among 32 distinct values). n is how many values of the set it holds;
// when that is not the set's length (the set was emptied, or appended to
// elsewhere: n = -1), it is rebuilt.
type distinctFilter struct {
	bits [4]uint64
	n    int
}

// filterBit is v's word in the filter and its bit there.
func filterBit(v uint64) (int, uint64) {
	h := v * 0x9e3779b97f4a7c15 >> 56
	return int(h >> 6), 1 << (h & 63)
}

// noteDistinct adds v to set (a list, in first-arrival order) unless
// present. While values arrive in increasing order, as coalesced accesses
// do, no search is needed; otherwise f spares most searches.
func noteDistinct(set []uint64, sorted bool, f *distinctFilter, v uint64) ([]uint64, bool) {
	k := len(set)
	w, b := filterBit(v)
	if k == 0 {
		f.bits = [4]uint64{}
		f.bits[w], f.n = b, 1
		return append(set, v), true
	}
	if f.n != k {
		f.bits = [4]uint64{}
		for _, t := range set {
			tw, tb := filterBit(t)
			f.bits[tw] |= tb
		}
	}
	f.n = k + 1
	if sorted && v > set[k-1] {
		f.bits[w] |= b
		return append(set, v), true
	}
	if f.bits[w]&b != 0 {
		for _, t := range set {
			if t == v {
				f.n = k
				return set, sorted
			}
		}
	}
	f.bits[w] |= b
	return append(set, v), false
}

// wavefronts is the number of shared-memory wavefronts of a request: the
// largest number of distinct 4-byte words any of the 32 banks must serve.
func (wp *warp) wavefronts() (wave, ideal uint64) {
	if k := len(wp.words); k > 0 && wp.wordsSorted && wp.words[k-1]-wp.words[0] == uint64(k-1) {
		// Consecutive words (distinct and increasing): each bank serves
		// k/32 of them, rounded up, as few as possible.
		ideal = uint64((k + 31) / 32)
		return ideal, ideal
	}
	var per [32]uint8
	var most uint8
	for _, w := range wp.words {
		b := w & 31
		per[b]++
		if per[b] > most {
			most = per[b]
		}
	}
	ideal = uint64((len(wp.words) + 31) / 32)
	return uint64(most), ideal
}

func (wp *warp) flushStats(in *ir.Inst, st *memStats, store bool) {
	if wp.rec != nil {
		wp.recordAccess(st, store)
	}
	c := &wp.w.c
	if st.global > 0 {
		if store {
			c.GstRequests++
			c.GstTransactions += uint64(len(wp.sectors))
			c.GstBytes += st.bytes
		} else {
			c.GldRequests++
			c.GldTransactions += uint64(len(wp.sectors))
			c.GldBytes += st.bytes
		}
	}
	if st.local > 0 {
		if store {
			c.LocalStoreRequests++
		} else {
			c.LocalLoadRequests++
		}
	}
	if st.shared > 0 {
		wave, ideal := wp.wavefronts()
		conflicts := uint64(0)
		if wave > ideal {
			conflicts = wave - ideal
		}
		if store {
			c.SharedStoreRequests++
			c.SharedStoreTransactions += wave
			c.SharedStBankConflict += conflicts
		} else {
			c.SharedLoadRequests++
			c.SharedLoadTransactions += wave
			c.SharedLdBankConflict += conflicts
		}
	}
	wp.sectors, wp.sectorsSorted = wp.sectors[:0], true
	wp.words, wp.wordsSorted = wp.words[:0], true
}
