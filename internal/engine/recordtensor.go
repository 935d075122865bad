package engine

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
func (wp *warp) recordTensorPiece(acc uint8, addr, n uint64, store bool) {
	r := wp.rec
	if r == nil || n == 0 {
		return
	}
	switch acc {
	case accGlobal:
		r.Space, r.Store = SpaceGlobal, store
		wp.noteSectors(addr, n)
		r.Bytes += uint32(n)
	case accShared:
		if r.Space == SpaceNone || r.Space == SpaceShared {
			r.Space, r.Store = SpaceShared, store
		}
		wp.noteWords(addr, n)
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
