package launchfile

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadOK(t *testing.T) {
	f, err := Load(filepath.Join("testdata", "ok.json"))
	if err != nil {
		t.Fatal(err)
	}
	if f.ModulePath != filepath.Join("testdata", "k.ptx") || f.FromSource || !bytes.HasPrefix(f.Module, []byte("// Not parsed")) {
		t.Errorf("module %q from source %v: %q", f.ModulePath, f.FromSource, f.Module)
	}
	if f.Arch != "h100" {
		t.Errorf("arch %q", f.Arch)
	}
	wantBuffers := []struct {
		name string
		size uint64
		init []byte
	}{
		{"a", 8, []byte{1, 2, 3, 4, 5, 6, 7, 8}},
		{"out", 16, nil},
		// 1.5 = 0x3fc00000, 2 = 0x40000000, -0 = 0x80000000, NaN = 0x7fc00000, inf = 0x7f800000, raw bits 1
		{"x", 24, []byte{0, 0, 0xc0, 0x3f, 0, 0, 0, 0x40, 0, 0, 0, 0x80, 0, 0, 0xc0, 0x7f, 0, 0, 0x80, 0x7f, 1, 0, 0, 0}},
		// f16: 1 = 0x3c00, 65504 = 0x7bff, "inf" = 0x7c00 (65520 would round to it: refused), 0.1 = 0x2e66, 2^-24 = 0x0001; padded to 12 bytes
		{"h", 12, []byte{0x00, 0x3c, 0xff, 0x7b, 0x00, 0x7c, 0x66, 0x2e, 0x01, 0x00}},
		{"i", 2, []byte{0x80, 0x7f}},
	}
	if len(f.Buffers) != len(wantBuffers) {
		t.Fatalf("%d buffers, want %d", len(f.Buffers), len(wantBuffers))
	}
	for i, w := range wantBuffers {
		b := f.Buffers[i]
		init := b.Init
		if b.InitFile != "" { // a {"file": …} buffer: streamed at Execute, not read here
			if b.Init != nil {
				t.Errorf("buffer %s holds its file's bytes", b.Name)
			}
			var err error
			if init, err = os.ReadFile(b.InitFile); err != nil {
				t.Fatal(err)
			}
		}
		if b.Name != w.name || b.Size != w.size || !bytes.Equal(init, w.init) {
			t.Errorf("buffer %d: %s %d % x, want %s %d % x", i, b.Name, b.Size, init, w.name, w.size, w.init)
		}
	}
	if len(f.Globals) != 2 || f.Globals[0].Name != "coeffs" || len(f.Globals[0].Init) != 16 ||
		f.Globals[1].Buffer != "out" || f.Globals[1].Offset != 4 {
		t.Errorf("globals %+v %+v", f.Globals[0], f.Globals[1])
	}
	if len(f.Launches) != 2 {
		t.Fatalf("%d launches", len(f.Launches))
	}
	l0, l1 := f.Launches[0], f.Launches[1]
	if l0.Kernel != "vecAdd" || l0.Grid != [3]uint32{4, 1, 1} || l0.Block != [3]uint32{256, 2, 1} || l0.SharedBytes != 128 {
		t.Errorf("launch 0: %+v", l0)
	}
	if l1.Grid != [3]uint32{3, 1, 1} || l1.Block != [3]uint32{1, 1, 64} || len(l1.Args) != 0 {
		t.Errorf("launch 1: %+v", l1)
	}
	wantArgs := []Arg{
		{Buffer: "a"},
		{Buffer: "out", Offset: 8},
		{Bytes: []byte{0x60, 0x79, 0xfe, 0xff}, Type: "s32"}, // -100000
		{Bytes: []byte{0, 0, 0x20, 0x40}, Type: "f32"},       // 2.5
		{Bytes: []byte{0, 0, 0x20, 0x40}, Type: "bytes_hex"},
		{Bytes: []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, Type: "u64"},
	}
	for i, w := range wantArgs {
		a := l0.Args[i]
		if a.Buffer != w.Buffer || a.Offset != w.Offset || !bytes.Equal(a.Bytes, w.Bytes) || a.Type != w.Type {
			t.Errorf("arg %d: %+v, want %+v", i, a, w)
		}
	}
	if l0.Args[2].Path != "launches[0].args[2]" || l0.Args[2].Line != 14 {
		t.Errorf("arg 2 position %s line %d", l0.Args[2].Path, l0.Args[2].Line)
	}
}

