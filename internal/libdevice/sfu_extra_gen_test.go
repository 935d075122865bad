package libdevice

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestSFUExtraMake rebuilds sfu_extra_data/*.bin.gz from what
// sfu_extra_rec.cu wrote on the GPU (run it as `./rec DIR`, then gzip the
// files):
//
//	WARPSIM_SFU_EXTRA_RECORDING=DIR go test -run TestSFUExtraMake ./internal/libdevice
//
// It also checks every model against the whole random recording (gold.bin.gz,
// 2^18 cases) before writing golden.bin.gz, its first 4096 cases.
func TestSFUExtraMake(t *testing.T) {
	dir := os.Getenv("WARPSIM_SFU_EXTRA_RECORDING")
	if dir == "" {
		t.Skip("WARPSIM_SFU_EXTRA_RECORDING not set")
	}
	read := func(name string) []byte {
		f, err := os.Open(filepath.Join(dir, name+".gz"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	write := func(name string, b []byte) {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(b)
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("sfu_extra_data", name+".gz"), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	le := binary.LittleEndian

	// The GPU already wrote the sqrt table as differences from sqrt_rn.
	write("sqrt.bin", read("sqrt_delta.bin"))

	for _, tab := range []struct {
		file string
		exp  uint16
		ref  func(uint16) uint16
	}{
		{"tanh_f16.bin", 0x7c00, tanhF16Ref},
		{"tanh_bf16.bin", 0x7f80, tanhBF16Ref},
	} {
		got := read(tab.file)
		d := make([]byte, 1<<16)
		for i := range d {
			g := le.Uint16(got[2*i:])
			if uint16(i)&0x7fff > tab.exp {
				if g != 0x7fff {
					t.Fatalf("%s: NaN %#04x gives %#04x", tab.file, i, g)
				}
				continue
			}
			v := int32(g) - int32(tab.ref(uint16(i)))
			if v < -2 || v > 1 {
				t.Fatalf("%s: %#04x: delta %d", tab.file, i, v)
			}
			d[i] = byte(int8(v))
		}
		write(tab.file, d)
	}
	// The tables just written are read by the next calls.
	for _, tab := range []*sfuTable{&sqrtTable, &tanhF16Table, &tanhBF16Table} {
		*tab = sfuTable{file: tab.file, size: tab.size}
	}

	for _, tab := range []struct {
		file string
		fn   func(uint16) uint16
	}{{"tanh_f16.bin", TanhApproxF16}, {"tanh_bf16.bin", TanhApproxBF16}} {
		got := read(tab.file)
		for i := 0; i < 1<<16; i++ {
			if g, w := tab.fn(uint16(i)), le.Uint16(got[2*i:]); g != w {
				t.Fatalf("%s: %#04x gives %#04x, GPU %#04x", tab.file, i, g, w)
			}
		}
	}

	gold := read("gold.bin")
	const rec = 28
	bad := 0
	for off := 0; off+rec <= len(gold); off += rec {
		w := func(k int) uint32 { return le.Uint32(gold[off+4*k:]) }
		a, b := w(0), w(1)
		for _, c := range []struct {
			name string
			got  uint32
			want uint32
		}{
			{"sqrt.approx.f32", SqrtApproxF32(a), w(2)},
			{"sqrt.approx.ftz.f32", SqrtApproxFtzF32(a), w(3)},
			{"div.full.f32", DivFullF32(a, b), w(4)},
			{"div.full.ftz.f32", DivFullFtzF32(a, b), w(5)},
		} {
			if c.got != c.want {
				if bad++; bad <= 20 {
					t.Errorf("%s(%#08x, %#08x) = %#08x, GPU %#08x", c.name, a, b, c.got, c.want)
				}
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d cases differ", bad, len(gold)/rec)
	}
	var g []byte
	for off := 0; off < 4096*rec; off += rec {
		g = append(g, gold[off:off+24]...) // a, b, sqrt, sqrt ftz, div.full, div.full.ftz
	}
	write("golden.bin", g)
}
