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


def load(path):
    with open(path) as f:
        return json.load(f)


class ScalingTest(ps.PostTestCase):
    def test_committed_results(self):
        """Every file in bench/results is read: the scaling one is used, the others skipped with a
        note each, and the efficiencies are the recorded ones."""
        files = sorted(glob.glob(os.path.join(RESULTS, "*.json")))
        r = self.ok("scaling", RESULTS, "--csv", "-")
        table = ps.csv_table(r.out)
        self.assertEqual(set(table["file"]), {SCALING})
        for path in files:
            if path != SCALING:
                self.assertIn(f"note: skipped {path}: ", r.err)
        self.assertEqual(r.err.count("note: skipped"), len(files) - 1)
        runs = {(run["gpus"], run["name"]): run for run in load(SCALING)["runs"]}
        self.assertEqual(len(table["file"]), len(runs))
        for kind, series, gpus, eff, rate in zip(table["kind"], table["series"], table["gpus"], table["efficiency"],
                                                 table["gcell_per_s"]):
            name = f"{series}_np{int(gpus)}"
            self.assertEqual(runs[(gpus, name)]["kind"], kind)
            self.assertEqual(runs[(gpus, name)]["efficiency"], eff)
            self.assertEqual(runs[(gpus, name)]["gcell_per_s"], rate)
        self.assertEqual(sorted(g for k, s, g in zip(table["kind"], table["series"], table["gpus"]) if s == "strong"),
                         [1, 2, 4])
        self.assertEqual(sorted(g for k, g in zip(table["kind"], table["gpus"]) if k == "weak"), [2, 4])

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