func TestLoadErrors(t *testing.T) {
	const head = `{"module": "k.ptx", "launches": [{"kernel": "k", "grid": [1], "block": [1]}],` + "\n"
	tests := []struct {
		name string
		src  string
		want string // the whole message of the first error
	}{
		{"syntax", `{"module": "k.ptx",` + "\n" + `"launches": [}`, "x.json:2: invalid JSON: invalid character '}' looking for beginning of value"},
		{"truncated", `{"module": "k.ptx"`, "x.json:1: invalid JSON: unexpected end of file"},
		{"not an object", `[1]`, "x.json:1: a launch file is a JSON object, got a list"},
		{"unknown top key", head + `"buffer": {}}`, "x.json:2: buffer: unknown key (want module, source, arch, limits, buffers, globals, launches)"},
		{"duplicate key", head + `"arch": "h100", "arch": "a100"}`, `x.json:2: duplicate key "arch"`},
		{"limits unknown key", head + `"limits": {"stack": 1}}`, "x.json:2: limits.stack: unknown key (want stack_bytes, heap_bytes)"},
		{"limits not an object", head + `"limits": 4096}`, "x.json:2: limits: want an object with stack_bytes and heap_bytes, got a number"},
		{"limits negative", head + `"limits": {"stack_bytes": -1}}`, "x.json:2: limits.stack_bytes: want an integer in [0, 16777216], got -1"},
		{"missing module", `{"launches": [{"kernel": "k", "grid": [1], "block": [1]}]}`, "x.json:1: missing module (a .ptx file) or source (a .cu file)"},
		{"module and source", `{"module": "k.ptx", "source": "k.cu", "launches": [{"kernel": "k", "grid": [1], "block": [1]}]}`, "x.json:1: source: give either module or source, not both"},
		{"missing module file", `{"module": "nope.ptx", "launches": [{"kernel": "k", "grid": [1], "block": [1]}]}`, "x.json:1: module: testdata/nope.ptx: no such file or directory"},
		{"missing launches", `{"module": "k.ptx"}`, "x.json:1: missing launches"},
		{"bad arch", head + `"arch": "h900"}`, "x.json:2: arch: "},
		{"missing buffer file", head + `"buffers": {"a": {"file": "missing.bin"}}}`, "x.json:2: buffers.a.file: testdata/missing.bin: no such file or directory"},
		{"device buffer file", head + `"buffers": {"a": {"file": "/dev/zero"}}}`, "x.json:2: buffers.a.file: /dev/zero is not a regular file (a character device); devices and pipes have no size to check: copy the data to a file"},
		{"directory buffer file", head + `"buffers": {"a": {"file": "."}}}`, "x.json:2: buffers.a.file: testdata is not a regular file (a directory)"},
		{"device module", `{"module": "/dev/zero", "launches": [{"kernel": "k", "grid": [1], "block": [1]}]}`, "x.json:1: module: /dev/zero is not a regular file (a character device)"},
		{"unknown buffer key", head + `"buffers": {"a": {"f33": [1]}}}`, "x.json:2: buffers.a.f33: unknown key (want file, bytes, bytes_hex or a type: s8 s16 s32 s64 u8 u16 u32 u64 f16 f32 f64)"},
		{"two initializers", head + `"buffers": {"i": {"s8": [1], "u16": 0}}}`, "x.json:2: buffers.i.u16: only one initializer per entry (already have s8)"},
		{"s8 out of range", head + `"buffers": {"a": {"s8": [1, 2, 128]}}}`, "x.json:2: buffers.a.s8[2]: s8 value 128 is not an integer in [-128, 127]"},
		{"u8 negative", head + `"buffers": {"a": {"u8": [-1]}}}`, "x.json:2: buffers.a.u8[0]: u8 value -1 is not an integer in [0, 255]"},
		{"int not whole", head + `"buffers": {"a": {"s32": [1.5]}}}`, "x.json:2: buffers.a.s32[0]: s32 value 1.5 is not an integer in [-2147483648, 2147483647]"},
		{"float string", head + `"buffers": {"a": {"f32": ["one"]}}}`, `x.json:2: buffers.a.f32[0]: f32 value "one" is not a number`},
		{"hex too wide", head + `"buffers": {"a": {"u8": ["0x100"]}}}`, `x.json:2: buffers.a.u8[0]: "0x100" is not a 8-bit hexadecimal bit pattern`},
		{"bytes smaller than data", head + `"buffers": {"a": {"f32": [1, 2], "bytes": 4}}}`, "x.json:2: buffers.a.bytes: 4 bytes is smaller than the 8 bytes of f32"},
		{"bad buffer name", head + `"buffers": {"../x": {"bytes": 4}}}`, "x.json:2: buffers.../x: a buffer name is letters, digits, '_', '-' and '.', not starting with '.' or '-' (it names the file --save-dir writes)"},
		{"empty buffer", head + `"buffers": {"a": {"bytes": 0}}}`, "x.json:2: buffers.a: a buffer cannot be empty"},
		{"odd hex", head + `"buffers": {"a": {"bytes_hex": "abc"}}}`, "x.json:2: buffers.a.bytes_hex: odd number of hex digits"},
		{"global file", head + `"globals": {"g": {"file": "a.bin"}}}`, "x.json:2: globals.g.file: unknown key (want bytes, bytes_hex, buffer or a type: s8 s16 s32 s64 u8 u16 u32 u64 f16 f32 f64)"},
		{"launch unknown key", `{"module": "k.ptx", "launches": [{"kernel": "k", "grid": [1], "block": [1], "blocks": 2}]}`, "x.json:1: launches[0].blocks: unknown key (want kernel, grid, block, shared_bytes, cooperative, cluster, args)"},
		{"launch missing block", `{"module": "k.ptx", "launches": [{"kernel": "k", "grid": [1]}]}`, "x.json:1: launches[0]: missing block"},
		{"zero grid", `{"module": "k.ptx", "launches": [{"kernel": "k", "grid": [1, 0], "block": [1]}]}`, "x.json:1: launches[0].grid[1]: must be at least 1"},
		{"grid too long", `{"module": "k.ptx", "launches": [{"kernel": "k", "grid": [1, 1, 1, 1], "block": [1]}]}`, "x.json:1: launches[0].grid: want [x, y, z] (1 to 3 positive integers)"},
		{"no buffer", `{"module": "k.ptx", "launches": [{"kernel": "k", "grid": [1], "block": [1],` + "\n\n" + `"args": [{"s32": 1}, {"buffer": "b"}]}]}`, `x.json:3: launches[0].args[1]: no buffer named "b"`},
		{"offset past end", `{"module": "k.ptx", "buffers": {"b": {"bytes": 8}}, "launches": [{"kernel": "k", "grid": [1], "block": [1], "args": [{"buffer": "b", "offset": 9}]}]}`, "x.json:1: launches[0].args[0]: offset 9 is past the end of buffer b (8 bytes)"},
		{"scalar two keys", `{"module": "k.ptx", "launches": [{"kernel": "k", "grid": [1], "block": [1], "args": [{"s32": 1, "u32": 2}]}]}`, "x.json:1: launches[0].args[0].u32: a scalar argument has one key"},
		{"scalar bad type", `{"module": "k.ptx", "launches": [{"kernel": "k", "grid": [1], "block": [1], "args": [{"int": 1}]}]}`, "x.json:1: launches[0].args[0].int: unknown key (want buffer, bytes_hex or a type: s8 s16 s32 s64 u8 u16 u32 u64 f16 f32 f64)"},
		{"buffer arg extra key", `{"module": "k.ptx", "buffers": {"b": {"bytes": 8}}, "launches": [{"kernel": "k", "grid": [1], "block": [1], "args": [{"buffer": "b", "offs": 1}]}]}`, "x.json:1: launches[0].args[0].offs: unknown key (a buffer argument has buffer and offset)"},
		{"source without compiler", `{"source": "k.ptx", "launches": [{"kernel": "k", "grid": [1], "block": [1]}]}`, "x.json:1: source: compiling CUDA source is not available in this build; compile it with `warpsim compile k.ptx` and name the .ptx as module"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.Contains(tt.src, "/dev/zero") {
				if _, err := os.Stat("/dev/zero"); err != nil {
					t.Fatalf("this test needs /dev/zero: %v", err)
				}
			}
			_, err := Parse("x.json", "testdata", []byte(tt.src))
			if err == nil {
				t.Fatal("no error")
			}
			first := err
			var list ErrorList
			if errors.As(err, &list) {
				first = list[0]
			}
			if !strings.HasPrefix(first.Error(), tt.want) {
				t.Errorf("got  %s\nwant %s", err, tt.want)
			}
		})
	}
}

