import sys,re,statistics,collections
for f in sys.argv[1:]:
    rounds=[];cur=None
    for line in open(f):
        if line.startswith('round'): cur={}; rounds.append(cur); continue
        m=re.match(r'Benchmark(\S+?)\s+\d+\s+.*?([\d.]+) warp-inst/cpu-s',line)
        if m and cur is not None: cur[m.group(1)]=float(m.group(2))
    rat=collections.defaultdict(list); rate=collections.defaultdict(list)
    for r in rounds:
        if 'BareLaneLoop' not in r: continue
        for k,v in r.items():
            rate[k].append(v/1e6); rat[k].append(v/r['BareLaneLoop'])
    print(f, len(rounds),'rounds')
    for k in rate:
        print('  %-22s %6.1f M  %5.1f%%  (ratios %s)'%(k,statistics.median(rate[k]),100*statistics.median(rat[k]),' '.join('%.0f'%(100*x) for x in rat[k])))
