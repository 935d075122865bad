package launchfile

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// im2colRec is one line of testdata/tma/im2col_cases.txt (format in its
// header): the arguments im2col_probe.cu gave cuTensorMapEncodeIm2col on
// the GPU and the load it ran.
type im2colRec struct {
	name, kind         string
	dtype, rank        int
	g, s               [5]int64
	lo, up             [3]int64
	cpp, ppc           int64
	e                  [5]int64
	il, sw, l2, oob    int64
	c                  [5]int64
	o                  [3]int64
	dstoff, gaoff, pat int64
}

func readIm2colRecs(t *testing.T) []im2colRec {
	t.Helper()
	f, err := os.Open("../testdata/tma/im2col_cases.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []im2colRec
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		if len(fs) != 41 {
			t.Fatalf("im2col_cases.txt: %d fields in %q", len(fs), sc.Text())
		}
		n := func(i int) int64 {
			x, err := strconv.ParseInt(fs[i], 10, 64)
			if err != nil {
				t.Fatalf("im2col_cases.txt: %v", err)
			}
			return x
		}
		r := im2colRec{name: fs[0], kind: fs[1], dtype: int(n(2)), rank: int(n(3)), cpp: n(19), ppc: n(20),
			il: n(26), sw: n(27), l2: n(28), oob: n(29), dstoff: n(38), gaoff: n(39), pat: n(40)}
		for i := 0; i < 5; i++ {
			r.g[i], r.e[i], r.c[i] = n(4+i), n(21+i), n(30+i)
			if i > 0 {
				r.s[i] = n(8 + i)
			}
		}
		for i := 0; i < 3; i++ {
			r.lo[i], r.up[i], r.o[i] = n(13+i), n(16+i), n(35+i)
		}
		out = append(out, r)
	}
	return out
}

// cuTensorMapTypes are CUtensorMapDataType's values in order (cuda.h), by
// their launch-file names.
var cuTensorMapTypes = []string{"u8", "u16", "u32", "s32", "u64", "s64", "f16", "f32", "f64", "bf16", "f32_ftz", "tf32", "tf32_ftz"}

func elemBytes(dt int) int {
	switch dt {
	case 0:
		return 1
	case 1, 6, 9:
		return 2
	case 4, 5, 8:
		return 8
	}
	return 4
}

// im2colPattern is im2col_probe.cu's pattern(): element k's bits.
func im2colPattern(dt int, pat int64, k uint32) uint64 {
	hash := func(k uint32) uint32 { return k*2654435761 ^ k<<13 ^ k>>7 }
	h, h2 := hash(k), hash(k+7777)
	if pat == 0 {
		s := k / 3 & 1
		switch dt {
		case 6:
			return uint64(s<<15 | (10+k%10)<<10 | h>>6&0x3ff)
		case 9:
			return uint64(s<<15 | (118+k%20)<<7 | h>>9&0x7f)
		case 7, 10, 11, 12:
			return uint64(s<<31 | (118+k%20)<<23 | h>>9&0x7fffff)
		case 8:
			return uint64(s)<<63 | uint64(1016+k%20)<<52 | (uint64(h)<<20^uint64(h2))&0xfffffffffffff
		}
	}
	return uint64(h2)<<32 | uint64(h)
}

func joinInts(xs []int64) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.FormatInt(x, 10))
	}
	return "[" + b.String() + "]"
}

// tensorMapJSON is the case's map as a launch-file argument over buffer t.
func (r *im2colRec) tensorMapJSON() string {
	n := r.rank
	sw := []string{"none", "32B", "64B", "128B"}[r.sw]
	l2 := []string{"none", "64B", "128B", "256B"}[r.l2]
	fill := []string{"zero", "nan"}[r.oob]
	return fmt.Sprintf(`{"tensor_map": {"mode": "im2col", "buffer": "t", "offset": %d, "type": %q, "dims": %s, "strides": %s,
  "pixel_box_lower_corner": %s, "pixel_box_upper_corner": %s, "channels_per_pixel": %d, "pixels_per_column": %d,
  "element_strides": %s, "swizzle": %q, "l2_promotion": %q, "oob_fill": %q}}`,
		r.gaoff, cuTensorMapTypes[r.dtype], joinInts(r.g[:n]), joinInts(r.s[1:n]), joinInts(r.lo[:n-2]), joinInts(r.up[:n-2]),
		r.cpp, r.ppc, joinInts(r.e[:n]), sw, l2, fill)
}

