"""animate: every output step of a 2D field (or a plane of a 3D field) as a film."""
import importlib.util
import os
import shutil
import sys

import numpy as np

from .. import common
from ..stats import field_stats

NAME = "animate"
HELP = "the output steps as a film: MP4 (ffmpeg) or, without ffmpeg, GIF (Pillow)"
DESCRIPTION = """One frame per output step (every --every-th, between --first and --last), drawn as `plot` draws
one, on one colour scale for the whole film (the field's range over the frames, or --vmin and
--vmax). The format follows -o: .mp4 needs ffmpeg on PATH; .gif needs Pillow (python3-pil).
Without -o, or with .mp4 and no ffmpeg, the film is an MP4 when ffmpeg is there and a GIF
otherwise (a note says so). Neither available is an error naming what to install. An MP4
(H.264) has even sides: an odd --size loses a pixel there."""

NO_WRITER = ("no film writer: MP4 needs ffmpeg (Debian/Ubuntu: apt-get install ffmpeg, or a module load "
             "on a cluster) and GIF needs Pillow (Debian/Ubuntu: apt-get install python3-pil; "
             "otherwise pip install pillow)")


def add_arguments(p):
    common.add_run_argument(p)
    common.add_field_argument(p)
    common.add_cut_arguments(p)
    p.add_argument("-o", "--output", help="film file, .mp4 or .gif (default: NAME_FIELD.mp4, or .gif without ffmpeg)")
    p.add_argument("--fps", type=float, default=5.0, help="frames per second (default: 5)")
    p.add_argument("--every", type=int, default=1, help="take every N-th output step (default: 1)")
    p.add_argument("--first", type=int, help="first solver step (default: the first output)")
    p.add_argument("--last", type=int, help="last solver step (default: the last output)")
    p.add_argument("--cmap", default="viridis", help="matplotlib colour map (default: viridis)")
    p.add_argument("--vmin", type=float, help="lower end of the colour scale (default: the minimum over the frames)")
    p.add_argument("--vmax", type=float, help="upper end of the colour scale (default: the maximum over the frames)")
    common.add_figure_arguments(p, "800x600")


def have_ffmpeg():
    return shutil.which("ffmpeg") is not None


def have_pillow():
    return importlib.util.find_spec("PIL") is not None


def choose_output(args, run):
    """(path, "mp4" or "gif"): the format -o asks for, falling back to GIF without ffmpeg."""
    ffmpeg, pillow = have_ffmpeg(), have_pillow()
    if not ffmpeg and not pillow:
        raise common.MissingDependency(NO_WRITER)
    path = args.output or f"{run.name}_{args.field}.{'mp4' if ffmpeg else 'gif'}"
    stem, ext = os.path.splitext(path)
    ext = ext.lower()
    if ext not in (".mp4", ".gif"):
        raise common.PostError(f"-o {path}: a film is written as .mp4 (ffmpeg) or .gif (Pillow)")
    if ext == ".gif" and not pillow:
        raise common.MissingDependency("writing a GIF needs Pillow, which is not installed (Debian/Ubuntu: "
                                       "apt-get install python3-pil; otherwise pip install pillow); "
                                       "with ffmpeg on PATH, -o FILE.mp4 works instead")
    if ext == ".mp4" and not ffmpeg:
        gif = stem + ".gif"
        print(f"gridflow_post animate: note: ffmpeg is not on PATH, so no MP4: writing {gif} instead "
              "(install ffmpeg for MP4)", file=sys.stderr)
        return gif, "gif"
    return path, ext[1:]


def run(args):
    if args.every < 1:
        raise common.PostError("--every must be at least 1")
    if args.fps <= 0:
        raise common.PostError("--fps must be positive")
    r = common.open_run(args)
    steps = [s for s in r.steps if (args.first is None or s.step >= args.first) and
             (args.last is None or s.step <= args.last)][::args.every]
    if not steps:
        raise common.PostError(f"no output step between --first {args.first} and --last {args.last}")
    at = common.resolve_cut(r.grid(steps[0].step), args)
    path, kind = choose_output(args, r)

    vmin, vmax = args.vmin, args.vmax
    if vmin is None or vmax is None:
        if at is None:  # whole 2D fields: the statistics read them block by block
            ranges = [field_stats(s.path, args.field) for s in steps]
            lo, hi = min(x.min for x in ranges), max(x.max for x in ranges)
        else:
            planes = [r.read(args.field, s.step, at).values for s in steps]
            lo, hi = min(float(np.nanmin(v)) for v in planes), max(float(np.nanmax(v)) for v in planes)
        vmin = lo if vmin is None else vmin
        vmax = hi if vmax is None else vmax
        if vmin == vmax:  # a constant field: give the colour scale some width
            vmin, vmax = vmin - 0.5, vmax + 0.5

    from matplotlib import animation
    if kind == "mp4":
        # H.264 in yuv420p, which every player reads; matplotlib evens out odd sides for it.
        writer = animation.FFMpegWriter(fps=args.fps, codec="h264")
    else:
        writer = animation.PillowWriter(fps=args.fps)
    fig, axes = common.new_figure(args)
    ax = axes[0][0]
    first = r.read(args.field, steps[0].step, at)
    image = common.draw_field(fig, ax, first, args.cmap, vmin, vmax)
    plt = common.pyplot()
    common._make_parent(path)
    try:
        with writer.saving(fig, path, fig.dpi):
            for i, s in enumerate(steps):
                field = first if i == 0 else r.read(args.field, s.step, at)
                image.set_data(field.values)
                ax.set_title(common.field_title(field))
                writer.grab_frame()
    finally:
        plt.close(fig)
    print(f"gridflow_post animate: {len(steps)} frame{'s' * (len(steps) != 1)}, colour scale {vmin:.6g} .. {vmax:.6g}",
          file=sys.stderr)
    common.wrote(path)
    return 0
