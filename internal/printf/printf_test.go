package printf

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "regenerate testdata/golden.txt from glibc's printf (needs gcc)")

// arg is one argument of a test case, as the C caller would pass it.
type arg struct {
	kind string // i u l ul d s p
	ival uint64 // integer value or float bits or pointer
	str  string
	null bool
}

type testCase struct {
	line   string // the line of cases.txt
	format string
	args   []arg
}

func parseCases(t *testing.T, data string) []testCase {
	t.Helper()
	var cases []testCase
	for n, line := range strings.Split(data, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		fail := func(msg string) { t.Fatalf("cases.txt:%d: %s: %q", n+1, msg, line) }
		q, err := strconv.QuotedPrefix(line)
		if err != nil {
			fail("bad format string")
		}
		format, _ := strconv.Unquote(q)
		tc := testCase{line: line, format: format}
		rest := line[len(q):]
		for {
			rest = strings.TrimLeft(rest, " ")
			if rest == "" {
				break
			}
			kind, val, ok := strings.Cut(rest, ":")
			if !ok {
				fail("argument without kind")
			}
			var a arg
			a.kind = kind
			if kind == "s" && strings.HasPrefix(val, `"`) {
				sq, err := strconv.QuotedPrefix(val)
				if err != nil {
					fail("bad string argument")
				}
				a.str, _ = strconv.Unquote(sq)
				rest = val[len(sq):]
			} else {
				tok, after, _ := strings.Cut(val, " ")
				rest = after
				switch {
				case kind == "s" && tok == "null":
					a.null = true
				case kind == "d" && strings.HasPrefix(tok, "0x"):
					a.ival, err = strconv.ParseUint(tok[2:], 16, 64)
				case kind == "d":
					var f float64
					f, err = strconv.ParseFloat(tok, 64)
					a.ival = math.Float64bits(f)
				case kind == "p":
					a.ival, err = strconv.ParseUint(tok, 0, 64)
				case kind == "u" || kind == "ul":
					a.ival, err = strconv.ParseUint(tok, 10, 64)
				case kind == "i" || kind == "l":
					var v int64
					v, err = strconv.ParseInt(tok, 10, 64)
					a.ival = uint64(v)
				default:
					fail("unknown argument kind " + kind)
				}
				if err != nil {
					fail(err.Error())
				}
			}
			tc.args = append(tc.args, a)
		}
		cases = append(cases, tc)
	}
	return cases
}

// pack builds the vprintf argument buffer as nvcc and clang do: each
// argument at the next offset aligned to its size. Strings get fake device
// addresses served by the returned reader.
func pack(args []arg) ([]byte, func(uint64) ([]byte, bool)) {
	var buf []byte
	strs := map[uint64][]byte{}
	put := func(size int, v uint64) {
		for len(buf)%size != 0 {
			buf = append(buf, 0)
		}
		if size == 4 {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(v))
		} else {
			buf = binary.LittleEndian.AppendUint64(buf, v)
		}
	}
	for i, a := range args {
		switch a.kind {
		case "i", "u":
			put(4, a.ival)
		case "s":
			if a.null {
				put(8, 0)
				continue
			}
			addr := uint64(0x10000 + 0x1000*i)
			strs[addr] = []byte(a.str)
			put(8, addr)
		default:
			put(8, a.ival)
		}
	}
	return buf, func(addr uint64) ([]byte, bool) { s, ok := strs[addr]; return s, ok }
}

func TestGolden(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	cases := parseCases(t, string(data))
	goldenPath := filepath.Join("testdata", "golden.txt")
	if *update {
		writeGolden(t, cases, goldenPath)
	}
	want := readGolden(t, goldenPath)
	if len(want) != len(cases) {
		t.Fatalf("golden.txt has %d cases, cases.txt %d: run with -update", len(want), len(cases))
	}
	for i, tc := range cases {
		if want[i].line != tc.line {
			t.Fatalf("golden.txt case %d is %q, cases.txt has %q: run with -update", i, want[i].line, tc.line)
		}
		buf, readString := pack(tc.args)
		got := string(Format(nil, []byte(tc.format), buf, readString))
		if got != want[i].out {
			t.Errorf("%s\n got %q\nwant %q", tc.line, got, want[i].out)
		}
	}
}

type golden struct{ line, out string }

func readGolden(t *testing.T, path string) []golden {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var g []golden
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "#") {
			continue
		}
		if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "\t") {
			t.Fatalf("%s:%d: case without expected output", path, i+1)
		}
		out, err := strconv.Unquote(lines[i+1][1:])
		if err != nil {
			t.Fatalf("%s:%d: %v", path, i+2, err)
		}
		g = append(g, golden{lines[i], out})
		i++
	}
	return g
}

