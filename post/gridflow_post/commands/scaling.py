"""scaling: strong and weak scaling, with parallel efficiency, from the bench/ result files."""
import collections
import glob
import json
import os
import re
import sys

from .. import common

NAME = "scaling"
HELP = "strong and weak scaling with efficiency from bench JSON files (default: every one in bench/results)"
DESCRIPTION = """Reads every JSON file given (a folder: every *.json in it; default: bench/results of the
current folder or of the source tree this package sits in), recognises the ones that hold
scaling data, and skips the others with a note. A file holds scaling data when it has a list
"runs" whose entries give a GPU count ("gpus", else "ranks") and a throughput ("gcell_per_s",
or "cell_updates_per_second") or a time ("solve_seconds", "stepping_seconds", "wall_seconds"),
at two or more GPU counts on the same grid (strong scaling) or the same points per GPU (weak).
A run's "kind" ("strong" or "weak") is taken when given.

Efficiency is the file's "efficiency" when a run records one, else computed against the run
that its "reference" names (another run's "name" in the file), else against the run with the
fewest GPUs of the same file and kind on the same grid (strong: throughput per GPU relative to
it) or with the same points per GPU (weak). Prints a table; draws throughput (strong:
all GPUs; weak: per GPU) and efficiency against the GPU count, one row of panels per kind (-o);
writes the table as CSV (--csv)."""

THROUGHPUT_KEYS = (("gcell_per_s", 1.0), ("cell_updates_per_second", 1e-9))
TIME_KEYS = ("solve_seconds", "stepping_seconds", "wall_seconds")

Point = collections.namedtuple("Point", "file kind series gpus grid gcell_per_s seconds efficiency recorded")


def add_arguments(p):
    p.add_argument("results", nargs="*", metavar="PATH",
                   help="JSON files or folders of them (default: bench/results)")
    p.add_argument("-o", "--output", help="image file of the plot (default without --csv: scaling.png here)")
    p.add_argument("--csv", help="CSV file of the table ('-': standard output)")
    p.add_argument("--kind", choices=["strong", "weak"], help="only this kind of scaling")
    common.add_figure_arguments(p, "1200x900")


def default_results():
    here = os.path.join("bench", "results")
    if os.path.isdir(here):
        return here
    tree = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "bench", "results")
    if os.path.isdir(tree):
        return os.path.normpath(tree)
    raise common.PostError("no bench/results here or in the source tree: give the JSON files")


def expand(paths):
    files = []
    for path in paths:
        if os.path.isdir(path):
            found = sorted(glob.glob(os.path.join(path, "*.json")))
            if not found:
                print(f"gridflow_post scaling: note: {path} holds no .json file", file=sys.stderr)
            files.extend(found)
        elif os.path.exists(path):
            files.append(path)
        else:
            raise common.PostError(f"{path} does not exist")
    return files


def _number(run, key):
    v = run.get(key)
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _cells(grid):
    n = 1
    for p in grid:
        n *= int(p)
    return n


def _series_name(run):
    for key in ("label", "series"):
        if isinstance(run.get(key), str):
            return run[key]
    name = run.get("name")
    if isinstance(name, str):
        return re.sub(r"_np\d+$", "", name)
    if isinstance(run.get("solver"), str):
        return run["solver"]
    return ""


