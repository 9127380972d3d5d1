#!/usr/bin/python3
"""Compare the same dataset in two gridflow output files, or step by step in two series.

    post/compare_fields.py run_np1/heat2d_00000500.h5 run_np4/heat2d_00000500.h5
    post/compare_fields.py run_np1 run_np4                  # every step of two series
    post/compare_fields.py run_double run_float --tolerance 1e-6 --relative

Prints, per pair, max |a - b| and the relative difference max |a - b| / max |a|. Exits 0 when
every pair is within --tolerance, 1 when a pair is not or the series do not match (different
step counts or times), 2 on a usage or read error. The default tolerance 0 asks for bitwise
identical datasets, as runs on different rank counts, ghost widths or transports must give.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gridflow_output as go  # noqa: E402


def pairs(a, b):
    """Pairs of files to compare, and a list of problems that make the inputs differ."""
    a_file, b_file = a.endswith(".h5"), b.endswith(".h5")
    if a_file != b_file:
        raise ValueError("give two .h5 files or two series (.xmf files or output directories), not one of each")
    if a_file:
        return [(a, b)], []
    sa, sb = go.open_series(a), go.open_series(b)
    problems = []
    if len(sa) != len(sb):
        problems.append(f"{a} lists {len(sa)} steps, {b} lists {len(sb)}")
    for x, y in zip(sa, sb):
        if x.time != y.time:
            problems.append(f"times differ: {x.path} at t = {x.time!r}, {y.path} at t = {y.time!r}")
    return [(x.path, y.path) for x, y in zip(sa, sb)], problems


def difference(a, b):
    """(max |a - b|, max |a - b| / max |a|); inf when the shapes differ or only one value is NaN."""
    if a.shape != b.shape:
        return np.inf, np.inf
    wide = np.promote_types(a.dtype, b.dtype)
    a, b = a.astype(wide), b.astype(wide)
    # Equal values (infinities too) and NaN against NaN count as no difference.
    with np.errstate(invalid="ignore"):
        same = (a == b) | (np.isnan(a) & np.isnan(b))
        diff = np.where(same, 0, np.abs(a - b))
    absolute = float(np.max(diff)) if diff.size else 0.0
    if np.isnan(absolute):
        return np.inf, np.inf
    finite = np.abs(a[np.isfinite(a)])
    scale = float(np.max(finite)) if finite.size else 0.0
    relative = absolute / scale if scale > 0 else (0.0 if absolute == 0 else np.inf)
    return absolute, relative


def main():
    p = argparse.ArgumentParser(description="Compare a dataset between two gridflow output files or series.")
    p.add_argument("a", help="a .h5 file, a .xmf file, or an output directory holding one .xmf")
    p.add_argument("b", help="the same kind of input as A")
    p.add_argument("--field", default="u", help="dataset to compare (default: u)")
    p.add_argument("--tolerance", type=float, default=0.0,
                   help="largest accepted difference (default 0: bitwise identical)")
    p.add_argument("--relative", action="store_true",
                   help="hold the relative difference max|a-b|/max|a| to the tolerance instead of max|a-b|")
    args = p.parse_args()
    if args.tolerance < 0:
        p.error("--tolerance must be >= 0")

    try:
        todo, problems = pairs(args.a, args.b)
        worst, failed = 0.0, 0
        for fa, fb in todo:
            ua, _ = go.read_field(fa, args.field)
            ub, _ = go.read_field(fb, args.field)
            absolute, relative = difference(ua, ub)
            measured = relative if args.relative else absolute
            worst = max(worst, measured)
            if args.tolerance == 0:
                # Bitwise: equal values can still differ in the sign of a zero, a NaN payload or the type.
                ok = ua.dtype == ub.dtype and ua.shape == ub.shape and ua.tobytes() == ub.tobytes()
                verdict = "identical" if ok else "DIFFERENT" + (" (equal values, other bits)" if measured == 0 else "")
            else:
                ok = measured <= args.tolerance
                verdict = "ok" if ok else "DIFFERENT"
            failed += not ok
            shapes = "" if ua.shape == ub.shape else f"  (shapes {ua.shape} and {ub.shape})"
            print(f"{os.path.basename(fa)}  max abs {absolute:.3e}  rel {relative:.3e}  {verdict}{shapes}")
    except (OSError, KeyError, ValueError) as e:
        print(f"compare_fields.py: {e}", file=sys.stderr)
        return 2
    for problem in problems:
        print(f"compare_fields.py: {problem}")
    kind = "relative" if args.relative else "absolute"
    if failed:
        print(f"FAIL: {failed} of {len(todo)} pair(s) differ; largest {kind} difference {worst:.3e}, "
              f"tolerance {args.tolerance:g}")
        return 1
    if problems:
        print("FAIL: the series do not match")
        return 1
    print(f"ok: {len(todo)} pair(s), largest {kind} difference {worst:.3e}, tolerance {args.tolerance:g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
