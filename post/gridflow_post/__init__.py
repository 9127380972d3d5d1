"""gridflow_post: post-processing of gridflow output.

Command line: ``python3 -m gridflow_post CMD RUN`` (info, plot, lineout, series, animate,
residual, diff, scaling; ``--help`` lists them). From Python:

    from gridflow_post import Run
    run = Run("output/heat2d_small")     # an output folder, its .xmf, or one .h5 file
    u = run.read("u", step=500)          # u.values[j, i] at (u.grid.coordinates("x")[i], ...("y")[j])

Needs numpy and h5py; drawing needs matplotlib, GIF films Pillow, MP4 films ffmpeg.
"""
from .run import AXES, Field, Grid, PostError, ResidualHistory, Run, Step

__all__ = ["AXES", "Field", "Grid", "PostError", "ResidualHistory", "Run", "Step"]

__version__ = "0.1.0"
