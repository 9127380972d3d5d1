"""Mutations of `gridflow filter IN.h5 --dataset NAME --out OUT.h5 --filter KIND [options]`: the
input files (made once with h5py: good ones, truncated, not HDF5, empty, NaN-holding, integer,
1D/4D/scalar datasets, a group where a dataset is expected) and every option (dropped,
repeated, wrong type, extreme and non-finite numbers, odd text)."""

import os

import numpy as np
import h5py

import junk_values

# Valid command lines, one per filter, on the files make_inputs writes.
BASES = {
    "mean": ["field.h5", "--dataset", "u", "--filter", "mean", "--size", "3"],
    "gaussian": ["field.h5", "--dataset", "u", "--filter", "gaussian", "--sigma", "1.5", "--truncate", "3"],
    "correlate": ["field.h5", "--dataset", "u", "--filter", "correlate", "--weights", "weights.h5:/w2"],
    "whiten": ["frames.h5", "--dataset", "frames", "--filter", "whiten", "--memory", "2", "--ridge", "1e-6",
               "--frames"],
}
OPTIONS = ["--dataset", "--out", "--filter", "--size", "--sigma", "--truncate", "--weights", "--memory", "--ridge",
           "--mode", "--method", "--tune", "--frames"]
NUMBER_OPTIONS = {"--size": "int", "--sigma": "number", "--truncate": "number", "--memory": "int", "--ridge": "number"}
INPUT_FILES = ["field.h5", "frames.h5", "weights.h5", "truncated.h5", "not_hdf5.h5", "empty.h5", "nan.h5",
               "ints.h5", "shapes.h5", "missing.h5", ".", "field.h5/u", "field.h5:u"]
DATASETS = ["u", "/u", "//u", "nope", "", "/", "g", "frames", "i", "one_d", "four_d", "scalar", "text", "u/x",
            "\u00e9", "x" * 3000, "w2"]
WEIGHT_SPECS = ["weights.h5:/w2", "weights.h5:/w1", "weights.h5:/w3", "weights.h5:/wnan", "weights.h5:/wzero",
                "weights.h5:/wlarge", "weights.h5", "weights.h5:", ":/w2", "missing.h5:/w2", "weights.h5:/nope",
                "weights.h5:/w2:/w2", "not_hdf5.h5:/w2", "truncated.h5:/u", "weights.h5:/wint"]


