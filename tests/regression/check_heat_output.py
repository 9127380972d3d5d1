#!/usr/bin/python3
"""Checks a heat2d output directory as a user's post-processing would see it.

usage: check_heat_output.py OUTPUT_DIR NAME [--exact EXPR] [--compare OTHER_DIR]

- the XDMF index NAME.xmf checks out (check_xdmf.py: XDMF 3, every dataset it names exists with
  the stated dimensions and precision, times equal to /Info's);
- every .h5 file carries /Info and /Input with the documented attributes, and /Input's TOML text
  parses and matches its per-key attributes;
- no half-written (.partial) file is left;
- --exact: the final field equals EXPR(x, y, t, a) (numpy syntax) to 1e-12;
- --compare: the same files in OTHER_DIR hold identical fields (e.g. written by another rank count).
"""
import argparse
import glob
import os
import sys
import tomllib

import h5py
import numpy as np

from check_xdmf import CheckError, check_index

INFO_KEYS = ["step", "time", "dt", "wall_time", "grid_points", "spacing", "origin", "precision", "ranks",
             "code_version", "halo.width.requested", "halo.width.allocated"]


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def check_xdmf(directory, name):
    path = os.path.join(directory, name + ".xmf")
    if not os.path.exists(path):
        fail(f"{path} is missing")
    try:
        return [(s.time, s.path) for s in check_index(path)]
    except CheckError as e:
        fail(str(e))


def check_file(h5):
    with h5py.File(h5, "r") as f:
        for key in INFO_KEYS:
            if key not in f["Info"].attrs:
                fail(f"{h5}: /Info has no attribute {key}")
        deck = tomllib.loads(f["Input"].attrs["deck"])
        for key, value in f["Input"].attrs.items():
            if key == "deck":
                continue
            node = deck
            for part in key.split("."):
                node = node[part]
            if isinstance(node, list):
                if not np.allclose(np.asarray(value, dtype=float), np.asarray(node, dtype=float), rtol=0, atol=0):
                    fail(f"{h5}: /Input attribute {key} = {value} but the deck says {node}")
            elif isinstance(node, bool):
                if bool(value) != node:
                    fail(f"{h5}: /Input attribute {key} disagrees with the deck")
            elif value != node:
                fail(f"{h5}: /Input attribute {key} = {value!r} but the deck says {node!r}")
        return deck


def main():
    p = argparse.ArgumentParser()
    p.add_argument("directory")
    p.add_argument("name")
    p.add_argument("--exact")
    p.add_argument("--compare")
    args = p.parse_args()

    if glob.glob(os.path.join(args.directory, ".*partial")):
        fail("a .partial file was left behind")
    steps = check_xdmf(args.directory, args.name)
    for _, h5 in steps:
        deck = check_file(h5)
    final_time, final = max(steps)
    with h5py.File(final, "r") as f:
        u = f["u"][()]
        info = f["Info"].attrs
        if abs(info["time"] - final_time) > 1e-15 * max(1.0, final_time):
            fail("the XDMF time and /Info time of the final step differ")
        if args.exact:
            ny, nx = u.shape
            x = info["origin"][0] + info["spacing"][0] * np.arange(nx)[None, :]
            y = info["origin"][1] + info["spacing"][1] * np.arange(ny)[:, None]
            t, a = info["time"], deck["heat"]["a"]
            expected = eval(args.exact, {"np": np, "x": x, "y": y, "t": t, "a": a}) * np.ones_like(u)
            err = np.max(np.abs(u - expected))
            if err > 1e-12:
                fail(f"final field differs from {args.exact} by {err:.3e}")
            print(f"final field matches {args.exact} to {err:.2e} at t = {t}")
    if args.compare:
        for _, h5 in steps:
            other = os.path.join(args.compare, os.path.basename(h5))
            with h5py.File(h5, "r") as a, h5py.File(other, "r") as b:
                if not np.array_equal(a["u"][()], b["u"][()]):
                    fail(f"{h5} and {other} hold different fields")
        print(f"{len(steps)} files identical to those in {args.compare}")
    print(f"ok: {len(steps)} steps in {args.directory}")


if __name__ == "__main__":
    main()
