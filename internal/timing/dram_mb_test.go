package timing_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/internal/testenv"
)

// dramDir is the recording of dram.cu (issue 19): pure reads, pure writes
// of whole sectors and copies at footprints of 8 to 256 MiB a buffer, every
// SM full; SPLIT.md, written before the device call, says which rows are
// studied and which held out.
const dramDir = "../../testdata/timing/dram"

// dramStudy are SPLIT.md's study rows; every other row is held out.
var dramStudy = map[string]bool{
	"d_read8_b256_m64": true, "d_read8_b256_m256": true, "d_write8_b256_m64": true, "d_write8_b256_m256": true,
	"d_copy8_b256_m16": true, "d_copy8_b256_m32": true, "d_copy8_b256_m64": true, "d_copy8_b256_m256": true,
}

// dramRow is one configuration of dram.cu: the H100's time, occupancy and
// DRAM bytes read and written during the kernel, and the model's.
type dramRow struct {
	heldOutRow
	h100Rd, h100Wr, rd, wr float64
}

// runDRAM times the dram.cu configurations keep accepts at ncu's clock.
func runDRAM(t *testing.T, keep func(name string) bool) []dramRow {
	t.Helper()
	order, _ := readCfgRun(t, dramDir, "events.txt", "ncu.csv")
	bytes := map[int][2]float64{}
	for _, m := range ncuMetrics(t, filepath.Join(dramDir, "h100", "ncu.csv"), len(order)) {
		b := bytes[m.launch]
		switch m.name {
		case "dram__bytes_read.sum":
			b[0] = m.value
		case "dram__bytes_write.sum":
			b[1] = m.value
		}
		bytes[m.launch] = b
	}
	var res []dramRow
	for i, r := range order {
		if keep(r.name) {
			res = append(res, dramRow{heldOutRow: heldOutRow{name: r.name, h100NS: r.durationNS, h100Occ: r.occ},
				h100Rd: bytes[i][0], h100Wr: bytes[i][1]})
		}
	}
	if len(res) == 0 {
		t.Fatal("no dram configuration selected")
	}
	clock := map[string]float64{}
	for _, r := range order {
		clock[r.name] = r.clockHz
	}
	t.Run("configurations", func(t *testing.T) {
		for i := range res {
			r := &res[i]
			t.Run(r.name, func(t *testing.T) {
				t.Parallel()
				l := timeLaunchFileShared(t, filepath.Join(dramDir, "launch", r.name+".json"), clock[r.name])[0]
				tm := &l.timing
				r.ns, r.occ = l.ns, achievedOcc(tm)
				r.rd, r.wr = float64(tm.DRAMReadBytes), float64(tm.DRAMWriteBytes)
			})
		}
	})
	return res
}

// logDRAMBytes logs the DRAM bytes each row read and wrote during the
// kernel, the H100's and the model's.
func logDRAMBytes(t *testing.T, rows []dramRow) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "| configuration | H100 read MB | warpsim read MB | H100 written MB | warpsim written MB |\n|---|---:|---:|---:|---:|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %.1f | %.1f | %.1f | %.1f |\n", r.name, r.h100Rd/1e6, r.rd/1e6, r.h100Wr/1e6, r.wr/1e6)
	}
	t.Logf("\n%s", b.String())
}

// heldOutRows returns the rows' heldOutRow parts.
func heldOutRows(rows []dramRow) []heldOutRow {
	out := make([]heldOutRow, len(rows))
	for i, r := range rows {
		out[i] = r.heldOutRow
	}
	return out
}

// TestLongDRAMBandwidth runs every configuration of dram.cu and reports
// the study and held-out rows separately (WARPSIM_DRAM_FILTER=regexp runs
// those it matches, unchecked); each half's duration MAE is bounded.
func TestLongDRAMBandwidth(t *testing.T) {
	testenv.Long(t)
	t.Parallel() // main_test.go: the long tests overlap
	filter := os.Getenv("WARPSIM_DRAM_FILTER")
	re, err := regexp.Compile(filter)
	if err != nil {
		t.Fatal(err)
	}
	res := runDRAM(t, re.MatchString)
	if t.Failed() {
		return
	}
	logDRAMBytes(t, res)
	if filter != "" {
		t.Logf("filtered (%q): not checked", filter)
		checkHeldOut(t, "dram", heldOutRows(res), math.Inf(1), math.Inf(1))
		return
	}
	var study, held []dramRow
	for _, r := range res {
		if dramStudy[r.name] {
			study = append(study, r)
		} else {
			held = append(held, r)
		}
	}
	checkHeldOut(t, "dram study", heldOutRows(study), math.Inf(1), dramStudyMAE)
	checkHeldOut(t, "dram held out", heldOutRows(held), math.Inf(1), dramHeldOutMAE)
	checkCopiesWritten(t, res)
}

