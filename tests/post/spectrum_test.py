#!/usr/bin/python3
"""gridflow_post spectrum on a real heat run with a [[diagnostics]] spectrum block in every 2nd
output file: the CSV holds the files' /spectrum datasets exactly, and they are numpy's binned
|fftn(u)|^2 / N^2 of each file's field; the plot is drawn; runs and steps without a spectrum are
refused with a message that says what to add.

    /usr/bin/python3 tests/post/spectrum_test.py -v     (see post_support.py for the runs it needs)
"""
import math
import unittest

import h5py
import numpy as np

import post_support as ps
from post_support import HAVE_MATPLOTLIB, NO_MATPLOTLIB

from gridflow_post import Run  # noqa: E402


def numpy_spectrum(u):
    power = np.abs(np.fft.fftn(u)) ** 2
    frequencies = np.meshgrid(*[np.fft.fftfreq(n) * n for n in u.shape], indexing="ij")
    bins = np.floor(np.sqrt(sum(f ** 2 for f in frequencies)) + 0.5).astype(np.int64)
    top = math.isqrt(sum((n // 2) ** 2 for n in u.shape))
    keep = bins <= top
    return np.bincount(bins[keep], weights=power[keep], minlength=top + 1) / float(u.size) ** 2


class SpectrumTest(ps.PostTestCase):
    @classmethod
    def setUpClass(cls):
        cls.run_dir = ps.spectrum_run()
        cls.steps = Run(cls.run_dir).steps

    def test_csv_holds_the_files_spectra_which_are_numpys(self):
        csv_path = self.path("spectrum.csv")
        self.ok("spectrum", self.run_dir, "--csv", csv_path)
        table = ps.csv_file(csv_path)
        with_spectrum = self.steps[::2]  # the 1st, 3rd, ... file
        self.assertEqual(sorted(set(table["step"])), [float(s.step) for s in with_spectrum])
        for s in with_spectrum:
            with h5py.File(s.path, "r") as f:
                power, u = f["spectrum/power"][()], f["u"][()]
            rows = [i for i, step in enumerate(table["step"]) if step == s.step]
            self.assertEqual([table["k"][i] for i in rows], list(range(len(power))))
            self.assertEqual([table["power"][i] for i in rows], list(power))  # repr digits: exact
            want = numpy_spectrum(u)
            np.testing.assert_allclose(power, want, rtol=0, atol=1e-12 * want.max())

    @unittest.skipUnless(HAVE_MATPLOTLIB, NO_MATPLOTLIB)
    def test_plot(self):
        image = self.path("spectrum.png")
        r = self.ok("spectrum", self.run_dir, "-o", image, "--size", "640x480", "--step", self.steps[0].step)
        self.assertIn(f"step {self.steps[0].step} (t = 0): K = {math.isqrt(24 ** 2 + 20 ** 2)}", r.out)
        self.assert_image(image, (640, 480))

    def test_step_without_spectrum_is_refused(self):
        self.fails(2, "holds no /spectrum", "spectrum", self.run_dir, "--step", self.steps[1].step)

    def test_run_without_spectrum_is_refused(self):
        self.fails(2, "add a [[diagnostics]] block", "spectrum", ps.heat_run())


if __name__ == "__main__":
    unittest.main()
