#!/usr/bin/env python3
"""bench/distributed_fft_report.py RUN_DIR RESULT.json [--command CMD]: collects the files of
bench/distributed_fft_scaling.sh into one result: per decomposition and transport, the time of
forward + inverse at each GPU count, its efficiency against the same series on the fewest GPUs
(strong scaling: t_1 / (P t_P)), and cuFFT's single-GPU time of the same transform beside it."""
import argparse
import glob
import json
import os


def main():
    p = argparse.ArgumentParser()
    p.add_argument("runs")
    p.add_argument("result")
    p.add_argument("--command", default="bench/distributed_fft_scaling.sh")
    args = p.parse_args()
    runs = []
    for path in sorted(glob.glob(os.path.join(args.runs, "*.json"))):
        with open(path) as f:
            r = json.load(f)
        r["name"] = os.path.basename(path)[:-5]
        r["label"] = f"{r['decomposition']}_{r['transport']}"
        r["kind"] = "strong"
        r["wall_seconds"] = r["forward_inverse_seconds"]
        runs.append(r)
    if not runs:
        raise SystemExit(f"no results in {args.runs}")
    cufft = [r["cufft_one_gpu_forward_inverse_seconds"] for r in runs if "cufft_one_gpu_forward_inverse_seconds" in r]
    for r in runs:
        # The same decomposition on the fewest GPUs (its NCCL series holds the 1-GPU run).
        same = [q for q in runs if q["decomposition"] == r["decomposition"]]
        base = min(same, key=lambda q: (q["gpus"], q["transport"] != "nccl"))
        r["reference"] = base["name"]
        r["efficiency"] = base["forward_inverse_seconds"] * base["gpus"] / (r["forward_inverse_seconds"] * r["gpus"])
        if cufft:
            r["cufft_one_gpu_over_this"] = min(cufft) / r["forward_inverse_seconds"]
    first = runs[0]
    result = {"benchmark": "distributed_fft", "gpu": first["gpu"], "gpu_count": max(r["gpus"] for r in runs),
              "commit": first["commit"], "command": args.command,
              "transform": "3D complex float 1024^3, forward + inverse", "timing": first["timing"],
              "cufft_one_gpu_forward_inverse_seconds": min(cufft) if cufft else None, "runs": runs}
    with open(args.result, "w") as f:
        json.dump(result, f, indent=2)
    print(f"{'run':<18}{'GPUs':>5}{'fwd+inv ms':>12}{'fwd ms':>9}{'eff.':>7}{'cuFFT/this':>12}{'roundtrip':>11}")
    for r in sorted(runs, key=lambda r: (r["label"], r["gpus"])):
        print(f"{r['name']:<18}{r['gpus']:>5}{1e3 * r['forward_inverse_seconds']:>12.2f}{1e3 * r['forward_seconds']:>9.2f}"
              f"{100 * r['efficiency']:>6.1f}%{r.get('cufft_one_gpu_over_this', float('nan')):>12.3f}"
              f"{r['roundtrip_relative_error']:>11.1e}")
    if cufft:
        print(f"cuFFT 3D on one GPU, forward + inverse: {1e3 * min(cufft):.2f} ms")


if __name__ == "__main__":
    main()
