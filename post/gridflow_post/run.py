"""Reading a gridflow run: its output steps, fields with their grid, the deck, run figures.

gridflow writes one HDF5 file per output step, ``NAME_%08d.h5``, and an XDMF index ``NAME.xmf``
beside them. Each file holds the fields as datasets stored slowest axis first ((y, x) or
(z, y, x)), ``/Info`` (attributes ``step``, ``time``, ``problem``, ``precision``,
``grid_points``, ``spacing``, ``origin``, ``decomposition``: per-axis lists x first; more when
the run records them) and ``/Input`` (the deck as used: attribute ``deck``, TOML text, and one
attribute per dotted key).

    from gridflow_post import Run
    run = Run("output/heat2d_small")        # a folder, its .xmf, or one .h5 file
    run.steps                               # [Step(step, time, path), ...] in step order
    field = run.read("u")                   # the last step; field.values[j, i] at (x[i], y[j])
    field.grid.coordinates("x")
    run.deck()["heat"]["a"]

Only the attribute names listed above are relied on; any other /Info attribute is read when
present (``run.info()`` returns whatever the file holds).
"""
import collections
import csv
import os
import re
import xml.etree.ElementTree as ET

import h5py
import numpy as np

AXES = "xyz"

#: Names of the /Info attributes this package relies on; others are optional.
INFO_KEYS = ("step", "time", "problem", "precision", "grid_points", "spacing", "origin", "decomposition")

_STEP_FILE = re.compile(r"^(?P<name>.+)_(?P<step>\d{8})\.h5$")


class PostError(Exception):
    """A problem with the input (missing file, unknown step or field, ...): reported, exit 2."""


Step = collections.namedtuple("Step", ["step", "time", "path"])


def plain(value):
    """An HDF5 attribute value as a Python value: str, int, float, or a numpy array."""
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray) and value.dtype.kind in "SO":
        return [v.decode() if isinstance(v, bytes) else v for v in value.tolist()]
    return value


class Grid:
    """The vertex-centred grid of a field: per-axis point counts, spacing and origin, x first."""

    def __init__(self, points, spacing, origin, names=None):
        self.points = tuple(int(p) for p in points)
        self.spacing = tuple(float(s) for s in spacing)
        self.origin = tuple(float(o) for o in origin)
        if not (len(self.points) == len(self.spacing) == len(self.origin)) or len(self.points) not in (1, 2, 3):
            raise PostError(f"inconsistent grid: points {self.points}, spacing {self.spacing}, origin {self.origin}")
        # Axis names, x first: "xyz", or e.g. "xz" for the plane of a 3D grid cut along y.
        self.names = names or AXES[:len(self.points)]

    @classmethod
    def from_info(cls, info, where):
        missing = [k for k in ("grid_points", "spacing", "origin") if k not in info]
        if missing:
            raise PostError(f"{where}: /Info lacks {', '.join(missing)}")
        return cls(np.atleast_1d(info["grid_points"]), np.atleast_1d(info["spacing"]), np.atleast_1d(info["origin"]))

    @property
    def ndim(self):
        return len(self.points)

    @property
    def axes(self):
        return self.names

    @property
    def shape(self):
        """The shape of a stored field: slowest axis first."""
        return self.points[::-1]

    @property
    def cell_volume(self):
        return float(np.prod(self.spacing))

    def axis(self, name):
        """Index (x = 0) of an axis given as 'x', 'y', 'z' or 0, 1, 2."""
        if isinstance(name, (int, np.integer)):
            a = int(name)
        else:
            a = self.names.find(str(name).lower()) if len(str(name)) == 1 else -1
        if not 0 <= a < self.ndim:
            raise PostError(f"no axis '{name}' in this {self.ndim}D grid (axes: {', '.join(self.names)})")
        return a

    def storage_axis(self, name):
        """The array axis of a stored field that runs along `name`."""
        return self.ndim - 1 - self.axis(name)

    def coordinates(self, name):
        a = self.axis(name)
        return self.origin[a] + self.spacing[a] * np.arange(self.points[a])

    def index_of(self, name, coordinate):
        """The index of the grid point nearest to `coordinate` along an axis; an error outside."""
        a = self.axis(name)
        lo, h, n = self.origin[a], self.spacing[a], self.points[a]
        i = int(np.floor((coordinate - lo) / h + 0.5))
        if not 0 <= i < n:
            raise PostError(f"{self.names[a]} = {coordinate:g} is outside the grid ({self.names[a]} from {lo:g} "
                            f"to {lo + h * (n - 1):g})")
        return i

    def check_index(self, name, index):
        a = self.axis(name)
        if not 0 <= index < self.points[a]:
            raise PostError(f"index {index} along {self.names[a]} is outside 0..{self.points[a] - 1}")
        return index

    def describe(self):
        pts = " x ".join(str(p) for p in self.points)
        return (f"{pts} points, spacing {' x '.join(f'{s:g}' for s in self.spacing)}, "
                f"origin ({', '.join(f'{o:g}' for o in self.origin)})")


