#!/usr/bin/env python3
"""Fit the rhythm family's models offline (issue 29) and write Sources/Rhythm/RhythmModelParameters.swift.

Input: the `rhythm` rows SensorPipe wrote for the CinC 2017 development records (one window per
record), as made by `scripts/rhythm/validation.sh` (a CSV with `record` plus the `rhythm`
columns), and REFERENCE-v3.csv.

Split (by record, fixed before any fitting): fold = record number mod 5 (A00001 -> 1).
  * 5-fold cross-validation over all five folds: the cross-validated figure (printed first).
  * The shipped model is fitted on folds 0-3 only; fold 4 is held out and is evaluated in Swift,
    end to end (`scripts/rhythm/validate.py`), never used for fitting or choosing anything.
  * The regularisation C is chosen by 4-fold CV inside folds 0-3 (mean F1 of N, A, O).
Models: scikit-learn multinomial logistic regression on standardised inputs (log where the name
starts with log_; a missing input is set to the training mean, z = 0, as RhythmModel does), and,
for the ECG model, gradient-boosted trees (scikit-learn HistGradientBoostingClassifier, fixed
settings TREE_SETTINGS with rounds and learning rate from TREE_GRID; missing inputs follow each split's learned missing-value side). The ECG
model's kind is chosen by 4-fold CV inside folds 0-3 (mean F1 of N, A, O), like C; the trees are
written out node by node (RhythmTreeEnsemble) and a few fold-4 rows with scikit-learn's own
predict_proba go to Tests/RhythmTests/Fixtures/model-parity.csv (the Swift parity test).
Windows with fewer than min_intervals RR intervals have no model label (`insufficient`) and are
left out of fitting.
"""
import csv, math, sys, argparse, textwrap
import numpy as np
from sklearn.linear_model import LogisticRegression

# The ECG model also gets the irregularity over the intervals between two beats the ECG classifier
# does not call V (nv_): a premature ventricular beat, its compensatory pause and bigeminy are
# irregular RR but not atrial irregularity; the timing-only model has no beat classes.
ECG_INPUTS = ["mean_hr_bpm", "log_nrmssd", "shannon_entropy", "turning_point_ratio", "cosen", "log_mad_delta_ratio",
              "large_delta_share", "log_rr_cv", "rr_coverage", "ectopic_share", "qrs_width_s", "unacceptable_share", "good_share",
              "p_wave_coherence", "qrs_coherence", "log_atrial_residual", "log_hf_noise",
              "log_nv_nrmssd", "nv_shannon_entropy", "nv_turning_point_ratio", "nv_cosen", "log_nv_mad_delta_ratio",
              "nv_large_delta_share", "log_nv_rr_cv",
              # v5 (BeatPattern): sinus P per beat, ventricular share, QRS-width spread, RR extremes, bigeminy.
              "sinus_p_share", "p_correlation_median", "ventricular_share", "log_qrs_width_sd_s", "log_rr_max_ratio",
              "log_rr_min_ratio", "bigeminy_share",
              # v6: the f-wave band share of the PR residual (AtrialActivity). Tried and dropped (5-fold CV
              # mean F1 0.792 with it, 0.795 without): nv_pnn50, pNN50 over the intervals without ventricular ectopy.
              "f_wave_band_share"]
RR_INPUTS = ["mean_hr_bpm", "log_nrmssd", "shannon_entropy", "turning_point_ratio", "cosen", "log_mad_delta_ratio",
             "large_delta_share", "log_rr_cv", "rr_coverage"]
# Model names and versions (the `model` column): v2 of the ECG model adds the nv_ inputs and reads
# p_wave_coherence without ventricular beats.
# v3 of the ECG model keeps v2's coefficients and adds the P-wave rule below.
# v4: the same inputs and procedure refitted after the beat classifier's atrial rule
# (issue 30), which changes `ectopic_share` (more beats classed S).
# v5: the BeatPattern inputs; the model kind (logistic or trees) chosen by inner CV;
# the name says the kind chosen.
# v6: adds f_wave_band_share.
VERSIONS = {"ecg": "ecg-{kind}-v6", "rr": "rr-logistic-v1"}
# Gradient-boosted trees: at most 15 leaves per tree, one tree per class and round; the rounds and
# learning rate from TREE_GRID (the smaller first: it wins ties), chosen with the kind by inner CV.
TREE_SETTINGS = dict(max_leaf_nodes=15, random_state=0, early_stopping=False)
TREE_GRID = (dict(max_iter=75, learning_rate=0.2), dict(max_iter=150, learning_rate=0.1))
# The P-wave rule of the ECG model: a window whose P-wave coherence is at least the threshold has
# P waves locked to its QRS complexes, which atrial fibrillation by definition lacks (ESC 2020:
# "no distinct repeating P waves"), so it is not labelled af (the next most probable class is).
# The threshold is chosen like C, by 4-fold CV inside folds 0-3 (None: no rule).
P_WAVE_GRID = (None, 0.2, 0.3, 0.4, 0.5)
CLASSES = ["N", "A", "O", "~"]  # RhythmModel.classes: sinus, af, other, noisy


