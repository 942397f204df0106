#!/usr/bin/env python3
"""Where the HRV error of the ECG chain comes from, over all MIT-BIH records at once (issue 10).

Reads the beats the HRV chain suite writes (HRV_BEATS_DIR=DIR swift test -c release --filter
HRVChainValidation; the `fiducial` column makes the intervals those of the chain) and the
records (.atr, .dat.xz), and prints the median and 90th percentile of the relative error of
whole-record SDNN and RMSSD against the annotations' own N-N intervals for:
1. the chain as dumped (the exclusions re-derived from the beats' classes and flags);
2. per exclusion reason, keeping the intervals that reason left out which the annotations call
   N-N (an oracle: how much error each reason can explain, not a rule);
3. candidate rules: ignoring the correction's ectopic flag on a beat after a beat classified
   ectopic; keeping an interval the correction split with an inserted ("missed") beat, always or
   only when the ECG between the two detected beats has no slope of `bound` times their QRS
   slope (the morphology signal of BeatClassifier: 180-Hz averages, 0.7-Hz high-pass, 35-Hz
   low-pass; 200 ms kept from both beats; QRS slope within +/-50 ms of the apex);
4. the slope ratio of every split interval the rule could keep (both beats N, certain, not
   flagged, in range and quality), by whether an annotated beat lies inside.
Row 1 re-derives the exclusions without the pause rule (on a dump made with it, it shows the
figures before it); the `slope ratio < 0.2` row is the rule the chain now applies. Every rule
applies to all records at once: no per-record setting.

Usage: scripts/ecg/nn-exclusion-study.py DUMP_DIR [MITDB_DIR]
"""
import csv, glob, importlib, lzma, math, os, sys, tempfile
import numpy as np
import scipy.signal as ss

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
study = importlib.import_module('nn-rules-study')  # annotation reader, symbol sets, dataset path
DUMP = sys.argv[1] if len(sys.argv) > 1 else '/tmp/hrv-beats'
DS = sys.argv[2] if len(sys.argv) > 2 else study.DS
FS = 360.0
AF = {'201', '202', '203', '210', '219', '221', '222'}
REASONS = ['ectopic', 'unclassifiable', 'artefact', 'quality']


def load():
    recs = {}
    for path in sorted(glob.glob(f'{DUMP}/*.csv')):
        name = os.path.basename(path)[:-4]
        ann = [x for x in study.read_atr(f'{DS}/{name}.atr') if x[1] in study.BEATS]
        ref = {i for i in range(1, len(ann)) if ann[i - 1][1] in study.NORMAL and ann[i][1] in study.NORMAL
               and 300 <= (ann[i][0] - ann[i - 1][0]) / FS * 1000 <= 2000}
        if len(ref) < 100:
            continue
        iv = [(ann[i - 1][0], ann[i][0]) for i in sorted(ref)]
        ms = np.array([(e - s) / FS * 1000 for s, e in iv])
        d = [ms[k] - ms[k - 1] for k in range(1, len(iv)) if iv[k][0] == iv[k - 1][1]]
        rows = [r for r in csv.DictReader(open(path)) if r['correction'] != 'removedExtra']
        at = np.array([a[0] for a in ann])
        for r in rows:
            r['t'] = int(r['sample']) + float(r.get('fiducial') or 0) if r['sample'] else None
            r['flag'] = r['artefact'] == 'ectopic' or 'ectopic' in r['correction']
            # Uncertain: ventricular probability >= 0.2, or a suspected fusion beat (`fusion`, dumps
            # since the seventh pass).
            r['unc'] = r['class'] == 'N' and ((r['vprob'] != '' and float(r['vprob']) >= 0.2) or r.get('fusion') == '1')
            r['ann'] = None
            if r['sample']:
                s = int(r['sample'])
                j = np.searchsorted(at, s)
                c = [k for k in (j - 1, j) if 0 <= k < len(at) and abs(at[k] - s) <= 54]
                r['ann'] = min(c, key=lambda k: abs(at[k] - s)) if c else None
        recs[name] = dict(rows=rows, ann=ann, ref=ref, stats=(ms.std(ddof=1), math.sqrt(np.mean(np.square(d)))))
    return recs


def reason(rows, a, b, ms, honoured):
    """NNSelection's exclusion of the interval between detected rows a and b."""
    ra, rb = rows[a], rows[b]
    if ra['class'] in ('S', 'V') or rb['class'] in ('S', 'V'):
        return 'ectopic'
    if ra['class'] != 'N' or rb['class'] != 'N' or ra['unc'] or rb['unc']:
        return 'unclassifiable'
    if honoured(rows, a) or honoured(rows, b):
        return 'artefact'
    if not 300 <= ms <= 2000:
        return 'range'
    if 'unacceptable' in (ra['quality'], rb['quality']):
        return 'quality'
    return None


