#!/usr/bin/env python3
"""bareplacement.py DIR: writes DIR/go.mod and DIR/bare_test.go, a Go test
package of 24 bare 32-lane add loops -- one lane a step (loop1), four lanes
a step (loop4, BenchmarkBareLaneLoop's form since 2026-11-27) and all 32
unrolled (full) -- each at eight code offsets (P0..P7: 0 to 7 statements of
filler before the loop shift where the linker's layout puts it), each
reporting M warp instructions per CPU-second. Build with
`cd DIR && go test -c -o bare.test .`; run.sh runs it beside the engine
benchmarks. `go tool objdump -s 'bare.loop1P' bare.test` shows each loop's
address: a one-lane loop whose 36 bytes cross a 64-byte line runs at about
half the rate of one that does not."""
import os, sys

d = sys.argv[1]
os.makedirs(d, exist_ok=True)
open(os.path.join(d, 'go.mod'), 'w').write('module bare\ngo 1.26\n')
src = ['package bare', '', 'import (\n\t"syscall"\n\t"testing"\n\t"time"\n)', '',
       'func cpuTime() time.Duration {\n\tvar ru syscall.Rusage\n\tsyscall.Getrusage(syscall.RUSAGE_SELF, &ru)\n'
       '\treturn time.Duration(ru.Utime.Nano() + ru.Stime.Nano())\n}', '', 'var sink uint64', '']
for v in ['loop1', 'loop4', 'full']:
    for pad in range(8):
        name = f'{v}P{pad}'
        b = [f'func {name}(b *testing.B, regs []uint64) {{', '\tvar x uint64']
        b += [f'\tx = x*{3 + i} + regs[{i}]' for i in range(pad)]
        b += ['\tsink = x', '\tfor i := 0; i < b.N; i++ {',
              '\t\ta := (*[32]uint64)(regs[32:64])', '\t\tc := (*[32]uint64)(regs[64:96])', '\t\td := (*[32]uint64)(regs[96:128])']
        if v == 'loop1':
            b += ['\t\tfor l := range d {', '\t\t\td[l] = uint64(uint32(a[l]) + uint32(c[l]))', '\t\t}']
        elif v == 'loop4':
            b += ['\t\tfor l := 0; l < 32; l += 4 {']
            b += [f'\t\t\td[l+{k}] = uint64(uint32(a[l+{k}]) + uint32(c[l+{k}]))' for k in range(4)]
            b += ['\t\t}']
        else:
            b += [f'\t\td[{k}] = uint64(uint32(a[{k}]) + uint32(c[{k}]))' for k in range(32)]
        b += ['\t}', '}', '',
              f'func Benchmark_{name}(b *testing.B) {{\n\tregs := make([]uint64, 128)\n\tc0 := cpuTime()\n\t{name}(b, regs)\n'
              f'\tb.ReportMetric(float64(b.N)/(cpuTime()-c0).Seconds()/1e6, "M/cpu-s")\n}}', '']
        src += b
open(os.path.join(d, 'bare_test.go'), 'w').write('\n'.join(src))
