#!/usr/bin/python3
"""Plot throughput and parallel efficiency against GPU count from bench/ result files.

    post/plot_scaling.py bench/results/h200_heat2d.json -o scaling.png
    post/plot_scaling.py a.json b.json --kind strong

Each file is a JSON object with "runs": a list of objects holding at least "gpus", "kind"
("strong" or "weak") and "gcell_per_s". "efficiency" is taken when present and otherwise
computed against the run with the fewest GPUs of the same series, as throughput per GPU relative
to it. A series is one kind plus, when present, the run's "label", else its "name" without a
trailing "_np<N>" (so strong_np1, strong_np2 form one line and ghost4_mpi_np4 is a point of its
own), else its "precision". At the top level "gpu" or "hardware", and "commit", go into the title.
Runs lacking a required field are skipped with a warning.
"""
import argparse
import collections
import json
import os
import re
import sys

REQUIRED = ("gpus", "kind", "gcell_per_s")


def load_pyplot():
    # Imported here so that --help works without matplotlib.
    try:
        import matplotlib
    except ImportError:
        sys.exit("plot_scaling.py: matplotlib is missing; on Debian: apt-get install python3-matplotlib")
    matplotlib.use("Agg")  # batch nodes have no display
    import matplotlib.pyplot as plt
    return plt


def describe(value):
    """A short text for a top-level "hardware" or "commit" field, whatever its JSON type."""
    if isinstance(value, dict):
        for key in ("name", "gpu", "model", "description"):
            if key in value:
                return str(value[key])
        return ", ".join(f"{k}={v}" for k, v in value.items() if not isinstance(v, (dict, list)))
    return str(value)


def read_series(paths, kind_filter):
    """{(kind, series label): [(gpus, gcell_per_s, efficiency or None), ...]} and title parts."""
    series = collections.defaultdict(list)
    titles = []
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        runs = data.get("runs") if isinstance(data, dict) else None
        if not isinstance(runs, list):
            raise ValueError(f"{path}: expected a top-level object with a list \"runs\"")
        title = " ".join(describe(data[k]) for k in ("gpu", "hardware", "commit") if data.get(k))
        if title and title not in titles:
            titles.append(title)
        for i, run in enumerate(runs):
            missing = [k for k in REQUIRED if not isinstance(run, dict) or run.get(k) is None]
            if missing:
                print(f"plot_scaling.py: {path}: run {i} lacks {', '.join(missing)}; skipped", file=sys.stderr)
                continue
            if kind_filter and run["kind"] != kind_filter:
                continue
            name = run.get("label") or re.sub(r"_np\d+$", "", str(run.get("name", ""))) or run.get("precision") or ""
            if name == run["kind"]:
                name = ""
            if len(paths) > 1:
                name = (os.path.basename(path) + " " + name).strip()
            efficiency = run.get("efficiency")
            series[(run["kind"], name)].append((int(run["gpus"]), float(run["gcell_per_s"]),
                                                None if efficiency is None else float(efficiency)))
    return series, titles


def with_efficiency(points):
    """Points sorted by GPU count, a missing efficiency computed against the smallest run."""
    points = sorted(points)
    g0, t0, _ = points[0]
    return [(g, t, e if e is not None else (t / g) / (t0 / g0)) for g, t, e in points]


def plot(series, titles, png):
    plt = load_pyplot()
    fig, (ax_rate, ax_eff) = plt.subplots(1, 2, figsize=(12, 4.8))
    gpu_counts = set()
    for (kind, name), points in sorted(series.items()):
        points = with_efficiency(points)
        gpus = [p[0] for p in points]
        gpu_counts.update(gpus)
        label = f"{kind} {name}".strip()
        line, = ax_rate.plot(gpus, [p[1] for p in points], "o-", label=label)
        ax_eff.plot(gpus, [p[2] for p in points], "o-", color=line.get_color(), label=label)
        # Ideal: throughput grows in proportion to the GPUs from the smallest run.
        ax_rate.plot(gpus, [points[0][1] * g / gpus[0] for g in gpus], ":", color=line.get_color())
    ticks = sorted(gpu_counts)
    for ax in (ax_rate, ax_eff):
        ax.set_xscale("log", base=2)
        ax.set_xticks(ticks, [str(t) for t in ticks])
        ax.set_xlabel("GPUs")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    ax_rate.set_yscale("log")
    from matplotlib.ticker import ScalarFormatter  # plain numbers, not powers of ten
    ax_rate.yaxis.set_major_formatter(ScalarFormatter())
    ax_rate.yaxis.set_minor_formatter(ScalarFormatter())
    ax_rate.set_ylabel("Gcell/s (dotted: ideal)")
    ax_eff.axhline(1.0, color="grey", linestyle=":")
    ax_eff.set_ylim(0, max(1.1, ax_eff.get_ylim()[1]))
    ax_eff.set_ylabel("parallel efficiency")
    if titles:
        fig.suptitle("; ".join(titles))
    fig.savefig(png, dpi=120, bbox_inches="tight")
    plt.close(fig)


def main():
    p = argparse.ArgumentParser(description="Plot throughput and efficiency against GPU count from bench/ JSON results.")
    p.add_argument("results", nargs="+", help="JSON result files as bench/ commits them")
    p.add_argument("-o", "--output", default="scaling.png", help="PNG file (default: scaling.png)")
    p.add_argument("--kind", choices=["strong", "weak"], help="plot only this kind of run")
    args = p.parse_args()
    try:
        series, titles = read_series(args.results, args.kind)
    except (OSError, ValueError) as e:  # json.JSONDecodeError is a ValueError
        sys.exit(f"plot_scaling.py: {e}")
    if not series:
        sys.exit("plot_scaling.py: no run to plot")
    plot(series, titles, args.output)
    print(args.output)


if __name__ == "__main__":
    main()