def value(row, name):
    log = name.startswith("log_")
    v = row.get(name[4:] if log else name, "")
    if v in ("", None):
        return math.nan
    x = float(v)
    return math.log(max(x, 1e-4)) if log else x


def design(rows, inputs):
    return np.array([[value(r, n) for n in inputs] for r in rows], dtype=float)


class Model:
    def __init__(self, inputs, c):
        self.inputs, self.c = inputs, c

    def fit(self, X, y):
        self.mean = np.nanmean(X, axis=0)
        self.scale = np.nanstd(X, axis=0)
        self.scale[self.scale == 0] = 1
        Z = self.z(X)
        self.lr = LogisticRegression(C=self.c, max_iter=5000).fit(Z, y)
        # Scores in CLASSES order.
        order = [list(self.lr.classes_).index(k) for k in CLASSES]
        self.W = self.lr.coef_[order]
        self.b = self.lr.intercept_[order]
        return self

    def z(self, X):
        Z = (X - self.mean) / self.scale
        Z[~np.isfinite(Z)] = 0
        return Z

    def proba(self, X):
        s = self.z(X) @ self.W.T + self.b
        s -= s.max(axis=1, keepdims=True)
        e = np.exp(s)
        return e / e.sum(axis=1, keepdims=True)

    def predict(self, X):
        return np.array(CLASSES)[self.proba(X).argmax(axis=1)]


class Trees:
    """Gradient-boosted trees (HistGradientBoostingClassifier) with the interface of Model."""

    def __init__(self, inputs, c=None, grid=0):
        self.inputs, self.c, self.settings = inputs, c, dict(TREE_SETTINGS, **TREE_GRID[grid])

    def fit(self, X, y):
        from sklearn.ensemble import HistGradientBoostingClassifier
        self.g = HistGradientBoostingClassifier(**self.settings).fit(X, y)
        self.order = [list(self.g.classes_).index(k) for k in CLASSES]
        return self

    def proba(self, X):
        return self.g.predict_proba(X)[:, self.order]

    def predict(self, X):
        return np.array(CLASSES)[self.proba(X).argmax(axis=1)]

    def encoded(self):
        """The ensemble as text (RhythmTreeEnsemble(encoded:)): a line `b` with the baseline score
        per class (CLASSES order); per tree a line `t CLASS`, then its nodes in index order, `s
        FEATURE THRESHOLD LEFT RIGHT MISSING_LEFT` for a split (go left when x <= THRESHOLD; a
        missing x goes left when MISSING_LEFT is 1) or `l VALUE` for a leaf (the raw score added)."""
        base = np.ravel(self.g._baseline_prediction)
        lines = ["b " + " ".join(repr(float(base[k])) for k in self.order)]
        for round_ in self.g._predictors:
            for k in range(len(CLASSES)):
                nodes = round_[self.order[k]].nodes
                lines.append(f"t {k}")
                for n in nodes:
                    if n["is_leaf"]:
                        lines.append(f"l {float(n['value'])!r}")
                    else:
                        assert not n["is_categorical"]
                        lines.append(f"s {int(n['feature_idx'])} {float(n['num_threshold'])!r} {int(n['left'])} {int(n['right'])} "
                                     f"{int(n['missing_go_to_left'])}")
        return "\n".join(lines)


def make(kind, inputs, c):
    """kind: "logistic", or "trees:i" (TREE_GRID[i])."""
    return Trees(inputs, c, int(kind.split(":")[1])) if kind.startswith("trees") else Model(inputs, c)


def f1_table(truth, pred):
    out = {}
    for c in CLASSES:
        tp = sum(1 for t, p in zip(truth, pred) if t == c and p == c)
        n_t = sum(1 for t in truth if t == c)
        n_p = sum(1 for p in pred if p == c)
        out[c] = 2 * tp / (n_t + n_p) if n_t + n_p else float("nan")
    out["mean_NAO"] = (out["N"] + out["A"] + out["O"]) / 3
    return out


def load(features_csv, reference_csv, min_intervals):
    ref = {r[0]: r[1] for r in csv.reader(open(reference_csv))}
    rows = []
    for r in csv.DictReader(open(features_csv)):
        if r["record"] in ref:
            r["truth"] = ref[r["record"]]
            r["fold"] = int(r["record"][1:]) % 5
            rows.append(r)
    return rows


def labelled(rows, min_intervals):
    return [r for r in rows if int(r["rr_intervals"] or 0) >= min_intervals]


