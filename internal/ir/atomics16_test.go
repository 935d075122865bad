package ir

import (
	"strings"
	"testing"

	"github.com/warpsim/warpsim/ptx"
)

// lowerBody lowers one kernel whose body is instrs, with b16/b32/b64/b128
// registers declared.
func lowerBody(instrs string) (*Program, error) {
	src := ".version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n" +
		".reg .pred %p<2>; .reg .b16 %rs<9>; .reg .b32 %r<9>; .reg .f32 %f<9>; .reg .b64 %rd<9>; .reg .b128 %q<4>;\n" + instrs + "\nret;\n}\n"
	m, err := ptx.Parse("k.ptx", []byte(src))
	if err != nil {
		return nil, err
	}
	return Lower(m, nil)
}

// TestAtomicsHalfAndB128Lowering: the f16/bf16 atomics (scalar add, packed
// add, the sm_90 vector forms with min/max), the .b128 loads, stores,
// moves and atomics lower to the instructions the engine runs (a vector
// atomic to one atomic per element at consecutive offsets; a .b128
// register to two 64-bit slots), and the forms the PTX ISA does not define
// are refused at their line.
func TestAtomicsHalfAndB128Lowering(t *testing.T) {
	ok := []struct {
		instr string
		n     int // instructions emitted (before ret)
	}{
		{"atom.global.add.noftz.f16 %rs1, [%rd1], %rs2;", 1},
		{"atom.shared.add.noftz.bf16x2 %r1, [%rd1], %r2;", 1},
		{"atom.add.noftz.bf16 %rs1, [%rd1], %rs2;", 1},
		{"red.relaxed.gpu.global.add.noftz.f16x2 [%rd1], %r2;", 1},
		{"atom.global.add.noftz.v8.f16 {%rs1,%rs2,%rs3,%rs4,%rs5,%rs6,%rs7,%rs8}, [%rd1+16], {%rs1,%rs2,%rs3,%rs4,%rs5,%rs6,%rs7,%rs8};", 8},
		{"atom.global.max.noftz.v4.bf16x2 {%r1,%r2,%r3,%r4}, [%rd1], {%r5,%r6,%r7,%r8};", 4},
		{"red.global.min.noftz.v2.f16 [%rd1], {%rs1,%rs2};", 2},
		{"@%p1 atom.global.gpu.acq_rel.add.noftz.v2.f16 {%rs1,%rs2}, [ %rd1 + 0 ], {%rs3,%rs4};", 2}, // Triton's spelling
		{"atom.global.add.v4.f32 {%f1,%f2,%f3,%f4}, [%rd1], {%f5,%f6,%f7,%f8};", 4},
		{"ld.global.b128 %q1, [%rd1];", 1},
		{"st.shared.b128 [%rd1+32], %q1;", 1},
		{"mov.b128 {%rd1, %rd2}, %q1;", 2},
		{"mov.b128 %q1, {%rd1, %rd2};", 2},
		{"mov.b128 %q2, %q1;", 2},
		{"atom.global.cas.b128 %q1, [%rd1], %q2, %q3;", 1},
		{"atom.acq_rel.gpu.shared.exch.b128 %q1, [%rd1], %q2;", 1},
	}
	for _, c := range ok {
		t.Run(c.instr, func(t *testing.T) {
			p, err := lowerBody(c.instr)
			if err != nil {
				t.Fatal(err)
			}
			code := p.Funcs[p.FuncByName["k"]].Code
			if got := len(code) - 1; got != c.n {
				t.Fatalf("%d instructions, want %d", got, c.n)
			}
			for i, in := range code[:c.n] {
				if guarded := strings.HasPrefix(c.instr, "@"); guarded != (in.Guard >= 0) {
					t.Errorf("instruction %d: guard slot %d, guarded source %v", i, in.Guard, guarded)
				}
			}
			if strings.Contains(c.instr, ".v") && (strings.HasPrefix(c.instr, "atom") || strings.HasPrefix(c.instr, "red")) {
				step := int64(TypeSize(code[0].Type))
				for i, in := range code[:c.n] {
					if in.Imm != code[0].Imm+int64(i)*step {
						t.Errorf("element %d at offset %d, want %d", i, in.Imm, code[0].Imm+int64(i)*step)
					}
					if int(in.Vec) != i {
						t.Errorf("element %d: Vec %d, want its index", i, in.Vec)
					}
				}
			}
		})
	}
	refused := []struct{ instr, name string }{
		{"atom.global.add.f16 %rs1, [%rd1], %rs2;", "atom.global.add.f16"},                                 // .noftz is required
		{"atom.global.min.noftz.f16 %rs1, [%rd1], %rs2;", "atom.global.min.noftz.f16"},                     // min/max: vector forms only
		{"atom.shared.add.noftz.v2.f16 {%rs1,%rs2}, [%rd1], {%rs3,%rs4};", "atom.shared.add.noftz.v2.f16"}, // vectors: global only
		{"atom.global.add.noftz.v8.f16x2 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1], {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8};", "atom.global.add.noftz.v8.f16x2"},
		{"atom.global.add.b128 %q1, [%rd1], %q2;", "atom.global.add.b128"},
		{"atom.global.add.noftz.f32 %f1, [%rd1], %f2;", "atom.global.add.noftz.f32"},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			_, err := lowerBody(c.instr)
			if err == nil || !strings.Contains(err.Error(), "k.ptx:7:1: "+c.name+" is not supported yet") {
				t.Fatalf("error %v, want %q at k.ptx:7:1", err, c.name+" is not supported yet")
			}
		})
	}
}

