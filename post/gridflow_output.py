#!/usr/bin/python3
"""Read gridflow output: the .xmf index of a series, one field with its coordinates, the deck.

gridflow writes one HDF5 file per output step (NAME_00000050.h5) and an XDMF index NAME.xmf
beside them. Each file holds the fields as datasets stored slowest axis first ((y, x) or
(z, y, x)), /Info (step, time, grid_points, spacing, origin, ...: per-axis lists x first) and
/Input (the deck as used, attribute "deck", TOML text).

    import gridflow_output as go
    steps = go.open_series("output/heat2d_small")   # [Step(time, path), ...] in time order
    u, info = go.read_field(steps[-1].path)          # u[j, i] is the value at (info["x"][i], info["y"][j])
    deck = go.read_deck(steps[-1].path)              # {"heat": {"a": 1.0, ...}, ...}

Run as a script, it lists the steps of a series.
"""
import argparse
import collections
import os
import sys
import tomllib
import xml.etree.ElementTree as ET

import h5py
import numpy as np

Step = collections.namedtuple("Step", ["time", "path"])

AXES = "xyz"


def find_xmf(xmf_or_dir):
    """The .xmf file named, or the only .xmf file in a directory."""
    if not os.path.isdir(xmf_or_dir):
        return xmf_or_dir
    found = sorted(f for f in os.listdir(xmf_or_dir) if f.endswith(".xmf") and not f.startswith("."))
    if len(found) != 1:
        what = "no .xmf file" if not found else "several .xmf files (" + ", ".join(found) + ")"
        raise ValueError(f"{xmf_or_dir} holds {what}: name the .xmf file")
    return os.path.join(xmf_or_dir, found[0])


def open_series(xmf_or_dir):
    """The steps an XDMF index lists, as Step(time, path) in the order written (time order).

    `xmf_or_dir`: a .xmf file, or a directory holding exactly one. Paths in the index are
    relative to it; the returned paths are joined onto its directory.
    """
    xmf = find_xmf(xmf_or_dir)
    base = os.path.dirname(xmf)
    steps = []
    for grid in ET.parse(xmf).getroot().iter("Grid"):
        if grid.get("GridType") != "Uniform":
            continue
        time = float(grid.find("Time").get("Value"))
        # Every field of a step lives in the same file; the first HDF item names it.
        for item in grid.iter("DataItem"):
            if item.get("Format") == "HDF":
                file = item.text.strip().rsplit(":", 1)[0]
                steps.append(Step(time, os.path.join(base, file)))
                break
    return steps


def _plain(value):
    """HDF5 attribute values as Python values: str, int, float, or a numpy array."""
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, np.generic):
        return value.item()
    return value


def read_info(h5_path):
    """The /Info attributes of a file as a dict."""
    with h5py.File(h5_path, "r") as f:
        return {k: _plain(v) for k, v in f["Info"].attrs.items()}


def read_field(h5_path, name="u"):
    """(array, info): dataset `name` (shape (ny, nx) or (nz, ny, nx)) and the /Info attributes,
    plus coordinate arrays info["x"], info["y"] (, info["z"]) of the grid points."""
    with h5py.File(h5_path, "r") as f:
        if name not in f:
            fields = [k for k, v in f.items() if isinstance(v, h5py.Dataset)]
            raise KeyError(f"{h5_path} has no dataset '{name}' (it has: {', '.join(fields) or 'none'})")
        array = f[name][()]
        info = {k: _plain(v) for k, v in f["Info"].attrs.items()}
    points, spacing, origin = info["grid_points"], info["spacing"], info["origin"]
    if tuple(array.shape) != tuple(int(p) for p in points[::-1]):
        raise ValueError(f"{h5_path}:/{name} has shape {array.shape}, /Info grid_points {list(points)} (x first)")
    for d in range(len(points)):
        info[AXES[d]] = origin[d] + spacing[d] * np.arange(points[d])
    return array, info


def read_deck(h5_path):
    """The deck the run used (every key read, defaults included), as a dict."""
    with h5py.File(h5_path, "r") as f:
        return tomllib.loads(_plain(f["Input"].attrs["deck"]))


def main():
    p = argparse.ArgumentParser(description="List the steps of a gridflow output series.")
    p.add_argument("series", help="a .xmf file, or the output directory holding one")
    args = p.parse_args()
    try:
        steps = open_series(args.series)
    except (OSError, ValueError, ET.ParseError) as e:
        sys.exit(f"gridflow_output.py: {e}")
    for s in steps:
        print(f"{s.time:.9e}  {s.path}")


if __name__ == "__main__":
    main()
