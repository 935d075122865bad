package warpsim_test

import (
	"encoding/binary"
	"os"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// A pointer inside a packed struct is emitted by clang as eight byte-masked
// address initializers, "0xFF00(generic(tgt)+4)" and so on; together they
// must spell the little-endian address of tgt+4.
func TestByteMaskedAddressInitializer(t *testing.T) {
	src, err := os.ReadFile("ptx/testdata/clang/packed.ptx")
	if err != nil {
		t.Fatal(err)
	}
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{})
	mod, err := dev.LoadModule("packed.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	pk, size, ok := mod.Global("pk")
	if !ok || size != 11 {
		t.Fatalf("pk: ok %v size %d, want an 11-byte global", ok, size)
	}
	tgt, _, ok := mod.Global("tgt")
	if !ok {
		t.Fatal("no global tgt")
	}
	got := make([]byte, 11)
	if err := dev.Read(pk, got); err != nil {
		t.Fatal(err)
	}
	if got[0] != 1 || got[9] != 7 || got[10] != 0 {
		t.Errorf("plain bytes = %d %d %d, want 1 7 0", got[0], got[9], got[10])
	}
	if addr := binary.LittleEndian.Uint64(got[1:9]); addr != tgt+4 {
		t.Errorf("packed pointer = %#x, want tgt+4 = %#x", addr, tgt+4)
	}
}
