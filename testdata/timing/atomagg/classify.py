#!/usr/bin/env python3
"""classify.py: reads cuobjdump -sass listings (h100/agg.sass.gz, h100/hand.sass.gz) and prints, per kernel, the
atomic instructions ptxas emitted and how it aggregated them across the warp (agg=): elect (VOTEU.ANY, FLO/POPC
or REDUX, the ATOM/RED predicated on the elected lane), full (a full warp's scan by SHFL.UP and one ATOM, else
every lane's), hw (ATOMS.POPC.INC) or no, joined by + when a kernel has several. Writes sass_excerpts.txt (each kernel's relevant
lines) and prints one summary line a kernel."""
import gzip, re, subprocess, sys

REL = re.compile(r"\b(ATOMG|ATOMS|ATOM|REDG|RED|ATOMS\.\w+|VOTEU?\.\w+|U?FLO\.\w+|U?POPC|REDUX\.\w+|REDUX|SHFL\.\w+|MATCH\.\w+|ISETP\.EQ\.U32\.AND|S2R|S2UR|BSSY|WARPSYNC|ELECT)\b")

def demangle(names):
    try:
        out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout.split("\n")
        return dict(zip(names, out))
    except OSError:
        return {n: n for n in names}

def functions(path):
    cur, lines = None, []
    for line in gzip.open(path, "rt"):
        m = re.search(r"Function : (\S+)", line)
        if m:
            if cur:
                yield cur, lines
            cur, lines = m.group(1), []
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
        if m and cur:
            lines.append((m.group(1), m.group(2).strip()))
    if cur:
        yield cur, lines

def summary(lines):
    atoms = [l for _, l in lines if re.search(r"\b(ATOMG|ATOMS|ATOM|REDG|RED)\.", l) or re.search(r"\b(ATOMG|ATOMS|RED)\b", l)]
    atoms = [a for a in atoms if not a.startswith("REDUX")]
    vote = any(re.search(r"VOTEU?\.ANY", l) for _, l in lines)
    flo = any(re.search(r"\bU?FLO\.", l) for _, l in lines)
    popc = any(re.search(r"\bU?POPC\b", l) for _, l in lines)
    redux = any(re.search(r"\bREDUX", l) for _, l in lines)
    match = any(re.search(r"\bMATCH", l) for _, l in lines)
    pred = any(a.startswith("@") for a in atoms)
    voteu = any(re.search(r"VOTEU\.ANY", l) for _, l in lines)
    full = any(re.search(r"VOTE\.ANY R", l) for _, l in lines) and any(re.search(r"SHFL\.UP", l) for _, l in lines)
    hw = any("POPC.INC" in a for a in atoms)
    # elect: the elected lane's ATOM/RED (VOTEU.ANY, FLO/POPC/REDUX); full: a full warp's scan (VOTE.ANY == -1,
    # SHFL.UP) and lane 31's ATOM, else every lane's; hw: the shared-memory unit's ATOMS.POPC.INC.
    # A kernel may hold several forms (a loop unrolled into atomics whose results are used and unused).
    forms = [k for k, v in (("elect", vote and pred and (flo or popc or redux)), ("full", full), ("hw", hw)) if v]
    agg = "+".join(forms) if forms else "no"
    return atoms, agg, dict(vote=vote, flo=flo, popc=popc, redux=redux, match=match, pred=pred)

def main():
    ex = open("sass_excerpts.txt", "w")
    for path in sys.argv[1:]:
        funcs = list(functions(path))
        dm = demangle([f for f, _ in funcs])
        for f, lines in sorted(funcs, key=lambda x: dm[x[0]]):
            atoms, agg, why = summary(lines)
            kinds = sorted(set(re.sub(r"^@!?U?P\w+\s+", "", a).split()[0] for a in atoms))
            flags = ",".join(k for k, v in why.items() if v)
            short = dm[f].split("(")[0].replace("void ", "").replace(" ", "")
            print(f"{f:40s} agg={agg:10s} atoms={len(atoms)} {' '.join(kinds)} [{flags}] # {short}")
            ex.write(f"== {dm[f]} ({f}) agg={agg}\n")
            rel = [(addr, l) for addr, l in lines if REL.search(l)]
            for addr, l in rel[:40]:
                ex.write(f"  /*{addr}*/ {l}\n")
            if len(rel) > 40:
                ex.write(f"  ... {len(rel) - 40} more\n")
    ex.close()

main()