class Field:
    """Values of one dataset at one step, with its grid. For a slice of a 3D field, `grid` is the
    2D grid of the slice and `fixed` records the axis, index and coordinate it was cut at."""

    def __init__(self, name, values, grid, step, time, path, fixed=()):
        self.name, self.values, self.grid = name, values, grid
        self.step, self.time, self.path = step, time, path
        self.fixed = tuple(fixed)  # ((axis name, index, coordinate), ...) of the axes cut away

    def describe_fixed(self):
        return ", ".join(f"{a} = {c:.6g} (index {i})" for a, i, c in self.fixed)


def _step_number(path):
    m = _STEP_FILE.match(os.path.basename(path))
    return int(m.group("step")) if m else None


def _read_step_info(path):
    try:
        with h5py.File(path, "r") as f:
            info = f.get("Info")
            if info is None:
                raise PostError(f"{path} has no /Info group: not a gridflow output file?")
            return int(plain(info.attrs["step"])), float(plain(info.attrs["time"]))
    except OSError as e:
        raise PostError(f"cannot read {path}: {e}")
    except KeyError as e:
        raise PostError(f"{path}: /Info lacks {e}")


class Run:
    """A gridflow run: an output folder holding one ``.xmf`` index (or only ``NAME_%08d.h5``
    files of one name), a ``.xmf`` file, or a single ``.h5`` file (a run of one step)."""

    def __init__(self, source):
        self.source = source
        if not os.path.exists(source):
            raise PostError(f"{source} does not exist")
        self.xmf = None
        if os.path.isdir(source):
            self.directory = source
            xmfs = sorted(f for f in os.listdir(source) if f.endswith(".xmf") and not f.startswith("."))
            if len(xmfs) > 1:
                raise PostError(f"{source} holds several .xmf files ({', '.join(xmfs)}): name the one to read")
            if xmfs:
                self.xmf = os.path.join(source, xmfs[0])
                self.name = xmfs[0][:-len(".xmf")]
                self.steps = self._steps_from_xmf()
            else:
                self.name, self.steps = self._steps_from_files()
        elif source.endswith(".xmf"):
            self.xmf = source
            self.directory = os.path.dirname(source) or "."
            self.name = os.path.basename(source)[:-len(".xmf")]
            self.steps = self._steps_from_xmf()
        elif source.endswith(".h5"):
            self.directory = os.path.dirname(source) or "."
            m = _STEP_FILE.match(os.path.basename(source))
            self.name = m.group("name") if m else os.path.basename(source)[:-len(".h5")]
            step, time = _read_step_info(source)
            self.steps = [Step(step, time, source)]
        else:
            raise PostError(f"{source}: give an output folder, a .xmf file or a .h5 file")
        if not self.steps:
            raise PostError(f"{source}: the run lists no output step")

    # --- steps ------------------------------------------------------------------------------

    def _steps_from_xmf(self):
        try:
            root = ET.parse(self.xmf).getroot()
        except (OSError, ET.ParseError) as e:
            raise PostError(f"cannot read {self.xmf}: {e}")
        base = os.path.dirname(self.xmf)
        steps = []
        for grid in root.iter("Grid"):
            if grid.get("GridType") != "Uniform":
                continue
            # Every field of a step lives in the same file; the first HDF item names it.
            for item in grid.iter("DataItem"):
                if item.get("Format") == "HDF":
                    path = os.path.join(base, item.text.strip().rsplit(":", 1)[0])
                    break
            else:
                continue
            number = _step_number(path)
            time_tag = grid.find("Time")
            if number is None or time_tag is None:
                number, time = _read_step_info(path)
            else:
                time = float(time_tag.get("Value"))
            steps.append(Step(number, time, path))
        return sorted(steps, key=lambda s: s.step)

    def _steps_from_files(self):
        by_name = collections.defaultdict(list)
        for f in os.listdir(self.directory):
            m = _STEP_FILE.match(f)
            if m and not f.startswith("."):
                by_name[m.group("name")].append(os.path.join(self.directory, f))
        if not by_name:
            raise PostError(f"{self.directory} holds no .xmf file and no NAME_%08d.h5 file: "
                            "not a gridflow output folder")
        if len(by_name) > 1:
            raise PostError(f"{self.directory} holds output of several runs ({', '.join(sorted(by_name))}) "
                            "and no .xmf file: name one .h5 file")
        name, paths = next(iter(by_name.items()))
        steps = [Step(*_read_step_info(p), p) for p in paths]
        return name, sorted(steps, key=lambda s: s.step)

    def step(self, number=None):
        """The Step with solver step `number` (None: the last output); an error naming the steps
        there are when there is none."""
        if number is None:
            return self.steps[-1]
        if number < 0 and -number <= len(self.steps):  # -1: the last, -2: the one before, ...
            return self.steps[number]
        for s in self.steps:
            if s.step == number:
                return s
        raise PostError(f"{self.source}: no output at step {number} (steps: {_list_steps(self.steps)})")

    # --- file contents ----------------------------------------------------------------------

    def _open(self, path):
        try:
            return h5py.File(path, "r")
        except OSError as e:
            raise PostError(f"cannot read {path}: {e}")

    def info(self, step=None):
        """The /Info attributes of a step's file as a dict (whatever the file holds)."""
        with self._open(self.step(step).path) as f:
            if "Info" not in f:
                raise PostError(f"{self.step(step).path} has no /Info group")
            return {k: plain(v) for k, v in f["Info"].attrs.items()}

    def grid(self, step=None):
        return Grid.from_info(self.info(step), self.step(step).path)

    def datasets(self, step=None):
        """Every dataset of a step's file: {path: (shape, dtype)}, groups walked."""
        found = {}
        with self._open(self.step(step).path) as f:
            def visit(name, obj):
                if isinstance(obj, h5py.Dataset):
                    found[name] = (tuple(obj.shape), obj.dtype)
            f.visititems(visit)
        return found

    def fields(self, step=None):
        """Names of the datasets that are fields on the grid (shape = grid points, reversed)."""
        shape = self.grid(step).shape
        return sorted(name for name, (s, _) in self.datasets(step).items() if s == shape)

    def read(self, name="u", step=None, at=None):
        """Field `name` at `step` (None: the last output). `at` = {axis: index, ...} fixes axes:
        {"z": 16} reads one plane of a 3D field, {"y": 3, "z": 16} one line; only those values
        are read from the file. The returned Field's grid is that of what remains."""
        s = self.step(step)
        with self._open(s.path) as f:
            info = {k: plain(v) for k, v in f["Info"].attrs.items()} if "Info" in f else {}
            grid = Grid.from_info(info, s.path)
            if name not in f or not isinstance(f[name], h5py.Dataset):
                have = [n for n, (shape, _) in self.datasets(s.step).items() if shape == grid.shape]
                raise PostError(f"{s.path} has no field '{name}' (fields: {', '.join(have) or 'none'})")
            ds = f[name]
            if tuple(ds.shape) != grid.shape:
                raise PostError(f"{s.path}:/{name} has shape {ds.shape}, not the grid's {grid.shape} "
                                f"(grid_points {list(grid.points)}, x first)")
            fixed = {}
            for axis, index in (at or {}).items():
                a = grid.axis(axis)
                fixed[a] = grid.check_index(a, int(index))
            sel = [slice(None)] * grid.ndim
            for a, index in fixed.items():
                sel[grid.storage_axis(a)] = index
            values = ds[tuple(sel)]
        keep = [d for d in range(grid.ndim) if d not in fixed]
        field_grid = Grid([grid.points[d] for d in keep], [grid.spacing[d] for d in keep],
                          [grid.origin[d] for d in keep], "".join(grid.names[d] for d in keep)) if keep else None
        described = tuple((grid.names[a], i, float(grid.coordinates(a)[i])) for a, i in sorted(fixed.items()))
        time = float(info.get("time", s.time))
        return Field(name, np.asarray(values), field_grid, int(info.get("step", s.step)), time, s.path, described)

    def deck(self, step=None):
        """The deck the run used (every key read, defaults included) as nested dicts.

        Parsed from /Input's TOML text with tomllib (Python 3.11+) or tomli when there is one,
        otherwise rebuilt from /Input's per-key attributes (booleans then read as 0/1)."""
        path = self.step(step).path
        with self._open(path) as f:
            if "Input" not in f:
                raise PostError(f"{path} has no /Input group")
            attrs = {k: plain(v) for k, v in f["Input"].attrs.items()}
        toml = _toml_module()
        if toml is not None and "deck" in attrs:
            try:
                return toml.loads(attrs["deck"])
            except Exception as e:  # tomllib.TOMLDecodeError; tomli's has another home
                raise PostError(f"{path}: /Input deck is not valid TOML: {e}")
        return deck_from_attributes(attrs)

    def input_value(self, key, default=None, step=None):
        """One deck value by dotted key (``poisson.tolerance``), or `default`."""
        node = self.deck(step)
        for part in key.split("."):
            if not isinstance(node, dict) or part not in node:
                return default
            node = node[part]
        return node

    # --- run figures ------------------------------------------------------------------------

    def residual_history(self):
        """The solver's convergence history, or None when the run has none (heat runs).

        gridflow stores it in the last output file as the datasets ``/residual_history/iteration``,
        ``relative_residual`` and ``seconds`` (files of earlier versions: /Info attributes
        ``residual_history_*``), and writes the same numbers to ``NAME_residual.csv`` beside the
        files; the file's history is read when present, else the CSV."""
        last = self.steps[-1].path
        group = "residual_history"
        with self._open(last) as f:
            if group in f and isinstance(f[group], h5py.Group):
                columns = {k: np.atleast_1d(np.asarray(v[()])) for k, v in f[group].items()
                           if isinstance(v, h5py.Dataset)}
                columns = {k: v if v.dtype.kind in "iu" else v.astype(float) for k, v in columns.items()}
                return ResidualHistory(columns, f"{last}:/{group}/*")
        info = self.info()
        prefix = "residual_history_"
        if prefix + "relative_residual" in info:
            columns = {k[len(prefix):]: np.atleast_1d(np.asarray(v, dtype=float))
                       for k, v in info.items() if k.startswith(prefix)}
            return ResidualHistory(columns, f"{last}:/Info/{prefix}*")
        csv_path = os.path.join(self.directory, self.name + "_residual.csv")
        if os.path.exists(csv_path):
            return ResidualHistory(read_csv_columns(csv_path), csv_path)
        return None

    def figures(self):
        """Scalar run figures the last file's /Info holds (solver, iterations, residual, ...):
        every attribute not about the grid or the step, in file order."""
        skip = set(INFO_KEYS) | {"dt", "wall_time"}
        return {k: v for k, v in self.info().items()
                if k not in skip and not k.startswith("residual_history_") and not isinstance(v, (np.ndarray, list))}


