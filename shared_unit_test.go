package warpsim_test

import (
	"encoding/binary"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

// sharedPastPTX stores one word at byte offset off of a block whose
// shared memory is 240 bytes.
const sharedPastPTX = `.version 8.0
.target sm_90
.address_size 64
.visible .entry past(.param .u32 off)
{
	.reg .b32 %r<4>;
	.shared .align 16 .b8 buf[240];
	ld.param.u32 %r1, [off];
	mov.u32 %r2, buf;
	add.u32 %r2, %r2, %r1;
	st.shared.u32 [%r2], 7;
	ret;
}
`

// TestSharedAllocationUnit: a block's shared memory is mapped up to the end
// of its last allocation unit (the H100's 128 bytes, with the 1 KiB it
// reserves per block), so a store a little past the block's 240 bytes
// succeeds, as a cp.async did on the H100 (testdata/sanitize/probe5,
// cp_async_smem_oob), and one past the unit faults.
func TestSharedAllocationUnit(t *testing.T) {
	dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{})
	m, err := dev.LoadModule("past.ptx", []byte(sharedPastPTX))
	if err != nil {
		t.Fatal(err)
	}
	k, err := m.Kernel("past")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		off   uint32
		fault bool
	}{
		{236, false}, // the last word of the block's bytes
		{240, false}, // past them, inside the unit (1024+240 rounds up to 1280)
		{252, false}, // the unit's last word
		{256, true},  // past the unit
	} {
		params := binary.LittleEndian.AppendUint32(nil, tc.off)
		_, err := dev.Launch(k, warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 1, Y: 1, Z: 1}}, params)
		if (err != nil) != tc.fault {
			t.Errorf("store at offset %d: error %v, want a fault: %v", tc.off, err, tc.fault)
		}
	}
}
