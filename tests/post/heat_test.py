#!/usr/bin/python3
"""gridflow_post on a real 2D heat run: inputs/heat2d_moving_boundary.toml on 2 ranks with output
every 10 steps, whose exact solution u = x^2 + 2 a t the scheme reproduces to rounding.

    /usr/bin/python3 tests/post/heat_test.py -v     (see post_support.py for the run it needs)
"""
import json
import math
import os
import unittest
from unittest import mock

import h5py
import numpy as np

import post_support as ps
from post_support import HAVE_MATPLOTLIB, NO_MATPLOTLIB

from gridflow_post import Run  # noqa: E402  (post_support put post/ on the path)
from gridflow_post import run as run_module  # noqa: E402
from gridflow_post import stats  # noqa: E402
from gridflow_post.commands import animate  # noqa: E402


def expected_steps():
    """(step numbers written, dt) from the deck and the documented rules: dt = t_end / steps with
    steps = ceil(t_end / (safety dt_max)); output at 0, every multiple of output.every, the end."""
    deck = ps.read_deck(ps.HEAT_DECK)
    a, t_end = deck["heat"]["a"], deck["heat"]["t_end"]
    safety = deck["heat"].get("safety", 0.9)
    (nx, ny), (lx, ly) = deck["grid"]["n"], deck["grid"]["length"]
    dx, dy = lx / nx, ly / ny
    dt_max = 1 / (2 * a * (1 / dx ** 2 + 1 / dy ** 2))
    steps = math.ceil(t_end / (safety * dt_max))
    every = int(ps.HEAT_OVERRIDES[0].split("=")[1])
    written = sorted(set(range(0, steps + 1, every)) | {steps})
    return written, t_end / steps, deck


def exact(x, t, a):
    return x ** 2 + 2 * a * t


