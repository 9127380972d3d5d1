#!/usr/bin/python3
"""Tests of the post/ scripts on a tiny series written here in gridflow's layout.

    /usr/bin/python3 tests/regression/post_test.py -v

Needs python3-h5py and python3-numpy; the plotting tests are skipped without python3-matplotlib.
The series mimics io/output_series.hpp: NAME_%08d.h5 files with /u stored (y, x), /Info
(step, time, grid_points, spacing, origin: x first) and /Input (attribute "deck", TOML text),
plus the NAME.xmf index naming them relative to itself.
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy as np

sys.dont_write_bytecode = True  # keep the source tree clean
POST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "post")
sys.path.insert(0, POST)
import gridflow_output as go  # noqa: E402

HAVE_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None

POINTS = (9, 5)          # x, y
SPACING = (0.125, 0.25)
ORIGIN = (-0.5, 1.0)
DECK = "problem = 'heat2d'\n\n[grid]\nn = [ 8, 4 ]\n\n[heat]\na = 0.5\ninitial = 'x^2'\n"

XMF_STEP = """      <Grid Name="step {step}" GridType="Uniform">
        <Time Value="{time!r}" />
        <Topology TopologyType="2DCoRectMesh" Dimensions="{ny} {nx}" />
        <Geometry GeometryType="ORIGIN_DXDY">
          <DataItem Format="XML" NumberType="Float" Precision="8" Dimensions="2">{oy} {ox}</DataItem>
          <DataItem Format="XML" NumberType="Float" Precision="8" Dimensions="2">{dy} {dx}</DataItem>
        </Geometry>
        <Attribute Name="u" AttributeType="Scalar" Center="Node">
          <DataItem Format="HDF" NumberType="Float" Precision="8" Dimensions="{ny} {nx}">{file}:/u</DataItem>
        </Attribute>
      </Grid>
