package tensor

import "testing"

// TestOperandMemoKeyedByInstruction: a float MMA's or WMMA's decoded
// operands are reused only for the same instruction on the same registers.
// Two instructions that read the same register bits as different types (f16
// and bf16), called in turn on one thread, must each give what they gave
// the first time, and the first answers must differ (else the test would
// not notice a reuse across them).
func TestOperandMemoKeyedByInstruction(t *testing.T) {
	var a, b, c Regs
	s := uint64(88172645463325252)
	for l := range 32 {
		for r := range 8 {
			s = benchBits(s)
			a[l][r] = s & 0x3bff3bff
			s = benchBits(s)
			b[l][r] = s & 0xbbffbbff
			s = benchBits(s)
			c[l][r] = s & 0xbf7fffff
		}
	}
	mf16, err := NewMMA("m16n8k16", "row", "col", F32, F16, F16, F32, false, "")
	if err != nil {
		t.Fatal(err)
	}
	mbf16, err := NewMMA("m16n8k16", "row", "col", F32, BF16, BF16, F32, false, "")
	if err != nil {
		t.Fatal(err)
	}
	wf16, err := NewWMMA("m16n16k16", []Elem{F32, F32}, false)
	if err != nil {
		t.Fatal(err)
	}
	wbf16, err := NewWMMA("m16n16k16", []Elem{F32, BF16, BF16, F32}, false)
	if err != nil {
		t.Fatal(err)
	}
	run := []func() Regs{
		func() (d Regs) { mf16.Exec(&a, &b, &c, &d); return },
		func() (d Regs) { mbf16.Exec(&a, &b, &c, &d); return },
		func() (d Regs) {
			wf16.Exec((*[32][8]uint64)(&a), (*[32][8]uint64)(&b), (*[32][8]uint64)(&c), (*[32][8]uint64)(&d))
			return
		},
		func() (d Regs) {
			wbf16.Exec((*[32][8]uint64)(&a), (*[32][8]uint64)(&b), (*[32][8]uint64)(&c), (*[32][8]uint64)(&d))
			return
		},
	}
	first := make([]Regs, len(run))
	for i, f := range run {
		first[i] = f()
	}
	if first[0] == first[1] || first[2] == first[3] {
		t.Fatal("f16 and bf16 gave the same results: the test cannot tell them apart")
	}
	for round := range 3 {
		for i, f := range run {
			if got := f(); got != first[i] {
				t.Errorf("round %d, instruction %d: results differ from its first call's", round, i)
			}
			if got := f(); got != first[i] { // the same again: a reuse
				t.Errorf("round %d, instruction %d again: results differ from its first call's", round, i)
			}
		}
	}
}