class ResidualHistory:
    """Columns of a convergence history: ``iteration``, ``relative_residual``, and ``seconds``
    when recorded; `source` says where it was read."""

    def __init__(self, columns, source):
        if "relative_residual" not in columns:
            raise PostError(f"{source}: no relative_residual column (columns: {', '.join(columns)})")
        n = len(columns["relative_residual"])
        if "iteration" not in columns:
            columns["iteration"] = np.arange(n)
        else:
            it = columns["iteration"]
            if np.all(np.isfinite(it)) and np.all(it == np.round(it)):
                columns["iteration"] = it.astype(np.int64)
        if any(len(v) != n for v in columns.values()):
            raise PostError(f"{source}: columns of different lengths")
        self.columns, self.source = columns, source

    @property
    def iteration(self):
        return self.columns["iteration"]

    @property
    def relative_residual(self):
        return self.columns["relative_residual"]

    @property
    def seconds(self):
        return self.columns.get("seconds")

    def mean_reduction(self):
        """The mean factor by which one iteration reduced the residual (geometric mean)."""
        r, it = self.relative_residual, self.iteration
        if len(r) < 2 or r[0] <= 0 or r[-1] <= 0 or it[-1] == it[0]:
            return None
        return float((r[-1] / r[0]) ** (1.0 / (it[-1] - it[0])))


