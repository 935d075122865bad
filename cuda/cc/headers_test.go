package cc_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/warpsim/warpsim/cuda/cc"
	"github.com/warpsim/warpsim/internal/ir"
	"github.com/warpsim/warpsim/internal/testenv"
	"github.com/warpsim/warpsim/ptx"
)

// headerCases: one CUDA statement each (in a kernel with int *ip, unsigned
// *up, float *fp, double *dp, unsigned long long *llp, and int i), and an
// instruction the PTX of that kernel must contain — the instruction nvcc's
// headers lead to, so the engine executes what the GPU would.
var headerCases = []struct {
	name, stmt, want string
}{
	{"threadIdx", "ip[0] = threadIdx.x + threadIdx.y + threadIdx.z;", "%tid.z"},
	{"blockIdx", "ip[0] = blockIdx.y;", "%ctaid.y"},
	{"blockDim", "ip[0] = blockDim.z;", "%ntid.z"},
	{"gridDim", "ip[0] = gridDim.x;", "%nctaid.x"},
	{"warpSize", "ip[0] = warpSize * i;", "shl.b32"},
	{"syncthreads", "__syncthreads(); ip[0] = 1;", "bar.sync \t0"},
	{"syncthreads_count", "ip[0] = __syncthreads_count(i);", "bar.red.popc.u32"},
	{"syncthreads_or", "ip[0] = __syncthreads_or(i);", "bar.red.or.pred"},
	{"syncwarp", "__syncwarp(); ip[0] = 1;", "bar.warp.sync"},
	{"threadfence", "__threadfence(); ip[0] = 1;", "membar.gl"},
	{"threadfence_block", "__threadfence_block(); ip[0] = 1;", "membar.cta"},
	{"atomicAdd_int", "atomicAdd(ip, i);", "atom.global.add.u32"},
	{"atomicAdd_float", "atomicAdd(fp, 1.5f);", "atom.global.add.f32"},
	{"atomicAdd_double", "atomicAdd(dp, 1.5);", "atom.global.add.f64"},
	{"atomicAdd_ull", "atomicAdd(llp, 3ull);", "atom.global.add.u64"},
	{"atomicAdd_block", "atomicAdd_block(ip, i);", "atom.cta.add.s32"},
	{"atomicAdd_system", "atomicAdd_system(ip, i);", "atom.sys.add.s32"},
	{"atomicSub", "atomicSub(ip, i);", "atom.global.add.u32"},
	{"atomicExch", "atomicExch(ip, i);", "atom.global.exch.b32"},
	{"atomicExch_float", "atomicExch(fp, 2.0f);", "atom.global.exch.b32"},
	{"atomicMin", "atomicMin(ip, i);", "atom.global.min.s32"},
	{"atomicMax_unsigned", "atomicMax(up, 7u);", "atom.global.max.u32"},
	{"atomicMin_ll", "atomicMin((long long *)llp, (long long)i);", "atom.global.min.s64"},
	{"atomicInc", "atomicInc(up, 9u);", "atom.global.inc.u32"},
	{"atomicDec", "atomicDec(up, 9u);", "atom.global.dec.u32"},
	{"atomicAnd", "atomicAnd(ip, i);", "atom.global.and.b32"},
	{"atomicOr_ull", "atomicOr(llp, 1ull);", "atom.global.or.b64"},
	{"atomicXor", "atomicXor(ip, i);", "atom.global.xor.b32"},
	{"atomicCAS", "ip[1] = atomicCAS(ip, 0, i);", "atom.cas.b32"},
	{"atomicCAS_ull", "llp[1] = atomicCAS(llp, 0ull, 5ull);", "atom.cas.b64"},
	{"shfl_sync", "ip[0] = __shfl_sync(0xffffffff, i, 3);", "shfl.sync.idx.b32"},
	{"shfl_up_sync", "ip[0] = __shfl_up_sync(0xffffffff, i, 1);", "shfl.sync.up.b32"},
	{"shfl_down_sync_float", "fp[0] = __shfl_down_sync(0xffffffff, fp[1], 16);", "shfl.sync.down.b32"},
	{"shfl_xor_sync_double", "dp[0] = __shfl_xor_sync(0xffffffff, dp[1], 1);", "shfl.sync.bfly.b32"},
	{"ballot_sync", "up[0] = __ballot_sync(0xffffffff, i > 3);", "vote.sync.ballot.b32"},
	{"any_sync", "ip[0] = __any_sync(0xffffffff, i > 3);", "vote.sync.any.pred"},
	{"all_sync", "ip[0] = __all_sync(0xffffffff, i > 3);", "vote.sync.all.pred"},
	{"activemask", "up[0] = __activemask();", "activemask.b32"},
	{"match_any_sync", "up[0] = __match_any_sync(0xffffffff, i);", "match.any.sync.b32"},
	{"match_all_sync", "int p; up[0] = __match_all_sync(0xffffffff, i, &p); ip[1] = p;", "match.all.sync.b32"},
	{"reduce_add_sync", "up[0] = __reduce_add_sync(0xffffffff, (unsigned)i);", "redux.sync.add"},
	{"reduce_max_sync", "ip[0] = __reduce_max_sync(0xffffffff, i);", "redux.sync.max.s32"},
	{"popc", "ip[0] = __popc(up[1]);", "popc.b32"},
	{"popcll", "ip[0] = __popcll(llp[1]);", "popc.b64"},
	{"clz", "ip[0] = __clz(i);", "clz.b32"},
	{"brev", "up[0] = __brev(up[1]);", "brev.b32"},
	{"byte_perm", "up[0] = __byte_perm(up[1], up[2], 0x5410);", "prmt.b32"},
	{"funnelshift_l", "up[0] = __funnelshift_l(up[1], up[2], i);", "shf.l.wrap.b32"},
	{"funnelshift_rc", "up[0] = __funnelshift_rc(up[1], up[2], i);", "shf.r.clamp.b32"},
	{"mulhi", "ip[0] = __mulhi(i, ip[1]);", "mul.hi.s32"},
	{"umul64hi", "llp[0] = __umul64hi(llp[1], llp[2]);", "mul.hi.u64"},
	{"mul24", "ip[0] = __mul24(i, ip[1]);", "mul24.lo.s32"},
	{"sad", "up[0] = __usad(up[1], up[2], up[3]);", "sad.u32"},
	{"dp4a", "ip[0] = __dp4a(i, ip[1], ip[2]);", "dp4a.s32.s32"},
	{"ffs", "ip[0] = __ffs(i);", "popc.b32"},
	{"float2int_rn", "ip[0] = __float2int_rn(fp[1]);", "cvt.rni.s32.f32"},
	{"float2int_rd", "ip[0] = __float2int_rd(fp[1]);", "cvt.rmi.s32.f32"},
	{"double2float_ru", "fp[0] = __double2float_ru(dp[1]);", "cvt.rp.f32.f64"},
	{"int_as_float", "fp[0] = __int_as_float(i);", "st.global.b32"},
	{"fadd_rz", "fp[0] = __fadd_rz(fp[1], fp[2]);", "add.rz.f32"},
	{"fmaf_rn", "fp[0] = __fmaf_rn(fp[1], fp[2], fp[3]);", "fma.rn.f32"},
	{"fdividef", "fp[0] = __fdividef(fp[1], fp[2]);", "div.approx.f32"},
	{"expf_fast", "fp[0] = __expf(fp[1]);", "ex2.approx.f32"},
	{"sinf_fast", "fp[0] = __sinf(fp[1]);", "sin.approx.f32"},
	{"saturatef", "fp[0] = __saturatef(fp[1]);", ".sat.f32"},
	{"sinf", "fp[0] = sinf(fp[1]);", "call.uni (retval0), __nv_sinf"},
	{"sqrt_double", "dp[0] = sqrt(dp[1]);", "__nv_sqrt"},
	{"powf", "fp[0] = powf(fp[1], fp[2]);", "__nv_powf"},
	{"fabsf", "fp[0] = fabsf(fp[1]);", "abs.f32"},
	{"fminf", "fp[0] = fminf(fp[1], fp[2]);", "min.f32"},
	{"min_int", "ip[0] = min(i, ip[1]);", "min.s32"},
	{"max_unsigned", "up[0] = max(up[1], up[2]);", "max.u32"},
	{"ldg", "ip[0] = __ldg(ip + 1);", "ld.global.nc"},
	{"clock64", "llp[0] = clock64();", "%clock64"},
	{"clock", "ip[0] = (int)clock();", "%clock"},
	{"printf", "printf(\"%d\\n\", i);", "vprintf"},
	{"assert", "assert(i != 7);", "__assertfail"},
	{"laneid", "up[0] = __laneid();", "%laneid"},
	{"dim3_conversion", "dim3 b = blockDim; ip[0] = b.x * b.y;", "%ntid.y"},
	{"fp16_add", "__half a = __float2half(fp[1]); ip[0] = __half_as_ushort(__hadd(a, a));", "add.f16 "},
	{"fp16x2_mul", "__half2 a = __floats2half2_rn(fp[1], fp[2]); up[0] = __builtin_bit_cast(unsigned, __hmul2(a, a));", "mul.f16x2"},
	{"bf16_add", "__nv_bfloat16 a = __float2bfloat16(fp[1]); ip[0] = __bfloat16_as_ushort(__hadd(a, a));", "add.bf16 "},
	{"bf16_convert", "fp[0] = __bfloat162float(__float2bfloat16(fp[1]));", "cvt.rn.bf16.f32"},
	{"vector_types", "float4 v = make_float4(1, 2, 3, fp[1]); ((float4 *)fp)[1] = v;", "st.global.v4.b32"},
}

