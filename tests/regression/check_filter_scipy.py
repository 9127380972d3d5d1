#!/usr/bin/env python3
"""check_filter_scipy.py DIR: repeats every case filter_scipy_cases wrote to DIR with scipy.ndimage
and requires max |gridflow - scipy| / max |scipy| < 1e-12 for each (double precision)."""
import json
import sys

import numpy as np

try:
    import scipy
    import scipy.ndimage as ndi
except ImportError:
    sys.exit("check_filter_scipy: scipy is missing; install Debian's python3-scipy (bootstrap.sh lists it)")

TOLERANCE = 1e-12


def scipy_result(case, x):
    mode, cval, call = case["mode"], case["cval"], case["call"]
    if call == "uniform_filter1d":
        return ndi.uniform_filter1d(x, case["size"], mode=mode, cval=cval)
    if call == "gaussian_filter1d":
        return ndi.gaussian_filter1d(x, case["sigma"], truncate=case["truncate"], mode=mode, cval=cval)
    if call == "correlate1d":
        return ndi.correlate1d(x, np.array(case["weights"]), mode=mode, cval=cval)
    if call == "uniform_filter":
        return ndi.uniform_filter(x, size=case["size"], mode=mode, cval=cval)
    if call == "gaussian_filter":
        return ndi.gaussian_filter(x, sigma=case["sigma"], truncate=case["truncate"], mode=mode, cval=cval)
    if call == "correlate1d_per_axis":
        y = x
        for p in case["passes"]:
            y = ndi.correlate1d(y, np.array(p["weights"]), axis=p["axis"], mode=mode, cval=cval)
        return y
    if call == "correlate":
        w = np.array(case["weights"]).reshape(case["shape"])
        return ndi.correlate(x, w, mode=mode, cval=cval)
    raise ValueError("unknown call " + call)


def main():
    folder = sys.argv[1]
    with open(folder + "/cases.json") as f:
        cases = json.load(f)
    worst, failures, seen = 0.0, [], set()
    for case in cases:
        x = np.load(folder + "/" + case["input"])
        got = np.load(folder + "/" + case["output"])
        want = scipy_result(case, x)
        assert got.shape == want.shape == x.shape, (got.shape, want.shape)
        rel = float(np.max(np.abs(got - want)) / np.max(np.abs(want)))
        worst = max(worst, rel)
        seen.add((case["dims"], case["call"], case["mode"]))
        label = "%dD %s mode=%s cval=%g %s" % (case["dims"], case["call"], case["mode"], case["cval"],
                                              {k: v for k, v in case.items() if k in ("size", "sigma", "truncate")})
        if not rel < TOLERANCE:
            failures.append("%s: max relative difference %.3g" % (label, rel))
    print("check_filter_scipy: %d cases (%d kinds x dims x modes), scipy %s, worst relative difference %.3g"
          % (len(cases), len(seen), scipy.__version__, worst))
    if len(cases) < 100:
        sys.exit("check_filter_scipy: only %d cases written; expected every built-in and mode" % len(cases))
    if failures:
        print("\n".join(failures))
        sys.exit("check_filter_scipy: %d of %d cases differ from scipy.ndimage by %g or more"
                 % (len(failures), len(cases), TOLERANCE))


if __name__ == "__main__":
    main()
