package ptx

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// corpusFiles are the PTX inputs of the tests: compiler output, hand-written
// forms and the error cases.
func corpusFiles(t testing.TB) []string {
	var files []string
	for _, dir := range []string{"nvcc", "clang", "hand", "errors"} {
		f, err := filepath.Glob(filepath.Join("testdata", dir, "*.ptx"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f...)
	}
	// Triton 3.6's PTX (issue 18's corpus, recorded on an H100).
	f, err := filepath.Glob(filepath.Join("..", "testdata", "triton", "*", "*.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	return append(files, f...)
}

// checkParse parses src and checks the invariants that hold for any input:
// no internal error, at most maxErrors errors, sorted, each at a valid
// position of the file; and a module that prints and reparses to the same
// text when there was no error.
func checkParse(t *testing.T, src []byte) {
	const name = "in.ptx"
	m, err := Parse(name, src)
	if m == nil {
		t.Fatal("Parse returned a nil Module")
	}
	out := Format(m) // must not panic on partial modules either
	if err != nil {
		list, ok := err.(ErrorList)
		if !ok {
			t.Fatalf("error is %T, not ErrorList", err)
		}
		if len(list) == 0 || len(list) > maxErrors {
			t.Fatalf("%d errors", len(list))
		}
		if !sort.IsSorted(list) {
			t.Errorf("errors not sorted: %v", list)
		}
		lines := bytes.Split(src, []byte("\n"))
		for _, e := range list {
			if strings.Contains(e.Msg, "internal error") {
				t.Fatalf("%s", e)
			}
			p := e.Pos
			if p.Filename != name || p.Line < 1 || p.Line > len(lines) || p.Column < 1 || p.Column > len(lines[p.Line-1])+1 {
				t.Errorf("error at invalid position: %s", e)
			}
			if e.Msg == "" {
				t.Errorf("empty message at %s", p)
			}
		}
		return
	}
	m2, err := Parse("printed.ptx", out)
	if err != nil {
		t.Fatalf("printed module does not parse: %v\n%s", err, out)
	}
	if out2 := Format(m2); !bytes.Equal(out, out2) {
		t.Fatalf("printing is not stable:\n%s\n----\n%s", out, out2)
	}
	stripModule(m)
	stripModule(m2)
	m.File, m2.File = nil, nil
	if !reflect.DeepEqual(m, m2) {
		t.Fatalf("printed module parses to a different tree:\n%s", out)
	}
}

// stripModule clears positions (which differ between a source and its
// printed form) and the nil/empty distinction of slices the printer does
// not preserve.
func stripModule(m *Module) {
	m.VersionPos, m.TargetPos, m.AddressSizePos = NoPos, NoPos, NoPos
	for _, v := range m.Vars {
		stripVar(v)
	}
	for _, f := range m.Funcs {
		stripFunc(f)
	}
}

func stripFunc(f *Func) {
	f.Pos = 0
	for _, v := range f.Returns {
		stripVar(v)
	}
	for _, v := range f.Params {
		stripVar(v)
	}
	if len(f.Returns) == 0 {
		f.Returns = nil
	}
	if len(f.Params) == 0 {
		f.Params = nil
	}
	stripBody(f.Body)
}

func stripVar(v *Var) {
	v.Pos = 0
	for i := range v.Init {
		v.Init[i].Pos = 0
	}
}

func stripBody(b []Stmt) {
	for i := range b {
		s := &b[i]
		s.Pos = 0
		if s.Instr != nil {
			s.Instr.Pos = 0
			stripOperands(s.Instr.Operands)
		}
		if s.Decl != nil {
			stripVar(s.Decl)
		}
		if s.Proto != nil {
			stripFunc(s.Proto)
		}
		stripBody(s.Block)
	}
}

func stripOperands(ops []Operand) {
	for i := range ops {
		ops[i].Pos = 0
		stripOperands(ops[i].Elems)
	}
}

func FuzzParse(f *testing.F) {
	for _, file := range corpusFiles(f) {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) { checkParse(t, src) })
}

// TestFormatRoundTrip prints every corpus module and parses it again.
func TestFormatRoundTrip(t *testing.T) {
	for _, file := range corpusFiles(t) {
		t.Run(file, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			checkParse(t, src)
		})
	}
}
