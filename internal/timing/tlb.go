// Address translation (issues 18 and 19): what a request that leaves an
// SM for the L2 waits for before the L2 can look it up, its virtual
// address translated.
//
// The H100 translates in regions of TLBRegionBytes (32 MiB): under Nsight
// Compute a launch's first read of a 32 MiB region that the launch before
// did not read takes a walk, TLBWalkNS more than a read of the same region
// once translated, and every other read of the region is translated at
// once, 2 MiB pages or not (testdata/timing/tlb: the chase at 2 MiB steps
// pays once in 32 MiB, at 32 MiB steps every step). Each SM's own first
// request to a region in a grid asks the shared translation (TLBMissNS:
// the launch's first read, and a new region's, tens of ns more). So:
//
//   - a host launch starts with the regions the host launch before it
//     touched translated (warm), every other region cold; a grid the
//     model sampled touched more than its timed blocks show, so after one
//     every region starts warm;
//   - a request to a cold region walks (TLBWalkNS); requests to it from
//     any SM while the walk is under way wait for the same walk;
//   - an SM's first request to a region (warm, walked or walking) costs it
//     TLBMissNS; later ones nothing (an SM's TLB holds every region the
//     grid touches: the recordings saw no second miss).
//
// All of it only with TLBCold (arch key tlb.cold): plain runs of the same
// program pay no walk (and 40 ns on a launch's first read, which the
// default leaves out with the rest: the sampler takes a grid's first wave
// for its later ones, and these costs fall on the first wave only).
//
// The translation is taken on the L2's side of the quantum model, in the
// replay's order (cycle, SM, index), so it is the same on any number of
// workers. Device-launched grids find the translations their parent made.
// Nothing else (plain runs' larger reach, pages the copy engine wrote, a
// TLB's capacity) is modelled; docs/timing-model.md says what was measured.

package timing

// tlbT is the device's translation state (Driver.tlb).
type tlbT struct {
	// warm: the regions translated at the host launch's start (those the
	// launch before touched); allWarm: every region (the launch before
	// was sampled).
	warm    map[uint64]bool
	allWarm bool
	// ready: when each region the current host launch touched is
	// translated for every SM (cycles of the grid that touched it; 0 for
	// a region a grid before the current one translated).
	ready map[uint64]uint64
	// sampled: a grid of the current host launch was sampled.
	sampled bool
	// sm: each SM's regions in the current grid and when each is
	// translated for it (its last one first); nil until a grid starts
	// (a bare gridState translates nothing).
	sm [][]tlbEntry
}

type tlbEntry struct{ region, ready uint64 }

// tlbOn says whether the model times translations: under Nsight
// Compute's conditions (TLBCold), with a region size and a cost.
func (p *Params) tlbOn() bool {
	return p.TLBCold && p.TLBRegionBytes > 0 && (p.TLBWalkNS > 0 || p.TLBMissNS > 0)
}

// hostLaunch starts a host launch's translations: the regions the launch
// before touched are warm.
func (t *tlbT) hostLaunch() {
	if t.warm == nil {
		t.warm, t.ready = map[uint64]bool{}, map[uint64]uint64{}
	}
	clear(t.warm)
	for r := range t.ready {
		t.warm[r] = true
	}
	t.allWarm = t.sampled
	t.sampled = false
	clear(t.ready)
}

// grid starts a grid of nsm SMs: the SMs' own translations are cold, and
// what a grid before it translated is ready from its start.
func (t *tlbT) grid(nsm int) {
	if t.ready == nil {
		t.warm, t.ready = map[uint64]bool{}, map[uint64]uint64{}
	}
	for r := range t.ready {
		t.ready[r] = 0
	}
	if len(t.sm) < nsm {
		t.sm = make([][]tlbEntry, nsm)
	}
	for i := range t.sm {
		t.sm[i] = t.sm[i][:0]
	}
}

// allocSlot is the address space warpsim gives each allocation
// (engine.Memory: every allocation at the start of its own 2 GiB range).
const allocSlot = 2 << 30

// regionOf is the translation region of sector sec: its address's offset
// in its allocation's 2 GiB range, in TLBRegionBytes. The CUDA driver packs
// small allocations next to each other, so a kernel's small buffers share a
// region on the H100; warpsim puts each at its own 2 GiB boundary, and
// keying a region by the offset gives them one region as the H100's have
// (the k-th 32 MiB of every allocation is one region: a kernel's large
// buffers have fewer regions than on the H100, whose walks overlap).
func regionOf(p *Params, sec uint64) uint64 {
	return sec * 32 % allocSlot / p.TLBRegionBytes
}

// translate is when a request of SM sm for sector sec, leaving the SM at
// cycle at, can be looked up at the L2: its region translated for the SM.
func (s *gridState) translate(sm int, at, sec uint64) uint64 {
	p := s.p
	t := &s.d.tlb
	if !p.tlbOn() || sm >= len(t.sm) {
		return at
	}
	region := regionOf(p, sec)
	own := t.sm[sm]
	for i, e := range own {
		if e.region == region {
			if i > 0 {
				own[0], own[i] = own[i], own[0]
			}
			return max(at, e.ready)
		}
	}
	ready := at + uint64(p.TLBMissCycles)
	if w, ok := t.ready[region]; ok {
		ready = max(ready, w)
	} else {
		if !t.allWarm && !t.warm[region] {
			ready += uint64(p.TLBWalkCycles)
		}
		t.ready[region] = ready
	}
	own = append(own, tlbEntry{region, ready})
	own[0], own[len(own)-1] = own[len(own)-1], own[0]
	t.sm[sm] = own
	return ready
}

// translateAll is translate for a request of several sectors: when the
// last of their regions is translated.
func (s *gridState) translateAll(sm int, at uint64, secs []uint64) uint64 {
	if !s.p.tlbOn() || len(secs) == 0 {
		return at
	}
	ready := s.translate(sm, at, secs[0])
	last := regionOf(s.p, secs[0])
	for _, sec := range secs[1:] {
		if r := regionOf(s.p, sec); r != last {
			ready = max(ready, s.translate(sm, at, sec))
			last = r
		}
	}
	return ready
}
