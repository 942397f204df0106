#!/usr/bin/env python3
"""P-onset study on the QT Database (issue 30, docs/VALIDATION.md "ECG waves", P onset and rule (11)).

A NumPy model of SensorPipe's P search (WaveDelineator: quadratic-spline wavelet, scale 2^4, Martinez 2004
thresholds) run on the QRS onsets and RR of SensorPipe's own `ecg_waves.csv` lead rows, and of the combined
row's P-onset rule, to measure variants before porting them to Swift. Reads the output folder of
`python3 scripts/ecg/qtdb-waves-errors.py` (default /tmp/qtdb-waves-errors; env RES). In-sample figures.

Prints: the model's lead rows (which reproduce the Swift lead rows), the T-overlap variants (T-tail mirror
subtraction and lobe extremum; search bounded by the previous T offset), and the masked-onset rule (11) of the
combined row at thresholds 0.75-2 (and without it).
Usage: python3 scripts/ecg/qtdb-waves-errors.py && python3 scripts/ecg/qtdb-p-onset-study.py
"""
import csv, math, os, sys
import numpy as np, wfdb
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wfdb_common import marks
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../shared/datasets/qtdb-mitdb")
RES = os.environ.get("RES", "/tmp/qtdb-waves-errors")
DATA = os.path.join(RES, "data")
RECS = "sel100 sel102 sel103 sel104 sel114 sel116 sel117 sel123 sel213 sel221 sel223 sel230 sel231 sel232 sel233".split()
FS = 250.0

def transform(x):
    x = x.astype(np.float64)
    s = x; out = {}
    for k in range(1, 6):
        d = 1 << (k - 1)
        pad = np.concatenate([np.full(3 * d, s[0]), s])
        if k in (2, 4, 5):
            out[k] = 2 * (pad[3 * d:] - pad[3 * d - d: len(pad) - d])
        s = (pad[3 * d:] + 3 * pad[2 * d:len(pad) - d] + 3 * pad[d:len(pad) - 2 * d] + pad[:len(pad) - 3 * d]) / 8
    return out

def samples(s): return int(math.floor(s * FS + 0.5))
def delay(k): return (1 << k) - 1.5
def widx(p, k): return p + int(math.floor(delay(k)))

def modmax(w, lo, hi):
    lo = max(lo, 1); hi = min(hi, len(w) - 2)
    out = []
    for i in range(lo, hi + 1):
        v = abs(w[i])
        if v > 0 and v >= abs(w[i - 1]) and v > abs(w[i + 1]): out.append(i)
    return out

def walk(w, start, step, thr, limit, base=None):
    i = start + step
    while (i >= limit) if step < 0 else (i <= limit):
        if not (0 < i < len(w) - 1): return None
        v = abs(w[i]) if base is None else abs(w[i] - base[i])
        if v < thr: return i
        vs = abs(w[i + step]) if base is None else abs(w[i + step] - base[i + step])
        vp = abs(w[i - step]) if base is None else abs(w[i - step] - base[i - step])
        if v <= vs and v < vp: return i
        i += step
    return None

def one_slope_each(w, m):
    out = []
    for i in m:
        if out and (w[out[-1]] > 0) == (w[i] > 0):
            if abs(w[i]) > abs(w[out[-1]]): out[-1] = i
        else: out.append(i)
    return out

def shape(w, sig, dl, offlim, onlim, onr, offr, maxspan):
    found = one_slope_each(w, sig)
    if not found: return None
    a = max(found, key=lambda i: abs(w[i]))
    ia = found.index(a)
    partner = None
    for j in (ia - 1, ia + 1):
        if 0 <= j < len(found) and (w[found[j]] > 0) != (w[a] > 0):
            if partner is None or abs(w[found[j]]) > abs(w[found[partner]]): partner = j
    fI = lI = ia
    if partner is not None: fI, lI = min(ia, partner), max(ia, partner)
    top = abs(w[a])
    if partner is not None:
        if lI + 1 < len(found) and (w[found[lI + 1]] > 0) != (w[found[lI]] > 0) and abs(w[found[lI + 1]]) >= 0.25 * top and found[lI + 1] - found[fI] <= maxspan:
            lI += 1
        elif fI > 0 and (w[found[fI - 1]] > 0) != (w[found[fI]] > 0) and abs(w[found[fI - 1]]) >= 0.25 * top and found[lI] - found[fI - 1] <= maxspan:
            fI -= 1
    first, last = found[fI], found[lI]
    on = walk(w, first, -1, onr * abs(w[first]), max(onlim, 1))
    off = walk(w, last, 1, offr * abs(w[last]), min(offlim, len(w) - 2))
    return (None if on is None else on - dl, None if off is None else off - dl, first, last, found)