func TestSeveralErrors(t *testing.T) {
	src := `{"module": "k.ptx", "bogus": 1,
"buffers": {"a": {"s8": [300]}},
"launches": [{"kernel": "k", "grid": [0], "block": [1]}]}`
	_, err := Parse("x.json", "testdata", []byte(src))
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 3 {
		t.Fatalf("want 3 errors, got %v", err)
	}
	want := "x.json:1: bogus: unknown key (want module, source, arch, limits, buffers, globals, launches)\n" +
		"x.json:2: buffers.a.s8[0]: s8 value 300 is not an integer in [-128, 127]\n" +
		"x.json:3: launches[0].grid[0]: must be at least 1"
	if err.Error() != want {
		t.Errorf("got\n%s\nwant\n%s", err, want)
	}
}

func TestSourceCompiles(t *testing.T) {
	var gotPath string
	compile := WithCompiler(func(path string) ([]byte, error) { gotPath = path; return []byte("// ptx"), nil })
	f, err := Parse("x.json", "testdata", []byte(`{"source": "k.ptx", "launches": [{"kernel": "k", "grid": [1], "block": [1]}]}`), compile)
	if err != nil {
		t.Fatal(err)
	}
	if gotPath != filepath.Join("testdata", "k.ptx") || !f.FromSource || string(f.Module) != "// ptx" {
		t.Errorf("compiled %q, module %q", gotPath, f.Module)
	}
	fails := WithCompiler(func(string) ([]byte, error) { return nil, errors.New("clang-22 not found") })
	_, err = Parse("x.json", "testdata", []byte(`{"source": "k.ptx", "launches": [{"kernel": "k", "grid": [1], "block": [1]}]}`), fails)
	if err == nil || err.Error() != "x.json:1: source: compiling k.ptx: clang-22 not found" {
		t.Errorf("err = %v", err)
	}
	_, err = Parse("x.json", "testdata", []byte(`{"source": "k.ptx", "launches": [{"kernel": "k", "grid": [1], "block": [1]}]}`))
	if err == nil || !strings.Contains(err.Error(), "warpsim compile k.ptx") {
		t.Errorf("without a compiler: err = %v", err)
	}
}