func writeFiles(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTensorMapIm2colArg runs recorded loads of testdata/tma/im2col_cases.txt
// (an H200, cuTensorMapEncodeIm2col and cp.async.bulk.tensor...im2col:
// ranks 3 to 5, asymmetric corners, im2col offsets, element strides, NaN
// fill, 128-byte swizzle) from launch files whose "mode": "im2col" tensor
// map argument describes the case's tensor, and compares the shared memory
// im2col_probe.ptx dumps with the GPU's (out/NAME.bin).
func TestTensorMapIm2colArg(t *testing.T) {
	ptx, err := os.ReadFile("../testdata/tma/ptx/im2col_probe.ptx")
	if err != nil {
		t.Fatal(err)
	}
	recs := map[string]im2colRec{}
	for _, r := range readIm2colRecs(t) {
		recs[r.name] = r
	}
	for _, name := range []string{"i3_basic", "i4_asym_offs", "i4_corner_nan", "i4_es_wh", "i4_sw128", "i5_asym"} {
		t.Run(name, func(t *testing.T) {
			r, found := recs[name]
			if !found || r.kind != "L" {
				t.Fatalf("no load case %s in im2col_cases.txt", name)
			}
			rec, err := os.ReadFile(filepath.Join("../testdata/tma/out", name+".bin"))
			if err != nil {
				t.Fatal(err)
			}
			le := binary.LittleEndian
			if le.Uint32(rec) != 0 || le.Uint32(rec[4:]) != 0 {
				t.Fatalf("the recording is not a successful load")
			}
			want := rec[8:]
			es := elemBytes(r.dtype)
			tensor := make([]byte, r.s[r.rank-1]*r.g[r.rank-1])
			for k := 0; k*es < len(tensor); k++ {
				v := im2colPattern(r.dtype, r.pat, uint32(k))
				for j := 0; j < es; j++ {
					tensor[k*es+j] = byte(v >> (8 * j))
				}
			}
			// struct Params: c[5], o[3], dstOff, expect, dump, pf (im2col_probe.cu).
			row := r.cpp * int64(es)
			if sw := int64(0); r.sw > 0 {
				if sw = 16 << r.sw; row < sw {
					row = sw
				}
			}
			dump := (row*r.ppc+r.dstoff+1023)/1024*1024 + 1024
			if int64(len(want)) != 16+dump {
				t.Fatalf("recording of %d bytes, want %d", len(want), 16+dump)
			}
			params := make([]byte, 48)
			for i := 0; i < 5; i++ {
				le.PutUint32(params[4*i:], uint32(r.c[i]))
			}
			for i := 0; i < 3; i++ {
				le.PutUint32(params[20+4*i:], uint32(r.o[i]))
			}
			le.PutUint32(params[32:], uint32(r.dstoff))
			le.PutUint32(params[36:], uint32(r.cpp*r.ppc*int64(es)))
			le.PutUint32(params[40:], uint32(dump))
			lf := fmt.Sprintf(`{"module": "im2col_probe.ptx", "arch": "h100",
 "buffers": {"t": {"file": "t.bin"}, "out": {"bytes": %d}},
 "launches": [{"kernel": "kim2col%d", "grid": [1, 1, 1], "block": [128, 1, 1], "shared_bytes": %d,
  "args": [%s,
           {"bytes_hex": "%s"}, {"buffer": "out"}]}]}`, len(want), r.rank, dump+2048, r.tensorMapJSON(), hex.EncodeToString(params))
			dir := t.TempDir()
			writeFiles(t, dir, map[string][]byte{"im2col_probe.ptx": ptx, "t.bin": tensor, "l.json": []byte(lf)})
			f, err := Load(filepath.Join(dir, "l.json"))
			if err != nil {
				t.Fatal(err)
			}
			out, err := f.Execute(warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{}), ExecOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := mustBuffer(t, out, "out"); !bytes.Equal(got, want) {
				k := 0
				for k < len(got) && got[k] == want[k] {
					k++
				}
				t.Errorf("shared memory differs from the GPU's first at byte %d", k)
			}
		})
	}
}

// TestTensorMapIm2colVerdicts gives every case of im2col_cases.txt that a
// launch file can describe (no interleave, a buffer address) as a tensor
// map argument of a kernel that does nothing: where the driver's
// cuTensorMapEncodeIm2col refused the map (the recording's first word),
// loading or running the file is an error naming it; where it accepted it,
// the file runs.
func TestTensorMapIm2colVerdicts(t *testing.T) {
	const ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .align 64 .b8 k_param_0[128])\n{\n\tret;\n}\n"
	n, refused := 0, 0
	for _, r := range readIm2colRecs(t) {
		if r.il != 0 || r.gaoff < 0 || r.dtype >= len(cuTensorMapTypes) || r.rank > 5 {
			continue // interleave and a null address have no launch-file spelling; data type 13 and rank 6 are load errors
		}
		rank := r.rank
		if rank < 3 {
			rank = 3 // ie_rank2 gives 2 dims: the loader refuses it
		}
		rec, err := os.ReadFile(filepath.Join("../testdata/tma/out", r.name+".bin"))
		if err != nil {
			t.Fatal(err)
		}
		ok := binary.LittleEndian.Uint32(rec) == 0
		r.rank = rank
		js := r.tensorMapJSON()
		if r.name == "ie_rank2" {
			js = strings.Replace(js, `"dims": [16, 9, 1]`, `"dims": [16, 9]`, 1)
		}
		lf := `{"module": "k.ptx", "buffers": {"t": {"bytes": 4096}}, "launches": [{"kernel": "k", "grid": [1], "block": [1], "args": [` + js + `]}]}`
		dir := t.TempDir()
		writeFiles(t, dir, map[string][]byte{"k.ptx": []byte(ptx), "l.json": []byte(lf)})
		f, err := Load(filepath.Join(dir, "l.json"))
		if err == nil {
			_, err = f.Execute(warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{}), ExecOptions{})
		}
		switch {
		case ok && err != nil:
			t.Errorf("%s: the driver accepted the map; warpsim: %v", r.name, err)
		case !ok && err == nil:
			t.Errorf("%s: the driver refused the map; warpsim ran it", r.name)
		case !ok && !strings.Contains(err.Error(), "l.json:"):
			t.Errorf("%s: error without the file's name: %v", r.name, err)
		}
		n++
		if !ok {
			refused++
		}
	}
	t.Logf("%d cases, %d refused by the driver", n, refused)
	if n < 70 || refused < 20 {
		t.Errorf("%d cases (%d refused), want the 70-odd of im2col_cases.txt", n, refused)
	}
}