def read_csv_columns(path):
    """A CSV file with a header line as {column: float array}."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        raise PostError(f"cannot read {path}: {e}")
    if not rows:
        raise PostError(f"{path} is empty")
    header, body = rows[0], [r for r in rows[1:] if r]
    try:
        data = np.array([[float(v) for v in r] for r in body], dtype=float).reshape(len(body), len(header))
    except ValueError as e:
        raise PostError(f"{path}: not a table of numbers under its header: {e}")
    return {name.strip(): data[:, i] for i, name in enumerate(header)}


def deck_from_attributes(attrs):
    """Nested dicts from /Input's per-key attributes (``heat.boundary.left`` -> deck["heat"]...)."""
    deck = {}
    for key, value in attrs.items():
        if key == "deck":
            continue
        if isinstance(value, np.ndarray):
            value = value.tolist()
        node = deck
        parts = key.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return deck


def _toml_module():
    try:
        import tomllib  # Python 3.11+
        return tomllib
    except ImportError:
        pass
    try:
        import tomli
        return tomli
    except ImportError:
        return None


def _list_steps(steps, most=12):
    numbers = [str(s.step) for s in steps]
    if len(numbers) > most:
        numbers = numbers[:most // 2] + ["..."] + numbers[-most // 2:]
    return ", ".join(numbers)


def iter_blocks(dataset, max_bytes=64 << 20):
    """Slices along the slowest axis that cover `dataset` in pieces of at most about
    `max_bytes`, so that statistics of large fields never hold the whole array."""
    if dataset.ndim == 0:
        yield ()
        return
    row = max(1, int(np.prod(dataset.shape[1:])) * dataset.dtype.itemsize)
    rows = max(1, max_bytes // row)
    for start in range(0, dataset.shape[0], rows):
        yield slice(start, min(start + rows, dataset.shape[0]))
