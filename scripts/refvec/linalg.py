"""Reference results of numpy.linalg.lstsq / eigh / svd for the LAPACK wrappers.

Matrices are saved row-major (np.save, C order). Eigenvectors and singular vectors are defined
up to sign, so the Swift tests compare them sign-invariantly.
"""
import json
import numpy as np


def generate(out):
    rng = np.random.default_rng(20261203)
    meta = {"lstsq": [], "eigh": [], "svd": []}

    def lstsq(name, a, b):
        x, res, rank, s = np.linalg.lstsq(a, b)
        np.save(out / f"lstsq_{name}_a.npy", a)
        np.save(out / f"lstsq_{name}_b.npy", b.reshape(a.shape[0], -1))
        np.save(out / f"lstsq_{name}_x.npy", x.reshape(a.shape[1], -1))
        np.save(out / f"lstsq_{name}_res.npy", np.asarray(res, dtype=np.float64).reshape(-1))
        np.save(out / f"lstsq_{name}_s.npy", s)
        meta["lstsq"].append({"name": name, "rank": int(rank), "vector_rhs": b.ndim == 1})

    lstsq("tall", rng.standard_normal((50, 6)), rng.standard_normal(50))
    lstsq("tall_multi", rng.standard_normal((40, 5)), rng.standard_normal((40, 3)))
    low = rng.standard_normal((20, 4)) @ rng.standard_normal((4, 6))  # rank 4 < 6 columns
    lstsq("rank_deficient", low, rng.standard_normal((20, 2)))
    lstsq("wide", rng.standard_normal((4, 9)), rng.standard_normal(4))
    lstsq("square", rng.standard_normal((7, 7)) + 3 * np.eye(7), rng.standard_normal(7))
    t = np.linspace(0, 10, 200)  # polynomial trend fit, the typical use (baseline removal)
    vander = np.vander(t / 10, 4, increasing=True)
    lstsq("poly_fit", vander, 0.3 + 0.1 * t - 0.02 * t**2 + 0.05 * rng.standard_normal(200))

    def eigh(name, a):
        w, v = np.linalg.eigh(a)
        np.save(out / f"eigh_{name}_a.npy", a)
        np.save(out / f"eigh_{name}_w.npy", w)
        np.save(out / f"eigh_{name}_v.npy", v)
        meta["eigh"].append({"name": name, "n": a.shape[0]})

    def sym(n):
        m = rng.standard_normal((n, n))
        return (m + m.T) / 2

    eigh("n6", sym(6))
    eigh("n40", sym(40))
    eigh("n1", np.array([[2.5]]))
    cov = np.cov(rng.standard_normal((3, 500)) * np.array([[3.0], [1.0], [0.2]]))
    eigh("cov3", cov)
    lower_only = sym(5)
    lower_only[np.triu_indices(5, 1)] = 99.0  # eigh reads the lower triangle only
    eigh("lower_only", lower_only)

    def svd(name, a):
        u, s, vt = np.linalg.svd(a, full_matrices=False)
        np.save(out / f"svd_{name}_a.npy", a)
        np.save(out / f"svd_{name}_u.npy", u)
        np.save(out / f"svd_{name}_s.npy", s)
        np.save(out / f"svd_{name}_vt.npy", vt)
        meta["svd"].append({"name": name, "m": a.shape[0], "n": a.shape[1]})

    svd("tall", rng.standard_normal((30, 8)))
    svd("wide", rng.standard_normal((8, 30)))
    svd("square", rng.standard_normal((12, 12)))
    svd("row", rng.standard_normal((1, 5)))
    (out / "params.json").write_text(json.dumps(meta, indent=1))
