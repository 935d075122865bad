package engine

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestTritonTensorKernels runs Triton's own PTX (testdata/tensor/triton,
// recorded on the H100 with the frontend corpus) for matmuls and fused
// attention: sm_80 (mma.sync, ldmatrix, cp.async) and sm_90 (wgmma with
// shared-memory descriptors), every output byte compared with the H100's.
func TestTritonTensorKernels(t *testing.T) {
	for _, c := range []struct{ dir, ptx, launch, arch string }{
		{"mm_f16_64x64x32_s3", "sm80.ptx", "launch_sm80.json", "sm80"},
		{"mm_f16_64x64x32_s3", "sm90.ptx", "launch.json", "sm90"},
		{"attn_fwd_f16", "sm80.ptx", "launch_sm80.json", "sm80"},
		{"attn_fwd_f16", "sm90.ptx", "launch.json", "sm90"},
		{"mm_tf32_64x64x32_s2", "sm80.ptx", "launch_sm80.json", "sm80"},
		{"mm_tf32_64x64x32_s2", "sm90.ptx", "launch.json", "sm90"},
		{"mm_fp8e4m3_64x64x64_s3", "sm90.ptx", "launch.json", "sm90"},
	} {
		t.Run(c.dir+"/"+c.arch, func(t *testing.T) {
			dir := filepath.Join(tensorRec, "triton", c.dir)
			src, err := os.ReadFile(filepath.Join(dir, c.ptx))
			if err != nil {
				t.Fatal(err)
			}
			var lf struct {
				Buffers map[string]struct {
					File  string `json:"file"`
					Bytes int    `json:"bytes"`
				} `json:"buffers"`
				Launches []struct {
					Kernel string           `json:"kernel"`
					Grid   [3]uint32        `json:"grid"`
					Block  [3]uint32        `json:"block"`
					Shared uint32           `json:"shared_bytes"`
					Args   []map[string]any `json:"args"`
				} `json:"launches"`
			}
			lj, err := os.ReadFile(filepath.Join(dir, c.launch))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(lj, &lf); err != nil {
				t.Fatal(err)
			}
			m := testModule(t, string(src))
			addr := map[string]uint64{}
			for name, b := range lf.Buffers {
				var data []byte
				if b.File != "" {
					if data, err = os.ReadFile(filepath.Join(dir, b.File)); err != nil {
						t.Fatal(err)
					}
				} else {
					data = make([]byte, b.Bytes)
				}
				a := m.buffer(t, len(data))
				mem, _ := m.Mem.Bytes(a, uint64(len(data)))
				copy(mem, data)
				addr[name] = a
			}
			l := lf.Launches[0]
			fn := m.Prog.Funcs[m.Prog.FuncByName[l.Kernel]]
			params := make([]byte, fn.ParamBytes)
			for i, a := range l.Args {
				off := fn.Params[i].Offset
				for k, v := range a {
					switch k {
					case "buffer":
						binary.LittleEndian.PutUint64(params[off:], addr[v.(string)])
					case "s32":
						binary.LittleEndian.PutUint32(params[off:], uint32(int32(v.(float64))))
					case "f32":
						binary.LittleEndian.PutUint32(params[off:], math.Float32bits(float32(v.(float64))))
					case "u64":
						binary.LittleEndian.PutUint64(params[off:], uint64(v.(float64)))
					default:
						t.Fatalf("argument kind %s", k)
					}
				}
			}
			if _, _, err := m.launchTest(t, run{kernel: l.Kernel, grid: l.Grid, block: l.Block, dyn: l.Shared, params: params}); err != nil {
				t.Fatal(err)
			}
			outs, _ := filepath.Glob(filepath.Join(dir, "expected", c.arch, "*.bin"))
			if len(outs) == 0 {
				t.Fatal("no expected outputs")
			}
			for _, o := range outs {
				want, _ := os.ReadFile(o)
				name := filepath.Base(o)
				name = name[:len(name)-4]
				got, _ := m.Mem.Bytes(addr[name], uint64(len(want)))
				if !bytes.Equal(got, want) {
					n := 0
					for i := range want {
						if got[i] != want[i] {
							n++
						}
					}
					t.Errorf("%s: %d of %d bytes differ from the H100's", name, n, len(want))
				}
			}
		})
	}
}
