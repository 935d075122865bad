package ptx

import "testing"

// nvcc's cuda_fp16.hpp writes inline assembly that declares registers with
// the state space and type joined (".reg.b32 f, C, nZ;"), which ptxas
// accepts (testdata/programs3/nvcc/ptx/half_bf16_math.nvcc.ptx): the
// declaration is the same as ".reg .b32 …". A joined word that is not a
// space and a type stays an error.
func TestJoinedSpaceAndType(t *testing.T) {
	const head = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
	cases := []struct {
		name, body string
		want       []Var // nil: a parse error
	}{
		{"reg.b32 three names", "{.reg.b32 f, C, nZ;\n}\n", []Var{{Name: "f", Space: SpaceReg, Type: B32}, {Name: "C", Space: SpaceReg, Type: B32}, {Name: "nZ", Space: SpaceReg, Type: B32}}},
		{"reg.b16", ".reg.b16 h,r;\n", []Var{{Name: "h", Space: SpaceReg, Type: B16}, {Name: "r", Space: SpaceReg, Type: B16}}},
		{"reg.pred", ".reg.pred p;\n", []Var{{Name: "p", Space: SpaceReg, Type: Pred}}},
		{"spaced, as before", ".reg .f32 x;\n", []Var{{Name: "x", Space: SpaceReg, Type: F32}}},
		{"not a type", ".reg.bogus x;\n", nil},
		{"not a space", ".foo.b32 x;\n", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Parse("j.ptx", []byte(head+c.body+"}\n"))
			if c.want == nil {
				if err == nil {
					t.Fatal("parsed; want an error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []Var
			var walk func([]Stmt)
			walk = func(ss []Stmt) {
				for _, st := range ss {
					if st.Kind == StmtDecl {
						got = append(got, Var{Name: st.Decl.Name, Space: st.Decl.Space, Type: st.Decl.Type})
					}
					walk(st.Block)
				}
			}
			walk(m.Funcs[0].Body)
			if len(got) != len(c.want) {
				t.Fatalf("got %d declarations %+v, want %+v", len(got), got, c.want)
			}
			for i := range got {
				if g, w := got[i], c.want[i]; g.Name != w.Name || g.Space != w.Space || g.Type != w.Type {
					t.Errorf("declaration %d = %+v, want %+v", i, got[i], c.want[i])
				}
			}
		})
	}
}
