#!/usr/bin/env python3
"""analyze.py h100: which L2 partition is each page's home in part.cu's recording (standard library only).

For each run (one SM chasing one cold load a page through a buffer) the pages split into near and far by their
cycles (two clusters, about 200 cycles apart at the boost clock). The model's hash (internal/timing/memory.go,
farPage) is a parity of address bits 12, 13, 16, 17, 19 (below 21: the same in a virtual and a physical address
under 2 MiB pages) and a part from the physical frame. This prints, per run, how many pages that low parity
explains once each 2 MiB frame has its own bit, then each frame's bit by its virtual address, and whether the
frames' bits follow a parity of the virtual address's bits 21 and up.
"""
import gzip
import itertools
import sys

LOW = (12, 13, 16, 17, 19)


def parity(x):
    return bin(x).count("1") & 1


def lowpar(va):
    return parity(sum(((va >> b) & 1) << i for i, b in enumerate(LOW)))


def read(path):
    runs, allocs = [], {}
    cur = None
    with gzip.open(path, "rt") as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "alloc":
                allocs[w[1]] = (int(w[3], 16), int(w[5]))
            elif w[0] == "run":
                cur = {"buf": w[2], "ptr": int(w[4], 16), "pages": int(w[6]), "which": int(w[8]), "sm": int(w[10])}
            elif w[0] == "lat":
                cur["lat"] = [int(x) for x in w[1:]]
                runs.append(cur)
    return allocs, runs


def split(lat):
    """The threshold between the two clusters (2-means on the values under 1500)."""
    v = sorted(x for x in lat if x < 1500)
    lo, hi = v[len(v) // 10], v[9 * len(v) // 10]
    for _ in range(50):
        t = (lo + hi) / 2
        a = [x for x in v if x <= t]
        b = [x for x in v if x > t]
        lo, hi = sum(a) / len(a), sum(b) / len(b)
    return (lo + hi) / 2, lo, hi


def main(d):
    allocs, runs = read(d + "/part.txt.gz")
    print("allocations:", ", ".join("%s %#x (%d bytes)" % (k, p, n) for k, (p, n) in allocs.items()))
    frames = {}  # (sm, frame) -> bit
    print("\n| buffer | SM | pages | near cycles | far cycles | threshold | pages explained by low parity + a bit a frame |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in runs:
        t, lo, hi = split(r["lat"])
        far = [x > t for x in r["lat"]]
        per = {}
        for p, f in enumerate(far):
            va = r["ptr"] + 4096 * p
            per.setdefault(va >> 21, []).append(int(f) ^ lowpar(va))
        ok = 0
        for fr, g in per.items():
            bit = int(sum(g) * 2 > len(g))
            ok += sum(1 for x in g if x == bit)
            frames[(r["sm"], fr)] = bit
        print("| %s | %d | %d | %.0f | %.0f | %.0f | %.1f%% |" % (r["buf"], r["sm"], r["pages"], lo, hi, t, 100 * ok / len(far)))
    # Each frame's bit from every SM that saw it: SMs agree or are complementary (their side).
    sms = sorted({s for s, _ in frames})
    ref = {}
    for s in sms:
        mine = {fr: b for (x, fr), b in frames.items() if x == s}
        ref[s] = mine
    base = sms[0]
    side = {base: 0}
    for s in sms[1:]:
        common = [fr for fr in ref[s] if fr in ref[base]]
        if not common:
            continue
        same = sum(ref[s][fr] == ref[base][fr] for fr in common)
        side[s] = 0 if same * 2 > len(common) else 1
        print("SM %d against SM %d: %d of %d frames alike: side %d" % (s, base, same, len(common), side[s]))
    for s in sms:
        if s in side:
            continue
        # Sides through any SM already placed.
        for s2 in list(side):
            common = [fr for fr in ref[s] if fr in ref[s2]]
            if common:
                same = sum(ref[s][fr] == ref[s2][fr] for fr in common)
                side[s] = side[s2] ^ (0 if same * 2 > len(common) else 1)
                print("SM %d against SM %d: %d of %d frames alike: side %d" % (s, s2, same, len(common), side[s]))
                break
    bit = {}
    for (s, fr), b in frames.items():
        if s in side:
            bit.setdefault(fr, []).append(b ^ side[s])
    fb = {fr: int(sum(v) * 2 > len(v)) for fr, v in bit.items()}
    print("\nframe bits (side of SM %d), by frame address:" % base)
    for fr in sorted(fb):
        print("  %#x %d" % (fr << 21, fb[fr]))
    # A parity of the virtual address's bits 21-40 (at most three bits, and a constant) that gives every
    # frame's bit?
    best = []
    bitsrange = range(21, 41)
    for k in range(0, 4):
        for combo in itertools.combinations(bitsrange, k):
            for c in (0, 1):
                hit = sum((parity(sum(((fr << 21) >> b & 1) for b in combo)) ^ c) == v for fr, v in fb.items())
                best.append((hit, combo, c))
    best.sort(key=lambda x: (-x[0], len(x[1])))
    print("\nbest parities of virtual address bits for the %d frames' bits:" % len(fb))
    for hit, combo, c in best[:8]:
        print("  bits %s xor %d: %d of %d" % (list(combo), c, hit, len(fb)))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "h100")
