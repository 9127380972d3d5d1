"""Shared by the gridflow_post tests: real runs of the executable, the package on sys.path, calls
of its command line in this process, checks of the images it writes.

CTest makes the runs first (fixtures in tests/post/CMakeLists.txt) and names them in
GRIDFLOW_POST_HEAT_RUN and GRIDFLOW_POST_POISSON_RUN. Run by hand, a test makes its own in a
temporary folder with the executable in GRIDFLOW_EXECUTABLE (default: build/gridflow, then
build-cpu/gridflow of the source tree):

    /usr/bin/python3 tests/post/heat_test.py -v
"""
import atexit
import contextlib
import csv
import importlib.util
import io
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # keep the source tree clean
SOURCE = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
POST = os.path.join(SOURCE, "post")
sys.path.insert(0, POST)

from gridflow_post import cli  # noqa: E402

HAVE_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None
NO_MATPLOTLIB = "python3-matplotlib is not installed"

HEAT_DECK = os.path.join(SOURCE, "inputs", "heat2d_moving_boundary.toml")
HEAT_OVERRIDES = ["output.every=10"]
POISSON_DECK = os.path.join(SOURCE, "inputs", "poisson3d_small.toml")
POISSON_OVERRIDES = []
# A heat run with a [[diagnostics]] spectrum block every 2nd output file (blocks as overrides).
SPECTRUM_DECK = os.path.join(SOURCE, "inputs", "heat2d_small.toml")
SPECTRUM_OVERRIDES = ["device=cpu", "grid.n=[48,40]", "heat.t_end=0.01", "output.every=40",
                      "diagnostics[0].kind=spectrum", "diagnostics[0].field=u", "diagnostics[0].every=2"]

_made = {}
_scratch = None


def _executable():
    exe = os.environ.get("GRIDFLOW_EXECUTABLE")
    if exe:
        return exe
    for build in ("build", "build-cpu"):
        path = os.path.join(SOURCE, build, "gridflow")
        if os.access(path, os.X_OK):
            return path
    raise unittest.SkipTest("no gridflow executable: build it, or set GRIDFLOW_EXECUTABLE")


def _make(kind, deck, overrides, ranks):
    global _scratch
    if kind not in _made:
        if _scratch is None:
            _scratch = tempfile.TemporaryDirectory()
            atexit.register(_scratch.cleanup)
        out = os.path.join(_scratch.name, kind)
        cmd = [_executable(), deck, f"output.dir={out}"] + overrides
        if ranks > 1:
            cmd = [os.environ.get("MPIEXEC", "mpirun"), "-np", str(ranks), "--oversubscribe"] + cmd
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
        r = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if r.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed:\n{r.stdout}\n{r.stderr}")
        _made[kind] = out
    return _made[kind]


def heat_run():
    """The moving-boundary deck (u = x^2 + 2 a t exactly) on 2 ranks, output every 10 steps."""
    return os.environ.get("GRIDFLOW_POST_HEAT_RUN") or _make("heat", HEAT_DECK, HEAT_OVERRIDES, 2)


def poisson_run():
    """inputs/poisson3d_small.toml (multigrid, 33^3 points, exact solution known)."""
    return os.environ.get("GRIDFLOW_POST_POISSON_RUN") or _make("poisson", POISSON_DECK, POISSON_OVERRIDES, 1)


def spectrum_run():
    """inputs/heat2d_small.toml at 49 x 41 points on 2 ranks with a spectrum in every 2nd file."""
    return os.environ.get("GRIDFLOW_POST_SPECTRUM_RUN") or _make("spectrum", SPECTRUM_DECK, SPECTRUM_OVERRIDES, 2)


def read_deck(path):
    try:
        import tomllib
    except ImportError:
        raise unittest.SkipTest("reading the deck needs Python 3.11's tomllib")
    with open(path, "rb") as f:
        return tomllib.load(f)


class Result:
    def __init__(self, code, out, err):
        self.code, self.out, self.err = code, out, err

    def __repr__(self):
        return f"exit {self.code}\n--- stdout\n{self.out}\n--- stderr\n{self.err}"


def gp(*args):
    """Runs `python3 -m gridflow_post ARGS` in this process (matplotlib is imported once)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main([str(a) for a in args])
        except SystemExit as e:  # argparse
            code = e.code
    return Result(code, out.getvalue(), err.getvalue())


def gp_process(*args, env=None, prelude=""):
    """The same in a child `python3 -m gridflow_post` with PYTHONPATH=post, as a user runs it;
    `prelude` is Python run first (to hide a package, for instance)."""
    environment = dict(os.environ, PYTHONPATH=POST, PYTHONDONTWRITEBYTECODE="1", **(env or {}))
    if prelude:
        cmd = [sys.executable, "-c", prelude + "\nimport sys, runpy\nsys.argv = ['gridflow_post'] + sys.argv[1:]\n"
               "runpy.run_module('gridflow_post', run_name='__main__', alter_sys=True)", *map(str, args)]
    else:
        cmd = [sys.executable, "-m", "gridflow_post", *map(str, args)]
    r = subprocess.run(cmd, capture_output=True, text=True, env=environment)
    return Result(r.returncode, r.stdout, r.stderr)


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        raise AssertionError(f"{path} is not a PNG file")
    return struct.unpack(">II", head[16:24])


def gif_size(path):
    with open(path, "rb") as f:
        head = f.read(10)
    if head[:6] not in (b"GIF87a", b"GIF89a"):
        raise AssertionError(f"{path} is not a GIF file")
    return struct.unpack("<HH", head[6:10])


class PostTestCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def ok(self, *args):
        r = gp(*args)
        self.assertEqual(r.code, 0, r)
        return r

    def fails(self, code, message, *args):
        r = gp(*args)
        self.assertEqual(r.code, code, r)
        self.assertIn(message, r.err + r.out)
        return r

    def assert_image(self, path, size, min_bytes=4000, min_colours=16):
        """A PNG of exactly `size` pixels that draws something: more than a few kB and colours."""
        self.assertTrue(os.path.exists(path), path)
        self.assertEqual(png_size(path), size)
        self.assertGreater(os.path.getsize(path), min_bytes)
        import matplotlib.image
        import numpy as np
        pixels = matplotlib.image.imread(path)
        self.assertEqual(pixels.shape[:2], (size[1], size[0]))
        colours = np.unique(pixels.reshape(-1, pixels.shape[-1]), axis=0)
        self.assertGreaterEqual(len(colours), min_colours, f"{path} is nearly blank")

    def copy_run(self, source, name):
        target = self.path(name)
        shutil.copytree(source, target)
        return target


def csv_file(path):
    with open(path) as f:
        return csv_table(f.read())


def csv_table(text):
    """CSV text with a header as {column: [values]} (numbers as floats where they parse)."""
    rows = [row for row in csv.reader(io.StringIO(text)) if row]
    header = rows[0]
    columns = {h: [] for h in header}
    for row in rows[1:]:
        for h, v in zip(header, row):
            try:
                columns[h].append(float(v))
            except ValueError:
                columns[h].append(v)
    return columns