"""


def field(time):
    """u(x, y, t) = x^2 + 2 a t + y on the test grid, stored (y, x)."""
    x = ORIGIN[0] + SPACING[0] * np.arange(POINTS[0])
    y = ORIGIN[1] + SPACING[1] * np.arange(POINTS[1])
    return x[None, :] ** 2 + 2 * 0.5 * time + y[:, None]


def write_series(directory, steps, name="heat2d", perturb=None):
    """Writes steps [(step, time)] as gridflow does; perturb=(step, delta) changes one value."""
    os.makedirs(directory, exist_ok=True)
    grids = []
    for step, time in steps:
        file = f"{name}_{step:08d}.h5"
        u = field(time)
        if perturb and perturb[0] == step:
            u[2, 3] += perturb[1]
        with h5py.File(os.path.join(directory, file), "w") as f:
            f["u"] = u
            info = f.create_group("Info")
            info.attrs["step"] = np.int64(step)
            info.attrs["time"] = time
            info.attrs["grid_points"] = np.array(POINTS, dtype=np.int64)
            info.attrs["spacing"] = np.array(SPACING)
            info.attrs["origin"] = np.array(ORIGIN)
            f.create_group("Input").attrs["deck"] = DECK
        grids.append(XMF_STEP.format(step=step, time=time, nx=POINTS[0], ny=POINTS[1], ox=ORIGIN[0], oy=ORIGIN[1],
                                     dx=SPACING[0], dy=SPACING[1], file=file))
    with open(os.path.join(directory, name + ".xmf"), "w") as f:
        f.write('<?xml version="1.0" ?>\n<!DOCTYPE Xdmf SYSTEM "Xdmf.dtd" []>\n<Xdmf Version="2.0">\n  <Domain>\n'
                f'    <Grid Name="{name}" GridType="Collection" CollectionType="Temporal">\n'
                + "".join(grids) + "    </Grid>\n  </Domain>\n</Xdmf>\n")


def run_script(script, *args):
    return subprocess.run([sys.executable, os.path.join(POST, script), *args], capture_output=True, text=True)


STEPS = [(0, 0.0), (50, 0.0125), (73, 0.01825)]


class SeriesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = os.path.join(self.tmp.name, "a")
        write_series(self.dir, STEPS)

    def tearDown(self):
        self.tmp.cleanup()

    def test_open_series_from_directory_and_xmf(self):
        for source in (self.dir, os.path.join(self.dir, "heat2d.xmf")):
            steps = go.open_series(source)
            self.assertEqual([s.time for s in steps], [t for _, t in STEPS])
            self.assertEqual([os.path.basename(s.path) for s in steps],
                             ["heat2d_00000000.h5", "heat2d_00000050.h5", "heat2d_00000073.h5"])
            self.assertTrue(all(os.path.exists(s.path) for s in steps))

    def test_directory_with_two_series_is_refused(self):
        write_series(self.dir, STEPS[:1], name="other")
        with self.assertRaisesRegex(ValueError, "several .xmf files"):
            go.open_series(self.dir)

    def test_read_field_coordinates(self):
        u, info = go.read_field(go.open_series(self.dir)[-1].path)
        self.assertEqual(u.shape, (POINTS[1], POINTS[0]))
        self.assertEqual(info["step"], 73)
        self.assertEqual(info["time"], 0.01825)
        np.testing.assert_array_equal(info["x"], ORIGIN[0] + SPACING[0] * np.arange(POINTS[0]))
        np.testing.assert_array_equal(info["y"], ORIGIN[1] + SPACING[1] * np.arange(POINTS[1]))
        # u[j, i] belongs to (x[i], y[j]).
        self.assertEqual(u[3, 6], info["x"][6] ** 2 + 2 * 0.5 * info["time"] + info["y"][3])

    def test_read_field_missing_dataset(self):
        with self.assertRaisesRegex(KeyError, "no dataset 'v'"):
            go.read_field(go.open_series(self.dir)[0].path, "v")

    def test_read_deck(self):
        deck = go.read_deck(go.open_series(self.dir)[0].path)
        self.assertEqual(deck["problem"], "heat2d")
        self.assertEqual(deck["grid"]["n"], [8, 4])
        self.assertEqual(deck["heat"]["a"], 0.5)


class CompareTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.a = os.path.join(self.tmp.name, "a")
        write_series(self.a, STEPS)

    def tearDown(self):
        self.tmp.cleanup()

    def other(self, **kwargs):
        path = os.path.join(self.tmp.name, "b")
        write_series(path, **kwargs)
        return path

    def test_identical_series(self):
        r = run_script("compare_fields.py", self.a, self.other(steps=STEPS))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_identical_files(self):
        b = self.other(steps=STEPS)
        r = run_script("compare_fields.py", os.path.join(self.a, "heat2d_00000050.h5"), os.path.join(b, "heat2d_00000050.h5"))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_perturbed_series_fails_bitwise(self):
        r = run_script("compare_fields.py", self.a, self.other(steps=STEPS, perturb=(50, 1e-13)))
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("DIFFERENT", r.stdout)

    def test_perturbation_within_tolerance(self):
        b = self.other(steps=STEPS, perturb=(73, 1e-13))
        self.assertEqual(run_script("compare_fields.py", self.a, b, "--tolerance", "1e-12").returncode, 0)
        self.assertEqual(run_script("compare_fields.py", self.a, b, "--tolerance", "1e-14").returncode, 1)
        self.assertEqual(run_script("compare_fields.py", self.a, b, "--tolerance", "1e-13", "--relative").returncode, 0)

    def test_different_step_lists_fail(self):
        r = run_script("compare_fields.py", self.a, self.other(steps=STEPS[:2]))
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)

    def test_file_against_series_is_a_usage_error(self):
        r = run_script("compare_fields.py", os.path.join(self.a, "heat2d_00000000.h5"), self.a)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)


@unittest.skipUnless(HAVE_MATPLOTLIB, "python3-matplotlib is not installed")
class PlotTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = os.path.join(self.tmp.name, "a")
        write_series(self.dir, STEPS)

    def tearDown(self):
        self.tmp.cleanup()

    def assert_png(self, path):
        with open(path, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_plot_field(self):
        png = os.path.join(self.tmp.name, "u.png")
        r = run_script("plot_field.py", self.dir, "--step", "50", "-o", png)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assert_png(png)

    def test_plot_field_unknown_step(self):
        r = run_script("plot_field.py", self.dir, "--step", "51", "-o", os.path.join(self.tmp.name, "x.png"))
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("no output at step 51", r.stderr)

    def test_plot_scaling(self):
        results = os.path.join(self.tmp.name, "results.json")
        runs = [{"gpus": g, "kind": "strong", "gcell_per_s": 50.0 * g ** 0.9, "efficiency": g ** -0.1} for g in (1, 2, 4)]
        runs += [{"gpus": g, "kind": "weak", "gcell_per_s": 48.0 * g} for g in (1, 2, 4)]  # efficiency computed
        runs += [{"gpus": 8, "kind": "weak"}]  # incomplete: skipped with a warning
        with open(results, "w") as f:
            json.dump({"hardware": {"gpu": "test"}, "runs": runs}, f)
        png = os.path.join(self.tmp.name, "scaling.png")
        r = run_script("plot_scaling.py", results, "-o", png)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("run 6 lacks gcell_per_s", r.stderr)
        self.assert_png(png)


if __name__ == "__main__":
    unittest.main()
