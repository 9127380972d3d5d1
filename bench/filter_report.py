#!/usr/bin/env python3
"""filter_report.py GRIDFLOW.json CUPY.json: filter_bench and filter_cupy.py side by side, per
case: gridflow's default and tuned best against cupyx.scipy.ndimage, each as a fraction of the
copy bandwidth its own run measured, the speed-up over CuPy (of the fastest of the default, the
best direct candidate and, where the case timed one, the best FFT candidate: what the tuner's
"auto" method would choose), the fastest as a fraction of a copy of the case's own size (what one
launch of that size can reach, where filter_bench measured it), and the issue's goal where it
sets one.
Exit status 1 when a goal or "faster than CuPy" is missed (the figures are printed either way)."""
import json
import sys

GOALS = {"mean1d": 0.90, "gaussian2d_s1": 0.85, "gaussian2d_s4": 0.60, "mean3d_s5": 0.70}


def main():
    ours = json.load(open(sys.argv[1]))
    cupy = {c["name"]: c for c in json.load(open(sys.argv[2]))["cases"]}
    print("gridflow on %s (copy %.0f GB/s); CuPy on the same kind (copy %.0f GB/s)" % (
        ours["gpu"], ours["copy_bandwidth_GBps"], json.load(open(sys.argv[2]))["copy_bandwidth_GBps"]))
    print("%-14s %9s %9s %9s %9s %8s %9s %6s  %s" % ("case", "default", "best", "best fft", "cupy", "speedup", "same size",
                                                      "goal", "fastest tunables"))
    missed = []
    for c in ours["cases"]:
        best = c.get("best") or c["default"]
        fft = c.get("best_fft")
        fastest = min([best, c["default"]] + ([fft] if fft else []), key=lambda r: r["seconds"])
        fraction = fastest["fraction_of_copy"]
        theirs = cupy.get(c["name"])
        speedup = theirs["seconds"] / fastest["seconds"] if theirs else float("nan")
        goal = GOALS.get(c["name"])
        same = fastest.get("fraction_of_same_size_copy")
        print("%-14s %8.1f%% %8.1f%% %9s %8s %7.2fx %9s %6s  %s" % (
            c["name"], 100 * c["default"]["fraction_of_copy"], 100 * best["fraction_of_copy"],
            "%.1f%%" % (100 * fft["fraction_of_copy"]) if fft else "-",
            "%.1f%%" % (100 * theirs["fraction_of_copy"]) if theirs else "-", speedup,
            "%.1f%%" % (100 * same) if same else "-", "%.0f%%" % (100 * goal) if goal else "-", fastest["tunables"]))
        if goal and fraction < goal:
            missed.append("%s: %.1f%% of copy, goal %.0f%%" % (c["name"], 100 * fraction, 100 * goal))
        if theirs and not speedup > 1:
            missed.append("%s: not faster than CuPy (%.2fx)" % (c["name"], speedup))
    if missed:
        print("missed:\n  " + "\n  ".join(missed))
        sys.exit(1)


if __name__ == "__main__":
    main()
