package ptx

import (
	"reflect"
	"testing"
)

// instrs lists the printed instructions of f, nested blocks included.
func instrs(f *Func) []string {
	var out []string
	var walk func([]Stmt)
	walk = func(body []Stmt) {
		for _, s := range body {
			switch s.Kind {
			case StmtInstr:
				out = append(out, s.Instr.String())
			case StmtBlock:
				walk(s.Block)
			}
		}
	}
	walk(f.Body)
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestClangCorpus checks instructions clang-22 emits for the programs in
// testdata/clang (see gen.sh), found by function rather than line so that
// regenerating the corpus keeps the test valid.
func TestClangCorpus(t *testing.T) {
	tests := []struct {
		file, fn string
		want     []string
	}{
		{"basics.ptx", "_Z9histogramPKhPjiPfPy", []string{
			"atom.global.add.f32 %r8, [%rd3], 0f3F000000",
		}},
		{"calls.ptx", "_Z4warpPiPf", []string{
			"shfl.sync.down.b32 %r5, %r4, 16, 31, -1",
			"vote.sync.ballot.b32 %r16, %p1, -1",
		}},
		{"calls.ptx", "_Z6halvesPDF16_PDF16bPf", []string{
			"fma.rn.f16 %rs4, %rs1, %rs3, %rs2",
			"cvt.rn.bf16.f32 %rs5, %r3",
		}},
		{"calls.ptx", "_Z8indirectPfi", []string{
			"call (retval0), %rd6, (param0), prototype_10",
		}},
		{"calls.ptx", "_Z4mathPfPd", []string{
			"call.uni (retval0), __nv_sinf, (param0)",
			"call.uni (retval0), __nv_fmaf, (param0, param1, param2)",
		}},
		{"launch.ptx", "_Z6parentPii", []string{
			"call.uni (retval0), cudaGetParameterBuffer, (param0, param1)",
			"call.uni (retval0), cudaLaunchDevice, (param0, param1, param2, param3, param4, param5)",
		}},
		{"globals.ptx", "_Z10useGlobalsPf", []string{
			"mov.b64 %rd5, table",
			"ld.global.b32 %r4, [counter]",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.file+"/"+tc.fn, func(t *testing.T) {
			m := parseFile(t, "testdata/clang/"+tc.file)
			f := funcNamed(m, tc.fn)
			if f == nil {
				t.Fatalf("no function %s", tc.fn)
			}
			got := instrs(f)
			for _, w := range tc.want {
				if !contains(got, w) {
					t.Errorf("no instruction %q", w)
				}
			}
		})
	}
}

func TestClangDeclarations(t *testing.T) {
	m := parseFile(t, "testdata/clang/calls.ptx")
	sinf := funcNamed(m, "__nv_sinf")
	if sinf == nil || sinf.HasBody || sinf.Linkage != LinkExtern || len(sinf.Returns) != 1 || len(sinf.Params) != 1 ||
		sinf.Returns[0].Type != B32 {
		t.Errorf("__nv_sinf: %+v", sinf)
	}
	swap := funcNamed(m, "_Z4swap4Pair")
	if swap == nil || !swap.HasBody || swap.Entry || len(swap.Returns) != 1 || swap.Returns[0].Align != 4 ||
		!reflect.DeepEqual(swap.Returns[0].Dims, []int{8}) {
		t.Errorf("swap: %+v", swap)
	}
	// The indirect call's prototype sits in the call block.
	var proto *Stmt
	var walk func([]Stmt)
	walk = func(b []Stmt) {
		for i := range b {
			if b[i].Kind == StmtProto {
				proto = &b[i]
			}
			walk(b[i].Block)
		}
	}
	walk(funcNamed(m, "_Z8indirectPfi").Body)
	if proto == nil || proto.Label != "prototype_10" || len(proto.Proto.Returns) != 1 || len(proto.Proto.Params) != 1 {
		t.Errorf("prototype: %+v", proto)
	}

	k := funcNamed(parseFile(t, "testdata/clang/launch.ptx"), "_Z6parentPii")
	if p := k.Params[0]; !p.Ptr || p.PtrAlign != 1 || p.Type != U64 || p.Space != SpaceParam {
		t.Errorf("clang pointer parameter: %+v", p)
	}

	g := parseFile(t, "testdata/clang/globals.ptx")
	vars := map[string]*Var{}
	for _, v := range g.Vars {
		vars[v.Name] = v
	}
	// __device__ int *ptr = &table[2];  →  generic(table)+8
	if v := vars["ptr"]; v == nil || len(v.Init) != 1 || v.Init[0].Kind != InitGeneric || v.Init[0].Sym != "table" || v.Init[0].Offset != 8 {
		t.Errorf("ptr: %+v", v)
	}
	// struct S { int a; int *p; float f; } s = {5, &table[3], 2.5f}: the
	// float 2.5 (0x40200000) is the low word of the third u64.
	if v := vars["s"]; v == nil || len(v.Init) != 3 || v.Init[1].Kind != InitGeneric || v.Init[1].Offset != 12 || v.Init[2].Bits != 0x40200000 {
		t.Errorf("s: %+v", v)
	}
	// -2 as little-endian bytes.
	if v := vars["table"]; v == nil || v.Linkage != LinkVisible || v.Init[4].Bits != 254 || v.Init[7].Bits != 255 {
		t.Errorf("table: %+v", v)
	}
	if v := vars["counter"]; v == nil || v.Init != nil || v.Type != U32 {
		t.Errorf("counter: %+v", v)
	}

	pk := parseFile(t, "testdata/clang/packed.ptx")
	vars = map[string]*Var{}
	for _, v := range pk.Vars {
		vars[v.Name] = v
	}
	// struct __attribute__((packed)) P { char c; int *p; short s; } pk = {1, &tgt[1], 7}:
	// byte 0 is c, bytes 1..8 the bytes of the pointer, lowest first, then s.
	if v := vars["pk"]; v == nil || len(v.Init) != 11 || v.Type != U8 {
		t.Errorf("pk: %+v", v)
	} else {
		for i := 1; i <= 8; i++ {
			in := v.Init[i]
			if in.Kind != InitGeneric || in.Sym != "tgt" || in.Offset != 4 || in.Mask != 0xFF<<(8*(i-1)) {
				t.Errorf("pk byte %d: %+v", i, in)
			}
		}
		if v.Init[0].Bits != 1 || v.Init[0].Mask != 0 || v.Init[9].Bits != 7 {
			t.Errorf("pk: %+v", v.Init)
		}
	}
	// Function pointers: __device__ void (*fps[2])(int*) = {f1, f1};
	if v := vars["fps"]; v == nil || len(v.Init) != 2 || v.Init[0].Kind != InitSymbol || v.Init[0].Sym != "_Z2f1Pi" {
		t.Errorf("fps: %+v", v)
	}

	d := parseFile(t, "testdata/clang/debug.ptx")
	if d.SourceFiles[1] != "./debug.cu" {
		t.Errorf("SourceFiles = %v", d.SourceFiles)
	}
	norm := funcNamed(d, "_Z4normPfS_i")
	var tidLoc Loc
	for _, s := range norm.Body {
		if s.Kind == StmtInstr && s.Instr.String() == "mov.u32 %r5, %tid.x" {
			tidLoc = s.Instr.Loc
		}
	}
	// int i = CTAID_X * NTID_X + TID_X; is line 9 of debug.cu, TID_X at column 29.
	if tidLoc != (Loc{File: 1, Line: 9, Col: 29}) {
		t.Errorf("Loc of mov %%tid.x = %+v, want {1 9 29}", tidLoc)
	}
}
