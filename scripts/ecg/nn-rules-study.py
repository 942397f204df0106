#!/usr/bin/env python3
"""Normal-to-normal selection rules measured on MIT-BIH (issue 10).

Reads the beats the HRV chain suite writes (HRV_BEATS_DIR=DIR swift test -c release --filter
HRVChainValidation: one CSV per record with sample, class, ventricular probability, corrected
interval, exclusion, artefact and correction flags) and the records' reference annotations
(.atr, parsed here), and prints, for each candidate rule, the median and 90th percentile of the
relative error of whole-record SDNN and RMSSD against the annotations' own N-N intervals
(consecutive beats both N, L, R, e or j; 300-2000 ms; RMSSD over adjacent pairs). Every rule is
applied to all records at once: no per-record setting.

Usage: scripts/ecg/nn-rules-study.py DUMP_DIR [MITDB_DIR]
"""
import csv, glob, math, os, sys
import numpy as np

DUMP = sys.argv[1] if len(sys.argv) > 1 else '/tmp/hrv-beats'
DS = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), '../../../shared/datasets/mitdb')
FS = 360.0
NORMAL = set('NLRej')
BEATS = set('NLRBAaJSVrFejnE/fQ?')
SYMBOLS = {1: 'N', 2: 'L', 3: 'R', 4: 'a', 5: 'V', 6: 'F', 7: 'J', 8: 'A', 9: 'S', 10: 'E', 11: 'j', 12: '/', 13: 'Q',
           25: 'B', 30: '?', 32: '[', 33: ']', 34: 'e', 35: 'n', 38: 'f', 41: 'r'}


def read_atr(path):
    """MIT-format annotations: (sample, symbol) (WFDB annotation file format, PhysioNet)."""
    b = open(path, 'rb').read()
    t, out, i = 0, [], 0
    while i + 1 < len(b):
        w = b[i] | (b[i + 1] << 8)
        i += 2
        a, d = w >> 10, w & 0x3FF
        if a == 0 and d == 0:
            break
        if a == 59:  # SKIP: 32-bit interval follows (PDP-11 order)
            t += (b[i + 2] | (b[i + 3] << 8)) | ((b[i] | (b[i + 1] << 8)) << 16)
            i += 4
            continue
        if a in (60, 61, 62):
            continue
        if a == 63:  # AUX string
            i += d + (d & 1)
            continue
        t += d
        out.append((t, SYMBOLS.get(a, '-')))  # '-': not a beat code
    return out


def reference(name):
    a = [x for x in read_atr(f'{DS}/{name}.atr') if x[1] in BEATS]
    iv = []
    for i in range(1, len(a)):
        if a[i - 1][1] in NORMAL and a[i][1] in NORMAL and 300 <= (a[i][0] - a[i - 1][0]) / FS * 1000 <= 2000:
            iv.append((a[i - 1][0], a[i][0]))
    ms = np.array([(e - s) / FS * 1000 for s, e in iv])
    d = [ms[i] - ms[i - 1] for i in range(1, len(iv)) if iv[i][0] == iv[i - 1][1]]
    return len(iv), ms.std(ddof=1), math.sqrt(np.mean(np.square(d)))


def evaluate(rule, raw=True):
    """Errors of SDNN and RMSSD over the intervals `rule` keeps (raw: between detected beats)."""
    eS, eR = [], []
    for p in sorted(glob.glob(f'{DUMP}/*.csv')):
        name = os.path.basename(p)[:-4]
        n, rs, rr = reference(name)
        if n < 100:
            continue
        rows = [r for r in csv.DictReader(open(p)) if r['correction'] != 'removedExtra']
        inc, ms = [], {}
        for i in range(1, len(rows)):
            if rows[i]['nn_ms'] == '' or not rule(rows, i):
                continue
            if raw:
                if not rows[i]['sample'] or not rows[i - 1]['sample']:
                    continue
                v = (int(rows[i]['sample']) - int(rows[i - 1]['sample'])) / FS * 1000
            else:
                v = float(rows[i]['nn_ms'])
            if 300 <= v <= 2000:
                ms[i] = v
                inc.append(i)
        x = np.array([ms[i] for i in inc])
        d = [ms[inc[k]] - ms[inc[k - 1]] for k in range(1, len(inc)) if inc[k - 1] == inc[k] - 1]
        eS.append(abs(x.std(ddof=1) - rs) / rs)
        eR.append(abs(math.sqrt(np.mean(np.square(d))) - rr) / rr)
    return [100 * np.percentile(e, q) for e in (eS, eR) for q in (50, 90)]


def rule(kinds=('ectopic',), quality=True, vth=0.2, inserted=True, post=False):
    """Both beats N with ventricular probability < vth; no correction flag in `kinds`; optional
    exclusions of inserted beats, unacceptable windows, and the interval after an ectopic beat."""
    def keep(rows, i):
        if quality and rows[i]['nn_excluded'] == 'quality':
            return False
        for j in (i - 1, i):
            r = rows[j]
            if r['class'] != 'N' and not (not inserted and r['class'] == ''):
                return False
            if r['vprob'] and float(r['vprob']) >= vth:
                return False
            if inserted and 'inserted' in r['correction']:
                return False
            if r['artefact'] in kinds or any(k in r['correction'] for k in kinds):
                return False
        return not (post and i >= 2 and rows[i - 2]['class'] != 'N')
    return keep


if __name__ == '__main__':
    print('rule | SDNN median % | SDNN p90 % | RMSSD median % | RMSSD p90 %')
    for label, r, raw in [
        ('corrected intervals, ectopic+longShort flags, inserted kept', rule(('ectopic', 'longShort'), inserted=False), False),
        ('raw intervals, ectopic+longShort flags', rule(('ectopic', 'longShort')), True),
        ('raw intervals, no correction flags', rule(()), True),
        ('raw intervals, ectopic flags (chosen)', rule(), True),
        ('chosen, quality windows kept', rule(quality=False), True),
        ('chosen, ventricular probability < 0.1', rule(vth=0.1), True),
        ('chosen, ventricular probability < 0.3', rule(vth=0.3), True),
        ('chosen + interval after an ectopic beat', rule(post=True), True),
    ]:
        print(label, '|', ' | '.join('%.1f' % v for v in evaluate(r, raw)))
