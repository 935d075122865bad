package engine

import "github.com/warpsim/warpsim/internal/ir"

// Step records of the tensor and asynchronous instructions that move
// memory outside the load/store path (wmma.load/store, cp.async): the
// timing driver charges their global sectors to the memory system and
// their shared words to the shared-memory pipe, as it does a load's or a
// store's. Filled only when a driver asked for records.

// recordTensorBegin starts the record of such an instruction.
func (wp *warp) recordTensorBegin() {
	if wp.rec == nil {
		return
	}
	wp.sectors, wp.sectorsSorted = wp.sectors[:0], true
	wp.words, wp.wordsSorted = wp.words[:0], true
}

// recordTensorPiece adds n bytes at addr, of resolve's access kind acc.
// footprint false leaves out its sectors or words, for an instruction
// whose footprint recordWmmaParts records in its place.
func (wp *warp) recordTensorPiece(acc uint8, addr, n uint64, store, footprint bool) {
	r := wp.rec
	if r == nil || n == 0 {
		return
	}
	switch acc {
	case accGlobal:
		r.Space, r.Store = SpaceGlobal, store
		if footprint {
			wp.noteSectors(addr, n)
		}
		r.Bytes += uint32(n)
	case accShared:
		if r.Space == SpaceNone || r.Space == SpaceShared {
			r.Space, r.Store = SpaceShared, store
		}
		if footprint {
			wp.noteWords(addr, n)
		}
	case accLocal:
		if r.Space == SpaceNone {
			r.Space, r.Store = SpaceLocal, store
		}
	}
}

// recordTensorEnd completes the record: the global sectors, or the shared
// wavefronts.
func (wp *warp) recordTensorEnd() {
	r := wp.rec
	if r == nil {
		return
	}
	switch r.Space {
	case SpaceGlobal:
		r.Sectors = append(r.Sectors, wp.sectors...)
	case SpaceShared:
		wave, _ := wp.wavefronts()
		r.Wavefronts += uint32(wave)
	}
	wp.sectors, wp.sectorsSorted = wp.sectors[:0], true
	wp.words, wp.wordsSorted = wp.words[:0], true
}

// cpAsyncLane is one lane's cp.async as cpAsyncWavefronts sees it: the
// global line it reads (^0 for a zero fill), the first 4-byte word of
// shared memory it writes and how many.
type cpAsyncLane struct {
	line  uint64
	word  uint32
	words uint8
}

// cpAsyncWavefronts is the shared-memory wavefronts a cp.async (LDGSTS)
// writes in: the L1 moves its data a global line at a time, so the lanes
// that read one line write shared memory together, in as many wavefronts
// as the most distinct words one bank takes among them; the copy's
// wavefronts are the sum over its lines (testdata/timing/ldgsts: 4-byte
// copies with 1 to 32 lines and 1- to 32-way conflicts, and Triton's tf32
// B tile, 4 lines of 8 lanes 4-way conflicted: 16).
func cpAsyncWavefronts(lanes []cpAsyncLane) uint32 {
	var done uint32
	var words [128]uint32
	var total uint32
	for i := range lanes {
		if done>>i&1 != 0 {
			continue
		}
		n := 0
		for j := i; j < len(lanes); j++ {
			if done>>j&1 != 0 || lanes[j].line != lanes[i].line {
				continue
			}
			done |= 1 << j
			for k := uint32(0); k < uint32(lanes[j].words); k++ {
				words[n] = lanes[j].word + k
				n++
			}
		}
		ws := words[:n]
		for a := 1; a < len(ws); a++ { // insertion sort: at most 128 words
			for b := a; b > 0 && ws[b] < ws[b-1]; b-- {
				ws[b], ws[b-1] = ws[b-1], ws[b]
			}
		}
		var per [32]uint8
		var most uint8
		for k, w := range ws {
			if k > 0 && w == ws[k-1] {
				continue // one word written twice: one access
			}
			per[w&31]++
			most = max(most, per[w&31])
		}
		total += uint32(most)
	}
	return total
}

// recordWmmaParts makes the record of a wmma.load or wmma.store the
// requests ptxas makes of it (to.Access, ir.WmmaAccesses): the blocks of the
// fragment's tile, p its first element's address, strideBytes from one
// storage row to the next, each request its own sectors (global) or
// wavefronts (shared: an LDSM's each of its 8x8 matrices).
func (wp *warp) recordWmmaParts(to *ir.TensorOperands, p, strideBytes uint64) {
	r := wp.rec
	a := &to.Access
	nb := a.Blocks()
	if r == nil || nb == 0 || (r.Space != SpaceGlobal && r.Space != SpaceShared) {
		return
	}
	perRow := a.TileRowBytes / a.BlockBytes
	block := func(b int, note func(addr, n uint64)) {
		br, bc := b/perRow, b%perRow
		for j := range a.BlockRows {
			row := br*a.BlockRows + j
			if a.Interleaved {
				row = j*(a.TileRows/a.BlockRows) + br
			}
			note(p+uint64(row)*strideBytes+uint64(bc*a.BlockBytes), uint64(a.BlockBytes))
		}
	}
	r.Parts = r.Parts[:0]
	if r.Space == SpaceGlobal {
		for i := range a.Insts {
			wp.sectors, wp.sectorsSorted = wp.sectors[:0], true
			for b := i * a.BlocksPerInst; b < min(nb, (i+1)*a.BlocksPerInst); b++ {
				block(b, wp.noteSectors)
			}
			r.Sectors = append(r.Sectors, wp.sectors...)
			r.Parts = append(r.Parts, uint32(len(wp.sectors)))
		}
		wp.sectors, wp.sectorsSorted = wp.sectors[:0], true
		return
	}
	for b := range nb {
		// A block is one request (BlocksPerInst 1) or one of an LDSM's
		// matrices, whose wavefronts add up.
		wp.words, wp.wordsSorted = wp.words[:0], true
		block(b, wp.noteWords)
		wave, _ := wp.wavefronts()
		r.Parts = append(r.Parts, uint32(wave))
		r.Wavefronts += uint32(wave)
	}
	wp.words, wp.wordsSorted = wp.words[:0], true
}
