#!/usr/bin/python3
"""gridflow_post on a real 3D Poisson run: inputs/poisson3d_small.toml (multigrid, 33^3 points,
u = sin(pi x) sin(2 pi y) sin(3 pi z)), which records its residual history in /Info and in
NAME_residual.csv.

    /usr/bin/python3 tests/post/poisson_test.py -v     (see post_support.py for the run it needs)
"""
import json
import os
import unittest

import h5py
import numpy as np

import post_support as ps
from post_support import HAVE_MATPLOTLIB, NO_MATPLOTLIB

from gridflow_post import Run  # noqa: E402
from gridflow_post.commands import animate  # noqa: E402


def exact(x, y, z):
    return np.sin(np.pi * x) * np.sin(2 * np.pi * y) * np.sin(3 * np.pi * z)


class PoissonTest(ps.PostTestCase):
    @classmethod
    def setUpClass(cls):
        cls.run_dir = ps.poisson_run()
        cls.h5 = Run(cls.run_dir).steps[-1].path
        with h5py.File(cls.h5, "r") as f:
            cls.u = f["u"][()]
            cls.info = dict(f["Info"].attrs)
            cls.history = {k: v[()] for k, v in f["residual_history"].items()}

    def test_info(self):
        s = json.loads(self.ok("info", self.run_dir, "--json").out)
        iterations = int(self.info["iterations"])
        self.assertEqual([(e["step"], e["time"]) for e in s["steps"]], [(iterations, 0.0)])
        self.assertEqual(s["grid"]["points"], [33, 33, 33])
        self.assertEqual(s["info"]["solver"], "multigrid")
        h = s["residual_history"]
        self.assertEqual(h["entries"], iterations + 1)
        self.assertEqual(h["iterations"], iterations)
        self.assertEqual(h["final"], self.info["relative_residual"])
        text = self.ok("info", self.h5).out
        self.assertIn("1 output step", text)
        self.assertIn(f"in {iterations} iterations", text)

    def test_residual_history_from_the_file_from_old_attributes_and_from_the_csv(self):
        self.assertFalse([k for k in self.info if k.startswith("residual_history")])  # datasets, not attributes
        self.assertEqual(self.history["iteration"].dtype, np.int64)
        table = ps.csv_table(self.ok("residual", self.run_dir, "--csv", "-").out)
        np.testing.assert_array_equal(table["iteration"], self.history["iteration"])
        np.testing.assert_array_equal(table["relative_residual"], self.history["relative_residual"])
        np.testing.assert_array_equal(table["seconds"], self.history["seconds"])
        beside = ps.csv_file(os.path.join(self.run_dir, "poisson3d_residual.csv"))
        np.testing.assert_array_equal(table["relative_residual"], beside["relative_residual"])
        self.assertLess(table["relative_residual"][-1], 1e-8)
        # A file of an earlier version: the history in /Info attributes, read from there.
        old = self.copy_run(self.run_dir, "old_attributes")
        with h5py.File(os.path.join(old, os.path.basename(self.h5)), "r+") as f:
            for k, v in self.history.items():
                f["Info"].attrs["residual_history_" + k] = v.astype(float)
            del f["residual_history"]
        os.remove(os.path.join(old, "poisson3d_residual.csv"))
        r = self.ok("residual", old, "--csv", "-")
        self.assertIn("/Info/residual_history_", r.err)
        np.testing.assert_array_equal(ps.csv_table(r.out)["relative_residual"], table["relative_residual"])
        # A file without either: the CSV beside it.
        copy = self.copy_run(self.run_dir, "csv_only")
        with h5py.File(os.path.join(copy, os.path.basename(self.h5)), "r+") as f:
            del f["residual_history"]
        r = self.ok("residual", copy, "--csv", "-")
        self.assertIn("poisson3d_residual.csv", r.err)
        np.testing.assert_array_equal(ps.csv_table(r.out)["relative_residual"],
                                      table["relative_residual"])
        os.remove(os.path.join(copy, "poisson3d_residual.csv"))
        self.fails(2, "no residual history", "residual", copy)

    @unittest.skipUnless(HAVE_MATPLOTLIB, NO_MATPLOTLIB)
    def test_residual_plot(self):
        self.ok("residual", self.run_dir, "-o", self.path("r.png"))
        self.assert_image(self.path("r.png"), (800, 600))
        self.ok("residual", self.run_dir, "-o", self.path("t.png"), "--against", "seconds", "--size", "640x400")
        self.assert_image(self.path("t.png"), (640, 400))

    @unittest.skipUnless(HAVE_MATPLOTLIB, NO_MATPLOTLIB)
    def test_plot_planes(self):
        for args, name in ((["--axis", "z", "--coordinate", 0.49], "z.png"), (["--axis", "x", "--index", 3], "x.png"),
                           ([], "mid.png")):
            self.ok("plot", self.run_dir, *args, "-o", self.path(name), "--size", "400x400")
            self.assert_image(self.path(name), (400, 400))

    def test_plot_plane_errors(self):
        self.fails(2, "index 33 along y is outside 0..32", "plot", self.run_dir, "--axis", "y", "--index", 33)
        self.fails(2, "z = 1.1 is outside the grid", "plot", self.run_dir, "--coordinate", 1.1)
        self.fails(2, "no axis 'w'", "plot", self.run_dir, "--axis", "w")

    def test_lineout_along_z(self):
        r = self.ok("lineout", self.run_dir, "--axis", "z", "--at", "x=0.49", "--at", "y=0.265")  # nearest: 0.5, 0.25
        self.assertIn("u along z at x = 0.5 (index 16), y = 0.25 (index 8)", r.err)
        table = ps.csv_table(r.out)
        z = np.arange(33) / 32
        np.testing.assert_array_equal(table["z"], z)
        column = f"u_step{int(self.info['iterations'])}"  # the file's step is the solver's cycle count
        values = np.array(table[column])
        np.testing.assert_array_equal(values, self.u[:, 8, 16])  # stored (z, y, x)
        # The discretisation error the run reports bounds the distance to the exact solution.
        self.assertLessEqual(np.max(np.abs(values - exact(0.5, 0.25, z))), self.info["max_error"] + 1e-12)
        # Defaults for the fixed axes: the middle indices.
        mid = ps.csv_table(self.ok("lineout", self.run_dir).out)
        np.testing.assert_array_equal(mid[column], self.u[16, 16, :])

    def test_series_and_diff(self):
        table = ps.csv_table(self.ok("series", self.run_dir).out)
        self.assertEqual(table["step"], [int(self.info["iterations"])])
        self.assertEqual(table["max"][0], self.u.max())
        self.assertAlmostEqual(table["l2"][0], np.sqrt(np.sum(self.u ** 2) / 32 ** 3), delta=1e-14)
        self.assertAlmostEqual(table["l2"][0], 0.5 ** 1.5, delta=0.01)  # ||u||_L2 of the exact solution
        self.ok("diff", self.run_dir, self.h5)
        copy = self.copy_run(self.run_dir, "perturbed")
        with h5py.File(os.path.join(copy, os.path.basename(self.h5)), "r+") as f:
            f["u"][4, 5, 6] -= 0.25
        r = self.fails(1, "DIFFERENT", "diff", self.run_dir, copy, "--csv", self.path("d.csv"))
        d = ps.csv_file(self.path("d.csv"))
        self.assertEqual(d["max_abs"], [0.25])
        self.assertAlmostEqual(d["l2"][0], 0.25 * (1 / 32) ** 1.5, delta=1e-16)
        self.assertIn("FAIL", r.out)

    @unittest.skipUnless(HAVE_MATPLOTLIB and animate.have_pillow(), "needs python3-matplotlib and python3-pil")
    def test_animate_a_plane(self):
        self.ok("animate", self.run_dir, "--axis", "y", "-o", self.path("p.gif"), "--size", "200x200")
        self.assertEqual(ps.gif_size(self.path("p.gif")), (200, 200))


if __name__ == "__main__":
    unittest.main()