def predictions(model, rows, min_intervals, p_wave=None):
    ok = labelled(rows, min_intervals)
    if not ok:
        return ["~" for r in rows]
    P = model.proba(design(ok, model.inputs))
    if p_wave is not None:
        # The P-wave rule: not af where the P-wave coherence is at least the threshold.
        pw = np.array([value(r, "p_wave_coherence") for r in ok])
        P[(P.argmax(axis=1) == 1) & (pw >= p_wave), 1] = -1
    pred = dict(zip((r["record"] for r in ok), np.array(CLASSES)[P.argmax(axis=1)]))
    return [pred.get(r["record"], "~") for r in rows]  # insufficient scores as noisy (~)


def fold_fits(rows, kind, inputs, c, min_intervals, folds):
    """Per fold: the model fitted on the other folds' labelled rows, and that fold's rows."""
    fits = []
    for f in folds:
        train = labelled([r for r in rows if r["fold"] != f], min_intervals)
        m = make(kind, inputs, c).fit(design(train, inputs), [r["truth"] for r in train])
        fits.append((m, [r for r in rows if r["fold"] == f]))
    return fits


def cv_predictions(fits, min_intervals, p_wave=None):
    """Truth and label of every row, each labelled by the model that did not see its fold."""
    truth, pred = [], []
    for m, test in fits:
        truth += [r["truth"] for r in test]
        pred += predictions(m, test, min_intervals, p_wave)
    return truth, pred


def choose(candidates, score_of, what):
    """The candidate with the best inner 4-fold mean F1(N,A,O) (the first on a tie)."""
    best = None
    for x in candidates:
        score = score_of(x)
        print(f"  {what(x)}: inner 4-fold mean F1(N,A,O) = {score:.3f}", file=sys.stderr)
        if best is None or score > best[1]:
            best = (x, score)
    return best[0]


def inner_score(rows, kind, inputs, c, min_intervals):
    return f1_table(*cv_predictions(fold_fits(rows, kind, inputs, c, min_intervals, range(4)), min_intervals))["mean_NAO"]


def choose_kind(rows, inputs, c, min_intervals):
    kinds = ["logistic"] + [f"trees:{i}" for i in range(len(TREE_GRID))]
    return choose(kinds, lambda k: inner_score(rows, k, inputs, c, min_intervals), str)


def choose_p_wave(rows, inputs, c, min_intervals, kind="logistic"):
    fits = fold_fits(rows, kind, inputs, c, min_intervals, range(4))
    return choose(P_WAVE_GRID, lambda th: f1_table(*cv_predictions(fits, min_intervals, th))["mean_NAO"],
                  lambda th: f"P-wave rule {th}")


def choose_c(rows, inputs, min_intervals):
    return choose((0.01, 0.1, 1.0, 10.0), lambda c: inner_score(rows, "logistic", inputs, c, min_intervals),
                  lambda c: f"C={c}")


def swift_array(xs):
    return "[" + ", ".join(repr(float(x)) for x in xs) + "]"


def swift_model(var, name, m, p_wave=None):
    inputs = ", ".join(f'"{n}"' for n in m.inputs)
    rule = f", pWaveCoherenceLimit: {p_wave!r}" if p_wave is not None else ""
    if isinstance(m, Trees):
        return f"""    /// {name}
    static let {var} = RhythmModel(
        name: "{name}",
        inputs: [{inputs}],
        trees: RhythmTreeEnsemble(encoded: {var}Trees){rule})

    /// The trees of ``{var}`` (``RhythmTreeEnsemble/init(encoded:)``).
    static let {var}Trees = \"\"\"
{textwrap.indent(m.encoded(), "        ")}
        \"\"\"
"""
    weights = ",\n            ".join(swift_array(w) for w in m.W)
    return f"""    /// {name}
    static let {var} = RhythmModel(
        name: "{name}",
        inputs: [{inputs}],
        means: {swift_array(m.mean)},
        scales: {swift_array(m.scale)},
        weights: [
            {weights},
        ],
        intercepts: {swift_array(m.b)}{rule})
"""


def cv5(rows, kind, inputs, c, min_intervals, p_wave=None):
    """5-fold CV (the issue's figure), folds by record number mod 5: (truth, with rule, without)."""
    fits = fold_fits(rows, kind, inputs, c, min_intervals, range(5))
    truth, pred = cv_predictions(fits, min_intervals, p_wave)
    return truth, pred, cv_predictions(fits, min_intervals)[1]


