"""Reference spectra from numpy.fft for RealFFT/ComplexFFT."""
import json
import numpy as np


def generate(out):
    rng = np.random.default_rng(20261130)
    sizes = [1, 2, 7, 64, 1000, 4096, 6561]
    for n in sizes:
        x = rng.standard_normal(n)
        np.save(out / f"x_{n}.npy", x)
        X = np.fft.rfft(x)
        np.save(out / f"rfft_{n}.npy", np.column_stack([X.real, X.imag]).ravel())
        z = rng.standard_normal(n) + 1j * rng.standard_normal(n)
        np.save(out / f"z_{n}.npy", np.column_stack([z.real, z.imag]).ravel())
        Z = np.fft.fft(z)
        np.save(out / f"fft_{n}.npy", np.column_stack([Z.real, Z.imag]).ravel())
    (out / "params.json").write_text(json.dumps({"sizes": sizes}))
