package warpsim_test

// Label and register scoping in { } blocks, and functions of many
// registers, against ptxas and the H100 (testdata/ptx/scopes, recorded by
// its record.sh): every case ptxas refuses must be refused at the line
// ptxas names, and every case it accepts must give the H100's output buffer
// byte for byte.

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/warpsim/warpsim"
	"github.com/warpsim/warpsim/arch"
)

const scopesDir = "testdata/ptx/scopes"

// scopeVerdict is one case's line in verdicts.txt: ptxas's exit status and,
// when it refused the case, the line it named.
type scopeVerdict struct {
	rc   int
	line int
	msg  string
}

func readScopeVerdicts(t *testing.T) map[string]scopeVerdict {
	t.Helper()
	f, err := os.Open(filepath.Join(scopesDir, "verdicts.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	head := regexp.MustCompile(`^== (\S+) ptxas_rc=(\d+)$`)
	errLine := regexp.MustCompile(`^  ptxas \S+, line (\d+); error\s*: (.*)$`)
	out := map[string]scopeVerdict{}
	cur := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := head.FindStringSubmatch(sc.Text()); m != nil {
			cur = m[1]
			rc, _ := strconv.Atoi(m[2])
			out[cur] = scopeVerdict{rc: rc}
		} else if m := errLine.FindStringSubmatch(sc.Text()); m != nil && cur != "" {
			v := out[cur]
			v.line, _ = strconv.Atoi(m[1])
			v.msg = m[2]
			out[cur] = v
		}
	}
	if len(out) == 0 {
		t.Fatal("no verdicts read")
	}
	return out
}

// chain70kPTX is cases/22_chain70k.ptx (too big to commit; gen_cases.sh
// writes it): a straight chain through 70,001 used registers.
func chain70kPTX() []byte {
	var b bytes.Buffer
	b.WriteString(`// chain through 70001 used registers: tid + 280000
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<8>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 32;
	add.s64 %rd1, %rd1, %rd2;
	and.b32 %r2, %r1, 1;
	setp.ne.u32 %p1, %r2, 0;
	and.b32 %r2, %r1, 2;
	setp.ne.u32 %p2, %r2, 0;
	mov.u32 %r3, 0;
	mov.u32 %r4, 0;
	.reg .b32 %c<70001>;
	mov.u32 %c0, %r1;
`)
	for i := 0; i < 70000; i++ {
		fmt.Fprintf(&b, "\tadd.u32 %%c%d, %%c%d, %d;\n", i+1, i, i%7+1)
	}
	b.WriteString("\tmov.u32 %r3, %c70000;\n\tst.global.u32 [%rd1], %r3;\n\tst.global.u32 [%rd1+4], %r4;\n\tret;\n}\n")
	return b.Bytes()
}

// scopeCase reads one case's PTX and checks it against the hash of the
// file that ran on the H100 (cases.sha256).
func scopeCase(t *testing.T, name string, sums map[string]string) []byte {
	t.Helper()
	var src []byte
	if name == "22_chain70k" {
		src = chain70kPTX()
	} else {
		var err error
		if src, err = os.ReadFile(filepath.Join(scopesDir, "cases", name+".ptx")); err != nil {
			t.Fatal(err)
		}
	}
	h := sha256.Sum256(src)
	if got := hex.EncodeToString(h[:]); got != sums[name] {
		t.Fatalf("%s: sha256 %s, the recorded file's is %s", name, got, sums[name])
	}
	return src
}

func TestPTXScopes(t *testing.T) {
	verdicts := readScopeVerdicts(t)
	raw, err := os.ReadFile(filepath.Join(scopesDir, "cases.sha256"))
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string]string{}
	for _, ln := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		f := strings.Fields(ln)
		sums[strings.TrimSuffix(filepath.Base(f[1]), ".ptx")] = f[0]
	}
	if len(sums) != len(verdicts) {
		t.Fatalf("%d hashes, %d verdicts", len(sums), len(verdicts))
	}
	for name, v := range verdicts {
		t.Run(name, func(t *testing.T) {
			src := scopeCase(t, name, sums)
			dev := warpsim.NewDevice(arch.MustLookup("h100"), warpsim.Options{Mode: warpsim.ModeFunctional})
			file := name + ".ptx"
			mod, err := dev.LoadModule(file, src)
			if v.rc != 0 {
				if err == nil {
					t.Fatalf("ptxas refused it (line %d: %s); warpsim loaded it", v.line, v.msg)
				}
				want := fmt.Sprintf("%s:%d:", file, v.line)
				if !strings.HasPrefix(err.Error(), want) {
					t.Fatalf("error %q, want one at %s (ptxas: %s)", err, want, v.msg)
				}
				return
			}
			if err != nil {
				t.Fatalf("ptxas accepted it; warpsim: %v", err)
			}
			want, err := os.ReadFile(filepath.Join(scopesDir, "out_"+name+".bin"))
			if err != nil {
				t.Fatal(err)
			}
			k, err := mod.Kernel("k")
			if err != nil {
				t.Fatal(err)
			}
			out, _ := dev.Malloc(uint64(len(want)))
			p := make([]byte, 8)
			for i := range p {
				p[i] = byte(uint64(out) >> (8 * i))
			}
			cfg := warpsim.LaunchConfig{Grid: warpsim.Dim3{X: 1, Y: 1, Z: 1}, Block: warpsim.Dim3{X: 32, Y: 1, Z: 1}}
			if _, err := dev.Launch(k, cfg, p); err != nil {
				t.Fatal(err)
			}
			got := make([]byte, len(want))
			dev.Read(out, got)
			if !bytes.Equal(got, want) {
				for th := 0; th < 32; th++ {
					if !bytes.Equal(got[32*th:32*th+32], want[32*th:32*th+32]) {
						t.Errorf("thread %d: got % x, H100 % x", th, got[32*th:32*th+8], want[32*th:32*th+8])
					}
				}
			}
		})
	}
}
