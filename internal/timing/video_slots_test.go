package timing

import (
	"testing"

	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/scalar"
)

// TestVideoSlots: a video instruction costs the SASS ptxas makes of it
// (testdata/video's probe): one VABSDIFF4 for vabsdiff4.u32.u32.u32, a
// PRMT/LOP3/IMAD sequence for the rest, longer with more lanes.
func TestVideoSlots(t *testing.T) {
	for _, c := range []struct {
		f    scalar.VideoForm
		want uint32
	}{
		{scalar.VideoForm{Op: scalar.VAbsdiff, Lanes: 4, DSel: 15}, 1},
		{scalar.VideoForm{Op: scalar.VAbsdiff, Lanes: 4, DSel: 15, Sat: true}, 29},
		{scalar.VideoForm{Op: scalar.VAdd, Lanes: 1}, 7},
		{scalar.VideoForm{Op: scalar.VMad, Lanes: 1, Sat: true, Scale: 7, NegC: true}, 10},
		{scalar.VideoForm{Op: scalar.VAdd, Lanes: 2, DSel: 3}, 14},
		{scalar.VideoForm{Op: scalar.VAvrg, Lanes: 4, DSel: 15}, 37},
	} {
		in := ir.Inst{Op: ir.OpVideo, Imm: int64(c.f.Pack())}
		if got := issueSlots(&in); got != c.want {
			t.Errorf("%+v: %d slots, want %d", c.f, got, c.want)
		}
	}
}