// TestTensorMapIm2colArgErrors: an im2col tensor map argument with keys of
// the other mode or the wrong number of entries is a load error at its key.
func TestTensorMapIm2colArgErrors(t *testing.T) {
	const good = `"buffer": "t", "type": "f16", "dims": [16, 9, 6, 2], "strides": [32, 288, 1728]`
	const px = `"pixel_box_lower_corner": [-1, -1], "pixel_box_upper_corner": [-1, -1], "channels_per_pixel": 16, "pixels_per_column": 64`
	for _, c := range []struct{ arg, want string }{
		{`"mode": "im2col", ` + good + `, ` + px + `, "box": [16, 1, 1, 1]`, `tensor_map.box: an im2col map has no box`},
		{good + `, "box": [16, 1, 1, 1], "pixels_per_column": 64`, `tensor_map.pixels_per_column: pixels_per_column is for "mode": "im2col"`},
		{good + `, "box": [16, 1, 1, 1], "pixel_box_lower_corner": [0, 0]`, `pixel_box_lower_corner is for "mode": "im2col"`},
		{`"mode": "im2col", ` + good + `, "channels_per_pixel": 16, "pixels_per_column": 64`, "an im2col tensor map needs buffer, type, dims, pixel_box_lower_corner"},
		{`"mode": "col2im", ` + good + `, ` + px, `tensor_map.mode: unknown "col2im" (want one of im2col, tiled)`},
		{`"mode": "im2col", ` + strings.Replace(good, "[16, 9, 6, 2]", "[16, 9, 6]", 1) + `, ` + px, "strides has 3 entries; 3 dims need 2"},
		{`"mode": "im2col", "buffer": "t", "type": "f16", "dims": [16, 9], "strides": [32], ` + px, "an im2col map has 3 to 5 dims (C, W[, H[, D]], N), got 2"},
		{`"mode": "im2col", ` + good + `, ` + strings.Replace(px, "[-1, -1]", "[-1]", 1), "pixel_box_lower_corner: 1 entries; 4 dims need 2"},
		{`"mode": "im2col", ` + good + `, ` + strings.Replace(px, "upper_corner\": [-1, -1]", "upper_corner\": [-1, -1, -1]", 1), "pixel_box_upper_corner: 3 entries; 4 dims need 2"},
		{`"mode": "im2col", ` + good + `, ` + strings.Replace(px, "[-1, -1]", "[-1, 2147483648]", 1), "pixel_box_lower_corner[1]: want an integer in [-2147483648, 2147483647]"},
		{`"mode": "im2col", ` + good + `, ` + strings.Replace(px, "[-1, -1]", `[-1, "a"]`, 1), "pixel_box_lower_corner[1]: want an integer, got a string"},
		{`"mode": "im2col", ` + good + `, ` + strings.Replace(px, "64", "-64", 1), "pixels_per_column: want an integer in [0, 4294967295], got -64"},
		{`"mode": "im2col", ` + good + `, ` + px + `, "element_strides": [1, 1, 1]`, "element_strides has 3 entries, dims 4"},
		{`"mode": 1, ` + good + `, ` + px, "tensor_map.mode: want one of im2col, tiled"},
	} {
		dir := t.TempDir()
		lf := `{"module": "m.ptx", "buffers": {"t": {"bytes": 64}}, "launches": [{"kernel": "k", "args": [
  {"tensor_map": {` + c.arg + `}}]}]}`
		writeFiles(t, dir, map[string][]byte{"m.ptx": []byte(".version 8.0\n.target sm_90\n.address_size 64\n"), "l.json": []byte(lf)})
		_, err := Load(filepath.Join(dir, "l.json"))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "l.json:2: launches[0].args[0].tensor_map") {
			t.Errorf("%s: error %v, want %q at l.json:2", c.arg, err, c.want)
		}
	}
}
