"""The command line: ``python3 -m gridflow_post CMD RUN [options]`` (``gridflow-post`` when
installed). The commands live in gridflow_post/commands/; see its __init__ for adding one."""
import argparse
import sys

from . import __version__
from .commands import COMMANDS
from .run import PostError

PROG = "gridflow_post"


def build_parser():
    p = argparse.ArgumentParser(
        prog=PROG,
        description="Post-processing of gridflow output (HDF5 + XDMF) and bench results. RUN is an output "
                    "folder, its .xmf file, or one .h5 file. Every command that writes files prints their paths.",
        epilog="'%(prog)s CMD --help' describes a command. Exit status: 0 ok, 1 a difference beyond the tolerance "
               "(diff), 2 an error (bad input, missing file or package).")
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = p.add_subparsers(dest="command", metavar="CMD")
    for module in COMMANDS:
        c = sub.add_parser(module.NAME, help=module.HELP, description=getattr(module, "DESCRIPTION", module.HELP),
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        module.add_arguments(c)
        c.set_defaults(module=module)
    return p


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.module.run(args) or 0)
    except PostError as e:
        print(f"{PROG} {args.command}: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into head
        return 0