def load(rec):
    r = wfdb.rdrecord(os.path.join(DATA, rec))
    names = r.sig_name
    rows = {}
    with open(os.path.join(RES, rec, "ecg_waves.csv")) as f:
        for row in csv.DictReader(f): rows.setdefault(row["stream"], []).append(row)
    return r.p_signal, names, rows

def f(v): return float(v) if v not in ("", None) else None

def p_search(W, r, qrs_on, rr, variant=None, ctx=None):
    """qrs_on: fractional position (record samples). Returns (onset, offset, found, lo, hi) or None."""
    w4 = W[4]
    rrs = min(max(rr if rr is not None else 0.9, 0.25), 2.5)
    beatLo, beatHi = r - samples(0.35), r + samples(0.65)
    a, b = widx(beatLo, 4), widx(beatHi, 4)
    rms4 = math.sqrt(np.mean(w4[a:b] ** 2))
    fq = int(math.floor(qrs_on))
    pHi = fq - samples(0.03)
    pLo = max(fq - samples(0.28), r - samples(0.4 * rrs))
    if pHi - pLo < samples(0.06): return None
    lo, hi = widx(pLo, 4), widx(pHi, 4)
    if variant is not None:
        return variant(W, r, fq, lo, hi, rms4, rrs, ctx)
    sig = [i for i in modmax(w4, lo, hi) if abs(w4[i]) > 0.02 * rms4]
    if not sig: return None
    return shape(w4, sig, delay(4), widx(fq, 4), lo - samples(0.12), 0.5, 0.9, samples(0.1))

def run(variant=None, recs=RECS, verbose=False):
    res = {}
    for rec in recs:
        x, names, rows = load(rec)
        Ws = [transform(x[:, j]) for j in range(x.shape[1])]
        out = {"ref": [float(r["beat_time"]) for r in rows[f"{rec}/electrocardiogram/combined"]]}
        for j, nm in enumerate(names):
            st = f"{rec}/electrocardiogram/{nm}"
            lst = []
            prev = None
            for row in rows[st]:
                bt = float(row["beat_time"]); r = int(round(bt * FS))
                q = f(row["qrs_onset"]); rr = f(row["rr_before"])
                ctx = {"prev": prev, "row": row, "x": x[:, j]}
                p = None
                if q is not None:
                    p = p_search(Ws[j], r, (q - bt) * FS + r, rr, variant, ctx)
                on = None if p is None or p[0] is None else p[0] / FS
                lst.append((bt, on, f(row["p_onset"])))
                prev = row
            out[j] = lst
        res[rec] = (names, out)
    return res

def combined(l0, l1, ref_times, window=8, tol=0.04):
    hist = [[], []]; out = []
    t0 = np.array([t[0] for t in l0]); t1 = np.array([t[0] for t in l1])
    used = [set(), set()]
    for bt in ref_times:
        vals = []; own = []
        for li, (tt, ll) in enumerate(((t0, l0), (t1, l1))):
            i = int(np.argmin(abs(tt - bt)))
            vals.append(ll[i][1] if abs(tt[i] - bt) <= 0.15 and i not in used[li] else None)
            own.append(tt[i])
            if abs(tt[i] - bt) <= 0.15: used[li].add(i)
        allv = []; kept = []
        for i, v in enumerate(vals):
            if v is None: continue
            rel = v - own[i]; allv.append(v); n = len(hist[i])  # relative to the lead's own beat time
            if n < 3 or abs(rel - np.median(hist[i])) <= tol: kept.append(v)
            hist[i].append(rel)
            if n >= window: hist[i].pop(0)
        k = kept if kept else allv
        out.append((bt, min(k) if k else None))
    return out