// dramStudyMAE and dramHeldOutMAE bound the duration MAE of the study and
// held-out rows at what the preset's DRAM at its measured 3.0 TB/s (reads
// and write-backs on one bus, the partitions' link at 2190 GB/s, the
// latency spread behind other SMs' fetches) measured on 2026-11-29
// (twenty-third round: study 8.1%, held out 5.0%), a point above each: a
// regression alarm, not a target. At 2.1 TB/s they were 24.1% and 26.0%
// (bounds 25% and 26.5%): the 16 MiB copies slow by design
// (testdata/timing/dram/JOURNAL.md).
const dramStudyMAE, dramHeldOutMAE = 0.09, 0.06

// dramCopiesWritten bounds how far the DRAM bytes the copies write back
// during the kernel, summed over the copies, may be from the H100's: the
// L2 keeps a copy's stores until it must evict them, and writes nothing
// back at the kernel's end (+5.1% measured: 599.3 MB against 570.1).
const dramCopiesWritten = 0.10

// checkCopiesWritten holds the DRAM bytes the copies among rows wrote
// during the kernel, summed, within dramCopiesWritten of the H100's.
func checkCopiesWritten(t *testing.T, rows []dramRow) {
	t.Helper()
	var h, m float64
	for _, r := range rows {
		if strings.HasPrefix(r.name, "d_copy") {
			h += r.h100Wr
			m += r.wr
		}
	}
	if h == 0 {
		t.Fatal("no copy among the rows")
	}
	t.Logf("the copies wrote %.1f MB back during the kernel, the H100 %.1f MB (%+.1f%%)", m/1e6, h/1e6, 100*(m-h)/h)
	if math.Abs(m-h)/h > dramCopiesWritten {
		t.Errorf("the copies wrote %.1f MB back during the kernel, the H100 %.1f MB: more than %.0f%% off", m/1e6, h/1e6, 100*dramCopiesWritten)
	}
}

// dramPlainError bounds each of TestDRAMBandwidth's rows at what the
// preset measured, rounded up: with the DRAM at its measured 3.0 TB/s
// (twenty-third round) read +7.4%, write -4.8%, copy -6.8%; at 2.1 TB/s
// they were +36.5%, +9.7%, +10.1% (the reads slow by the rate).
var dramPlainError = map[string]float64{"d_read8_b256_m16": 0.09, "d_write8_b256_m16": 0.06, "d_copy8_b256_m16": 0.08}

// TestDRAMBandwidth is TestLongDRAMBandwidth's plain subset: the 16 MiB
// read, write and copy (a wave or less), each within dramPlainError of
// the H100's time; the copy's stores stay in the L2 (it writes back less
// than a tenth of what it copied during the kernel; the H100 6.5%).
func TestDRAMBandwidth(t *testing.T) {
	t.Parallel() // main_test.go: the heavy plain tests overlap
	res := runDRAM(t, func(n string) bool { return dramPlainError[n] > 0 })
	if t.Failed() {
		return
	}
	if len(res) != len(dramPlainError) {
		t.Fatalf("%d configurations, want %d", len(res), len(dramPlainError))
	}
	logDRAMBytes(t, res)
	checkHeldOut(t, "dram plain", heldOutRows(res), math.Inf(1), math.Inf(1))
	for _, r := range res {
		if e := (r.ns - r.h100NS) / r.h100NS; math.Abs(e) > dramPlainError[r.name] {
			t.Errorf("%s: %+.1f%% off the H100's time (at most %.0f%%)", r.name, 100*e, 100*dramPlainError[r.name])
		}
		if strings.HasPrefix(r.name, "d_copy") && r.wr > 0.1*r.h100Rd {
			t.Errorf("%s: %.1f MB written back during the kernel, more than a tenth of the %.1f MB copied", r.name, r.wr/1e6, r.h100Rd/1e6)
		}
	}
}
