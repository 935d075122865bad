package report

import (
	"sort"
)

// kernel is what the report shows for one kernel: its launches, the first
// one's configuration and the per-instruction counts summed over all of
// them.
type kernel struct {
	id       string // HTML id prefix
	name     string
	launches []*Launch
	first    *Launch
	funcs    []Func // counts summed over the launches, by function and pc
	total    Counts
	lines    []srcLine // per source line, in file and line order
	stalls   []uint64  // summed warp-state cycles (timing)
	names    []string
	duration float64 // summed simulated ns
	dram     float64 // summed DRAM bytes (timing)
}

// srcLine is one source line's counts: the sum of its instructions'.
type srcLine struct {
	file, line int
	Counts
	stalls uint64
	pcs    int // instructions on the line
}

// lineKey names a source line.
type lineKey struct{ file, line int }

// groupKernels gathers launches by PTX function, in first-launch order.
func groupKernels(p *Profile) []*kernel {
	var ks []*kernel
	index := map[string]*kernel{}
	for i := range p.Launches {
		l := &p.Launches[i]
		k := index[l.Func]
		if k == nil {
			k = &kernel{name: l.Kernel, first: l}
			index[l.Func] = k
			ks = append(ks, k)
		}
		k.launches = append(k.launches, l)
	}
	for i, k := range ks {
		k.id = "k" + itoa(i)
		k.sum()
	}
	return ks
}

// sum adds up the kernel's launches.
func (k *kernel) sum() {
	fi := map[string]int{}
	lines := map[lineKey]*srcLine{}
	for _, l := range k.launches {
		k.duration += l.DurationNS
		k.dram += l.Metrics["dram_read_bytes"] + l.Metrics["dram_write_bytes"]
		if len(l.StallNames) > 0 && k.names == nil {
			k.names = l.StallNames
			k.stalls = make([]uint64, len(l.StallNames))
		}
		for j, v := range l.Stalls {
			if j < len(k.stalls) && len(l.StallNames) == len(k.names) {
				k.stalls[j] += v
			}
		}
		for _, f := range l.Funcs {
			i, ok := fi[f.Name]
			if !ok {
				i = len(k.funcs)
				fi[f.Name] = i
				k.funcs = append(k.funcs, Func{Name: f.Name, Entry: f.Entry, Insts: make([]Inst, len(f.Insts))})
				for pc, in := range f.Insts {
					k.funcs[i].Insts[pc] = Inst{PC: in.PC, PTXLine: in.PTXLine, Text: in.Text, File: in.File, Line: in.Line}
				}
			}
			dst := k.funcs[i].Insts
			for pc := range f.Insts {
				if pc >= len(dst) {
					break
				}
				src := &f.Insts[pc]
				dst[pc].Counts.Add(&src.Counts)
				if len(src.Stalls) > 0 {
					if dst[pc].Stalls == nil {
						dst[pc].Stalls = make([]uint64, len(src.Stalls))
					}
					for s, v := range src.Stalls {
						if s < len(dst[pc].Stalls) {
							dst[pc].Stalls[s] += v
						}
					}
				}
			}
		}
	}
	// The entry function first, then the device functions it called.
	sort.SliceStable(k.funcs, func(i, j int) bool { return k.funcs[i].Entry && !k.funcs[j].Entry })
	for _, f := range k.funcs {
		for i := range f.Insts {
			in := &f.Insts[i]
			k.total.Add(&in.Counts)
			if in.File < 0 {
				continue
			}
			key := lineKey{in.File, in.Line}
			sl := lines[key]
			if sl == nil {
				sl = &srcLine{file: in.File, line: in.Line}
				lines[key] = sl
			}
			sl.Counts.Add(&in.Counts)
			sl.stalls += sumU(in.Stalls)
			sl.pcs++
		}
	}
	for _, sl := range lines {
		k.lines = append(k.lines, *sl)
	}
	sort.Slice(k.lines, func(i, j int) bool {
		a, b := k.lines[i], k.lines[j]
		if a.file != b.file {
			return a.file < b.file
		}
		return a.line < b.line
	})
}

func sumU(v []uint64) uint64 {
	var s uint64
	for _, x := range v {
		s += x
	}
	return s
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}