def intervals(rec, flag=None, span=None, restore=()):
    """(first row, last row, ms, used, reason) of the series; `span(rec, a, c)` decides whether an
    interval split by inserted beats is kept whole; `restore`: reasons whose exclusions of
    annotated N-N intervals are kept (oracle)."""
    rows, out, i = rec['rows'], [], 1
    honoured = (lambda rows, k: rows[k]['flag'] and (flag is None or flag(rows, k)))
    while i < len(rows):
        a, b = i - 1, i
        if rows[b]['nn_ms'] == '':
            i += 1
            continue
        if rows[a]['t'] is None or rows[b]['t'] is None:
            c = b
            while c < len(rows) and rows[c]['t'] is None:
                c += 1
            if span and rows[a]['t'] is not None and c < len(rows) and span(rec, a, c):
                ms = (rows[c]['t'] - rows[a]['t']) / FS * 1000
                why = reason(rows, a, c, ms, honoured)
                out.append((a, c, ms, why is None, why))
                i = c + 1
                continue
            out.append((a, b, float(rows[b]['nn_ms']), False, 'corrected'))
            i += 1
            continue
        ms = (rows[b]['t'] - rows[a]['t']) / FS * 1000
        why = reason(rows, a, b, ms, honoured)
        x, y = rows[a]['ann'], rows[b]['ann']
        if why in restore and x is not None and y == x + 1 and y in rec['ref']:
            why = None
        out.append((a, b, ms, why is None, why))
        i += 1
    return out


def errors(recs, **kw):
    e = {}
    for name, rec in recs.items():
        iv = intervals(rec, **kw)
        x = np.array([v[2] for v in iv if v[3]])
        d = [iv[k][2] - iv[k - 1][2] for k in range(1, len(iv)) if iv[k][3] and iv[k - 1][3] and iv[k][0] == iv[k - 1][1]]
        rs, rr = rec['stats']
        e[name] = (100 * (x.std(ddof=1) - rs) / rs, 100 * (math.sqrt(np.mean(np.square(d))) - rr) / rr)
    return e


def report(label, e):
    s, r = np.abs([v[0] for v in e.values()]), np.abs([v[1] for v in e.values()])
    af = np.median([abs(e[n][1]) for n in AF if n in e])
    tail = ', '.join(f'{n} {v[1]:+.1f}' for n, v in sorted(e.items(), key=lambda x: -abs(x[1][1])) if abs(v[1]) > 15)
    print(f'{label} | {np.percentile(s, 50):.2f} | {np.percentile(s, 90):.2f} | {np.percentile(r, 50):.2f} | '
          f'{np.percentile(r, 90):.2f} | {af:.1f} | {tail}')


SIGNALS = {}


def slope_ratio(rec, a, c):
    """Steepest slope between two detected beats (200 ms kept from each) over their QRS slopes."""
    name = rec['name']
    if name not in SIGNALS:
        with tempfile.TemporaryDirectory() as tmp:
            import wfdb
            open(f'{tmp}/{name}.dat', 'wb').write(lzma.open(f'{DS}/{name}.dat.xz').read())
            open(f'{tmp}/{name}.hea', 'w').write(open(f'{DS}/{name}.hea').read())
            r = wfdb.rdrecord(f'{tmp}/{name}')
        ch = r.sig_name.index('MLII') if 'MLII' in r.sig_name else 0
        x = r.p_signal[:, ch]
        x = x[:len(x) // 2 * 2].reshape(-1, 2).mean(1)  # 180 Hz working rate
        b, k = ss.butter(2, 0.7 / 90, 'high')
        x = ss.lfilter(b, k, x)
        b, k = ss.butter(2, 35 / 90)
        x = ss.lfilter(b, k, x)
        SIGNALS[name] = np.abs(np.diff(x, prepend=x[0]))
    y = SIGNALS[name]
    sa, sc = int(rec['rows'][a]['sample']) // 2, int(rec['rows'][c]['sample']) // 2
    return y[sa + 36:sc - 36].max() / min(y[sa - 9:sa + 9].max(), y[sc - 9:sc + 9].max())


if __name__ == '__main__':
    recs = load()
    for name, rec in recs.items():
        rec['name'] = name
    print('case | SDNN median % | SDNN p90 % | RMSSD median % | RMSSD p90 % | AF RMSSD median % | RMSSD > 15 %')
    report('chain', errors(recs))
    for r in REASONS:
        report(f'oracle: keep annotated N-N excluded as {r}', errors(recs, restore=(r,)))
    report('oracle: keep every annotated N-N excluded', errors(recs, restore=tuple(REASONS)))
    after_ectopic = (lambda rows, k: not (k > 0 and rows[k - 1]['class'] in ('S', 'V', 'Q')))
    report('flag ignored after a beat classified S/V/Q', errors(recs, flag=after_ectopic))
    report('split intervals kept whole (always)', errors(recs, span=lambda rec, a, c: True))
    for bound in (0.15, 0.2, 0.25, 0.3):
        report(f'split intervals kept when slope ratio < {bound}', errors(recs, span=lambda rec, a, c: slope_ratio(rec, a, c) < bound))
    pauses, missed = [], []
    for name, rec in recs.items():
        rows = rec['rows']
        for a, c, ms, used, why in intervals(rec, span=lambda rec, a, c: True):
            if c == a + 1 or not used:  # only the split intervals the rule could keep
                continue
            sa, sc = int(rows[a]['sample']), int(rows[c]['sample'])
            inside = any(sa + 54 < x[0] < sc - 54 for x in rec['ann'])
            (missed if inside else pauses).append(slope_ratio(rec, a, c))
    for label, v in (('pauses (no annotated beat inside)', pauses), ('missed QRS (annotated beat inside)', missed)):
        print(f'{label}: {len(v)}, slope ratio percentiles 0/10/50/90/100:', np.round(np.percentile(v, [0, 10, 50, 90, 100]), 2))