def score(res, which="combined", ann="q1c", per=False):
    errs = []; tot = 0; perrec = {}
    for rec, (names, out) in res.items():
        path = os.path.join(ROOT, f"{rec}.{ann}")
        if not os.path.exists(path): continue
        mk = marks(path)["P on"]
        if not mk: continue
        if which == "combined": det = [on for _, on in combined(out[0], out[1], out["ref"])]
        else: det = [t[1] for t in out[which]]
        det = np.array([d for d in det if d is not None])
        e = []
        for a in mk:
            if len(det) == 0: continue
            i = np.argmin(abs(det - a))
            if abs(det[i] - a) <= 0.15: e.append((det[i] - a) * 1000)
        perrec[rec] = (np.mean(e), np.std(e, ddof=1), 100 * len(e) / len(mk), len(mk))
        errs += e; tot += len(mk)
    e = np.array(errs)
    s = f"{which}: {e.mean():.1f} ± {e.std(ddof=1):.1f} (Se {100*len(e)/tot:.1f}, n {tot})"
    if per:
        for k, v in perrec.items(): s += f"\n  {k}: {v[0]:.1f} ± {v[1]:.1f} ({v[2]:.0f}, n {v[3]})"
    return s

FS=250
def make_tail(minratio=0.5, use_prevT=True, onr=0.5, mode="mirror"):
    def variant(W, r, fq, lo, hi, rms4, rrs, ctx):
        w4 = W[4]
        sig = [i for i in modmax(w4, lo, hi) if abs(w4[i]) > 0.02 * rms4]
        if not sig: return None
        base = shape(w4, sig, delay(4), widx(fq, 4), lo - 30, 0.5, 0.9, 25)
        if base is None or base[0] is None: return base
        on, off, first, last, found = base
        s = np.sign(w4[first])
        i = first
        while i > first - 50 and np.sign(w4[i]) == s: i -= 1
        zc = i
        e = zc
        while e > zc - 40 and np.sign(w4[e - 1]) != s and abs(w4[e - 1]) >= abs(w4[e]): e -= 1
        if np.sign(w4[e]) == s or abs(w4[e]) < minratio * abs(w4[first]): return base
        # the lobe must be the previous T's: our previous T offset after the lobe's extremum
        if use_prevT:
            prev = ctx["prev"]
            pt = f(prev["t_offset"]) if prev is not None else None
            bt = float(ctx["row"]["beat_time"])
            if pt is None: return base
            ptpos = (pt - bt) * FS + r + 14.5
            if ptpos < e: return base
        s0 = e
        while s0 > e - 60 and np.sign(w4[s0 - 1]) != s and abs(w4[s0-1]) > 0.05*abs(w4[e]): s0 -= 1
        L = e - s0
        if mode == "ext":
            return ((e - 14.5), off, first, last, found)
        res = w4.copy()
        seg = np.arange(e + 1, first + 1)
        d = seg - e
        tm = np.where(d <= L, w4[np.clip(e - d, 0, None)], 0.0)
        res = w4[seg] - tm
        # walk back on residual
        thr = onr * abs(res[-1])
        k = len(seg) - 1
        onk = None
        while k > 0:
            k -= 1
            v = abs(res[k])
            if v < thr or (np.sign(res[k]) != s): onk = seg[k]; break
            if k - 1 >= 0 and v <= abs(res[k - 1]) and v < abs(res[k + 1]): onk = seg[k]; break
        if onk is None: onk = e
        return (onk - 14.5, off, first, last, found)
    return variant

FS=250
def make_tbound(margin=0.0, onset_limit_at_T=False):
    def variant(W, r, fq, lo, hi, rms4, rrs, ctx):
        w4=W[4]
        prev=ctx["prev"]; onlim = lo - 30
        pt = f(prev["t_offset"]) if prev is not None else None
        if pt is not None:
            bt=float(ctx["row"]["beat_time"])
            ptw = widx(int(math.floor((pt-bt)*FS + r + margin*FS)), 4)
            if onset_limit_at_T: onlim = max(onlim, ptw)
            else:
                lo = max(lo, ptw); onlim = max(lo - 30, ptw) if False else lo - 30
            if hi - lo < 15: return None
        sig=[i for i in modmax(w4, lo, hi) if abs(w4[i]) > 0.02*rms4]
        if not sig: return None
        return shape(w4, sig, delay(4), widx(fq,4), onlim, 0.5, 0.9, 25)
    return variant
