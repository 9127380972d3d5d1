"""residual: the Poisson solver's convergence history."""
import sys

import numpy as np

from .. import common

NAME = "residual"
HELP = "the Poisson solver's convergence history: plot (-o) and/or CSV (--csv)"
DESCRIPTION = """The relative residual ||b - A u||_2 / ||b||_2 after each iteration (sweeps between checks for
Jacobi, cycles for multigrid, iterations for CG-multigrid) as gridflow records it: in the output
file's /residual_history datasets (/Info residual_history_* in files of earlier versions) or,
for files without it, NAME_residual.csv beside them. Prints
a summary; draws the history on a log scale against the iteration (or --against seconds) with
the deck's poisson.tolerance (-o), and/or writes it as CSV (--csv)."""


def add_arguments(p):
    common.add_run_argument(p)
    p.add_argument("-o", "--output", help="image file of the plot (default without --csv: NAME_residual.png here)")
    p.add_argument("--csv", help="CSV file: iteration, relative_residual[, seconds] ('-': standard output)")
    p.add_argument("--against", choices=["iteration", "seconds"], default="iteration",
                   help="horizontal axis (default: iteration)")
    common.add_figure_arguments(p, "800x600")


def run(args):
    r = common.open_run(args)
    history = r.residual_history()
    if history is None:
        problem = r.info().get("problem", "this")
        raise common.PostError(f"{args.run}: no residual history ({problem} run): gridflow records one for "
                               f"Poisson runs, in /residual_history/* and {r.name}_residual.csv")
    info = r.info()
    tolerance = r.input_value("poisson.tolerance")
    res, it = history.relative_residual, history.iteration
    rate = history.mean_reduction()
    solver = info.get("solver", r.input_value("solver", "solver"))
    converged = info.get("converged")
    summary = sys.stderr if args.csv == "-" else sys.stdout  # keep a CSV on standard output clean
    print(f"{solver}: relative residual {res[0]:.3e} -> {res[-1]:.3e} in {it[-1]:g} iterations"
          + (f" ({rate:.3g} per iteration on average)" if rate is not None else "")
          + (f", tolerance {tolerance:g}" if tolerance is not None else "")
          + ("" if converged is None else (", converged" if converged else ", NOT converged"))
          + f"; from {history.source}", file=summary)
    columns = ["iteration", "relative_residual"] + (["seconds"] if history.seconds is not None else [])
    written = []
    if args.csv:
        common.write_csv(args.csv, columns, zip(*[history.columns[c] for c in columns]))
        if args.csv != "-":
            written.append(args.csv)
    if args.output or not args.csv:
        if args.against == "seconds" and history.seconds is None:
            raise common.PostError(f"{history.source} records no seconds: use --against iteration")
        x = history.seconds if args.against == "seconds" else it
        fig, axes = common.new_figure(args)
        ax = axes[0][0]
        positive = res > 0
        ax.semilogy(np.asarray(x)[positive], res[positive], "o-" if len(res) <= 60 else "-", label="relative residual")
        if tolerance is not None:
            ax.axhline(tolerance, color="grey", linestyle=":", label=f"tolerance {tolerance:g}")
        ax.set_xlabel("iteration" if args.against == "iteration" else "solve time (s)")
        ax.set_ylabel("||b - A u||_2 / ||b||_2")
        points = info.get("grid_points")
        size = " x ".join(str(p) for p in np.atleast_1d(points)) if points is not None else ""
        ax.set_title(f"{solver} convergence{', ' + size + ' points' if size else ''}")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
        path = common.default_output(args, r, "residual.png")
        common.save_figure(fig, path)
        written.append(path)
    for path in written:
        common.wrote(path)
    return 0
