"""plot: one step of a 2D field, or a plane of a 3D field, as an image."""
from .. import common

NAME = "plot"
HELP = "a 2D field, or a plane of a 3D field, at one step as a PNG image"
DESCRIPTION = """Draws the field at --step (default: the last output) in grid coordinates, each pixel centred on
its grid point, with labelled axes and a colour bar. A 3D field is cut across --axis (default z)
at --index or at the grid plane nearest to --coordinate (default: the middle plane)."""


def add_arguments(p):
    common.add_run_argument(p)
    common.add_field_argument(p)
    common.add_step_argument(p)
    common.add_cut_arguments(p)
    p.add_argument("-o", "--output", help="image file (default: NAME_FIELD_STEP.png here); "
                                          "its extension picks the format (png, pdf, svg)")
    p.add_argument("--cmap", default="viridis", help="matplotlib colour map (default: viridis)")
    p.add_argument("--vmin", type=float, help="lower end of the colour scale (default: the field's minimum)")
    p.add_argument("--vmax", type=float, help="upper end of the colour scale (default: the field's maximum)")
    common.add_figure_arguments(p, "800x600")


def run(args):
    r = common.open_run(args)
    step = r.step(args.step)
    cut = common.resolve_cut(r.grid(step.step), args)
    field = r.read(args.field, step.step, cut)
    fig, axes = common.new_figure(args)
    common.draw_field(fig, axes[0][0], field, args.cmap, args.vmin, args.vmax)
    path = common.default_output(args, r, f"{args.field}_{field.step:08d}.png")
    common.save_figure(fig, path)
    common.wrote(path)
    return 0
