package timing

import (
	"bufio"
	"compress/gzip"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// partRun is one run of testdata/timing/shortocc2's part.cu: one SM's
// cold load at the start of each 4 KiB page of a buffer, its cycles.
type partRun struct {
	buf   string
	ptr   uint64
	sm    int
	lat   []float64
	pages int
}

func readPartRuns(t *testing.T) []partRun {
	t.Helper()
	f, err := os.Open("../../testdata/timing/shortocc2/h100/part.txt.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var runs []partRun
	sc := bufio.NewScanner(z)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		switch {
		case len(w) == 11 && w[0] == "run":
			ptr, err1 := strconv.ParseUint(strings.TrimPrefix(w[4], "0x"), 16, 64)
			pages, err2 := strconv.Atoi(w[6])
			sm, err3 := strconv.Atoi(w[10])
			if err1 != nil || err2 != nil || err3 != nil {
				t.Fatalf("%q: %v %v %v", sc.Text(), err1, err2, err3)
			}
			runs = append(runs, partRun{buf: w[2], ptr: ptr, pages: pages, sm: sm})
		case len(w) > 1 && w[0] == "lat" && len(runs) > 0:
			r := &runs[len(runs)-1]
			for _, s := range w[1:] {
				v, err := strconv.ParseFloat(s, 64)
				if err != nil {
					t.Fatal(err)
				}
				r.lat = append(r.lat, v)
			}
			if len(r.lat) != r.pages {
				t.Fatalf("run of %s: %d pages' cycles, want %d", r.buf, len(r.lat), r.pages)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return runs
}

// twoMeans is the threshold between a run's two clusters of cycles (near
// and far pages), from the values under 1500 (a first touch of a frame
// also misses the TLB), with the clusters' means.
func twoMeans(lat []float64) (thr, lo, hi float64) {
	v := make([]float64, 0, len(lat))
	for _, x := range lat {
		if x < 1500 {
			v = append(v, x)
		}
	}
	sort.Float64s(v)
	lo, hi = v[len(v)/10], v[9*len(v)/10]
	for range 50 {
		thr = (lo + hi) / 2
		var a, b, na, nb float64
		for _, x := range v {
			if x <= thr {
				a, na = a+x, na+1
			} else {
				b, nb = b+x, nb+1
			}
		}
		lo, hi = a/na, b/nb
	}
	return (lo + hi) / 2, lo, hi
}

// TestFarPageAgainstH100: part.cu's recording (testdata/timing/shortocc2:
// one SM's cold load a page through 32 MiB and 256 KiB buffers, the L2
// flushed, 16 runs on 10 SMs) splits every run's pages into near ones
// (about 590 cycles at the boost clock) and far ones (about 810). Within
// each aligned 8 MiB of address (where the hash's part above bit 21 is
// one bit: the physical frames', no pointer tells which) farPage's split
// of the pages is the H100's, or its complement, for at least 85% of
// every run's pages (89.1-98.4%: one thread's loads also meet the TLB and
// DRAM's refresh, the 64-page runs' few such pages weigh more), while a
// hash without any one of its bits below 21 (12, 13, 16, 17, 19) explains
// about half of the 32 MiB runs' pages (as one with bit 14, 15, 18, 20,
// 21 or 22 added: analyze.py). And far is 80-140 ns later than near
// (DRAMFarNS: 98).
func TestFarPageAgainstH100(t *testing.T) {
	runs := readPartRuns(t)
	if len(runs) != 16 {
		t.Fatalf("%d runs, the recording has 16", len(runs))
	}
	for _, r := range runs {
		thr, lo, hi := twoMeans(r.lat)
		explained := func(hash func(uint64) int) float64 {
			agree := map[uint64][2]int{} // an 8 MiB range: pages alike, pages apart
			for p, c := range r.lat {
				page := r.ptr>>12 + uint64(p)
				a := agree[page>>11]
				if (c > thr) == (hash(page) == 1) {
					a[0]++
				} else {
					a[1]++
				}
				agree[page>>11] = a
			}
			n := 0
			for _, a := range agree {
				n += max(a[0], a[1])
			}
			return float64(n) / float64(len(r.lat))
		}
		got, alt := explained(farPage), 0.0
		for _, b := range []uint{0, 1, 4, 5, 7} { // address bits 12, 13, 16, 17, 19
			alt = max(alt, explained(func(page uint64) int { return farPage(page &^ (1 << b)) }))
		}
		// The recording's clock: the boost clock, 1.98 GHz.
		farNS := (hi - lo) / 1.98
		t.Logf("%s on SM %3d: near %.0f far %.0f cycles (%.0f ns apart); farPage explains %.1f%%, without one of its low bits at most %.1f%%", r.buf, r.sm, lo, hi, farNS, 100*got, 100*alt)
		if got < 0.85 {
			t.Errorf("%s on SM %d: farPage explains %.1f%% of the pages, want 85%%", r.buf, r.sm, 100*got)
		}
		if r.pages > 1000 && alt > 0.6 {
			t.Errorf("%s on SM %d: a hash without one of farPage's low bits explains %.1f%%: the recording does not tell the bits apart", r.buf, r.sm, 100*alt)
		}
		if farNS < 80 || farNS > 140 {
			t.Errorf("%s on SM %d: far %.0f ns after near, want 80-140 (DRAMFarNS %.0f)", r.buf, r.sm, farNS, measured["h100"].DRAMFarNS)
		}
	}
}
