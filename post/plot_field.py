#!/usr/bin/python3
"""Plot one step of a gridflow 2D output series to a PNG file.

    post/plot_field.py output/heat2d_small                 # last step, field u
    post/plot_field.py output/heat2d_small/heat2d.xmf --step 500 -o u500.png
    post/plot_field.py output/heat2d_small/heat2d_00000500.h5
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gridflow_output as go  # noqa: E402


def load_pyplot():
    # Imported here so that --help and the readers work without matplotlib.
    try:
        import matplotlib
    except ImportError:
        sys.exit("plot_field.py: matplotlib is missing; on Debian: apt-get install python3-matplotlib")
    matplotlib.use("Agg")  # batch nodes have no display
    import matplotlib.pyplot as plt
    return plt


def pick_file(source, step):
    """The .h5 file to plot: `source` itself, or the step of a series (default: the last)."""
    if source.endswith(".h5"):
        return source
    steps = go.open_series(source)
    if not steps:
        raise ValueError(f"{source}: the series lists no step")
    if step is None:
        return steps[-1].path
    for s in steps:
        if go.read_info(s.path)["step"] == step:
            return s.path
    raise ValueError(f"{source}: no output at step {step}")


def plot(h5_path, field, png, cmap, dpi):
    u, info = go.read_field(h5_path, field)
    if u.ndim != 2:
        raise ValueError(f"{h5_path}:/{field} is {u.ndim}D; this script plots 2D fields")
    plt = load_pyplot()
    x, y = info["x"], info["y"]
    dx, dy = info["spacing"][0], info["spacing"][1]
    # Values sit on grid points: each pixel is centred on its point, so the image reaches half
    # a spacing beyond the first and last points.
    extent = [x[0] - dx / 2, x[-1] + dx / 2, y[0] - dy / 2, y[-1] + dy / 2]
    fig, ax = plt.subplots(figsize=(7, 6))
    image = ax.imshow(u, origin="lower", extent=extent, cmap=cmap, interpolation="nearest")
    from mpl_toolkits.axes_grid1 import make_axes_locatable  # a colour bar as tall as the image
    fig.colorbar(image, cax=make_axes_locatable(ax).append_axes("right", size="4%", pad=0.1), label=field)
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.set_title(f"{field} at t = {info['time']:.6g} (step {info['step']})")
    fig.savefig(png, dpi=dpi, bbox_inches="tight")
    plt.close(fig)


def main():
    p = argparse.ArgumentParser(description="Plot one step of a gridflow 2D output series to PNG.")
    p.add_argument("source", help="a .xmf file, an output directory holding one, or one .h5 file")
    p.add_argument("--step", type=int, help="solver step to plot (default: the last output)")
    p.add_argument("--field", default="u", help="dataset to plot (default: u)")
    p.add_argument("-o", "--output", help="PNG file (default: the .h5 file's name with .png, in the current directory)")
    p.add_argument("--cmap", default="viridis", help="matplotlib colour map (default: viridis)")
    p.add_argument("--dpi", type=int, default=120)
    args = p.parse_args()
    try:
        h5 = pick_file(args.source, args.step)
        png = args.output or os.path.splitext(os.path.basename(h5))[0] + ".png"
        plot(h5, args.field, png, args.cmap, args.dpi)
    except (OSError, KeyError, ValueError) as e:
        sys.exit(f"plot_field.py: {e}")
    print(png)


if __name__ == "__main__":
    main()
