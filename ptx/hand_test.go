package ptx

import (
	"reflect"
	"testing"
)

// TestHandForms checks the tree of testdata/hand/forms.ptx; every expected
// value is read off the PTX text (and the IEEE encodings of the literals).
func TestHandForms(t *testing.T) {
	m := parseFile(t, "testdata/hand/forms.ptx")
	if m.Version != "8.5" || !reflect.DeepEqual(m.Target, []string{"sm_90a", "debug"}) || m.AddressSize != 64 {
		t.Errorf("header: %q %q %d", m.Version, m.Target, m.AddressSize)
	}
	if want := map[int]string{1: "/src/kernel.cu", 2: "/usr/include/math.h"}; !reflect.DeepEqual(m.SourceFiles, want) {
		t.Errorf("SourceFiles = %v, want %v", m.SourceFiles, want)
	}

	vars := map[string]*Var{}
	for _, v := range m.Vars {
		vars[v.Name] = v
	}
	ints := func(vs ...uint64) []Init {
		var out []Init
		for _, v := range vs {
			out = append(out, Init{Kind: InitInt, Bits: v})
		}
		return out
	}
	varTests := []struct {
		name string
		want Var // Pos and Init positions are ignored
	}{
		{"vecs", Var{Space: SpaceGlobal, Type: F32, Vector: 4, Align: 16, Dims: []int{2, 3}}},
		{"ext", Var{Space: SpaceGlobal, Type: B32, Align: 4, Linkage: LinkExtern, Dims: []int{0}}},
		{"weakvar", Var{Space: SpaceGlobal, Type: U32, Linkage: LinkWeak, Init: ints(16)}},
		{"commonvar", Var{Space: SpaceGlobal, Type: U64, Linkage: LinkCommon}},
		{"cf", Var{Space: SpaceConst, Type: F32, Dims: []int{4}, Init: []Init{
			{Kind: InitFloat, Bits: 0x3F800000}, {Kind: InitFloat, Bits: 0xBFC00000},
			{Kind: InitInt, Bits: 2}, {Kind: InitFloat, Bits: 0x40000000}}}},
		{"cd", Var{Space: SpaceConst, Type: F64, Init: []Init{{Kind: InitFloat, Bits: 0xBFE0000000000000}}}},
		{"ch", Var{Space: SpaceConst, Type: F16, Init: []Init{{Kind: InitFloat, Bits: 0x3E00}}}},
		{"cb", Var{Space: SpaceConst, Type: BF16, Init: []Init{{Kind: InitFloat, Bits: 0x4049}}}},
		{"ints", Var{Space: SpaceGlobal, Type: S32, Dims: []int{6},
			Init: ints(1<<64-1, 0x7fffffff, 15, 5, 1<<64-1, 5)}},
		{"gp", Var{Space: SpaceGlobal, Type: U64, Dims: []int{3}, Init: []Init{
			{Kind: InitGeneric, Sym: "ints", Offset: 8}, {Kind: InitSymbol, Sym: "ints"},
			{Kind: InitSymbol, Sym: "ints", Offset: -4}}}},
		{"nest", Var{Space: SpaceGlobal, Type: U8, Dims: []int{2, 2}, Init: ints(1, 2, 3, 4)}},
		{"sbuf", Var{Space: SpaceShared, Type: B8, Align: 8, Dims: []int{64}}},
		{"tex0", Var{Space: SpaceGlobal, Type: TexRef}},
	}
	for _, tc := range varTests {
		v := vars[tc.name]
		if v == nil {
			t.Errorf("no variable %s", tc.name)
			continue
		}
		got := *v
		got.Pos = 0
		for i := range got.Init {
			got.Init[i].Pos = 0
		}
		tc.want.Name = tc.name
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.name, got, tc.want)
		}
	}
	if len(m.Vars) != len(varTests) {
		t.Errorf("got %d module variables, want %d", len(m.Vars), len(varTests))
	}

	helper := funcNamed(m, "helper")
	if helper == nil || helper.HasBody || !helper.NoReturn || len(helper.Returns) != 1 || len(helper.Params) != 2 ||
		helper.Params[1].Space != SpaceReg || helper.Params[1].Name != "b" {
		t.Errorf("helper: %+v", helper)
	}
	k := funcNamed(m, "k")
	if k == nil {
		t.Fatal("no kernel k")
	}
	if k.MaxNTID != [3]int{256, 1, 1} || k.MinNCTAPerSM != 2 || k.MaxNReg != 64 || !k.Entry || k.Linkage != LinkVisible {
		t.Errorf("k directives: %+v", k)
	}
	p0, p1, p2 := k.Params[0], k.Params[1], k.Params[2]
	if !p0.Ptr || p0.PtrSpace != SpaceGlobal || p0.PtrAlign != 4 || p0.Type != U64 || p0.Align != 0 {
		t.Errorf("k_p0: %+v", p0)
	}
	if !p1.Ptr || p1.PtrSpace != SpaceNone || p1.PtrAlign != 1 || p1.Name != "k_p1" {
		t.Errorf("k_p1: %+v", p1)
	}
	if p2.Ptr || p2.Align != 8 || p2.Type != B8 || !reflect.DeepEqual(p2.Dims, []int{16}) {
		t.Errorf("k_p2: %+v", p2)
	}
	var decls []string
	for _, s := range k.Body {
		if s.Kind == StmtDecl {
			decls = append(decls, s.Decl.Name)
		}
	}
	if want := []string{"%p", "%r", "%x", "%y", "%v", "depot"}; !reflect.DeepEqual(decls, want) {
		t.Errorf("declarations %q, want %q", decls, want)
	}
	if d := k.Body[1].Decl; d.RegRange != 16 || k.Body[2].Decl.RegRange != 0 || k.Body[4].Decl.Vector != 2 {
		t.Errorf("register declarations: %+v %+v", d, k.Body[4].Decl)
	}

	instrs := []struct {
		line int
		want string
		loc  Loc
	}{
		{43, "mov.u32 %r1, %tid.x", Loc{File: 1, Line: 23, Col: 5}},
		{45, "mov.u32 %r2, %envreg3", Loc{File: 1, Line: 24, Col: 7, Inlined: 1}},
		{46, "@!%p1 ld.global.nc.v4.f32 {%r1, %r2, _, %r4}, [%rd2-4]", Loc{File: 1, Line: 24, Col: 7, Inlined: 1}},
		{47, "setp.lt.and.s32 %p1|%p2, %r1, -7, !%p0", Loc{File: 1, Line: 24, Col: 7, Inlined: 1}},
		{48, "ld.global.u32 %r3, [ints+8]", Loc{File: 1, Line: 24, Col: 7, Inlined: 1}},
		{49, "ld.global.u32 %r3, [ints]", Loc{File: 1, Line: 24, Col: 7, Inlined: 1}},
		{50, "ld.global.u32 %r3, [1024]", Loc{File: 1, Line: 24, Col: 7, Inlined: 1}},
		{51, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%r9, %r10}, {%r11, %r12, %r13, %r14}", Loc{File: 1, Line: 24, Col: 7, Inlined: 1}},
		{52, "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], %r2, [%r3]", Loc{File: 1, Line: 24, Col: 7, Inlined: 1}},
		{53, "mov.f64 %fd1, 0d3FF0000000000000", Loc{File: 1, Line: 24, Col: 7, Inlined: 1}},
		{54, "mov.f32 %f1, 0fBF800000", Loc{File: 1, Line: 24, Col: 7, Inlined: 1}},
		{55, "mov.u64 %rd1, gp+16", Loc{File: 1, Line: 24, Col: 7, Inlined: 1}},
		{56, "brx.idx %r1, $L_brx_0", Loc{File: 1, Line: 24, Col: 7, Inlined: 1}},
		{62, "call (%r1), %rd5, (%rd1, %rd2), prototype_0", Loc{File: 1, Line: 24, Col: 7, Inlined: 1}},
		{63, "call.uni helper2, ()", Loc{File: 1, Line: 24, Col: 7, Inlined: 1}},
		{64, "call.uni (retval0), vprintf, (param0, param1)", Loc{File: 1, Line: 24, Col: 7, Inlined: 1}},
		{65, "nop", Loc{File: 1, Line: 24, Col: 7, Inlined: 1}},
		{69, "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%f5, %f6}]", Loc{File: 1, Line: 24, Col: 7, Inlined: 1}},
		{71, "exit", Loc{File: 1, Line: 24, Col: 7, Inlined: 1}},
	}
	for _, tc := range instrs {
		in := instrAt(m, tc.line)
		if in == nil {
			t.Errorf("line %d: no instruction", tc.line)
			continue
		}
		if got := in.String(); got != tc.want {
			t.Errorf("line %d: got %q, want %q", tc.line, got, tc.want)
		}
		if in.Loc != tc.loc {
			t.Errorf("line %d: Loc %+v, want %+v", tc.line, in.Loc, tc.loc)
		}
	}

	// Line 44's ".loc 1 24 7, function_name $L__info_string0, inlined_at 1
	// 10 3": the instructions after it lie in a function inlined at 1:10:3.
	if want := []Inline{{Func: "$L__info_string0", At: Loc{File: 1, Line: 10, Col: 3}}}; !reflect.DeepEqual(m.Inlines, want) {
		t.Errorf("Inlines = %+v, want %+v", m.Inlines, want)
	}

	// Operand structure of a few instructions.
	ld := instrAt(m, 46)
	if ld.Guard != "%p1" || !ld.GuardNeg || ld.Op != "ld" || !reflect.DeepEqual(ld.Mods, []string{"global", "nc", "v4", "f32"}) {
		t.Errorf("line 46: %+v", ld)
	}
	if o := ld.Operands[0]; o.Kind != OpdVector || len(o.Elems) != 4 || o.Elems[2].Kind != OpdSink {
		t.Errorf("line 46 vector: %+v", o)
	}
	if o := ld.Operands[1]; o.Kind != OpdAddr || o.Name != "%rd2" || o.Offset != -4 {
		t.Errorf("line 46 address: %+v", o)
	}
	setp := instrAt(m, 47)
	if o := setp.Operands[0]; o.Kind != OpdPair || o.Elems[0].Name != "%p1" || o.Elems[1].Name != "%p2" {
		t.Errorf("line 47 pair: %+v", o)
	}
	if o := setp.Operands[2]; o.Kind != OpdInt || int64(o.Bits) != -7 {
		t.Errorf("line 47 immediate: %+v", o)
	}
	if o := setp.Operands[3]; o.Kind != OpdReg || !o.Neg || o.Name != "%p0" {
		t.Errorf("line 47 negated predicate: %+v", o)
	}
	if o := instrAt(m, 50).Operands[1]; o.Kind != OpdAddr || o.Name != "" || o.Offset != 1024 {
		t.Errorf("line 50 absolute address: %+v", o)
	}
	if o := instrAt(m, 53).Operands[1]; o.Kind != OpdFloat || o.FloatBits != 64 || o.Bits != 0x3FF0000000000000 {
		t.Errorf("line 53 float: %+v", o)
	}
	call := instrAt(m, 62)
	if ops := call.Operands; len(ops) != 4 || ops[0].Kind != OpdList || ops[1].Kind != OpdReg || ops[2].Kind != OpdList ||
		len(ops[2].Elems) != 2 || ops[3].Kind != OpdSym || ops[3].Name != "prototype_0" {
		t.Errorf("line 62 call: %+v", ops)
	}
	if o := instrAt(m, 63).Operands[1]; o.Kind != OpdList || len(o.Elems) != 0 {
		t.Errorf("line 63 empty list: %+v", o)
	}

	// Statements of the body: the branch targets, the block with its
	// prototype, the pragma.
	var bt, blk, pragma *Stmt
	for i := range k.Body {
		s := &k.Body[i]
		switch s.Kind {
		case StmtBranchTargets:
			bt = s
		case StmtBlock:
			blk = s
		case StmtPragma:
			pragma = s
		}
	}
	if bt == nil || bt.Label != "$L_brx_0" || !reflect.DeepEqual(bt.Targets, []string{"$L__BB0_1", "$L__BB0_2"}) {
		t.Errorf("branch targets: %+v", bt)
	}
	if pragma == nil || pragma.Text != "nounroll" {
		t.Errorf("pragma: %+v", pragma)
	}
	if blk == nil || len(blk.Block) != 6 || blk.Block[0].Kind != StmtDecl || blk.Block[1].Kind != StmtProto || blk.Block[5].Kind != StmtBlock {
		t.Fatalf("block: %+v", blk)
	}
	proto := blk.Block[1]
	if proto.Label != "prototype_0" || len(proto.Proto.Returns) != 1 || len(proto.Proto.Params) != 2 ||
		proto.Proto.Params[1].Align != 4 || !reflect.DeepEqual(proto.Proto.Params[1].Dims, []int{8}) {
		t.Errorf("prototype: %+v", proto.Proto)
	}
}
