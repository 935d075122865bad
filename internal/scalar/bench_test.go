package scalar

import (
	"math/rand/v2"
	"testing"
)

var sink32 uint32
var sink64 uint64

func benchInputs() []uint32 {
	rng := rand.New(rand.NewPCG(42, 43))
	xs := make([]uint32, 1024)
	for i := range xs {
		xs[i] = uint32(120+rng.IntN(16))<<23 | rng.Uint32()&0x807fffff
	}
	return xs
}

func BenchmarkAddF32RN(b *testing.B) {
	xs := benchInputs()
	var s uint32
	for i := 0; b.Loop(); i++ {
		s += AddF32(xs[i&1023], xs[(i+1)&1023], RN, false, false)
	}
	sink32 = s
}

func BenchmarkAddRnF32(b *testing.B) {
	xs := benchInputs()
	var s uint32
	for i := 0; b.Loop(); i++ {
		s += AddRnF32(xs[i&1023], xs[(i+1)&1023])
	}
	sink32 = s
}

func BenchmarkAddF32RZ(b *testing.B) {
	xs := benchInputs()
	var s uint32
	for i := 0; b.Loop(); i++ {
		s += AddF32(xs[i&1023], xs[(i+1)&1023], RZ, false, false)
	}
	sink32 = s
}

func BenchmarkFmaF32RN(b *testing.B) {
	xs := benchInputs()
	var s uint32
	for i := 0; b.Loop(); i++ {
		s += FmaF32(xs[i&1023], xs[(i+1)&1023], xs[(i+2)&1023], RN, false, false)
	}
	sink32 = s
}

func BenchmarkFmaF32RNFtz(b *testing.B) {
	xs := benchInputs()
	var s uint32
	for i := 0; b.Loop(); i++ {
		s += FmaF32(xs[i&1023], xs[(i+1)&1023], xs[(i+2)&1023], RN, true, false)
	}
	sink32 = s
}

func BenchmarkFmaF64RZ(b *testing.B) {
	xs := benchInputs()
	var s uint64
	for i := 0; b.Loop(); i++ {
		s += FmaF64(uint64(xs[i&1023])<<29|0x3000000000000000, uint64(xs[(i+1)&1023])<<29|0x3000000000000000, 0x3ff0000000000000, RZ)
	}
	sink64 = s
}

// TestHotPathsDoNotAllocate guards the engine's lane loops.
func TestHotPathsDoNotAllocate(t *testing.T) {
	xs := benchInputs()
	i := 0
	for name, f := range map[string]func(){
		"AddF32 RN":     func() { sink32 = AddF32(xs[i&1023], xs[(i+1)&1023], RN, false, false) },
		"AddF32 RM ftz": func() { sink32 = AddF32(xs[i&1023], xs[(i+1)&1023], RM, true, true) },
		"FmaF32 RN":     func() { sink32 = FmaF32(xs[i&1023], xs[(i+1)&1023], xs[(i+2)&1023], RN, false, false) },
		"FmaF32 RP":     func() { sink32 = FmaF32(xs[i&1023], xs[(i+1)&1023], xs[(i+2)&1023], RP, false, false) },
		"DivF32 RZ":     func() { sink32 = DivF32(xs[i&1023], xs[(i+1)&1023], RZ, false, false) },
		"SqrtF32 RM":    func() { sink32 = SqrtF32(xs[i&1023], RM, false) },
		"AddF64 RZ":     func() { sink64 = AddF64(uint64(xs[i&1023])<<32, uint64(xs[(i+1)&1023])<<32, RZ) },
		"MulF64 RP":     func() { sink64 = MulF64(uint64(xs[i&1023])<<32, uint64(xs[(i+1)&1023])<<32, RP) },
		"DivF64 RM":     func() { sink64 = DivF64(uint64(xs[i&1023])<<32, uint64(xs[(i+1)&1023])<<32, RM) },
		"FmaF64 RZ":     func() { sink64 = FmaF64(uint64(xs[i&1023])<<32, uint64(xs[(i+1)&1023])<<32, 0x3ff0000000000000, RZ) },
		"FmaF16 RN":     func() { sink32 = uint32(FmaF16(uint16(xs[i&1023]), uint16(xs[(i+1)&1023]), 0x3c00, RN, false, false)) },
		"CvtF32ToF16":   func() { sink32 = uint32(F32ToF16(xs[i&1023], RN, false, false)) },
		"MinF32":        func() { sink32 = MinF32(xs[i&1023], xs[(i+1)&1023], false, false) },
		"Prmt":          func() { sink32 = Prmt(xs[i&1023], xs[(i+1)&1023], 0x3210, PrmtDefault) },
	} {
		if n := testing.AllocsPerRun(200, func() { f(); i++ }); n != 0 {
			t.Errorf("%s: %v allocations per call", name, n)
		}
	}
}
