"""The subcommands of ``python3 -m gridflow_post``, in the order ``--help`` lists them.

Each is a module of this package with four names:

    NAME                    the word on the command line
    HELP                    one line for the command list (DESCRIPTION, optional: the longer text)
    add_arguments(parser)   its options (an argparse parser of its own)
    run(args) -> int        does the work; returns the exit status (0, or 1 when a check such as
                            diff's finds a difference); raises run.PostError for bad input, which
                            cli.py reports as "gridflow_post CMD: error: ..." with exit status 2

Extension point: a new command (``spectrum``, which reads the /spectrum datasets a
[[diagnostics]] block writes, is one) is a new module here with those four names, added to COMMANDS
below; cli.py needs no change. It reads its datasets with run.Run: ``Run.datasets()`` lists every
dataset of a step's file (``info`` already shows datasets that are not fields on the grid, so new
ones are visible before any command knows them), ``h5py`` reads them from ``Run.step(n).path``.
Commands import matplotlib only through common.pyplot(), when they draw, so ``--help`` and the
text commands work without it.
"""
from . import animate, diff, info, lineout, plot, residual, scaling, series, spectrum

COMMANDS = [info, plot, lineout, series, animate, residual, spectrum, diff, scaling]