func TestF16(t *testing.T) {
	tests := []struct {
		in   float64
		want uint16
	}{
		{0, 0x0000}, {math.Copysign(0, -1), 0x8000}, {1, 0x3c00}, {-2, 0xc000}, {0.5, 0x3800},
		{65504, 0x7bff}, {65519.99, 0x7bff}, {65520, 0x7c00}, {1e10, 0x7c00}, {math.Inf(-1), 0xfc00},
		{0x1p-14, 0x0400}, {0x1p-24, 0x0001}, {0x1p-25, 0x0000}, {0x1.8p-25, 0x0001}, {0x3p-25, 0x0002}, // ties to even
		{0x1.ff8p-15, 0x03ff}, {0x1.ffcp-15, 0x0400}, // largest subnormal; tie rounding up to the smallest normal
		{1 + 0x1p-11, 0x3c00}, {1 + 0x3p-11, 0x3c02}, {0.1, 0x2e66}, {3.14159, 0x4248},
	}
	for _, tt := range tests {
		if got := f16FromF64(tt.in); got != tt.want {
			t.Errorf("f16(%v) = %#04x, want %#04x", tt.in, got, tt.want)
		}
	}
	if got := f16FromF64(math.NaN()); got&0x7c00 != 0x7c00 || got&0x3ff == 0 {
		t.Errorf("f16(NaN) = %#04x", got)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"module": "k.ptx", "buffers": {"a": {"f32": [1]}}, "launches": [{"kernel": "k", "grid": [1], "block": [1], "args": [{"buffer": "a"}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		Parse("f.json", "testdata", data)
	})
}

// TestBufferFileTooLarge: a {"file": …} buffer is capped like {"bytes": …}
// (1 TiB); a sparse file one byte over is refused before anything is read.
func TestBufferFileTooLarge(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.bin")
	fh, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := fh.Truncate(maxBufferBytes + 1); err != nil {
		fh.Close()
		t.Fatalf("cannot make a sparse file here: %v", err)
	}
	fh.Close()
	src := `{"module": "` + filepath.Join(mustAbs(t, "testdata"), "k.ptx") + `", "buffers": {"a": {"file": "big.bin"}}, "launches": [{"kernel": "k", "grid": [1], "block": [1]}]}`
	_, err = Parse("x.json", dir, []byte(src))
	want := "x.json:1: buffers.a.file: " + big + " is 1099511627777 bytes, more than the limit of 1099511627776"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestLoadLimits(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "k.ptx"), []byte("// k"), 0o644)
	p := filepath.Join(dir, "l.json")
	os.WriteFile(p, []byte(`{"module": "k.ptx", "limits": {"stack_bytes": 16384, "heap_bytes": 1048576}, "launches": [{"kernel": "k", "grid": [1], "block": [1]}]}`), 0o644)
	f, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if f.StackBytes != 16384 || f.HeapBytes != 1<<20 {
		t.Errorf("limits: stack %d heap %d", f.StackBytes, f.HeapBytes)
	}
}
