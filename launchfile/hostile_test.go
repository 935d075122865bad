package launchfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFloatRange: decimals a float type cannot hold are refused, naming
// the value and what to write instead (they silently became inf or 0:
// issue 16 #15); explicit "inf"/"nan", subnormals and bit patterns are
// still accepted.
func TestFloatRange(t *testing.T) {
	for _, tc := range []struct {
		value, want string // want "" means accepted
	}{
		{`{"f32": [1e39]}`, `f32 value 1e39 is out of range (the largest finite f32 is 3.4028235e+38); write "inf" or "-inf" for infinity`},
		{`{"f32": [-1e39]}`, "f32 value -1e39 is out of range"},
		{`{"f32": [1e-50]}`, `f32 value 1e-50 is too small: it rounds to 0 (the smallest non-zero f32 is 1.4e-45); write 0, or a "0x…" bit pattern`},
		{`{"f16": [70000]}`, "f16 value 70000 is out of range (the largest finite f16 is 65504)"},
		{`{"f16": [1e-10]}`, "f16 value 1e-10 is too small"},
		{`{"f64": [1e309]}`, "f64 value 1e309 is out of range"},
		{`{"f64": [1e-400]}`, "f64 value 1e-400 is too small"},
		{`{"f32": ["1e39"]}`, "f32 value 1e39 is out of range"},
		{`{"f32": [3.4028235e38, 1.4e-45, 0, -0.0, 0e5, "inf", "-inf", "nan", "0x7f800000"]}`, ""},
		{`{"f16": [65504, 5.96e-8, "inf"]}`, ""},
		{`{"f64": [1.7976931348623157e308, 5e-324]}`, ""},
	} {
		src := `{"module": "k.ptx", "buffers": {"b": ` + tc.value + `}, "launches": []}`
		_, err := Parse("t.json", "testdata", []byte(src))
		switch {
		case tc.want == "" && err != nil && strings.Contains(err.Error(), "value"):
			t.Errorf("%s: %v", tc.value, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want %q", tc.value, err, tc.want)
		}
	}
}

// TestEndlessFiles: /dev/zero (an endless stream) as the launch file, its
// "source" or its "module" is refused at once, naming the path and why
// (the launch file and a source were read until memory ran out).
func TestEndlessFiles(t *testing.T) {
	if _, err := Load("/dev/zero"); err == nil || !strings.Contains(err.Error(), "/dev/zero is not a regular file (a character device)") {
		t.Errorf("Load(/dev/zero): %v", err)
	}
	compile := WithCompiler(func(string) ([]byte, error) { t.Error("the compiler was handed /dev/zero"); return nil, nil })
	for _, key := range []string{"source", "module"} {
		src := `{"` + key + `": "/dev/zero", "launches": []}`
		_, err := Parse("t.json", "testdata", []byte(src), compile)
		if err == nil || !strings.Contains(err.Error(), "/dev/zero is not a regular file (a character device)") {
			t.Errorf("%s /dev/zero: %v", key, err)
		}
	}
}

// FuzzLaunchFile: no launch-file text makes the parser panic, hang or read
// an endless file; every error names the file. Seeds: the launch files
// under testdata here and under cmd/warpsim/testdata/run.
func FuzzLaunchFile(f *testing.F) {
	for _, dir := range []string{"testdata", filepath.Join("..", "cmd", "warpsim", "testdata", "run")} {
		paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte(`{"module": "k.ptx", "buffers": {"b": {"f32": [1e39]}}, "launches": [{"kernel": "k", "grid": [1], "block": [1], "args": [{"buffer": "b"}]}]}`))
	f.Add([]byte(`{"source": "/dev/zero"}`))
	f.Add([]byte(`{"module": "k.ptx", "buffers": {"t": {"bytes": 4096}}, "launches": [{"kernel": "k", "grid": [1], "block": [1], "args": [{"tensor_map": {"mode": "im2col", "buffer": "t", "type": "f16", "dims": [16, 9, 6, 2], "strides": [32, 288, 1728], "pixel_box_lower_corner": [-1, -1], "pixel_box_upper_corner": [-1, -1], "channels_per_pixel": 16, "pixels_per_column": 64}}]}]}`))
	// Parse without WithCompiler: no compiler runs under the fuzzer.
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse("fuzz.json", "testdata", data)
		if err != nil && !strings.Contains(err.Error(), "fuzz.json") {
			t.Errorf("error without the file's name: %v", err)
		}
	})
}

// TestMisleadingMessages: file names that got misleading errors get ones
// that say what is wrong (issue 16 #20).
func TestMisleadingMessages(t *testing.T) {
	long := strings.Repeat("a", 10000)
	for _, tc := range []struct{ src, want, not string }{
		{`{"module": "", "launches": []}`, "module: want a file name, got an empty string", ""},
		{`{"module": "k.ptx", "buffers": {"b": {"file": ""}}, "launches": []}`, "buffers.b.file: want a file name, got an empty string", "directory"},
		{`{"module": "k.ptx", "buffers": {"b": {"file": "/proc/self/environ"}}, "launches": []}`, "/proc/self/environ is empty (0 bytes)", "cannot be empty"},
		{`{"module": "` + long + `", "launches": []}`, "a file name of 10000 bytes is longer than any path (4096 at most)", long[:5000]},
	} {
		_, err := Parse("t.json", "testdata", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) || (tc.not != "" && strings.Contains(err.Error(), tc.not)) {
			msg := "<nil>"
			if err != nil {
				msg = err.Error()
				if len(msg) > 300 {
					msg = msg[:300] + "…"
				}
			}
			t.Errorf("%.80s: got %s, want %q", tc.src, msg, tc.want)
		}
	}
}
