package tensor

import "testing"

// TestM884Fragments: for every layout pairing of mma.sync m8n8k4 f16, each
// quad pair's A (8x4), B (4x8) and C/D (8x8, f16 and f32) elements sit in
// distinct (lane, register, half) slots of that pair's eight lanes, and the
// f32 placement of D agrees with the f32 C layout.
func TestM884Fragments(t *testing.T) {
	for _, c := range []struct{ al, bl string }{{"row", "col"}, {"col", "row"}, {"row", "row"}, {"col", "col"}} {
		m, err := NewMMA("m8n8k4", c.al, c.bl, F32, F16, F16, F32, false, "")
		if err != nil {
			t.Fatal(err)
		}
		if m.NA != 2 || m.NB != 2 || m.NC != 8 || m.ND != 8 || m.MACs() != 1024 {
			t.Fatalf("%s: registers %d %d %d %d, MACs %d", m.Name, m.NA, m.NB, m.NC, m.ND, m.MACs())
		}
		for q := 0; q < 4; q++ {
			inPair := func(p pos) bool { return int(p.lane)>>2&3 == q && p.reg < 2 && p.sub < 2 }
			seenA, seenB := map[pos]bool{}, map[pos]bool{}
			for i := 0; i < 8; i++ {
				for k := 0; k < 4; k++ {
					pa, pb := m.m884A(q, i, k), m.m884B(q, k, i)
					if !inPair(pa) || !inPair(pb) || seenA[pa] || seenB[pb] {
						t.Fatalf("%s pair %d: A(%d,%d) at %v, B(%d,%d) at %v: outside the pair or taken twice", m.Name, q, i, k, pa, k, i, pb)
					}
					seenA[pa], seenB[pb] = true, true
				}
			}
		}
	}
	for _, f16 := range []bool{true, false} {
		var seen [4][8][8]bool
		for l := 0; l < 32; l++ {
			for e := 0; e < 8; e++ {
				i, j := m884C(f16, l, e)
				q := l >> 2 & 3
				if seen[q][i][j] {
					t.Fatalf("f16 %v: C(%d,%d) of pair %d twice", f16, i, j, q)
				}
				seen[q][i][j] = true
				if !f16 {
					if dl, de := m884Place(l, i, j); dl != l || de != e {
						t.Fatalf("D(%d,%d) placed at lane %d register %d, C's is lane %d register %d", i, j, dl, de, l, e)
					}
				}
			}
		}
	}
	for _, bad := range []struct {
		al, bl string
		d, c   Elem
	}{{"row", "col", F16, F32}, {"row", "bad", F32, F32}, {"col", "col", BF16, F32}} {
		if _, err := NewMMA("m8n8k4", bad.al, bad.bl, bad.d, F16, F16, bad.c, false, ""); err == nil {
			t.Errorf("m8n8k4.%s.%s.%s.f16.f16.%s accepted", bad.al, bad.bl, bad.d, bad.c)
		}
	}
}
