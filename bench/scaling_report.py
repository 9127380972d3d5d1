#!/usr/bin/env python3
"""bench/scaling_report.py SUMMARY_DIR RESULT.json [--gpu NAME] [--command CMD]

Collects the gridflow --summary files written by bench/heat2d_scaling.sh into one results file:
every run with its throughput, parallel efficiency against the 1-GPU run of the same kind, per-GPU
throughput, and its phase times; prints a table."""
import argparse
import glob
import json
import os
import re


def with_idle(row):
    """Adds compute_idle_seconds: the stepping wall time in which the compute stream ran no interior
    stencil (the phase timers cover every step; stepping time excludes the warm-up steps). Edge
    strips and the exchange run beside the interior on another stream, so this is the time lost
    to launch gaps, waiting for ghosts and load imbalance."""
    timed = (row["steps"] - row["warmup_steps"]) / row["steps"]
    interior = row["phases_seconds"].get("stencil interior", 0.0)
    row["compute_idle_seconds"] = max(0.0, row["stepping_seconds"] - interior * timed)
    return row


def main():
    p = argparse.ArgumentParser()
    p.add_argument("summaries")
    p.add_argument("result")
    p.add_argument("--command", default="bench/heat2d_scaling.sh")
    args = p.parse_args()

    runs = {}
    for path in sorted(glob.glob(os.path.join(args.summaries, "*.json"))):
        with open(path) as f:
            runs[os.path.basename(path)[:-5]] = json.load(f)
    base = runs.get("strong_np1")
    if base is None:
        raise SystemExit("no strong_np1.json: the 1-GPU reference run is missing")
    rows = []
    for name, s in sorted(runs.items(), key=lambda kv: (kv[0].split("_")[0], kv[1]["ranks"], kv[0])):
        kind = name.split("_")[0]
        series = re.sub(r"_np\d+$", "", name)
        # Tuned runs (and the ghost sweep, which is tuned) against the tuned run on one GPU.
        reference = "strong_tuned_np1" if "tuned" in name or kind.startswith("ghost") else "strong_np1"
        rate1 = runs.get(reference, base)["cell_updates_per_second"]
        gpus = s["ranks"]
        rate = s["cell_updates_per_second"]
        rows.append(with_idle({
            "name": name,
            "label": series,
            "reference": reference if reference in runs else "strong_np1",
            "kind": "weak" if kind == "weak" else "strong",
            "gpus": gpus,
            "grid_points": s["grid_points"],
            "decomposition": s["decomposition"],
            # the width the exchanges used; summaries before halo.width.ran called it halo_width
            "halo_width": s["halo.width.ran"] if "halo.width.ran" in s else s["halo_width"],
            "transport": s["transport"],
            "steps": s["steps"],
            "gcell_per_s": rate * 1e-9,
            "gcell_per_s_per_gpu": rate * 1e-9 / gpus,
            "efficiency": rate / (gpus * rate1),
            "stepping_seconds": s["stepping_seconds"],
            "warmup_steps": s["warmup_steps"],
            "phases_seconds": s["phases"],
        }))
    result = {
        "benchmark": "heat2d_scaling",
        "gpu": base["device"],
        "gpu_count": max(r["gpus"] for r in rows),
        "commit": base["commit"],
        "command": args.command,
        "reference": "efficiency against the same executable on one GPU: strong_np1 (tuning off), strong_tuned_np1 (tuned runs and the ghost sweep)",
        "runs": rows,
    }
    with open(args.result, "w") as f:
        json.dump(result, f, indent=2)
    print(f"{'run':<24}{'GPUs':>5}{'g':>3}{'transport':>10}{'Gcell/s':>10}{'per GPU':>9}{'eff.':>7}"
          f"{'interior':>10}{'edge':>8}{'exchange':>10}{'idle':>8}")
    for r in rows:
        ph = r["phases_seconds"]
        print(f"{r['name']:<24}{r['gpus']:>5}{r['halo_width']:>3}{r['transport']:>10}{r['gcell_per_s']:>10.1f}"
              f"{r['gcell_per_s_per_gpu']:>9.1f}{100 * r['efficiency']:>6.1f}%"
              f"{ph.get('stencil interior', 0):>10.3f}{ph.get('stencil edge strips', 0):>8.3f}{ph.get('ghost exchange', 0):>10.3f}{r['compute_idle_seconds']:>8.3f}")


if __name__ == "__main__":
    main()
