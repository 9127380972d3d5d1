#!/usr/bin/python3
"""Checks gridflow's XDMF indexes against the HDF5 files they name, as a reader would use them.

usage: check_xdmf.py [--expect-name NAME] PATH...
  PATH: a .xmf file, or a folder searched (recursively) for .xmf files; at least one must be found.
  --expect-name: every index found is NAME.xmf and its series is called NAME (the name escaped
                 in the XML must come back unchanged).

For every index: the XML parses (xml.etree); it is XDMF 3.0 with one temporal collection of
uniform grids, each a 3DCoRectMesh (a 2D field: one point thick in z, dimensions 1 x ny x nx) with
ORIGIN_DXDYDZ geometry, and its fields as node-centred scalars in HDF5; every referenced file and
dataset exists, with the declared dimensions (a 2D dataset (ny, nx) as 1 x ny x nx), number type
and precision; every dataset at the file's root is listed; the step's time, step number, grid
points, origin, spacing and precision equal the file's /Info (exactly: the index writes numbers
that read back as the same doubles); times increase.

Also importable: check_index(path) returns the steps of one index or raises CheckError.
"""
import argparse
import collections
import os
import sys
import xml.etree.ElementTree as ET

import h5py
import numpy as np

Step = collections.namedtuple("Step", ["step", "time", "path", "fields"])


class CheckError(Exception):
    pass


def _require(condition, message):
    if not condition:
        raise CheckError(message)


def _only(element, tag):
    found = element.findall(tag)
    _require(len(found) == 1, f"<{element.tag} Name={element.get('Name')!r}> has {len(found)} <{tag}>, not one")
    return found[0]


def _numbers(item, count):
    _require(item.get("Format") == "XML" and item.get("Dimensions") == str(count),
             f"geometry DataItem is not {count} XML values: {item.attrib}")
    values = [float(v) for v in item.text.split()]
    _require(len(values) == count, f"geometry DataItem holds {len(values)} values, not {count}")
    return values


def _check_grid(grid, directory, xmf):
    name = grid.get("Name", "")
    _require(grid.get("GridType") == "Uniform", f"grid {name!r} is not Uniform")
    _require(name.startswith("step ") and name[5:].isdigit(), f"grid name {name!r} is not 'step N'")
    time = float(_only(grid, "Time").get("Value"))

    topology = _only(grid, "Topology")
    _require(topology.get("TopologyType") == "3DCoRectMesh",
             f"{name}: topology {topology.get('TopologyType')}, not 3DCoRectMesh")
    dims = [int(d) for d in topology.get("Dimensions").split()]
    _require(len(dims) == 3 and min(dims) >= 1, f"{name}: topology dimensions {dims}")
    geometry = _only(grid, "Geometry")
    _require(geometry.get("GeometryType") == "ORIGIN_DXDYDZ", f"{name}: geometry {geometry.get('GeometryType')}")
    items = geometry.findall("DataItem")
    _require(len(items) == 2, f"{name}: the geometry has {len(items)} DataItems, not origin and spacing")
    origin, spacing = (_numbers(i, 3) for i in items)  # z y x
    _require(min(spacing) > 0, f"{name}: spacing {spacing}")

    attributes = grid.findall("Attribute")
    _require(attributes, f"{name}: no Attribute")
    files, fields = set(), []
    for attribute in attributes:
        field = attribute.get("Name")
        _require(attribute.get("Center") == "Node" and attribute.get("AttributeType") == "Scalar",
                 f"{name}: {field} is not a node-centred scalar: {attribute.attrib}")
        item = _only(attribute, "DataItem")
        _require(item.get("Format") == "HDF", f"{name}: {field} is not in HDF5")
        declared = [int(d) for d in item.get("Dimensions").split()]
        _require(declared == dims, f"{name}: {field} has dimensions {declared}, the mesh {dims}")
        reference = item.text.strip()
        _require(reference.count(":") == 1, f"{name}: {field} reference {reference!r} is not FILE:/DATASET")
        file, dataset = reference.split(":")
        _require(dataset.startswith("/"), f"{name}: {field} dataset path {dataset!r} is not absolute")
        h5 = os.path.join(directory, file)
        _require(os.path.isfile(h5), f"{name}: names {file}, which does not exist")
        files.add(h5)
        fields.append(field)
        with h5py.File(h5, "r") as f:
            _require(dataset in f and isinstance(f[dataset], h5py.Dataset), f"{h5} has no dataset {dataset}")
            d = f[dataset]
            shape = list(d.shape)
            _require(shape == declared or (len(shape) == 2 and declared == [1] + shape),
                     f"{h5}:{dataset} has shape {shape}, the XDMF says {declared}")
            _require(item.get("NumberType", "Float") == "Float" and d.dtype.kind == "f",
                     f"{h5}:{dataset} is {d.dtype}, the XDMF says {item.get('NumberType')}")
            _require(d.dtype.itemsize == int(item.get("Precision")),
                     f"{h5}:{dataset} has {d.dtype.itemsize}-byte values, the XDMF says Precision {item.get('Precision')}")
    _require(len(files) == 1, f"{name}: fields spread over {sorted(files)}")
    h5 = files.pop()

    with h5py.File(h5, "r") as f:
        listed = {"/" + field for field in fields}
        for key, obj in f.items():
            _require(not isinstance(obj, h5py.Dataset) or "/" + key in listed, f"{h5}: dataset /{key} is not in the XDMF")
        info = f["Info"].attrs
        _require(float(info["time"]) == time, f"{name}: time {time!r} but {h5} /Info time {float(info['time'])!r}")
        _require(int(info["step"]) == int(name[5:]), f"{name}: {h5} /Info step is {int(info['step'])}")
        points = [int(p) for p in info["grid_points"]][::-1]  # z y x
        info_origin = [float(v) for v in info["origin"]][::-1]
        info_spacing = [float(v) for v in info["spacing"]][::-1]
        if len(points) == 2:  # one point thick at z = 0
            _require(dims[0] == 1 and origin[0] == 0.0, f"{name}: a 2D field's mesh is not one point thick at z = 0")
            dims, origin, spacing = dims[1:], origin[1:], spacing[1:]
        _require(points == dims, f"{name}: dimensions {dims} (z y x) but /Info grid_points {list(info['grid_points'])}")
        _require(info_origin == origin, f"{name}: origin {origin} (z y x) but /Info origin {list(info['origin'])}")
        _require(info_spacing == spacing, f"{name}: spacing {spacing} (z y x) but /Info spacing {list(info['spacing'])}")
        precision = info["precision"]
        precision = precision.decode() if isinstance(precision, bytes) else str(precision)
        expected = {"float": 4, "double": 8}.get(precision)
        for attribute in attributes:
            _require(int(_only(attribute, "DataItem").get("Precision")) == expected,
                     f"{name}: /Info precision {precision}, the XDMF says {_only(attribute, 'DataItem').get('Precision')}")
    return Step(int(name[5:]), time, h5, fields)