// writeGolden compiles a C program that runs glibc's snprintf on every case
// and records what it printed.
func writeGolden(t *testing.T, cases []testCase, path string) {
	t.Helper()
	var src bytes.Buffer
	src.WriteString(`#include <stdio.h>
#include <string.h>
static double dbl(unsigned long long b) { double d; memcpy(&d, &b, 8); return d; }
static void out(const char *s, int n) { for (int i = 0; i < n; i++) printf("%02x", (unsigned char)s[i]); printf("\n"); }
int main(void) {
	static char buf[1 << 16]; int n;
`)
	for _, tc := range cases {
		fmt.Fprintf(&src, "\tn = snprintf(buf, sizeof buf, %s", strconv.Quote(tc.format))
		for _, a := range tc.args {
			switch a.kind {
			case "i":
				fmt.Fprintf(&src, ", (int)%dLL", int64(a.ival))
			case "u":
				fmt.Fprintf(&src, ", (unsigned)%dULL", a.ival)
			case "l":
				fmt.Fprintf(&src, ", (long long)0x%xULL", a.ival)
			case "ul":
				fmt.Fprintf(&src, ", (unsigned long long)0x%xULL", a.ival)
			case "d":
				fmt.Fprintf(&src, ", dbl(0x%xULL)", a.ival)
			case "p":
				fmt.Fprintf(&src, ", (void *)0x%xULL", a.ival)
			case "s":
				if a.null {
					src.WriteString(", (char *)0")
				} else {
					fmt.Fprintf(&src, ", %s", strconv.Quote(a.str))
				}
			}
		}
		src.WriteString("); out(buf, n);\n")
	}
	src.WriteString("\treturn 0;\n}\n")
	dir := t.TempDir()
	cfile := filepath.Join(dir, "gen.c")
	if err := os.WriteFile(cfile, src.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "gen")
	if out, err := exec.Command("gcc", "-w", "-O0", "-o", exe, cfile).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	out, err := exec.Command(exe).Output()
	if err != nil {
		t.Fatalf("running the generator: %v", err)
	}
	var g bytes.Buffer
	g.WriteString("# What glibc's printf prints for each case of cases.txt (generated by `go test -run TestGolden -update`).\n")
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for _, tc := range cases {
		if !sc.Scan() {
			t.Fatal("generator output ends early")
		}
		b, err := hex.DecodeString(sc.Text())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&g, "%s\n\t%s\n", tc.line, strconv.Quote(string(b)))
	}
	if err := os.WriteFile(path, g.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestArgumentBuffer checks the vprintf buffer layout rules that the golden
// cases (which pack their own buffers) rely on, with hand-built buffers.
func TestArgumentBuffer(t *testing.T) {
	le32 := func(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
	le64 := func(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	pad4 := []byte{0xAA, 0xAA, 0xAA, 0xAA} // alignment padding, never read
	tests := []struct {
		name   string
		format string
		args   []byte
		want   string
	}{
		{"int then double aligns to 8", "%d %f", cat(le32(7), pad4, le64(math.Float64bits(0.5))), "7 0.500000"},
		{"int then long long aligns to 8", "%d %lld", cat(le32(1), pad4, le64(1<<40)), "1 1099511627776"},
		{"two ints pack", "%d %d %d", cat(le32(1), le32(2), le32(3)), "1 2 3"},
		{"star width is an int", "%*d|", cat(le32(4), le32(9)), "   9|"},
		{"short buffer reads zeros", "%d %d", le32(5), "5 0"},
		{"no buffer", "%d", nil, "0"},
		{"NUL ends the format", "ab\x00cd", nil, "ab"},
		{"hh truncates a promoted int", "%hhd", le32(0x1ff), "-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(Format(nil, []byte(tt.format), tt.args, nil))
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestMaxArgs(t *testing.T) {
	format := strings.Repeat("%d,", MaxArgs+2)
	var args []byte
	var want strings.Builder
	for i := range MaxArgs + 2 {
		args = binary.LittleEndian.AppendUint32(args, uint32(i))
		if i < MaxArgs {
			fmt.Fprintf(&want, "%d,", i)
		} else {
			want.WriteString("%d,")
		}
	}
	if got := string(Format(nil, []byte(format), args, nil)); got != want.String() {
		t.Errorf("got %q\nwant %q", got, want.String())
	}
}

func TestBadStringAddress(t *testing.T) {
	args := binary.LittleEndian.AppendUint64(nil, 0x1234)
	got := string(Format(nil, []byte("[%s]"), args, func(uint64) ([]byte, bool) { return nil, false }))
	if want := "[(bad string address 0x1234)]"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func FuzzFormat(f *testing.F) {
	f.Add([]byte("%d %s %f %*.*e %#a %hhx %lld %p %%"), []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Fuzz(func(t *testing.T, format, args []byte) {
		Format(nil, format, args, func(uint64) ([]byte, bool) { return []byte("s"), true })
	})
}