// TestAtomicsHalfAndB128Malformed: malformed .b128 and vector atomic
// operands are errors naming the instruction, never a crash.
func TestAtomicsHalfAndB128Malformed(t *testing.T) {
	for _, c := range []struct{ instr, want string }{
		{"mov.b128 {%rd1}, %q1;", "mov.b128: expected {lo, hi}"},
		{"mov.b128 %q1, 5;", "mov.b128 is not supported yet"},
		{"mov.b128 %q1, {%rd1, %rd2, %rd3};", "mov.b128: expected {lo, hi}"},
		{"ld.global.b128 %rd1, [%rd1];", "%rd1"},
		{"st.global.b128 [%rd1], %rd2;", "%rd2"},
		{"atom.global.cas.b128 %q1, [%rd1], %r1, %q2;", "%r1"},
		{"atom.global.exch.b128 %q1, [%rd1];", "atom.global.exch.b128"},
		{"atom.global.add.noftz.v8.f16 {%rs1,%rs2}, [%rd1], {%rs1,%rs2,%rs3,%rs4,%rs5,%rs6,%rs7,%rs8};", "expected a vector of 8 registers"},
		{"red.global.add.noftz.v4.f16 [%rd1], %rs1;", "expected a vector of 4 operands"},
	} {
		t.Run(c.instr, func(t *testing.T) {
			_, err := lowerBody(c.instr)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

// TestAtomicVecResultOverInput: a vector atomic whose element result
// register is a later element's operand or the address register reads
// them before any element is written (as the one hardware instruction
// does): they are copied to fresh registers first.
func TestAtomicVecResultOverInput(t *testing.T) {
	for _, c := range []struct {
		instr  string
		copies int
	}{
		{"atom.global.add.noftz.v2.f16x2 {%r1,%r2}, [%rd1], {%r3,%r1};", 1},
		{"atom.global.add.noftz.v2.f16x2 {%r1,%r2}, [%rd1], {%r1,%r2};", 0}, // element k reads its own result register: fine
		{"atom.global.add.v2.f32 {%f1,%f2}, [%rd1], {%f3,%f1};", 1},
	} {
		t.Run(c.instr, func(t *testing.T) {
			p, err := lowerBody(c.instr)
			if err != nil {
				t.Fatal(err)
			}
			code := p.Funcs[p.FuncByName["k"]].Code
			movs := 0
			for _, in := range code {
				if in.Op == OpMov {
					movs++
				}
			}
			if movs != c.copies || len(code)-1 != c.copies+2 {
				t.Errorf("%d instructions, %d copies; want %d copies and 2 atomics", len(code)-1, movs, c.copies)
			}
		})
	}
}
