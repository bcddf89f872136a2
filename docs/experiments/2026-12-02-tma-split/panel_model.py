"""Offline, on call 4's panel timings (logs/call4-tune.json: every configuration of best, the split-K rule's slices,
at each panel side and orientation against large sides of 4096 and 6144 at K = 4096 and 1200): how much slower
than the fastest at each of the 64 shapes is (a) the configuration that wins the side's 4096 x 4096 shape, as
best's panel rows take it, and (b) a busiest-SM model, which times each configuration by its busiest SM's tile FMAs
(blocks per SM times each block's tile and slice of K; an even share for stream-K) at the per-SM rate it ran on the
4096 x 4096 shape. The split count mirrors core/schedule/split_k (one wave of resident blocks, slices of 256 of K
at least, recounted so that none is empty). No GPU needed.

    cd docs/experiments/2026-12-02-tma-split && python3 panel_model.py logs/call4-tune.json
"""
import json, math, sys
from collections import defaultdict
SMS=132
TILE={'pipelined 128x256x16':(128,256,16,1),'pipelined 128x128x16':(128,128,16,2),'pipelined 128x64x16':(128,64,16,4),
 'pipelined 64x64x16':(64,64,16,5),'pipelined 32x128x16':(32,128,16,4),'pipelined 128x32x16':(128,32,16,4),
 'pipelined 64x128x16':(64,128,16,3),'tma 128x256x32':(128,256,32,1),'tma 128x256x32 k16':(128,256,32,1),
 'tma 128x128x16':(128,128,16,2),'tma 128x64x32':(128,64,32,2)}
STREAMK={'streamk 128x256x32':(128,256,32,1),'streamk 128x128x16':(128,128,16,2),
         'streamk 128x256x32 tail3':(128,256,32,1)}
def splits(tiles,K,bk,bps):
    if K<512: return 1
    s=min(SMS*bps//tiles, K//256, 1024); s=max(s,1)
    kt=math.ceil(K/bk); s=min(s,kt); per=math.ceil(kt/s); return math.ceil(kt/per)
def busiest(name,M,N,K):
    if name in STREAMK:
        bm,bn,bk,bps=STREAMK[name]; t=math.ceil(M/bm)*math.ceil(N/bn); return t*bm*bn*K/SMS
    bm,bn,bk,bps=TILE[name]; t=math.ceil(M/bm)*math.ceil(N/bn); s=splits(t,K,bk,bps)
    return math.ceil(t*s/SMS)*bm*bn*math.ceil(K/s)
d=json.load(open(sys.argv[1]))['measurements']
pan=[r for r in d if r.get('sweep')=='panels']
g=defaultdict(dict)
for r in pan:
    side=min(r['M'],r['N']); o='rows' if r['M']<=r['N'] else 'cols'
    g[(side,o)][(r['M'],r['N'],r['K'])]=r['ms']
one=[];model=[]
for key,pts in sorted(g.items()):
    ref=[p for p in pts if max(p[:2])==4096 and p[2]==4096][0]
    rate={c:busiest(c,*ref)/pts[ref][c] for c in pts[ref]}
    win=min(pts[ref],key=pts[ref].get)
    for p,ms in pts.items():
        f=min(ms.values())
        pick=min(rate,key=lambda c:busiest(c,*p)/rate[c])
        one.append(ms[win]/f); model.append(ms[pick]/f)
gm=lambda v: math.exp(sum(map(math.log,v))/len(v))
print(f'one-point winner: geomean {gm(one):.3f}, worst {max(one):.3f}; busiest-SM model at the 4096 rates: '
      f'geomean {gm(model):.3f}, worst {max(model):.3f} ({len(one)} shapes)')
