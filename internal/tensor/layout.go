package tensor

// Fragment layouts of mma.sync (PTX ISA, "Matrix fragments for mma.m16n8k*"
// and "mma.m8n8k*"). In every layout lane = 4*groupID + threadID_in_group.

// aPos is the (row, col) of A's element sub of register reg in lane, for an
// MxK A of elements of bits bits held in nregs registers per lane.
func aPos(M, K, bits, nregs, lane, reg, sub int) (int, int) {
	g, t := lane>>2, lane&3
	if bits == 64 { // f64: m8n8k4 one register; m16n8k4/8/16 as the 32-bit layout
		if M == 8 {
			return g, t
		}
		return g + 8*(reg&1), t + 4*(reg>>1)
	}
	e := 32 / bits
	if M == 16 {
		return g + 8*(reg&1), e*t + sub + (K/2)*(reg>>1)
	}
	return g, e*t + sub + (K/2)*reg
}

// bPos is the (row=k, col=n) of B's element.
func bPos(K, bits, nregs, lane, reg, sub int) (int, int) {
	g, t := lane>>2, lane&3
	if bits == 64 {
		return t + 4*reg, g
	}
	e := 32 / bits
	// registers hold rows e*t… of successive 4e-row bands (for two
	// registers, the bands are the two halves of K)
	return e*t + sub + 4*e*reg, g
}

// cPos is the (row, col) of accumulator element i (0-based over the lane's
// elements, two per 32-bit register for f16) for an MxN accumulator.
func cPos(M, lane, i int) (int, int) {
	g, t := lane>>2, lane&3
	if M == 16 {
		return g + 8*(i>>1), 2*t + i&1
	}
	return g, 2*t + i
}

type layoutKey struct {
	a                 bool
	r, c, bits, nregs int
}

// layouts are the fragment layouts of the dense shapes and the sparse
// forms' compressed A and wider B.
var layouts = buildLayouts()

func buildLayouts() map[layoutKey][]pos {
	m := map[layoutKey][]pos{}
	for _, s := range [][4]int{{16, 16, 16, 4}, {16, 8, 16, 2}, {16, 8, 32, 4}, {8, 16, 8, 1}, {16, 4, 32, 2}, {16, 8, 32, 4}, {16, 16, 8, 2}, {16, 32, 8, 4}, {8, 32, 4, 1}, {16, 64, 4, 4}, {16, 32, 4, 2}, {16, 256, 1, 4}, {16, 128, 1, 2}, {8, 128, 1, 1}} {
		buildA(m, s[0], s[1], s[2], s[3])
	}
	for _, s := range [][3]int{{16, 16, 2}, {8, 16, 1}, {8, 32, 1}, {4, 32, 1}, {32, 8, 2}, {16, 8, 1}, {8, 32, 2}, {64, 4, 2}, {32, 4, 1}, {256, 1, 2}, {128, 1, 1}} {
		buildB(m, s[0], 8, s[1], s[2])
	}
	buildSparseLayouts(m) // sparse.go
	return m
}

func buildA(layouts map[layoutKey][]pos, M, K, bits, nregs int) {
	t := make([]pos, M*K)
	e := 32 / bits
	for l := 0; l < 32; l++ {
		for r := 0; r < nregs; r++ {
			for s := 0; s < e; s++ {
				i, j := aPos(M, K, bits, nregs, l, r, s)
				t[i*K+j] = pos{uint8(l), uint8(r), uint8(s)}
			}
		}
	}
	layouts[layoutKey{true, M, K, bits, nregs}] = t
}

func buildB(layouts map[layoutKey][]pos, K, N, bits, nregs int) {
	t := make([]pos, K*N)
	e := 32 / bits
	for l := 0; l < 32; l++ {
		for r := 0; r < nregs; r++ {
			for s := 0; s < e; s++ {
				i, j := bPos(K, bits, nregs, l, r, s)
				t[i*N+j] = pos{uint8(l), uint8(r), uint8(s)}
			}
		}
	}
	layouts[layoutKey{false, K, N, bits, nregs}] = t
}

func layoutA(M, K, bits, nregs int) []pos { return layouts[layoutKey{true, M, K, bits, nregs}] }
func layoutB(K, N, bits, nregs int) []pos { return layouts[layoutKey{false, K, N, bits, nregs}] }
