package tensor

import (
	"encoding/binary"
	"path/filepath"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// recDir holds the H100 recordings (testdata/tensor at the repository root,
// made by testdata/tensor/run.sh on the device machine).
const recDir = "../../testdata/tensor"

// recording is one raw mma.sync probe: per test case and lane, the input
// words (A, B, C registers) and the H100's output words (D registers).
type recording struct {
	in, out      []uint32
	nin, nout, T int
}

func loadRec(t *testing.T, name string, nin, nout int) *recording {
	t.Helper()
	rd := func(p string) []uint32 {
		b, err := testenv.ReadRecording(p)
		if err != nil {
			t.Fatalf("recording missing: %v", err)
		}
		w := make([]uint32, len(b)/4)
		for i := range w {
			w[i] = binary.LittleEndian.Uint32(b[4*i:])
		}
		return w
	}
	r := &recording{in: rd(filepath.Join(recDir, "in", name+".bin")), out: rd(filepath.Join(recDir, "out", name+".bin")), nin: nin, nout: nout}
	r.T = len(r.in) / (32 * nin)
	if len(r.out) != r.T*32*nout || r.T == 0 {
		t.Fatalf("%s: %d input words and %d output words do not match %d+%d per lane", name, len(r.in), len(r.out), nin, nout)
	}
	return r
}

// lanes returns test case tc's registers as [lane][]uint32 for in and out.
func (r *recording) lanes(tc int) (in, out [32][]uint32) {
	for l := 0; l < 32; l++ {
		in[l] = r.in[(tc*32+l)*r.nin : (tc*32+l+1)*r.nin]
		out[l] = r.out[(tc*32+l)*r.nout : (tc*32+l+1)*r.nout]
	}
	return
}
