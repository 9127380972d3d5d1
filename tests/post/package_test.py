#!/usr/bin/python3
"""gridflow_post as a package: `python3 -m gridflow_post` with PYTHONPATH=post, `pip install`,
Python 3.9 syntax, and what happens without matplotlib.

    /usr/bin/python3 tests/post/package_test.py -v
"""
import ast
import os
import shutil
import subprocess
import sys
import unittest

import post_support as ps

from gridflow_post.commands import COMMANDS  # noqa: E402

PACKAGE = os.path.join(ps.POST, "gridflow_post")
NAMES = ["info", "plot", "lineout", "series", "animate", "residual", "spectrum", "diff", "scaling"]
HIDE_MATPLOTLIB = "import sys\nsys.modules['matplotlib'] = None  # import matplotlib now raises ImportError"


def sources():
    for folder, _, files in os.walk(PACKAGE):
        for f in sorted(files):
            if f.endswith(".py"):
                yield os.path.join(folder, f)


class PackageTest(ps.PostTestCase):
    def test_module_command_line(self):
        r = ps.gp_process("--help")
        self.assertEqual(r.code, 0, r)
        for name in NAMES:
            self.assertIn(name, r.out)
        self.assertEqual([c.NAME for c in COMMANDS], NAMES)
        for name in NAMES:
            self.assertEqual(ps.gp(name, "--help").code, 0)
        self.assertEqual(ps.gp_process().code, 2)  # no command: the list, exit 2
        r = ps.gp_process("info", ps.heat_run())
        self.assertEqual(r.code, 0, r)
        self.assertIn("heat2d", r.out)
        r = ps.gp_process("info", self.path("nowhere"))
        self.assertEqual(r.code, 2, r)
        self.assertEqual(r.err.strip(), f"gridflow_post info: error: {self.path('nowhere')} does not exist")

    def test_python_3_9_syntax(self):
        """The clusters run Python 3.9: no match statements, parenthesised context managers, ...
        (the 3.10+ library calls and `X | Y` types are kept out by review)."""
        for path in sources():
            with open(path) as f:
                tree = ast.parse(f.read(), path, feature_version=(3, 9))
            guarded = {id(n) for t in ast.walk(tree) if isinstance(t, ast.Try) for b in t.body for n in ast.walk(b)}
            for node in ast.walk(tree):
                if isinstance(node, ast.Import) and any(a.name in ("tomllib",) for a in node.names):
                    self.assertIn(id(node), guarded, f"{path}:{node.lineno}: tomllib is 3.11+: import it in a try")
                if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
                    names = [n for n in (node.left, node.right) if isinstance(n, ast.Name)]
                    self.assertFalse(any(n.id in ("int", "float", "str", "None", "list", "dict") for n in names),
                                     f"{path}:{node.lineno}: an `X | Y` type needs Python 3.10")
                if isinstance(node, ast.Call) and any(k.arg == "strict" for k in node.keywords):
                    self.assertNotEqual(getattr(node.func, "id", ""), "zip",
                                        f"{path}:{node.lineno}: zip(strict=) is 3.10+")

    def test_pip_install(self):
        """pip installs it offline with the setuptools already there (--no-build-isolation), with a
        gridflow-post command; a copy of post/ keeps build files out of the source tree."""
        if subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode != 0:
            self.skipTest("pip is not installed (python3-pip)")
        copy, target = self.path("post"), self.path("site")
        shutil.copytree(ps.POST, copy, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
        r = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-index",
                            "--no-deps", "--target", target, copy], capture_output=True, text=True,
                           env=dict(os.environ, PIP_ROOT_USER_ACTION="ignore", PIP_DISABLE_PIP_VERSION_CHECK="1"))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        script = os.path.join(target, "bin", "gridflow-post")
        self.assertTrue(os.path.exists(script))
        r = subprocess.run([sys.executable, script, "--version"], capture_output=True, text=True, cwd=self.tmp.name,
                           env=dict(os.environ, PYTHONPATH=target, PYTHONDONTWRITEBYTECODE="1"))
        self.assertEqual((r.returncode, r.stdout.strip()), (0, "gridflow_post 0.1.0"), r.stderr)
        self.assertTrue(os.path.exists(os.path.join(target, "gridflow_post", "commands", "scaling.py")))

    def test_without_matplotlib(self):
        """Drawing says what to install; the commands that only read and write text still work."""
        heat = ps.heat_run()
        r = ps.gp_process("plot", heat, "-o", self.path("u.png"), prelude=HIDE_MATPLOTLIB)
        self.assertEqual(r.code, 2, r)
        self.assertIn("matplotlib, which is not installed (Debian/Ubuntu: apt-get install python3-matplotlib", r.err)
        self.assertFalse(os.path.exists(self.path("u.png")))
        r = ps.gp_process("series", heat, "--csv", self.path("s.csv"), prelude=HIDE_MATPLOTLIB)
        self.assertEqual(r.code, 0, r)
        r = ps.gp_process("diff", heat, heat, prelude=HIDE_MATPLOTLIB)
        self.assertEqual(r.code, 0, r)


if __name__ == "__main__":
    unittest.main()
