"""lineout: the values of a field along one grid line, at one or more steps."""
import sys

from .. import common
from ..run import PostError

NAME = "lineout"
HELP = "values along a grid line at one or more steps: plot (-o) and/or CSV (--csv)"
DESCRIPTION = """Reads the field along the grid line that runs along --axis (default x) through the points that
--at (a coordinate: the nearest grid line) or --at-index fix on the other axes (default: their
middle index). Draws the values against the coordinate (-o) and/or writes them as CSV (--csv),
one column per step; with neither, prints the CSV."""


def add_arguments(p):
    common.add_run_argument(p)
    common.add_field_argument(p)
    common.add_step_argument(p, repeat=True)
    p.add_argument("--axis", default="x", help="direction of the line: x, y or z (default: x)")
    p.add_argument("--at", action="append", default=[], metavar="AXIS=COORD",
                   help="fix another axis at the grid point nearest to this coordinate, e.g. --at y=0.5 (repeatable)")
    p.add_argument("--at-index", action="append", default=[], metavar="AXIS=INDEX",
                   help="fix another axis at this grid index, e.g. --at-index y=24 (repeatable)")
    p.add_argument("-o", "--output", help="image file of the plot")
    p.add_argument("--csv", help="CSV file: the coordinate, then one column per step ('-': standard output)")
    common.add_figure_arguments(p, "800x500")


def _pairs(items, convert, option):
    out = []
    for item in items:
        axis, sep, value = item.partition("=")
        try:
            out.append((axis.strip(), convert(value)))
        except ValueError:
            sep = ""
        if not sep:
            raise PostError(f"{option} {item}: write AXIS=VALUE, e.g. {option} y=0.5")
    return out


def line_position(grid, args):
    """(axis of the line, {other axis: index}) from --axis, --at and --at-index."""
    along = grid.axis(args.axis)
    at = {}
    for axis, coordinate in _pairs(args.at, float, "--at"):
        a = grid.axis(axis)
        at[a] = grid.index_of(a, coordinate)
    for axis, index in _pairs(args.at_index, int, "--at-index"):
        a = grid.axis(axis)
        if a in at:
            raise PostError(f"axis {grid.names[a]} is fixed twice")
        at[a] = grid.check_index(a, index)
    if along in at:
        raise PostError(f"--at/--at-index fix {grid.names[along]}, the axis the line runs along")
    for a in range(grid.ndim):
        if a != along and a not in at:
            at[a] = grid.points[a] // 2
    return along, at


def run(args):
    r = common.open_run(args)
    steps = [r.step(s) for s in (args.step or [None])]
    grid = r.grid(steps[0].step)
    along, at = line_position(grid, args)
    fields = [r.read(args.field, s.step, at) for s in steps]
    coordinate = grid.coordinates(along)
    axis = grid.names[along]
    print(f"gridflow_post lineout: {args.field} along {axis} at {fields[0].describe_fixed()}", file=sys.stderr)
    written = []
    if args.csv or not args.output:
        header = [axis] + [f"{args.field}_step{f.step}" for f in fields]
        rows = zip(coordinate, *[f.values for f in fields])
        common.write_csv(args.csv or "-", header, rows)
        if args.csv and args.csv != "-":
            written.append(args.csv)
    if args.output:
        fig, axes = common.new_figure(args)
        ax = axes[0][0]
        for f in fields:
            ax.plot(coordinate, f.values, ".-" if len(coordinate) <= 100 else "-",
                    label=f"step {f.step}, t = {f.time:.6g}")
        ax.set_xlabel(axis)
        ax.set_ylabel(args.field)
        ax.set_title(f"{args.field} along {axis} at {fields[0].describe_fixed()}")
        ax.grid(True, alpha=0.3)
        ax.legend()
        common.save_figure(fig, args.output)
        written.append(args.output)
    for path in written:
        common.wrote(path)
    return 0