def parity_rows(model, rows, path, min_intervals):
    """A few fold-4 rows (never fitted on) with their raw input values and the reference
    probabilities from scikit-learn's own predict_proba, for the Swift parity test."""
    test = labelled([r for r in rows if r["fold"] == 4], min_intervals)
    picked = []
    for c in CLASSES:
        picked += [r for r in test if r["truth"] == c][:3]
    raw = sorted({n[4:] if n.startswith("log_") else n for n in model.inputs})
    P = model.proba(design(picked, model.inputs))
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["record"] + raw + [f"p_{c}" for c in CLASSES])
        for r, p in zip(picked, P):
            w.writerow([r["record"]] + [r.get(n, "") for n in raw] + [repr(float(x)) for x in p])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("features_csv")
    ap.add_argument("reference_csv")
    ap.add_argument("--out", default="Sources/Rhythm/RhythmModelParameters.swift")
    ap.add_argument("--parity", default="Tests/RhythmTests/Fixtures/model-parity.csv")
    ap.add_argument("--min-intervals", type=int, default=6)
    a = ap.parse_args()
    rows = load(a.features_csv, a.reference_csv, a.min_intervals)
    dev = [r for r in rows if r["fold"] != 4]
    lines = []
    models = {}
    for var, inputs in (("ecg", ECG_INPUTS), ("rr", RR_INPUTS)):
        print(f"{var}: choosing C on folds 0-3", file=sys.stderr)
        c = choose_c(dev, inputs, a.min_intervals)
        kind = choose_kind(dev, inputs, c, a.min_intervals) if var == "ecg" else "logistic"
        p_wave = choose_p_wave(dev, inputs, c, a.min_intervals, kind) if var == "ecg" else None
        truth, pred, plain = cv5(rows, kind, inputs, c, a.min_intervals, p_wave)
        t = f1_table(truth, pred)
        rule = f", P-wave rule {p_wave}" if p_wave is not None else ""
        what = f"gradient-boosted trees {TREE_GRID[int(kind[6:])]}" if kind.startswith("trees") else f"logistic, C={c}"
        lines.append(f"{var}: 5-fold CV (fold = record number mod 5, {len(rows)} records), {what}{rule}: " +
                     ", ".join(f"F1 {k} {v:.3f}" for k, v in t.items()))
        if p_wave is not None:
            lines.append(f"{var} without the P-wave rule (same folds): " +
                         ", ".join(f"F1 {k} {v:.3f}" for k, v in f1_table(truth, plain).items()))
        if var == "ecg":
            # The kind not chosen, for the record (same inputs and folds, no P-wave rule).
            other = "logistic" if kind.startswith("trees") else "trees:0"
            ot, op, _ = cv5(rows, other, inputs, c, a.min_intervals)
            lines.append(f"{var} as {other} (not chosen; same inputs and folds, no P-wave rule): " +
                         ", ".join(f"F1 {k} {v:.3f}" for k, v in f1_table(ot, op).items()))
        # The cross-validated confusion matrix (each record predicted by the fold model that did
        # not see it; fewer than min_intervals intervals scores as ~).
        lines.append(f"{var}: CV confusion (rows reference, columns label): " + "   ".join(
            f"{r}: " + " ".join(f"{p} {sum(1 for x, y in zip(truth, pred) if x == r and y == p)}" for p in CLASSES)
            for r in CLASSES))
        train = labelled(dev, a.min_intervals)
        models[var] = (make(kind, inputs, c).fit(design(train, inputs), [r["truth"] for r in train]), len(train), c, p_wave, kind)
    for l in lines:
        print(l)
    m, _, _, _, kind = models["ecg"]
    parity_rows(m, rows, a.parity, a.min_intervals)
    with open(a.out, "w") as f:
        f.write("// Generated by scripts/rhythm/fit.py from the CinC 2017 development records' rhythm rows\n")
        f.write("// (folds 0-3 of fold = record number mod 5; fold 4 held out). Do not edit: rerun the script.\n")
        f.write("// Model card: docs/RHYTHM.md.\n\n")
        f.write("/// The fitted rhythm models (``RhythmModel``).\n")
        f.write("enum RhythmModelParameters {\n")
        for var, title in (("ecg", "ECG leads: RR irregularity, beat classes and atrial activity"),
                           ("rr", "Beat timing only (fused ECG series, PPG pulses)")):
            m, n, c, p_wave, kind = models[var]
            name = VERSIONS[var].format(kind=kind.split(":")[0])
            rule = f", P-wave rule at coherence {p_wave}" if p_wave is not None else ""
            what = f"gradient-boosted trees ({m.settings['max_iter']} rounds × {len(CLASSES)} classes, ≤ " \
                f"{m.settings['max_leaf_nodes']} leaves, learning rate {m.settings['learning_rate']})" if isinstance(m, Trees) else f"C = {c}"
            doc = textwrap.fill(f"{title}: {n} training windows, {what}{rule}.", width=136, initial_indent="    /// ",
                                subsequent_indent="    /// ")
            f.write(swift_model(var, name, m, p_wave).replace(f"    /// {name}", doc, 1))
        f.write("}\n")


if __name__ == "__main__":
    main()