def lobe_ratio(w4, first, span=25):
    s=np.sign(w4[first]); i=first
    while i>first-span and np.sign(w4[i])==s: i-=1
    if np.sign(w4[i])==s: return 0.0, None
    e=i
    while e>first-span-10 and np.sign(w4[e-1])!=s and abs(w4[e-1])>=abs(w4[e]): e-=1
    return abs(w4[e])/abs(w4[first]), e
def collect():
    out={}
    for rec in RECS:
        x,names,rows=load(rec)
        L={"ref":[float(r["beat_time"]) for r in rows[f"{rec}/electrocardiogram/combined"]]}
        for j,n in enumerate(names):
            W=transform(x[:,j]); w4=W[4]; lst=[]
            for r_ in rows[f"{rec}/electrocardiogram/{n}"]:
                bt=float(r_["beat_time"]); r=int(round(bt*FS)); q=f(r_["qrs_onset"]); on=f(r_["p_onset"])
                ratio=0.0; dist=None
                if q is not None and on is not None:
                    p=p_search(W,r,(q-bt)*FS+r,f(r_["rr_before"]))
                    if p is not None:
                        ratio,e=lobe_ratio(w4,p[2])
                        dist = None if e is None else p[2]-e
                lst.append((bt,on,ratio,dist,f(r_["p_offset"])))
            L[j]=lst
        out[rec]=(names,L)
    return out
def combined_masked(l0,l1,ref,thr,window=8,tol=0.04,mode="drop"):
    hist=[[],[]]; out=[]
    t0=np.array([t[0] for t in l0]); t1=np.array([t[0] for t in l1]); used=[set(),set()]
    for bt in ref:
        parts=[]
        for li,(tt,ll) in enumerate(((t0,l0),(t1,l1))):
            i=int(np.argmin(abs(tt-bt)))
            ok=abs(tt[i]-bt)<=0.15 and i not in used[li]
            if abs(tt[i]-bt)<=0.15: used[li].add(i)
            parts.append((li,)+tuple(ll[i]) if ok else None)
        cand=[]
        for p in parts:
            if p is None or p[2] is None: continue
            li,pbt,v,ratio=p[0],p[1],p[2],p[3]
            rel=v-pbt; n=len(hist[li])
            c=n<3 or abs(rel-np.median(hist[li]))<=tol
            hist[li].append(rel)
            if n>=window: hist[li].pop(0)
            cand.append((v,c,ratio>=thr))
        if mode=="drop":
            free=[x for x in cand if not x[2]]
            pool=free if free else cand
        else: pool=cand
        k=[x[0] for x in pool if x[1]] or [x[0] for x in pool]
        out.append((bt,min(k) if k else None))
    return out
def score_masked(data,thr,per=False,**kw):
    errs=[];tot=0;s=""
    for rec,(names,L) in data.items():
        mk=marks(f"{ROOT}/{rec}.q1c")["P on"]
        if not mk: continue
        det=np.array([o for _,o in combined_masked(L[0],L[1],L["ref"],thr,**kw) if o is not None])
        e=[]
        for a in mk:
            i=np.argmin(abs(det-a))
            if abs(det[i]-a)<=0.15: e.append((det[i]-a)*1000)
        errs+=e; tot+=len(mk)
        if per: s+=f"\n {rec} {np.mean(e):.1f} ± {np.std(e,ddof=1):.1f} ({100*len(e)/len(mk):.0f})"
    e=np.array(errs)
    return f"thr {thr} {kw}: {e.mean():.1f} ± {e.std(ddof=1):.1f} Se {100*len(e)/tot:.1f}"+s


def main():
    base = run()
    print("model, shipped P search:", score(base, 0), "|", score(base, 1), "|", score(base, "combined"))
    for name, kw in [("T-tail mirror subtracted", dict()), ("T lobe extremum", dict(mode="ext"))]:
        res = run(make_tail(**kw))
        print(name + ":", score(res, 0), "|", score(res, 1))
    for name, kw in [("search from the previous T offset", dict()), ("onset walk bounded by the previous T offset", dict(onset_limit_at_T=True))]:
        res = run(make_tbound(**kw))
        print(name + ":", score(res, 0), "|", score(res, 1), "|", score(res, "combined"))
    d = collect()
    print("combined, no masked-onset rule:", score_masked(d, 99, mode="none"))
    for thr in (0.75, 1.0, 1.25, 1.5, 2.0):
        print("combined, masked-onset rule:", score_masked(d, thr, per=thr == 1.0))


if __name__ == "__main__":
    main()