def make_inputs(folder):
    """The input files every filter case starts from (copied per case, so none can spoil another)."""
    rng = np.random.default_rng(16)
    os.makedirs(folder, exist_ok=True)
    with h5py.File(os.path.join(folder, "field.h5"), "w") as f:
        f["u"] = rng.standard_normal((13, 17))
        f.create_group("g")
    with h5py.File(os.path.join(folder, "frames.h5"), "w") as f:
        f["frames"] = rng.standard_normal((6, 16, 16))
    with h5py.File(os.path.join(folder, "weights.h5"), "w") as f:
        f["w1"] = np.ones(3) / 3
        f["w2"] = np.ones((3, 3)) / 9
        f["w3"] = np.ones((3, 3, 3)) / 27
        f["wnan"] = np.full((3, 3), np.nan)
        f["wzero"] = np.zeros((0, 3))
        f["wlarge"] = np.ones((41, 41))
        f["wint"] = np.ones((3, 3), dtype=np.int32)
    with h5py.File(os.path.join(folder, "nan.h5"), "w") as f:
        u = rng.standard_normal((13, 17))
        u[5, 5] = np.nan
        u[6, 6] = np.inf
        f["u"] = u
    with h5py.File(os.path.join(folder, "ints.h5"), "w") as f:
        f["u"] = np.arange(13 * 17, dtype=np.int32).reshape(13, 17)
    with h5py.File(os.path.join(folder, "shapes.h5"), "w") as f:
        f["one_d"] = np.ones(7)
        f["four_d"] = np.ones((2, 3, 4, 5))
        f["scalar"] = 1.0
        f["text"] = "not numbers"
        f["u"] = np.ones((1, 1))
    with open(os.path.join(folder, "field.h5"), "rb") as f:
        whole = f.read()
    with open(os.path.join(folder, "truncated.h5"), "wb") as f:
        f.write(whole[: len(whole) // 2])
    with open(os.path.join(folder, "not_hdf5.h5"), "w") as f:
        f.write("problem = 'heat2d'\n")
    open(os.path.join(folder, "empty.h5"), "wb").close()


def finite_inputs():
    """Input files whose every dataset is finite: a filter of them that exits 0 must be finite too."""
    return {"field.h5", "frames.h5", "ints.h5", "shapes.h5"}


def _option_value(rng, option):
    if option in NUMBER_OPTIONS:
        kind = NUMBER_OPTIONS[option]
        value = junk_values.integer(rng) if kind == "int" else junk_values.number(rng)
        if not isinstance(value, (int, float)):
            value = value.text
        return rng.choice([str(value), str(value), rng.choice(junk_values.ODD_STRINGS + ["1e", "3.5", "0x3", "1,2"])])
    if option == "--dataset":
        return rng.choice(DATASETS)
    if option == "--out":
        return rng.choice(["out.h5", "field.h5", "nodir/out.h5", ".", "", "x" * 300 + ".h5", "out", "weights.h5",
                           "out.h5/x"])
    if option == "--filter":
        return rng.choice(["mean", "gaussian", "correlate", "whiten", "Mean", "", "median", "mean ", "\x01"])
    if option == "--weights":
        return rng.choice(WEIGHT_SPECS)
    if option == "--mode":
        return rng.choice(["reflect", "constant", "nearest", "mirror", "wrap", "", "zero", "REFLECT", "x" * 1000])
    if option == "--method":
        return rng.choice(["direct", "fft", "auto", "", "FFT", "fft "])
    if option == "--tune":
        return rng.choice(["online", "cached", "off", "", "on"])
    return None


def _pairs(base):
    """The input and [option, value] pairs (value None for a flag) of a command line."""
    pairs, i = [], 1
    while i < len(base):
        if base[i] == "--frames":
            pairs.append(["--frames", None])
            i += 1
        else:
            pairs.append([base[i], base[i + 1]])
            i += 2
    return base[0], pairs


def mutate(rng):
    """A filter command line (arguments after `gridflow filter`), what was changed, in words, the
    file it reads and the files a run that exits 0 may replace."""
    kind = rng.choice(sorted(BASES))
    infile, pairs = _pairs(BASES[kind] + ["--out", "out.h5"])
    loose = []  # arguments that are neither the input nor an option's pair
    shuffled = False
    done = ["filter %s" % kind]
    for _ in range(rng.choice([1, 1, 2, 3])):
        what = rng.choice(["value", "value", "value", "drop", "repeat", "unknown", "input", "flag", "order"])
        if what in ("value", "repeat"):
            option = rng.choice(OPTIONS[:-1])
            value = _option_value(rng, option)
            given = [p for p in pairs if p[0] == option]
            if given and what == "value":
                given[0][1] = value
            else:
                pairs.append([option, value])
            done.append("%s %s %r" % ("set" if what == "value" else "added", option, value[:60]))
        elif what == "drop" and pairs:
            p = pairs.pop(rng.randrange(len(pairs)))
            done.append("dropped %s" % p[0])
        elif what == "unknown":
            extra = rng.choice([["--bogus", "1"], ["--size"], ["-s", "3"], ["extra.h5"], ["--"], ["--frames=2"]])
            loose += extra
            done.append("added %s" % extra)
        elif what == "input":
            infile = rng.choice(INPUT_FILES)
            done.append("input %s" % infile)
        elif what == "flag":
            if ["--frames", None] in pairs:
                pairs.remove(["--frames", None])
                done.append("dropped --frames")
            else:
                pairs.append(["--frames", None])
                done.append("added --frames")
        elif what == "order":
            rng.shuffle(pairs)
            shuffled = True
            done.append("options in another order")
    # The input goes between two options (never between an option and its value, which would
    # make it that option's value and the value the input), or among the loose arguments.
    words = [[a for a in p if a is not None] for p in pairs] + [[a] for a in loose]
    words.insert(rng.randrange(len(words) + 1) if shuffled else 0, [infile])
    args = [a for w in words for a in w]
    outs = [p[1] for p in pairs if p[0] == "--out"]
    writable = {outs[-1]} - {infile} if outs else set()  # the last --out may be replaced, never the input
    return [a.replace("\x00", "") for a in args], done, infile, writable
