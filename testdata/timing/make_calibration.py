#!/usr/bin/env python3
"""Builds the warpsim launch files (launch/*.json) of the H100 calibration configurations and the table
h100/calibration.csv that warpsim's timing tests compare against.

The configuration list below mirrors the "sim" mode of each benchmark in bench/ (same kernels, grids,
blocks, dynamic shared memory and arguments, in the same order). Each benchmark's sim mode printed
one line per measured kernel (h100/raw/<bench>_sim.txt: CUDA-event medians, clocks unlocked) and ran
once under Nsight Compute (h100/ncu_<bench>.csv, clocks locked to base, caches flushed); the rows are
joined in order, skipping kernels named init_*, and every join is checked: kernel name, grid and block
must agree between this table, the event line and the ncu row, or the script fails.

Usage: python3 make_calibration.py   (from testdata/timing; rewrites launch/ and h100/calibration.csv)
       python3 make_calibration.py h200   (the H200's run of the same benchmarks, h200/h200/calib: writes its
                                           calibration.csv there for the benchmarks it recorded and checks that
                                           their launch files are the ones launch/ holds, rewriting none)
"""
import csv
import io
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GPU = sys.argv[1] if len(sys.argv) > 1 else "h100"
DATA = {"h100": "h100", "h200": "h200/h200/calib"}[GPU]
SMS = 132
JUMP = 2654435761


def buf(nbytes):
    return {"bytes": int(nbytes)}


def ref(name):
    return {"buffer": name}


def launch(kernel, grid, block, args, shared=0):
    d = {"kernel": kernel, "grid": list(grid) if isinstance(grid, (list, tuple)) else [grid],
         "block": list(block) if isinstance(block, (list, tuple)) else [block], "args": args}
    if shared:
        d["shared_bytes"] = shared
    return d


def parse_kv(line):
    return dict(re.findall(r'(\w+)=("[^"]*"|\S+)', line))


def sim_lines(bench):
    with open(os.path.join(HERE, DATA, "raw", bench + "_sim.txt")) as f:
        return [l.strip() for l in f if l.strip()]


def ncu_rows(bench):
    """ncu rows per launch, in launch order, as {metric: value}; init_* kernels dropped."""
    with open(os.path.join(HERE, DATA, "ncu_" + bench + ".csv")) as f:
        rows = list(csv.DictReader(f))
    out, index = [], {}
    for r in rows:
        i = r["ID"]
        if i not in index:
            index[i] = {"kernel": r["Kernel Name"], "grid": r["Grid Size"], "block": r["Block Size"], "m": {}}
            out.append(index[i])
        index[i]["m"][r["Metric Name"]] = r["Metric Value"].replace(",", "")
    return [x for x in out if not x["kernel"].startswith("init_")]


# Each config: (name, bench, module, buffers, launches, measured launch index, kernel-clock printed?)
configs = []


def add(name, bench, buffers, launches, idx=None):
    configs.append({"name": name, "bench": bench, "buffers": buffers, "launches": launches,
                    "idx": len(launches) - 1 if idx is None else idx})


def gen_lat():
    ytype = {"none": ("s32", 1), "iadd": ("s32", 3), "imad": ("s32", 3), "fadd": ("f32", 1.0), "fmul": ("f32", 1.0),
             "ffma": ("f32", 1.0), "dfma": ("f64", 1.0), "dadd": ("f64", 1.0), "ex2": ("f32", 0.5),
             "rsqrt": ("f32", 0.5), "sin": ("f32", 0.5), "cvt": ("f32", 0.5), "shfl": ("s32", 0), "lds": ("s32", 1)}
    for cls in ["none", "iadd", "imad", "fadd", "fmul", "ffma", "dfma", "dadd", "ex2", "rsqrt", "sin", "cvt", "shfl", "lds"]:
        t, y = ytype[cls]
        threads = 32 if cls == "shfl" else 1
        add("lat_" + cls, "lat", {"out": buf(512), "cyc": buf(8)},
            [launch("lat_" + cls, 1, threads, [ref("out"), ref("cyc"), {"s32": 4096}, {t: y}])])