def check_index(xmf, expect_name=None):
    """The steps of one index, in order, after checking it all; CheckError on the first problem."""
    try:
        root = ET.parse(xmf).getroot()
    except ET.ParseError as e:
        raise CheckError(f"{xmf} is not well-formed XML: {e}")
    _require(root.tag == "Xdmf", f"{xmf}: the root element is <{root.tag}>")
    _require(root.get("Version") == "3.0", f"{xmf}: XDMF version {root.get('Version')}, not 3.0")
    collection = _only(_only(root, "Domain"), "Grid")
    _require(collection.get("GridType") == "Collection" and collection.get("CollectionType") == "Temporal",
             f"{xmf}: the domain's grid is not a temporal collection")
    if expect_name is not None:
        _require(os.path.basename(xmf) == expect_name + ".xmf", f"{xmf} is not named {expect_name!r}.xmf")
        _require(collection.get("Name") == expect_name,
                 f"{xmf}: the series is called {collection.get('Name')!r}, not {expect_name!r}")
    directory = os.path.dirname(os.path.abspath(xmf))
    grids = collection.findall("Grid")
    _require(grids, f"{xmf} lists no step")
    steps = []
    for grid in grids:
        try:
            steps.append(_check_grid(grid, directory, xmf))
        except CheckError as e:
            raise CheckError(f"{xmf}: {e}")
        except (KeyError, ValueError, TypeError, AttributeError, OSError) as e:
            raise CheckError(f"{xmf}: grid {grid.get('Name')!r}: {type(e).__name__}: {e}")
    times = [s.time for s in steps]
    _require(all(a < b for a, b in zip(times, times[1:])), f"{xmf}: times do not increase: {times}")
    _require(len({s.path for s in steps}) == len(steps), f"{xmf}: two steps name the same file")
    return steps


def find_indexes(paths):
    found = []
    for path in paths:
        if os.path.isdir(path):
            for directory, _, files in sorted(os.walk(path)):
                found += [os.path.join(directory, f) for f in sorted(files) if f.endswith(".xmf") and not f.startswith(".")]
        else:
            found.append(path)
    return found


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--expect-name")
    p.add_argument("paths", nargs="+")
    args = p.parse_args()
    indexes = find_indexes(args.paths)
    if not indexes:
        print(f"FAIL: no .xmf file under {' '.join(args.paths)}")
        return 1
    failures = 0
    for xmf in indexes:
        try:
            steps = check_index(xmf, args.expect_name)
            print(f"ok: {xmf}: {len(steps)} steps, fields {steps[0].fields}, t = {steps[0].time!r} .. {steps[-1].time!r}")
        except CheckError as e:
            print(f"FAIL: {e}")
            failures += 1
    print(f"{len(indexes) - failures} of {len(indexes)} XDMF indexes check out")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
