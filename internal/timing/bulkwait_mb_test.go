package timing_test

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/warpsim/warpsim"
)

// TestBulkWaitMicrobenchmarks runs nvcc's PTX of testdata/timing/bulkwait/
// bulkwait_mb.cu through the timing model as its main() does (one block;
// the H100's 132-block rows match its one-block rows and are not run) and
// compares what a bulk store's group wait takes with the H100's
// (h100/bulkwait_mb.h100.txt): a TMA store of a 4 KiB box through a held
// tensor map (mode 0), through a map made just before (mode 1), a
// non-tensor bulk store (mode 2), from the store's issue until
// cp.async.bulk.wait_group.read returns, the first round and the mean of
// the others; mode 3's wait_group 0 alone (no .read): issue to writes done;
// mode 1's making of the map. Within 20% (the first rounds 35%).
func TestBulkWaitMicrobenchmarks(t *testing.T) {
	const rounds = 16
	m := loadMicrobench(t, "../../testdata/timing/bulkwait/", "bulkwait_mb")
	out, _ := m.dev.Malloc(3 * rounds * 8)
	gmaps, _ := m.dev.Malloc(128)
	tensors, _ := m.dev.Malloc(4 << 20)
	c := &rowChecker{t: t}
	for _, line := range m.lines {
		var mode, blocks, fr, fw, fm int
		var rd, wr, mp float64
		if n, _ := fmt.Sscanf(line, "bulkwait mode=%d blocks=%d first_read=%d first_write=%d read=%f write=%f map=%f first_map=%d",
			&mode, &blocks, &fr, &fw, &rd, &wr, &mp, &fm); n != 8 || blocks != 1 {
			continue
		}
		k, err := m.mod.Kernel(fmt.Sprintf("_Z7k_storeILi%dEEvPxPcS1_", mode))
		if err != nil {
			t.Fatal(err)
		}
		cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 32, Y: 1, Z: 1}}
		for i := 0; i < 2; i++ {
			if _, err := m.dev.Launch(k, cfg, params(out, gmaps, tensors)); err != nil {
				t.Fatal(err)
			}
		}
		b := make([]byte, 3*rounds*8)
		if err := m.dev.Read(out, b); err != nil {
			t.Fatal(err)
		}
		h := func(i int) float64 { return float64(int64(binary.LittleEndian.Uint64(b[8*i:]))) }
		var mrd, mwr, mmp float64
		for r := 1; r < rounds; r++ {
			mrd, mwr, mmp = mrd+h(3*r), mwr+h(3*r+1), mmp+h(3*r+2)
		}
		mrd, mwr, mmp = mrd/(rounds-1), mwr/(rounds-1), mmp/(rounds-1)
		switch mode {
		case 3:
			c.check("mode 3 wait_group 0, first", h(0)+h(1), float64(fr+fw), 0.35)
			c.check("mode 3 wait_group 0", mrd+mwr, rd+wr, 0.20)
		default:
			c.check(fmt.Sprintf("mode %d wait_group.read, first", mode), h(0), float64(fr), 0.35)
			c.check(fmt.Sprintf("mode %d wait_group.read", mode), mrd, rd, 0.20)
		}
		if mode == 1 {
			c.check("mode 1 making the map", mmp, mp, 0.20)
		}
	}
	if c.rows != 9 {
		t.Errorf("%d rows compared, want 9", c.rows)
	}
}
