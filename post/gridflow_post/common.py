"""What the subcommands share: the options that pick a step, a field and a plane, matplotlib
(imported only when a figure is drawn, on the Agg backend), figures of an exact pixel size, CSV."""
import csv
import os
import sys

import numpy as np

from .run import PostError, Run


class MissingDependency(PostError):
    """An optional package is missing; the message says what to install."""


# --- options ---------------------------------------------------------------------------------

def add_run_argument(p):
    p.add_argument("run", metavar="RUN", help="an output folder, its .xmf file, or one .h5 file")


def add_field_argument(p):
    p.add_argument("--field", default="u", help="dataset to read (default: u)")


def add_step_argument(p, repeat=False):
    if repeat:
        p.add_argument("--step", type=int, action="append",
                       help="solver step (default: the last output); repeat for several")
    else:
        p.add_argument("--step", type=int, help="solver step (default: the last output)")


def add_cut_arguments(p):
    p.add_argument("--axis", help="3D fields: the axis the plane is cut across (x, y or z; default z)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--index", type=int, help="3D fields: the plane's grid index along --axis (default: the middle)")
    g.add_argument("--coordinate", type=float,
                   help="3D fields: the plane nearest to this coordinate along --axis")


def add_figure_arguments(p, default_size="800x600"):
    p.add_argument("--size", default=default_size, metavar="WxH",
                   help=f"image size in pixels (default: {default_size})")
    p.add_argument("--dpi", type=float, default=100.0, help="dots per inch: scales text and lines (default: 100)")


def open_run(args):
    return Run(args.run)


def resolve_cut(grid, args):
    """{axis: index} of the plane of a 3D field that --axis/--index/--coordinate pick; None for
    a 2D field (where those options are an error)."""
    given = args.axis is not None or args.index is not None or args.coordinate is not None
    if grid.ndim == 2:
        if given:
            raise PostError("--axis, --index and --coordinate pick a plane of a 3D field; this field is 2D")
        return None
    if grid.ndim != 3:
        raise PostError(f"cannot draw a {grid.ndim}D field as an image")
    axis = grid.axis(args.axis or "z")
    if args.coordinate is not None:
        index = grid.index_of(axis, args.coordinate)
    elif args.index is not None:
        index = grid.check_index(axis, args.index)
    else:
        index = grid.points[axis] // 2
    return {axis: index}


def default_output(args, run, suffix):
    """`-o` when given, else NAME_SUFFIX in the current folder."""
    return args.output or f"{run.name}_{suffix}"


# --- figures ---------------------------------------------------------------------------------

def pyplot():
    """matplotlib.pyplot on the Agg backend (batch nodes have no display)."""
    try:
        import matplotlib
    except ImportError:
        raise MissingDependency("this command draws with matplotlib, which is not installed "
                                "(Debian/Ubuntu: apt-get install python3-matplotlib; otherwise pip install matplotlib)")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def parse_size(text):
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise PostError(f"--size {text}: give the width and height in pixels as WxH, e.g. 800x600")
    if not (16 <= w <= 20000 and 16 <= h <= 20000):
        raise PostError(f"--size {text}: each side must be 16..20000 pixels")
    return w, h


def new_figure(args, nrows=1, ncols=1, **kwargs):
    """A figure that saves as exactly --size pixels at --dpi (laid out with constrained layout)."""
    plt = pyplot()
    w, h = parse_size(args.size)
    if args.dpi <= 0:
        raise PostError("--dpi must be positive")
    # Agg truncates width x dpi to whole pixels: a quarter pixel more lands on the size asked for.
    fig, axes = plt.subplots(nrows, ncols, figsize=((w + 0.25) / args.dpi, (h + 0.25) / args.dpi), dpi=args.dpi,
                             constrained_layout=True, squeeze=False, **kwargs)
    return fig, axes


def save_figure(fig, path):
    plt = pyplot()
    _make_parent(path)
    try:
        fig.savefig(path, dpi=fig.dpi)  # no bbox_inches="tight": it would change the size asked for
    finally:
        plt.close(fig)


def image_extent(grid):
    """Each value sits on a grid point: pixels centred on the points, so the image reaches half a
    spacing beyond the first and last points."""
    (x0, y0), (hx, hy), (nx, ny) = grid.origin, grid.spacing, grid.points
    return [x0 - hx / 2, x0 + hx * (nx - 0.5), y0 - hy / 2, y0 + hy * (ny - 0.5)]


def draw_field(fig, ax, field, cmap="viridis", vmin=None, vmax=None):
    """A 2D field (or plane) as an image in grid coordinates, axes labelled, with a colour bar."""
    grid = field.grid
    extent = image_extent(grid)
    width, height = extent[1] - extent[0], extent[3] - extent[2]
    aspect = "equal" if 0.1 <= height / width <= 10 else "auto"
    im = ax.imshow(field.values, origin="lower", extent=extent, cmap=cmap, vmin=vmin, vmax=vmax,
                   interpolation="nearest", aspect=aspect)
    ax.set_xlabel(grid.names[0])
    ax.set_ylabel(grid.names[1])
    fig.colorbar(im, ax=ax, label=field.name)
    ax.set_title(field_title(field))
    return im


def field_title(field):
    where = f", {field.describe_fixed()}" if field.fixed else ""
    return f"{field.name} at t = {field.time:.6g} (step {field.step}{where})"


# --- text output -----------------------------------------------------------------------------

def write_csv(path, header, rows):
    """Rows of numbers as CSV with a header line, to `path` or, for "-", to standard output.
    Floats are written with repr's shortest round-trip digits."""
    if path == "-":
        _write_rows(sys.stdout, header, rows)
        return
    _make_parent(path)
    with open(path, "w", newline="") as f:
        _write_rows(f, header, rows)


def _write_rows(f, header, rows):
    w = csv.writer(f, lineterminator="\n")
    w.writerow(header)
    for row in rows:
        w.writerow([repr(float(v)) if isinstance(v, (float, np.floating)) else v for v in row])


def _make_parent(path):
    parent = os.path.dirname(path)
    if parent and not os.path.isdir(parent):
        try:
            os.makedirs(parent)
        except OSError as e:
            raise PostError(f"cannot create {parent}: {e}")


def wrote(path):
    """Every command ends by printing the files it wrote, one per line, on standard output."""
    print(path)