func TestHeaders(t *testing.T) {
	testenv.NeedClang(t)
	d, err := cc.NewDriver(os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	var src strings.Builder
	src.WriteString("#include <cassert>\n#include <cstdio>\n#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n")
	for n, c := range headerCases {
		fmt.Fprintf(&src, "extern \"C\" __global__ void case%d(int *ip, unsigned *up, float *fp, double *dp, unsigned long long *llp, int i) { %s }\n", n, c.stmt)
	}
	path := filepath.Join(t.TempDir(), "headers.cu")
	if err := os.WriteFile(path, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ptx := cachedPTX(t, d, path, "-O3", "sm_90")
	// Split the PTX into entries.
	bodies := map[string]string{}
	entryRE := regexp.MustCompile(`(?m)^\.visible \.entry (case\d+)\(`)
	locs := entryRE.FindAllSubmatchIndex(ptx, -1)
	for i, l := range locs {
		end := len(ptx)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		bodies[string(ptx[l[2]:l[3]])] = string(ptx[l[0]:end])
	}
	for n, c := range headerCases {
		t.Run(c.name, func(t *testing.T) {
			body, ok := bodies[fmt.Sprintf("case%d", n)]
			if !ok {
				t.Fatalf("no entry case%d in the PTX", n)
			}
			if !strings.Contains(body, c.want) {
				t.Errorf("%s: PTX lacks %q:\n%s", c.stmt, c.want, body)
			}
		})
	}
}

// TestHostOnlyHeaders compiles a host-only C++ file that uses the runtime
// API through cuda_runtime.h, as a .cpp beside .cu files does.
func TestHostOnlyHeaders(t *testing.T) {
	testenv.NeedClang(t)
	d, err := cc.NewDriver(os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "host.cpp")
	os.WriteFile(src, []byte("#include <cuda_runtime.h>\n#include <cuda_fp16.h>\nint f() { float *p; dim3 g(2); __half h = __float2half(1.0f); return cudaMalloc(&p, 4) + g.x + (int)__half2float(h); }\n"), 0o644)
	o, err := cc.ParseArgs([]string{"-c", "-O2", src, "-o", filepath.Join(dir, "host.o")})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Build(o); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "host.o")); err != nil {
		t.Fatal(err)
	}
}