class HeatTest(ps.PostTestCase):
    @classmethod
    def setUpClass(cls):
        cls.run_dir = ps.heat_run()
        cls.steps, cls.dt, cls.deck = expected_steps()
        cls.a = cls.deck["heat"]["a"]

    def u(self, step):
        with h5py.File(os.path.join(self.run_dir, f"heat2d_{step:08d}.h5"), "r") as f:
            return f["u"][()]

    def coordinates(self):
        (nx, ny), (lx, ly) = self.deck["grid"]["n"], self.deck["grid"]["length"]
        return np.arange(nx + 1) * (lx / nx), np.arange(ny + 1) * (ly / ny)

    # --- info ------------------------------------------------------------------------------

    def test_info_steps_and_times_match_the_deck(self):
        s = json.loads(self.ok("info", self.run_dir, "--json").out)
        self.assertEqual([e["step"] for e in s["steps"]], self.steps)
        for e in s["steps"]:
            self.assertAlmostEqual(e["time"], e["step"] * self.dt, delta=1e-15)
        self.assertEqual(s["steps"][-1]["time"], self.deck["heat"]["t_end"])
        self.assertEqual(s["grid"]["points"], [n + 1 for n in self.deck["grid"]["n"]])
        self.assertEqual(list(s["fields"]), ["u"])
        self.assertEqual(s["info"]["problem"], "heat2d")
        self.assertEqual(s["info"]["decomposition"], [2, 1])
        self.assertNotIn("residual_history", s)

    def test_info_text(self):
        out = self.ok("info", self.run_dir).out
        self.assertIn(f"{len(self.steps)} output steps", out)
        self.assertIn("65 x 49 points", out)
        self.assertIn(f"t = 0 .. {self.deck['heat']['t_end']:.9g}", out)

    def test_one_file_and_the_xmf_are_runs_too(self):
        xmf = Run(os.path.join(self.run_dir, "heat2d.xmf"))
        self.assertEqual([s.step for s in xmf.steps], self.steps)
        one = Run(os.path.join(self.run_dir, "heat2d_00000050.h5"))
        self.assertEqual([(s.step, s.time) for s in one.steps], [(50, xmf.step(50).time)])

    def test_folder_without_xmf_lists_the_files(self):
        copy = self.copy_run(self.run_dir, "noxmf")
        os.remove(os.path.join(copy, "heat2d.xmf"))
        self.assertEqual([s.step for s in Run(copy).steps], self.steps)

    def test_deck_with_and_without_a_toml_parser(self):
        run = Run(self.run_dir)
        with h5py.File(run.steps[0].path, "r") as f:
            attributes = {k: run_module.plain(v) for k, v in f["Input"].attrs.items()}
        for deck in (run.deck(), run_module.deck_from_attributes(attributes)):
            self.assertEqual(deck["heat"]["a"], self.a)
            self.assertEqual(list(deck["grid"]["n"]), self.deck["grid"]["n"])
            self.assertEqual(deck["heat"]["boundary"]["left"], self.deck["heat"]["boundary"]["left"])
        with mock.patch.object(run_module, "_toml_module", return_value=None):
            self.assertEqual(run.input_value("heat.t_end"), self.deck["heat"]["t_end"])

    # --- lineout and series: numbers -------------------------------------------------------

    def test_lineout_along_x_is_the_file_and_the_exact_solution(self):
        r = self.ok("lineout", self.run_dir, "--step", 50, "--step", 92, "--at", "y=0.374", "--csv", "-")
        self.assertIn("u along x at y = 0.375 (index 24)", r.err)
        table = ps.csv_table(r.out)
        x, y = self.coordinates()
        j = 24  # y = 0.375 is the nearest grid line to 0.374
        np.testing.assert_array_equal(table["x"], x)
        for step in (50, 92):
            values = np.array(table[f"u_step{step}"])
            np.testing.assert_array_equal(values, self.u(step)[j, :])
            np.testing.assert_allclose(values, exact(x, step * self.dt, self.a), rtol=0, atol=1e-12)

    def test_lineout_along_y_at_an_index(self):
        csv = self.path("line.csv")
        self.ok("lineout", self.run_dir, "--axis", "y", "--at-index", "x=10", "--csv", csv)
        table = ps.csv_file(csv)
        x, y = self.coordinates()
        np.testing.assert_array_equal(table["y"], y)
        np.testing.assert_array_equal(table["u_step92"], self.u(92)[:, 10])
        np.testing.assert_allclose(table["u_step92"], exact(x[10], 0.01, self.a), rtol=0, atol=1e-12)

    def test_lineout_errors(self):
        self.fails(2, "outside the grid", "lineout", self.run_dir, "--at", "y=2")
        self.fails(2, "fix x, the axis the line runs along", "lineout", self.run_dir, "--at", "x=0.5")
        self.fails(2, "no axis 'z'", "lineout", self.run_dir, "--axis", "z")
        self.fails(2, "no output at step 51", "lineout", self.run_dir, "--step", 51)

    def test_series_is_the_files_and_the_exact_solution(self):
        table = ps.csv_table(self.ok("series", self.run_dir).out)  # no -o, no --csv: CSV on stdout
        self.assertEqual(table["step"], self.steps)
        x, _ = self.coordinates()
        (nx, ny), (lx, ly) = self.deck["grid"]["n"], self.deck["grid"]["length"]
        h = lx / nx * ly / ny
        for i, step in enumerate(self.steps):
            u, t = self.u(step), step * self.dt
            self.assertAlmostEqual(table["time"][i], t, delta=1e-15)
            self.assertEqual(table["min"][i], u.min())
            self.assertEqual(table["max"][i], u.max())
            self.assertAlmostEqual(table["mean"][i], u.mean(), delta=1e-15)
            self.assertAlmostEqual(table["l2"][i], math.sqrt(h * float(np.sum(u * u))), delta=1e-14)
            # The exact solution: min at x = 0, max at x = 1, mean over the points of x^2 + 2 a t.
            self.assertAlmostEqual(table["min"][i], 2 * self.a * t, delta=1e-12)
            self.assertAlmostEqual(table["max"][i], 1 + 2 * self.a * t, delta=1e-12)
            self.assertAlmostEqual(table["mean"][i], float(np.mean(x ** 2)) + 2 * self.a * t, delta=1e-12)

    def test_series_in_small_blocks_is_the_same(self):
        whole = ps.csv_table(self.ok("series", self.run_dir, "--first", 40, "--last", 60).out)
        self.assertEqual(whole["step"], [40, 50, 60])
        blocks_of_7_rows = lambda ds: run_module.iter_blocks(ds, 7 * 65 * 8)  # noqa: E731
        with mock.patch.object(stats, "iter_blocks", blocks_of_7_rows):
            blocks = ps.csv_table(self.ok("series", self.run_dir, "--first", 40, "--last", 60).out)
        for column in ("min", "max", "mean", "l2"):
            np.testing.assert_allclose(blocks[column], whole[column], rtol=1e-15)

    # --- diff --------------------------------------------------------------------------------

    def test_diff_against_itself_is_zero(self):
        r = self.ok("diff", self.run_dir, self.run_dir, "--csv", self.path("d.csv"))
        table = ps.csv_file(self.path("d.csv"))
        self.assertEqual(table["step"], self.steps)
        self.assertEqual(set(table["max_abs"]) | set(table["l2"]), {0.0})
        self.assertIn("identical", r.out)

    def test_diff_against_a_perturbed_copy_is_the_perturbation(self):
        copy = self.copy_run(self.run_dir, "perturbed")
        delta = 1e-3
        with h5py.File(os.path.join(copy, "heat2d_00000050.h5"), "r+") as f:
            f["u"][20, 30] += delta
        r = ps.gp("diff", self.run_dir, copy, "--csv", self.path("d.csv"))
        self.assertEqual(r.code, 1, r)
        self.assertIn(f"FAIL: 1 of {len(self.steps)} field(s) differ", r.out)
        table = ps.csv_file(self.path("d.csv"))
        by_step = dict(zip(table["step"], zip(table["max_abs"], table["l2"])))
        h = 1 / 64 * 1 / 64
        for step in self.steps:
            max_abs, l2 = by_step[step]
            if step == 50:
                self.assertAlmostEqual(max_abs, delta, delta=1e-15)
                self.assertAlmostEqual(l2, delta * math.sqrt(h), delta=1e-16)
            else:
                self.assertEqual((max_abs, l2), (0.0, 0.0))
        self.ok("diff", self.run_dir, copy, "--tolerance", 2 * delta)
        self.assertEqual(ps.gp("diff", self.run_dir, copy, "--tolerance", delta / 2).code, 1)
        # One file against a run: the same step of the run.
        self.assertEqual(ps.gp("diff", os.path.join(copy, "heat2d_00000050.h5"), self.run_dir).code, 1)
        self.ok("diff", os.path.join(copy, "heat2d_00000060.h5"), self.run_dir)

    def test_diff_of_runs_with_other_steps_fails(self):
        copy = self.copy_run(self.run_dir, "fewer")
        os.remove(os.path.join(copy, "heat2d.xmf"))
        os.remove(os.path.join(copy, "heat2d_00000090.h5"))
        r = self.fails(1, "steps only in A: 90", "diff", self.run_dir, copy)
        self.assertIn("FAIL: the runs do not match", r.out)

    # --- figures ---------------------------------------------------------------------------

    @unittest.skipUnless(HAVE_MATPLOTLIB, NO_MATPLOTLIB)
    def test_plot(self):
        png = self.path("u.png")
        self.assertEqual(self.ok("plot", self.run_dir, "--step", 50, "-o", png).out.strip(), png)
        self.assert_image(png, (800, 600))
        other = self.path("sub/u.png")
        self.ok("plot", self.run_dir, "-o", other, "--size", "413x317", "--dpi", "72")
        self.assert_image(other, (413, 317))

    def test_plot_errors(self):
        self.fails(2, "no output at step 51", "plot", self.run_dir, "--step", 51)
        self.fails(2, "this field is 2D", "plot", self.run_dir, "--axis", "z")
        self.fails(2, "no field 'v'", "plot", self.run_dir, "--field", "v")
        self.fails(2, "WxH", "plot", self.run_dir, "--size", "big", "-o", self.path("x.png"))

    @unittest.skipUnless(HAVE_MATPLOTLIB, NO_MATPLOTLIB)
    def test_lineout_and_series_plots(self):
        self.ok("lineout", self.run_dir, "--step", 0, "--step", 92, "-o", self.path("l.png"), "--size", "500x300")
        self.assert_image(self.path("l.png"), (500, 300))
        r = self.ok("series", self.run_dir, "-o", self.path("s.png"), "--csv", self.path("s.csv"))
        self.assertEqual(r.out.split(), [self.path("s.csv"), self.path("s.png")])
        self.assert_image(self.path("s.png"), (800, 700))
        self.assertEqual(len(ps.csv_file(self.path("s.csv"))["step"]), len(self.steps))

    @unittest.skipUnless(HAVE_MATPLOTLIB and animate.have_pillow(), "needs python3-matplotlib and python3-pil")
    def test_animate_gif(self):
        gif = self.path("a.gif")
        r = self.ok("animate", self.run_dir, "-o", gif, "--size", "320x240", "--every", 2)
        self.assertEqual(r.out.strip(), gif)
        self.assertEqual(ps.gif_size(gif), (320, 240))
        from PIL import Image
        with Image.open(gif) as im:
            self.assertEqual(getattr(im, "n_frames", 1), len(self.steps[::2]))
        self.assertIn(f"colour scale 0 .. {1 + 2 * self.a * 0.01:.6g}", r.err)

    @unittest.skipUnless(HAVE_MATPLOTLIB and animate.have_pillow(), "needs python3-matplotlib and python3-pil")
    def test_animate_without_ffmpeg_writes_a_gif(self):
        with mock.patch.object(animate, "have_ffmpeg", return_value=False):
            r = self.ok("animate", self.run_dir, "-o", self.path("a.mp4"), "--size", "160x120", "--first", 80)
        self.assertEqual(r.out.strip(), self.path("a.gif"))
        self.assertIn("ffmpeg is not on PATH", r.err)
        self.assertEqual(ps.gif_size(self.path("a.gif")), (160, 120))

    @unittest.skipUnless(HAVE_MATPLOTLIB, NO_MATPLOTLIB)
    def test_animate_mp4_pipes_the_frames_to_ffmpeg(self):
        """With ffmpeg on PATH (here a stand-in that keeps its arguments and the raw frames it
        is sent), the film goes through it as H.264."""
        bin_dir = self.path("bin")
        os.mkdir(bin_dir)
        with open(os.path.join(bin_dir, "ffmpeg"), "w") as f:
            f.write('#!/bin/sh\necho "$@" > "$(dirname "$0")/args"\nfor a; do out=$a; done\ncat > "$out"\n')
        os.chmod(os.path.join(bin_dir, "ffmpeg"), 0o755)
        mp4 = self.path("a.mp4")
        with mock.patch.dict(os.environ, {"PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}):
            r = self.ok("animate", self.run_dir, "-o", mp4, "--size", "160x120")
        self.assertEqual(r.out.strip(), mp4)
        with open(os.path.join(bin_dir, "args")) as f:
            arguments = f.read().split()
        self.assertIn("-s 160x120", " ".join(arguments))
        self.assertIn("-vcodec h264 -pix_fmt yuv420p", " ".join(arguments))
        self.assertEqual(os.path.getsize(mp4), 160 * 120 * 4 * len(self.steps))  # RGBA frames, one per step

    def test_animate_without_any_writer_says_what_to_install(self):
        with mock.patch.object(animate, "have_ffmpeg", return_value=False), \
                mock.patch.object(animate, "have_pillow", return_value=False):
            r = self.fails(2, "no film writer", "animate", self.run_dir, "-o", self.path("a.mp4"))
        self.assertIn("ffmpeg", r.err)
        self.assertIn("python3-pil", r.err)
        self.assertFalse(os.path.exists(self.path("a.mp4")) or os.path.exists(self.path("a.gif")))

    def test_residual_of_a_heat_run_is_an_error(self):
        self.fails(2, "no residual history (heat2d run)", "residual", self.run_dir)


if __name__ == "__main__":
    unittest.main()
