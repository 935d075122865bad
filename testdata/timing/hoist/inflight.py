import sys,re,gzip

# mean and min loads in flight at each consumer of the unrolled loop's body (loads issued before it minus
# loads whose consumer came earlier), over the body's FFMA/FADD consumers, in ptxas's static order
exec(open(__import__('os').path.join(__import__('os').path.dirname(__file__), 'ahead.py')).read().split("f=sys.argv[1]")[0])
def inflight(ins):
    best=None
    for k,(a,i) in enumerate(ins):
        m=re.search(r'BRA (0x[0-9a-f]+)',i)
        if m:
            t=int(m.group(1),16)
            if t<a:
                s=[j for j,(b,_) in enumerate(ins) if b==t][0]
                body=ins[s:k]
                n=sum(1 for _,x in body if re.match(r'(@!?U?P\d+ )?LDG',x))
                if best is None or n>best[0]: best=(n,body)
    n,body=best
    loaded={} ; issued=0; consumed=0; vals=[]
    for a,x in body:
        g=re.match(r'(@!?U?P\d+ )?(\S+)\s*(.*)',x); op=g.group(2); ops=[o.strip() for o in g.group(3).split(',')]
        if op.startswith('LDG'):
            for r in regs(ops[0])[:1]: loaded[r]=1
            issued+=1; continue
        src=[r for o in ops[1:] for r in regs(o)]
        used=[r for r in src if r in loaded]
        if used:
            vals.append(issued-consumed)
            consumed+=len(used)
            for r in used: del loaded[r]
        for r in (regs(ops[0]) if ops and ops[0] else []): loaded.pop(r,None)
    return n, sum(vals)/len(vals), min(vals), max(vals)
f=sys.argv[1]; want=sys.argv[2:]
op=gzip.open if f.endswith('.gz') else open
for name,ins in parse(op(f,'rt').read()):
    if want and name not in want: continue
    n,mean,lo,hi=inflight(ins)
    print(f"{name:12s} body {n:2d} LDG: in flight at a consumer mean {mean:4.1f} min {lo} max {hi}")