// TestFP8HeaderBelowSm89: cuda_fp8.h's saturating and widening conversions
// use sm_89's packed cvt (e4m3x2/e5m2x2) only where ptxas accepts it
// (testdata/triton4/ptxas: "Feature 'cvt with .e4m3x2/.e5m2x2' requires
// .target sm_89 or higher"); for sm_80 the header converts in software, so
// the PTX passes warpsim's Check, which holds it to ptxas's rule.
func TestFP8HeaderBelowSm89(t *testing.T) {
	testenv.NeedClang(t)
	d, err := cc.NewDriver(os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	src := "#include <cuda_fp8.h>\n" +
		"extern \"C\" __global__ void k(float *fp, unsigned short *hp) {\n" +
		"  hp[0] = __nv_cvt_float2_to_fp8x2(make_float2(fp[0], fp[1]), __NV_SATFINITE, __NV_E4M3);\n" +
		"  __half2_raw h = __nv_cvt_fp8x2_to_halfraw2(hp[1], __NV_E5M2); hp[2] = h.x; hp[3] = h.y;\n" +
		"  hp[4] = __nv_cvt_halfraw2_to_fp8x2(h, __NV_SATFINITE, __NV_E5M2);\n}\n"
	path := filepath.Join(t.TempDir(), "fp8.cu")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		arch   string
		packed bool
	}{{"sm_80", false}, {"sm_89", true}, {"sm_90", true}} {
		out := cachedPTX(t, d, path, "-O3", c.arch)
		if got := strings.Contains(string(out), "e4m3x2") || strings.Contains(string(out), "e5m2x2"); got != c.packed {
			t.Errorf("%s: packed fp8 cvt in the PTX = %v, want %v", c.arch, got, c.packed)
		}
		m, err := ptx.Parse(path, out)
		if err != nil {
			t.Fatalf("%s: %v", c.arch, err)
		}
		if errs := ir.Check(m); len(errs) > 0 {
			t.Errorf("%s: Check refuses the PTX: %v", c.arch, errs)
		}
	}
}

// cachedPTX is the driver's PTX of src at optLevel for arch, kept between
// runs as the tests' programs are (testenv.CachedBuild: the key covers
// clang, the driver's code, src and every header it can reach by content,
// and the flags), so that a test of what the headers compile to does not
// run clang again while none of that changed.
func cachedPTX(t *testing.T, d *cc.Driver, src, optLevel, arch string) []byte {
	t.Helper()
	built, err := testenv.CachedCompile(src, []string{"--test-ptx", optLevel, arch}, func(dir string) (string, error) {
		ptx, err := d.PTX(&cc.Options{Inputs: []string{src}, OptLevel: optLevel, Arch: arch}, src)
		if err != nil {
			return "", err
		}
		f := filepath.Join(dir, strings.TrimSuffix(filepath.Base(src), ".cu"))
		return f, os.WriteFile(f, ptx, 0o644)
	})
	if err != nil {
		t.Fatalf("%s for %s: %v", src, arch, err)
	}
	ptx, err := os.ReadFile(built)
	if err != nil {
		t.Fatal(err)
	}
	return ptx
}
