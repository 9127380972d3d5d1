"""series: min, max, mean and L2 norm of a field over the output steps."""
from .. import common
from ..stats import field_stats

NAME = "series"
HELP = "min, max, mean and L2 norm of a field over time: plot (-o) and/or CSV (--csv)"
DESCRIPTION = """For every output step (or --first/--last), the minimum, maximum and mean of the field over all
grid points and its grid L2 norm sqrt(h_x h_y [h_z] sum u^2). Draws them against time (-o)
and/or writes them as CSV (--csv: step, time, min, max, mean, l2); with neither, prints the CSV.
Files are read block by block, so fields larger than memory are fine."""

COLUMNS = ("step", "time", "min", "max", "mean", "l2")


def add_arguments(p):
    common.add_run_argument(p)
    common.add_field_argument(p)
    p.add_argument("--first", type=int, help="first solver step to include (default: the first output)")
    p.add_argument("--last", type=int, help="last solver step to include (default: the last output)")
    p.add_argument("-o", "--output", help="image file of the plot")
    p.add_argument("--csv", help="CSV file ('-': standard output)")
    common.add_figure_arguments(p, "800x700")


def table(run, field, first=None, last=None):
    rows = []
    for s in run.steps:
        if (first is not None and s.step < first) or (last is not None and s.step > last):
            continue
        st = field_stats(s.path, field)
        rows.append((s.step, s.time, st.min, st.max, st.mean, st.l2))
    return rows


def run(args):
    r = common.open_run(args)
    rows = table(r, args.field, args.first, args.last)
    if not rows:
        raise common.PostError(f"no output step between --first {args.first} and --last {args.last}")
    written = []
    if args.csv or not args.output:
        common.write_csv(args.csv or "-", COLUMNS, rows)
        if args.csv and args.csv != "-":
            written.append(args.csv)
    if args.output:
        fig, axes = common.new_figure(args, 2, 1, sharex=True)
        top, bottom = axes[0][0], axes[1][0]
        t = [row[1] for row in rows]
        style = "o-" if len(rows) <= 50 else "-"
        for column, label in ((3, "max"), (4, "mean"), (2, "min")):
            top.plot(t, [row[column] for row in rows], style, label=label)
        top.set_ylabel(args.field)
        top.set_title(f"{args.field} over the grid, {r.name} ({len(rows)} output step{'s' * (len(rows) != 1)})")
        top.legend()
        bottom.plot(t, [row[5] for row in rows], style, color="C3")
        bottom.set_ylabel(f"L2 norm of {args.field}")
        bottom.set_xlabel("t")
        for ax in (top, bottom):
            ax.grid(True, alpha=0.3)
        common.save_figure(fig, args.output)
        written.append(args.output)
    for path in written:
        common.wrote(path)
    return 0