def gen_tput():
    ytype = {"iadd": ("s32", 3), "imad": ("s32", 3), "fadd": ("f32", 1.0), "ffma": ("f32", 1.0), "dfma": ("f64", 1.0),
             "ex2": ("f32", 0.5), "rsqrt": ("f32", 0.5), "cvt": ("f32", 0.5), "shfl": ("s32", 1)}
    for cls in ["iadd", "imad", "fadd", "ffma", "dfma", "ex2", "rsqrt", "cvt", "shfl"]:
        t, y = ytype[cls]
        size = 8 if t == "f64" else 4
        add("tput_" + cls, "tput", {"out": buf(SMS * 512 * size), "cyc": buf(SMS * 24)},
            [launch("tput_" + cls, SMS, 512, [ref("out"), ref("cyc"), {"s32": 64}, {t: y}])])


def gen_chase():
    for fp, step, warm, tag in [(16 << 10, 1, 128, "l1_16k_seq"), (16 << 10, JUMP, 128, "l1_16k_jump"),
                                (1 << 20, JUMP, 8192, "l2_1m_jump"), (64 << 20, JUMP, 0, "dram_64m_jump_cold"),
                                (64 << 20, 1, 0, "dram_64m_seq_cold")]:
        nl = fp // 128
        add("chase_" + tag, "chase", {"a": buf(fp), "cyc": buf(8), "out": buf(4)},
            [launch("init_chase", SMS * 8, 256, [ref("a"), {"u32": nl}, {"u32": step % nl}]),
             launch("chase", 1, 1, [ref("a"), {"u32": warm}, {"u32": 4096}, ref("cyc"), ref("out")])])


def smem_of(bench):
    """dynamic shared memory per configuration, as the benchmark printed it (sim mode, in order)."""
    return [int(parse_kv(l)["smem"]) for l in sim_lines(bench)]


def gen_stream():
    sm = iter(smem_of("stream"))
    n = (32 << 20) // 4
    for kname, bs, Rs in [("copy", 128, [1, 2, 4, 8, 16]), ("readsum", 128, [1, 4, 16]), ("copy", 256, [1, 2, 4, 8])]:
        for R in Rs:
            smem = next(sm)
            k = "copy_k" if kname == "copy" else "readsum_k"
            b = buf(32 << 20) if kname == "copy" else buf(4)
            add("stream_%s_32m_b%d_r%d" % (kname, bs, R), "stream", {"a": buf(32 << 20), "b": b},
                [launch("init_f32", SMS * 8, 256, [ref("a"), {"u32": n}]),
                 launch(k, SMS * R, bs, [ref("a"), ref("b"), {"u32": n}], shared=smem)])


def gen_bank():
    for warps in [1, 32]:
        for stride in [0, 1, 2, 4, 8, 16, 32]:
            add("bank_w%d_s%d" % (warps, stride), "bank", {"cyc": buf(8), "out": buf(4096)},
                [launch("bank_k", 1, warps * 32, [{"u32": stride}, {"u32": 1024}, ref("cyc"), ref("out")])])


def gen_atomics():
    for space, k in [("global", "atom_g"), ("shared", "atom_s")]:
        for mode, mname in [(0, "one_address"), (1, "per_warp"), (2, "per_thread")]:
            add("atomics_%s_%s" % (space, mname), "atomics", {"p": buf(1 << 20)},
                [launch(k, SMS * 2, 256, [ref("p"), {"u32": mode}, {"u32": 16}])])


def gen_launch():
    for g, b in [(1, 32), (SMS, 256), (SMS * 16, 256), (SMS * 64, 256), (SMS * 16, 1024)]:
        add("launch_empty_g%d_b%d" % (g, b), "launch", {}, [launch("empty_k", g, b, [])])


