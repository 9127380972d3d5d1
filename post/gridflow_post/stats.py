"""Statistics of fields and of differences between fields, read block by block from the files so
that a field larger than memory allows is never held whole.

The L2 norm is the grid norm sqrt(h_x h_y [h_z] sum of u^2 over all grid points), which
approximates the integral norm of the continuous field (boundary points weighted like interior
ones)."""
import collections

import h5py
import numpy as np

from .run import Grid, PostError, iter_blocks, plain

Stats = collections.namedtuple("Stats", ["min", "max", "mean", "l2", "points"])
Difference = collections.namedtuple("Difference", ["max_abs", "l2", "max_ref", "bitwise", "note"])


def _dataset(f, path, name):
    if name not in f or not isinstance(f[name], h5py.Dataset):
        raise PostError(f"{path} has no dataset '{name}'")
    return f[name]


def _grid(f, path):
    if "Info" not in f:
        raise PostError(f"{path} has no /Info group")
    return Grid.from_info({k: plain(v) for k, v in f["Info"].attrs.items()}, path)


def field_stats(path, name="u"):
    """Stats(min, max, mean, l2, points) of dataset `name` in one file (NaN propagates)."""
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise PostError(f"cannot read {path}: {e}")
    with f:
        grid = _grid(f, path)
        ds = _dataset(f, path, name)
        lo, hi, total, squares, n = np.inf, -np.inf, 0.0, 0.0, 0
        for block in iter_blocks(ds):
            v = np.asarray(ds[block], dtype=np.float64)
            if v.size == 0:
                continue
            lo, hi = min(lo, float(np.min(v))), max(hi, float(np.max(v)))
            total += float(np.sum(v))
            squares += float(np.sum(v * v))
            n += v.size
    if n == 0:
        raise PostError(f"{path}:/{name} is empty")
    return Stats(lo, hi, total / n, float(np.sqrt(grid.cell_volume * squares)), n)


def field_difference(path_a, path_b, name="u"):
    """How dataset `name` differs between two files.

    max_abs: max |a - b| (equal values, infinities and NaN against NaN count as no difference;
    NaN against a number as an infinite one); l2: the grid L2 norm of a - b (of file a's grid);
    max_ref: max |a| over its finite values (for a relative difference); bitwise: the same type,
    shape and bytes. Different shapes give infinite differences and a note."""
    try:
        fa, fb = h5py.File(path_a, "r"), h5py.File(path_b, "r")
    except OSError as e:
        raise PostError(f"cannot read {e.filename or path_a}: {e}")
    with fa, fb:
        a, b = _dataset(fa, path_a, name), _dataset(fb, path_b, name)
        if a.shape != b.shape:
            return Difference(np.inf, np.inf, np.nan, False, f"shapes {a.shape} and {b.shape}")
        grid = _grid(fa, path_a)
        bitwise = a.dtype == b.dtype
        worst, squares, ref = 0.0, 0.0, 0.0
        for block in iter_blocks(a):
            va, vb = a[block], b[block]
            if bitwise and np.asarray(va).tobytes() != np.asarray(vb).tobytes():
                bitwise = False
            wa, wb = np.asarray(va, dtype=np.float64), np.asarray(vb, dtype=np.float64)
            with np.errstate(invalid="ignore", over="ignore"):
                same = (wa == wb) | (np.isnan(wa) & np.isnan(wb))
                d = np.where(same, 0.0, np.abs(wa - wb))
            d[np.isnan(d)] = np.inf
            if d.size:
                worst = max(worst, float(np.max(d)))
                with np.errstate(over="ignore"):
                    squares += float(np.sum(d * d))
            finite = np.abs(wa[np.isfinite(wa)])
            if finite.size:
                ref = max(ref, float(np.max(finite)))
        note = "" if a.dtype == b.dtype else f"types {a.dtype} and {b.dtype}"
    return Difference(worst, float(np.sqrt(grid.cell_volume * squares)), ref, bitwise, note)
