#!/usr/bin/python3
"""gridflow_post scaling on the committed bench/results files and on made-up ones.

    /usr/bin/python3 tests/post/scaling_test.py -v
"""
import glob
import json
import os
import unittest

import post_support as ps
from post_support import HAVE_MATPLOTLIB, NO_MATPLOTLIB

RESULTS = os.path.join(ps.SOURCE, "bench", "results")
SCALING = os.path.join(RESULTS, "heat2d_scaling_4xh200.json")
# Every committed file with runs at several GPU counts.
SCALING_FILES = {os.path.join(RESULTS, name) for name in (
    "heat2d_scaling_4xh200.json", "heat2d_scaling_2xh200.json", "distributed_fft_4xh200.json",
    "poisson3d_scaling_4xh200.json")}


def load(path):
    with open(path) as f:
        return json.load(f)


class ScalingTest(ps.PostTestCase):
    def test_committed_results(self):
        """Every file in bench/results is read: the scaling ones are used, the others skipped with a
        note each, and the efficiencies of the heat file are its recorded ones."""
        files = sorted(glob.glob(os.path.join(RESULTS, "*.json")))
        r = self.ok("scaling", RESULTS, "--csv", "-")
        table = ps.csv_table(r.out)
        self.assertEqual(set(table["file"]), SCALING_FILES)
        for path in files:
            if path not in SCALING_FILES:
                self.assertIn(f"note: skipped {path}: ", r.err)
        self.assertEqual(r.err.count("note: skipped"), len(files) - len(SCALING_FILES))
        runs = {(run["gpus"], run["name"]): run for run in load(SCALING)["runs"]}
        mine = [i for i, f in enumerate(table["file"]) if f == SCALING]
        self.assertEqual(len(mine), len(runs))
        for i in mine:
            name = f"{table['series'][i]}_np{int(table['gpus'][i])}"
            run = runs[(table["gpus"][i], name)]
            self.assertEqual(run["kind"], table["kind"][i])
            self.assertEqual(run["efficiency"], table["efficiency"][i])
            self.assertEqual(run["gcell_per_s"], table["gcell_per_s"][i])
        self.assertEqual(sorted(table["gpus"][i] for i in mine if table["series"][i] == "strong"), [1, 2, 4])
        self.assertEqual(sorted(table["gpus"][i] for i in mine if table["kind"][i] == "weak"), [2, 2, 4, 4])

    def test_efficiency_computed_when_not_recorded(self):
        data = load(SCALING)
        recorded = {run["name"]: run.pop("efficiency") for run in data["runs"]}
        path = self.path("no_efficiency.json")
        with open(path, "w") as f:
            json.dump(data, f)
        r = self.ok("scaling", path, "--csv", "-")
        self.assertNotIn("note:", r.err)  # would say "recorded efficiency ..., computed ..."
        table = ps.csv_table(r.out)
        self.assertEqual(set(table["efficiency_recorded"]), {0.0})
        for series, gpus, eff in zip(table["series"], table["gpus"], table["efficiency"]):
            self.assertAlmostEqual(eff, recorded[f"{series}_np{int(gpus)}"], delta=1e-12)

    def test_runs_without_a_kind_and_with_times_only(self):
        runs = [{"name": f"jacobi_np{g}", "solver": "jacobi", "gpus": g, "grid_points": [257, 257, 257],
                 "solve_seconds": 8.0 / g ** 0.9} for g in (1, 2, 4, 8)]
        runs += [{"name": f"mg_np{g}", "solver": "mg", "gpus": g, "grid_points": [129 * g, 129, 129],
                  "solve_seconds": 1.0 + 0.1 * (g - 1)} for g in (1, 2)]
        runs += [{"name": "incomplete", "gpus": 2}]
        path = self.path("times.json")
        with open(path, "w") as f:
            json.dump({"benchmark": "made up", "runs": runs}, f)
        r = self.ok("scaling", path, "--csv", "-")
        self.assertIn("1 run(s) without a GPU count, grid and figure left out", r.err)
        table = ps.csv_table(r.out)
        rows = {(s, int(g)): (k, e)
                for s, g, k, e in zip(table["series"], table["gpus"], table["kind"], table["efficiency"])}
        for g in (1, 2, 4, 8):
            kind, eff = rows[("jacobi", g)]
            self.assertEqual(kind, "strong")
            self.assertAlmostEqual(eff, g ** 0.9 / g, delta=1e-12)  # t1 / (g t_g)
        self.assertEqual(rows[("mg", 2)][0], "weak")
        self.assertAlmostEqual(rows[("mg", 2)][1], 1 / 1.1, delta=1e-12)  # t1 / t_g

    def test_nothing_to_plot_is_an_error_with_the_reasons(self):
        path = os.path.join(RESULTS, "poisson3d_solvers_h200.json")
        r = self.fails(2, "none of the 1 file(s) holds scaling data", "scaling", path)
        self.assertIn("every run on 1 GPU: nothing scales", r.err)
        runs = [{"name": "mg_256_np1", "solver": "mg", "gpus": 1, "grid_points": [257] * 3, "solve_seconds": 0.02},
                {"name": "mg_1024_np4", "solver": "mg", "gpus": 4, "grid_points": [1025] * 3, "solve_seconds": 0.3}]
        path = self.path("apart.json")
        with open(path, "w") as f:
            json.dump({"benchmark": "made up", "runs": runs}, f)
        r = self.fails(2, "none of the 1 file(s) holds scaling data", "scaling", path)
        self.assertIn("no series ran the same grid", r.err)
        self.fails(2, "does not exist", "scaling", self.path("missing.json"))

    @unittest.skipUnless(HAVE_MATPLOTLIB, NO_MATPLOTLIB)
    def test_plot(self):
        png = self.path("scaling.png")
        r = self.ok("scaling", "-o", png)  # default: bench/results of the source tree
        self.assertEqual(r.out.splitlines()[-1], png)
        self.assert_image(png, (1200, 900))
        self.ok("scaling", SCALING, "--kind", "weak", "-o", png, "--size", "600x300")
        self.assert_image(png, (600, 300))


if __name__ == "__main__":
    unittest.main()
