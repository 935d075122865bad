package engine

// The block slots a driver used (workers: a block's warps, their register
// files, local memory and shared memory) go back to their module's pool
// when the grid ends, so that the module's next grid finds them allocated.
// A timing driver holds every resident block of the grid at once, and a
// warp's register file is 256 bytes per register slot of its kernel, so a
// pooled worker can hold megabytes: CUB's merge sort as clang compiles it
// has 4781 slots, 1.2 MiB a warp. Since the next grid takes the slots
// returned last, and a grid of smaller blocks returns the slots it created
// on top of those a large kernel used, a program alternating large and
// small kernels left large register files in more and more of the pool:
// NVIDIA's segmentationTreeThrust grew its runtime to 17 GB in timing mode.
// keepSlots bounds what the pool keeps between grids instead.

// slotPoolBytes bounds the bytes the block slots a module keeps between
// grids may hold (register files, local and shared memory). A grid uses
// what it needs; what its slots hold beyond this after it is left to the
// garbage collector, the least recently used slots first.
var slotPoolBytes int64 = 512 << 20

// heldBytes is what worker w holds in memory that grows with its kernels:
// its warps' register files and local memory, and its shared memory.
func (w *worker) heldBytes() int64 {
	n := int64(cap(w.blk.shared)) + int64(cap(w.regBuf))*8
	for _, wp := range w.pool {
		for d, r := range wp.regPool {
			if d > 0 { // (frame 0's lie in regBuf: placeRegs)
				n += int64(cap(r)) * 8
			}
		}
		for _, b := range wp.local {
			n += int64(cap(b))
		}
		for _, b := range wp.scratch {
			n += int64(cap(b))
		}
	}
	return n
}

// keepSlots gives the workers of a finished grid back to the module's pool
// (the next grid takes the last ones first) and lets go of the least
// recently returned ones beyond slotPoolBytes. ws is in the order the grid
// took its slots (NewSlot): they go back in reverse, so that the pool is a
// stack, its order as before the grid. Given back in the order taken, a
// grid of large blocks alternating with one of small blocks (a reduction
// and its input's initialization) took, launch after launch, the workers
// the other had just sized for itself, and every launch made the register
// files (placeRegs) of half its warps again.
func (m *Module) keepSlots(ws []*worker) {
	for _, w := range ws {
		w.held = w.heldBytes()
	}
	m.slotMu.Lock()
	defer m.slotMu.Unlock()
	for i := len(ws) - 1; i >= 0; i-- {
		m.slots = append(m.slots, ws[i])
	}
	var held int64
	for i := len(m.slots) - 1; i >= 0; i-- {
		held += m.slots[i].held
		if held > slotPoolBytes {
			n := copy(m.slots, m.slots[i+1:])
			clear(m.slots[n:])
			m.slots = m.slots[:n]
			return
		}
	}
}

// pooledBytes is what the module's pooled slots hold (for tests).
func (m *Module) pooledBytes() (n int64) {
	m.slotMu.Lock()
	defer m.slotMu.Unlock()
	for _, w := range m.slots {
		n += w.heldBytes()
	}
	return n
}