def gen_occ():
    sm = smem_of("occ")
    grid, block = SMS * 16, 128
    nt = grid * block
    i = 0
    for R in [1, 2, 4, 8, 16]:
        for kind in ["stream", "fma", "chase", "chase_l2"]:
            smem = sm[i]; i += 1
            if kind == "stream":
                bufs = {"a": buf(nt * 64), "b": buf(nt * 64)}
                l = launch("occ_stream", grid, block, [ref("a"), ref("b")], shared=smem)
            elif kind == "fma":
                bufs = {"o": buf(nt * 4)}
                l = launch("occ_fma", grid, block, [ref("o"), {"s32": 256}, {"f32": 1.0}], shared=smem)
            else:
                mask = (16 << 20) - 1 if kind == "chase" else (1 << 20) - 1
                bufs = {"t": buf(64 << 20), "o": buf(nt * 4)}
                l = launch("occ_chase", grid, block, [ref("t"), {"u32": mask}, {"s32": 16}, ref("o")], shared=smem)
            add("occ_%s_r%d" % (kind, R), "occ", bufs, [l])


def gen_lessons():
    for lg in [16, 18, 20]:
        for bs in [128, 256, 512, 1024]:
            size = 1 << lg
            grid = (size + bs - 1) // bs
            for k in ["reduceNeighbored", "reduceNeighboredLess", "reduceInterleaved"]:
                add("lesson_%s_n%d_b%d" % (k, size, bs), "lessons_small", {"in": buf(size * 4), "out": buf(grid * 4)},
                    [launch("init_reduce", 128, 256, [ref("in"), {"u32": size}]),
                     launch(k, grid, bs, [ref("in"), ref("out"), {"u32": size}])])
    for bs, size in [(64, 64), (256, 1 << 20)]:
        for k in ["warmingup", "mathKernel1", "mathKernel2", "mathKernel3", "mathKernel4"]:
            add("lesson_%s_n%d_b%d" % (k, size, bs), "lessons_small", {"c": buf(size * 4)},
                [launch(k, (size + bs - 1) // bs, bs, [ref("c")])])
    for n in [128, 256]:
        for T, CF in [(16, 1), (16, 2), (16, 4), (16, 8), (32, 1), (32, 2), (32, 4)]:
            k = "_Z12matmulCoarseILi%dELi%dEEvPKfS1_Pfi" % (T, CF)
            add("lesson_matmulCoarse_T%d_CF%d_n%d" % (T, CF, n), "lessons_small",
                {"M": buf(n * n * 4), "N": buf(n * n * 4), "P": buf(n * n * 4)},
                [launch("init_mat", 128, 256, [ref("M"), {"u32": n * n}, {"u32": 1}]),
                 launch("init_mat", 128, 256, [ref("N"), {"u32": n * n}, {"u32": 2}]),
                 launch(k, (n // (T * CF), n // T), (T, T), [ref("M"), ref("N"), ref("P"), {"s32": n}])])


def dim3(s):
    v = [int(x) for x in re.findall(r"\d+", s)]
    return v + [1] * (3 - len(v))


LEAD = ["name", "launchfile", "launch_index", "kernel", "grid", "block", "shared_bytes",
        "duration_ns", "sm_cycles", "achieved_occupancy_pct", "sm_clock_hz", "inst_executed",
        "event_ms_unlocked", "kernel_clock64_cycles_base", "kernel_clock64_cycles_unlocked"]


def main():
    for g in [gen_lat, gen_tput, gen_chase, gen_stream, gen_bank, gen_atomics, gen_launch, gen_occ, gen_lessons]:
        g()
    os.makedirs(os.path.join(HERE, "launch"), exist_ok=True)
    by_bench = {}
    for c in configs:
        by_bench.setdefault(c["bench"], []).append(c)
    table, metrics = [], []
    for bench, cs in by_bench.items():
        if GPU != "h100" and not os.path.exists(os.path.join(HERE, DATA, "raw", bench + "_sim.txt")):
            continue  # a benchmark this GPU's run did not record
        ev = sim_lines(bench)
        with open(os.path.join(HERE, DATA, "raw", "ncu_%s_stdout.txt" % bench)) as f:
            ncu_out = [l.strip() for l in f if l.strip()]
        nr = ncu_rows(bench)
        if not (len(cs) == len(ev) == len(nr) == len(ncu_out)):
            sys.exit("%s: %d configs, %d event lines, %d ncu launches, %d ncu stdout lines" % (bench, len(cs), len(ev), len(nr), len(ncu_out)))
        for c, e, r, o in zip(cs, ev, nr, ncu_out):
            l = c["launches"][c["idx"]]
            k = l["kernel"]
            g = (l["grid"] + [1, 1])[:3]
            b = (l["block"] + [1, 1])[:3]
            if r["kernel"] != k and not r["kernel"].startswith(k.split("(")[0]):
                # ncu prints demangled C++ names: matmulCoarse<16, 1>(...) for the mangled PTX name
                m = re.match(r"_Z12matmulCoarseILi(\d+)ELi(\d+)E", k)
                name = r["kernel"].replace(" ", "").replace("void", "", 1)
                if not (m and name.startswith("matmulCoarse<%s,%s>" % m.groups())):
                    sys.exit("%s: kernel %s but ncu profiled %s" % (c["name"], k, r["kernel"]))
            if dim3(r["grid"]) != g or dim3(r["block"]) != b:
                sys.exit("%s: grid/block %s %s but ncu %s %s" % (c["name"], g, b, r["grid"], r["block"]))
            ekv, okv = parse_kv(e), parse_kv(o)
            if "grid" in ekv and ekv["grid"].replace("x", " ").split()[0] != str(g[0]):
                sys.exit("%s: event line %s does not match grid %s" % (c["name"], e, g))
            lf = {"module": "../bench/%s.ptx" % bench, "arch": "h100", "buffers": c["buffers"], "launches": c["launches"]}
            path = "launch/%s.json" % c["name"]
            text = json.dumps(lf, indent=1) + "\n"
            if GPU != "h100":
                with open(os.path.join(HERE, path)) as f:
                    if f.read() != text:
                        sys.exit("%s: the launch file differs from the H100's configuration" % path)
            else:
                with open(os.path.join(HERE, path), "w") as f:
                    f.write(text)
            m = r["m"]
            for key in m:
                if key not in metrics:
                    metrics.append(key)
            row = {"name": c["name"], "launchfile": path, "launch_index": c["idx"], "kernel": k,
                   "grid": "x".join(map(str, g)), "block": "x".join(map(str, b)), "shared_bytes": l.get("shared_bytes", 0),
                   "duration_ns": m.get("gpu__time_duration.sum", ""), "sm_cycles": m.get("sm__cycles_elapsed.avg", ""),
                   "achieved_occupancy_pct": m.get("sm__warps_active.avg.pct_of_peak_sustained_active", ""),
                   "sm_clock_hz": m.get("sm__cycles_elapsed.avg.per_second", ""),
                   "inst_executed": m.get("smsp__inst_executed.sum", ""),
                   "event_ms_unlocked": ekv.get("event_ms", ""),
                   "kernel_clock64_cycles_base": okv.get("cycles", ""),
                   "kernel_clock64_cycles_unlocked": ekv.get("cycles", "")}
            row.update(m)
            table.append(row)
    with open(os.path.join(HERE, DATA, "calibration.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=LEAD + metrics, lineterminator="\n")
        w.writeheader()
        for row in table:
            w.writerow(row)
    print("%d configurations, %d launch files" % (len(table), len(table)))


if __name__ == "__main__":
    main()
