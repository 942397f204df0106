#!/usr/bin/env python3
"""Write the SciPy/NumPy reference vectors that the Swift tests compare against.

Usage: python3 scripts/make-reference-vectors.py [--only NAME]

Each module in scripts/refvec/ (fft, fir, iir, spectral, resample, peaks, linalg, ...) has a
`generate(fixtures: pathlib.Path)` function that writes `.npy` arrays and `.json` parameter files
under Tests/DSPTests/Fixtures/<name>/. Inputs are generated from fixed seeds and saved too, so the
Swift side reads the very same input. Requires numpy and scipy (pip install numpy scipy).
"""
import argparse
import importlib
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="generate only this module (e.g. fir)")
    args = parser.parse_args()
    import numpy
    import scipy
    print(f"numpy {numpy.__version__}, scipy {scipy.__version__}")
    names = sorted(p.stem for p in (ROOT / "scripts" / "refvec").glob("*.py") if p.stem != "__init__")
    for name in names:
        if args.only and name != args.only:
            continue
        module = importlib.import_module(f"refvec.{name}")
        out = ROOT / "Tests" / "DSPTests" / "Fixtures" / name
        out.mkdir(parents=True, exist_ok=True)
        module.generate(out)
        print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