def read_file(path):
    """(points, None) for a file with scaling data, or (None, the reason to skip it)."""
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        return None, f"not readable as JSON: {e}"
    if not isinstance(data, dict):
        return None, "not a JSON object"
    bench = data.get("benchmark", "")
    runs = data.get("runs")
    if not isinstance(runs, list):
        held = ", ".join(f"'{k}'" for k, v in data.items() if isinstance(v, (list, dict))) or "no list"
        what = f"{bench}: " if bench else ""
        return None, f"{what}holds {held}, no list of runs at several GPU counts"
    runs = [r for r in runs if isinstance(r, dict)]
    usable, lacking = [], 0
    for r in runs:
        gpus = _number(r, "gpus")
        if gpus is None:
            gpus = _number(r, "ranks")
        rate = None
        for key, scale in THROUGHPUT_KEYS:
            if _number(r, key) is not None:
                rate = _number(r, key) * scale
                break
        seconds = next((_number(r, k) for k in TIME_KEYS if _number(r, k) is not None), None)
        grid = r.get("grid_points")
        if gpus is None or (rate is None and seconds is None) or not isinstance(grid, list):
            lacking += 1
            continue
        kind = r.get("kind") if r.get("kind") in ("strong", "weak") else None
        usable.append({"run": r, "gpus": int(gpus), "rate": rate, "seconds": seconds, "grid": tuple(grid),
                       "series": _series_name(r), "kind": kind})
    if not usable:
        return None, (f"{bench + ': ' if bench else ''}none of its {len(runs)} runs gives a GPU count, a grid and "
                      "a throughput or time")
    if len({u["gpus"] for u in usable}) < 2:
        n = usable[0]["gpus"]
        return None, f"{bench + ': ' if bench else ''}every run on {n} GPU{'s' * (n != 1)}: nothing scales"

    # Runs without a kind: strong where a series ran one grid at several GPU counts, weak where
    # it kept the points per GPU at several counts.
    by_grid, by_share = collections.defaultdict(set), collections.defaultdict(set)
    for u in usable:
        if u["kind"] is None:
            by_grid[(u["series"], u["grid"])].add(u["gpus"])
            by_share[(u["series"], _cells(u["grid"]) // u["gpus"])].add(u["gpus"])
    for u in usable:
        if u["kind"] is None:
            if len(by_grid[(u["series"], u["grid"])]) > 1:
                u["kind"] = "strong"
            elif len(by_share[(u["series"], _cells(u["grid"]) // u["gpus"])]) > 1:
                u["kind"] = "weak"
    scaling = [u for u in usable if u["kind"] is not None]
    if not scaling:
        counts = sorted({u["gpus"] for u in usable})
        return None, (f"{bench + ': ' if bench else ''}runs at {', '.join(map(str, counts))} GPUs, but no series "
                      "ran the same grid (strong scaling) or the same points per GPU (weak scaling) on more than one")

    points = []
    for u in scaling:
        ref = _reference(u, scaling)
        computed = _efficiency(u, ref) if ref is not None else None
        recorded = _number(u["run"], "efficiency")
        if recorded is not None and computed is not None and abs(recorded - computed) > 5e-3 * max(1.0, abs(computed)):
            print(f"gridflow_post scaling: note: {path}: {u['run'].get('name', u['series'])}: recorded efficiency "
                  f"{recorded:.4f}, computed {computed:.4f}", file=sys.stderr)
        points.append(Point(path, u["kind"], u["series"], u["gpus"], u["grid"], u["rate"], u["seconds"],
                            recorded if recorded is not None else computed, recorded is not None))
    if lacking:
        print(f"gridflow_post scaling: note: {path}: {lacking} run(s) without a GPU count, grid and figure left out",
              file=sys.stderr)
    return points, None


def _reference(u, runs):
    """The run an efficiency is measured against: the one u's "reference" names, else the fewest
    GPUs on the same grid (strong) or with the same points per GPU (weak), preferring the same
    series, then strong runs."""
    named = u["run"].get("reference")
    if isinstance(named, str):
        for v in runs:
            if v["run"].get("name") == named and (v["rate"] is not None) == (u["rate"] is not None):
                return v
    if u["kind"] == "strong":
        same = [v for v in runs if v["grid"] == u["grid"] and v["kind"] == "strong"]
    else:
        share = _cells(u["grid"]) / u["gpus"]
        same = [v for v in runs if abs(_cells(v["grid"]) / v["gpus"] - share) <= 1e-9 * share]
    same = [v for v in same if (v["rate"] is not None) == (u["rate"] is not None)]
    if not same:
        return None
    return min(same, key=lambda v: (v["gpus"], v["series"] != u["series"], v["kind"] != "strong"))


def _efficiency(u, ref):
    if u["rate"] is not None:
        return (u["rate"] / u["gpus"]) / (ref["rate"] / ref["gpus"])
    if u["kind"] == "strong":
        return (ref["seconds"] * ref["gpus"]) / (u["seconds"] * u["gpus"])
    return ref["seconds"] / u["seconds"]


def collect(files, kind=None):
    """(points of every file with scaling data, [(file, reason) skipped])."""
    points, skipped = [], []
    for path in files:
        found, reason = read_file(path)
        if found is None:
            skipped.append((path, reason))
        else:
            points.extend(p for p in found if kind is None or p.kind == kind)
    return points, skipped


def _grid_text(grid):
    return "x".join(str(g) for g in grid)


def run(args):
    files = expand(args.results or [default_results()])
    points, skipped = collect(files, args.kind)
    for path, reason in skipped:
        print(f"gridflow_post scaling: note: skipped {path}: {reason}", file=sys.stderr)
    if not points:
        kind = args.kind + " " if args.kind else ""
        raise common.PostError(f"none of the {len(files)} file(s) holds {kind}scaling data")
    many = len({p.file for p in points}) > 1
    text = sys.stderr if args.csv == "-" else sys.stdout  # keep a CSV on standard output clean
    print(f"{'kind':<7} {'series':<24} {'GPUs':>4}  {'grid':<14} {'Gcell/s':>9} {'per GPU':>9} {'seconds':>9} "
          f"{'efficiency':>10}", file=text)
    ordered = sorted(points, key=lambda p: (p.file, p.kind != "strong", p.series not in (p.kind, ""), p.series, p.gpus))
    for p in ordered:
        label = (os.path.basename(p.file) + ": " if many else "") + (p.series or p.kind)
        if p.gcell_per_s is not None:
            rate = f"{p.gcell_per_s:9.2f} {p.gcell_per_s / p.gpus:9.2f}"
        else:
            rate = f"{'-':>9} {'-':>9}"
        secs = f"{p.seconds:9.4g}" if p.seconds is not None else f"{'-':>9}"
        eff = f"{100 * p.efficiency:9.1f}%" if p.efficiency is not None else f"{'-':>10}"
        print(f"{p.kind:<7} {label:<24} {p.gpus:>4}  {_grid_text(p.grid):<14} {rate} {secs} {eff}", file=text)
    written = []
    if args.csv:
        common.write_csv(args.csv, ["file", "kind", "series", "gpus", "grid_points", "gcell_per_s", "seconds",
                                    "efficiency", "efficiency_recorded"],
                         [(p.file, p.kind, p.series, p.gpus, _grid_text(p.grid),
                           "" if p.gcell_per_s is None else p.gcell_per_s, "" if p.seconds is None else p.seconds,
                           "" if p.efficiency is None else p.efficiency, int(p.recorded)) for p in ordered])
        if args.csv != "-":
            written.append(args.csv)
    if args.output or not args.csv:
        path = args.output or "scaling.png"
        plot(points, args, path, many)
        written.append(path)
    for path in written:
        common.wrote(path)
    return 0


def plot(points, args, path, many):
    kinds = [k for k in ("strong", "weak") if any(p.kind == k for p in points)]
    fig, axes = common.new_figure(args, len(kinds), 2)
    for row, kind in enumerate(kinds):
        mine = [p for p in points if p.kind == kind]
        by_series = collections.defaultdict(list)
        for p in mine:
            by_series[(p.file, p.series)].append(p)
        ax_rate, ax_eff = axes[row]
        use_rate = all(p.gcell_per_s is not None for p in mine)
        gpu_counts = sorted({p.gpus for p in mine})
        ideal_lines = {}
        # The series named after its kind (strong_np1, strong_np2, ...) first, variants after it.
        order = sorted(by_series.items(), key=lambda item: (item[0][0], item[0][1] not in (kind, ""), item[0][1]))
        for i, ((file, series), pts) in enumerate(order):
            pts.sort(key=lambda p: p.gpus)
            label = (os.path.basename(file) + ": " if many else "") + (series or kind)
            style = "o-" if len(pts) > 1 else "D"
            g = [p.gpus for p in pts]
            if use_rate:
                y = [p.gcell_per_s if kind == "strong" else p.gcell_per_s / p.gpus for p in pts]
            else:
                y = [p.seconds for p in pts]
            line, = ax_rate.plot(g, y, style, label=label, color=f"C{i % 10}")
            known = [p for p in pts if p.efficiency is not None]
            if known:
                ax_eff.plot([p.gpus for p in known], [100 * p.efficiency for p in known], style, label=label,
                            color=line.get_color())
                # The ideal follows from any point and its efficiency: the reference's figure per GPU.
                p = known[0]
                key = (file, p.grid if kind == "strong" else _cells(p.grid) // p.gpus)
                if use_rate:
                    ideal_lines.setdefault(key, p.gcell_per_s / (p.gpus * p.efficiency))
                else:
                    ideal_lines.setdefault(key, p.seconds * p.efficiency * (p.gpus if kind == "strong" else 1))
        for ref in ideal_lines.values():
            g = [0] + gpu_counts if kind == "strong" and use_rate else gpu_counts
            if kind == "strong":
                ideal = [ref * x for x in g] if use_rate else [ref / x for x in g]
            else:
                ideal = [ref for _ in g]
            ax_rate.plot(g, ideal, ":", color="black", linewidth=1)
        what = {("strong", True): "throughput, all GPUs (Gcell/s)",
                ("weak", True): "throughput per GPU (Gcell/s)",
                ("strong", False): "time (s)", ("weak", False): "time (s)"}[(kind, use_rate)]
        ax_rate.set_ylabel(what + " (dotted: ideal)")
        ax_rate.set_ylim(0, ax_rate.get_ylim()[1] * 1.08)
        ax_eff.axhline(100.0, color="grey", linestyle=":")
        ax_eff.set_ylabel("parallel efficiency (%)")
        top = max([100.0] + [100 * p.efficiency for p in mine if p.efficiency is not None])
        ax_eff.set_ylim(0, top * 1.08)
        grids = sorted({_grid_text(p.grid) for p in mine})
        about = ("grid " if kind == "strong" else "grids ") + ", ".join(grids[:3]) + (", ..." if len(grids) > 3 else "")
        for ax, title in ((ax_rate, f"{kind} scaling ({about})"), (ax_eff, f"{kind} scaling: efficiency")):
            ax.set_xlabel("GPUs")
            ax.set_xticks(gpu_counts)
            ax.set_xticklabels([str(c) for c in gpu_counts])
            ax.set_xlim(0, gpu_counts[-1] * 1.1)
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize="small")
            ax.set_title(title)
    common.save_figure(fig, path)
