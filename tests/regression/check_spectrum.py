#!/usr/bin/python3
"""check_spectrum.py OUTPUT_DIR NAME EVERY [--compare OTHER_DIR]: the [[diagnostics]] spectrum as
post-processing sees it. The run's files in step order: every EVERY-th (the first included)
holds /spectrum/k = 0..K, K = floor(sqrt(sum (n//2)^2)), and /spectrum/power equal (to rounding)
to numpy's radially binned |fftn(u)|^2 / N^2 of the file's own /u (all points, bins
round(|k|) of the fftfreq wavevectors); the others hold no /spectrum. With --compare, OTHER_DIR
(the same run on another rank count) has the same files with the same spectra, bit for bit."""
import glob
import math
import os
import sys

import h5py
import numpy as np


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def numpy_spectrum(u):
    n_total = u.size
    power = np.abs(np.fft.fftn(u.astype(np.float64))) ** 2
    frequencies = np.meshgrid(*[np.fft.fftfreq(n) * n for n in u.shape], indexing="ij")
    length = np.sqrt(sum(f ** 2 for f in frequencies))
    bins = np.floor(length + 0.5).astype(np.int64)  # half away from zero (lengths are >= 0)
    top = math.isqrt(sum((n // 2) ** 2 for n in u.shape))
    keep = bins <= top
    summed = np.bincount(bins[keep], weights=power[keep], minlength=top + 1)
    return np.arange(top + 1), summed / float(n_total) ** 2


def main():
    directory, name, every = sys.argv[1], sys.argv[2], int(sys.argv[3])
    other = sys.argv[5] if len(sys.argv) > 5 and sys.argv[4] == "--compare" else None
    files = sorted(glob.glob(os.path.join(directory, name + "_*.h5")))
    if not files:
        fail(f"no output files {name}_*.h5 in {directory}")
    checked = 0
    for index, path in enumerate(files):
        with h5py.File(path, "r") as f:
            if index % every != 0:
                if "spectrum" in f:
                    fail(f"{path}: file {index} has a spectrum, but only every {every}-th should")
                continue
            if "spectrum/k" not in f or "spectrum/power" not in f:
                fail(f"{path}: file {index} lacks /spectrum/k or /spectrum/power")
            k, power = f["spectrum/k"][()], f["spectrum/power"][()]
            if k.dtype != np.int64 or power.dtype != np.float64:
                fail(f"{path}: types {k.dtype}, {power.dtype}; expected int64 and float64")
            want_k, want_power = numpy_spectrum(f["u"][()])
            if not np.array_equal(k, want_k):
                fail(f"{path}: k = {k}, numpy's bins are 0..{want_k[-1]}")
            tolerance = 1e-12 * max(want_power.max(), 1e-300)
            worst = np.max(np.abs(power - want_power))
            if worst > tolerance:
                b = int(np.argmax(np.abs(power - want_power)))
                fail(f"{path}: power[{b}] = {power[b]!r}, numpy {want_power[b]!r} (|diff| up to {worst:.3e})")
            if want_power.sum() <= 0:
                fail(f"{path}: the field has no power at all: the check would prove nothing")
            if other:
                with h5py.File(os.path.join(other, os.path.basename(path)), "r") as g:
                    if g["spectrum/power"][()].tobytes() != power.tobytes():
                        fail(f"{path}: the spectrum differs in its bits from {other}'s")
            checked += 1
    print(f"OK: {checked} spectra of {len(files)} files match numpy" + (f" and {other} bitwise" if other else ""))


if __name__ == "__main__":
    main()
