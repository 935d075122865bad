package launchfile

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// tmaPattern32 is testdata/tma/tma_probe.cu's f32 pattern(): element k's bits.
func tmaPattern32(k uint32) uint32 {
	h := k*2654435761 ^ k<<13 ^ k>>7
	return (k/3&1)<<31 | (118+k%20)<<23 | h>>9&0x7fffff
}

// TestTensorMapArg runs the H100-recorded case l2d_f32_edge of
// testdata/tma (a 16x8 f32 box at (56, 28) of a 64x32 tensor, half out of
// bounds) from a launch file whose tensor map argument describes the
// tensor, and compares the shared memory the kernel dumps with the H100's.
func TestTensorMapArg(t *testing.T) {
	dir := t.TempDir()
	ptx, err := os.ReadFile("../testdata/tma/ptx/tma_probe.ptx")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := os.ReadFile("../testdata/tma/out/l2d_f32_edge.bin")
	if err != nil {
		t.Fatal(err)
	}
	want := rec[8:]
	tensor := make([]byte, 64*32*4)
	for k := range uint32(64 * 32) {
		binary.LittleEndian.PutUint32(tensor[4*k:], tmaPattern32(k))
	}
	params := make([]byte, 40) // struct Params: c[5], dstOff, expect, dump, nsrc, mask
	le := binary.LittleEndian
	le.PutUint32(params[0:], 56)
	le.PutUint32(params[4:], 28)
	le.PutUint32(params[24:], 512)
	le.PutUint32(params[28:], 2048)
	le.PutUint32(params[32:], 512)
	lf := `{"module": "tma_probe.ptx", "arch": "h100",
 "buffers": {"t": {"file": "t.bin"}, "out": {"bytes": ` + strconv.Itoa(len(want)) + `}},
 "launches": [{"kernel": "kload2", "grid": [1, 1, 1], "block": [128, 1, 1], "shared_bytes": 4096,
  "args": [{"tensor_map": {"buffer": "t", "type": "f32", "dims": [64, 32], "strides": [256], "box": [16, 8]}},
           {"bytes_hex": "` + hex.EncodeToString(params) + `"}, {"buffer": "out"}]}]}`
	for name, b := range map[string][]byte{"tma_probe.ptx": ptx, "t.bin": tensor, "l.json": []byte(lf)} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := Load(filepath.Join(dir, "l.json"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := f.Execute(warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{}), ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := mustBuffer(t, out, "out"); !bytes.Equal(got, want) {
		t.Errorf("shared memory differs from the H100's")
	}

	// A map the driver refuses (a 12-byte inner box) is an error naming why.
	bad := strings.Replace(lf, `"box": [16, 8]`, `"box": [3, 8]`, 1)
	os.WriteFile(filepath.Join(dir, "bad.json"), []byte(bad), 0o644)
	if f, err = Load(filepath.Join(dir, "bad.json")); err != nil {
		t.Fatal(err)
	}
	if _, err = f.Execute(warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{}), ExecOptions{}); err == nil || !strings.Contains(err.Error(), "inner dimension is 12 bytes") {
		t.Errorf("error %v, want the encode's reason", err)
	}
}

// TestTensorMapArgErrors: a malformed tensor map argument is a load error
// at its key.
func TestTensorMapArgErrors(t *testing.T) {
	for _, c := range []struct{ arg, want string }{
		{`{"tensor_map": {"buffer": "t", "type": "f33", "dims": [4], "box": [4]}}`, `unknown "f33"`},
		{`{"tensor_map": {"buffer": "t", "type": "f32", "dims": [4, 4], "box": [4, 4]}}`, "strides has 0 entries"},
		{`{"tensor_map": {"buffer": "t", "type": "f32", "dims": [4], "box": [4], "swizzle": "16B"}}`, `unknown "16B"`},
		{`{"tensor_map": {"buffer": "t", "type": "f32", "dims": [4]}}`, "needs buffer, type, dims and box"},
		{`{"tensor_map": {"buffer": "t", "type": "f32", "dims": [4], "box": [300]}}`, "box[0]"},
		{`{"tensor_map": {"buffer": "t", "type": "f32", "dims": [4], "box": [4], "colour": 1}}`, "unknown key"},
	} {
		dir := t.TempDir()
		lf := `{"module": "m.ptx", "buffers": {"t": {"bytes": 64}}, "launches": [{"kernel": "k", "args": [` + c.arg + `]}]}`
		os.WriteFile(filepath.Join(dir, "m.ptx"), []byte(".version 8.0\n.target sm_90\n.address_size 64\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "l.json"), []byte(lf), 0o644)
		_, err := Load(filepath.Join(dir, "l.json"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.arg, err, c.want)
		}
	}
}
