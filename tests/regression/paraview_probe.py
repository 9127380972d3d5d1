# Runs under pvpython (xvfb-run -a pvpython paraview_probe.py XMF...): opens each XDMF index as
# ParaView's GUI does on File > Open and Apply, with each of its XDMF readers, and prints what it
# sees as one line "PROBE {json}" for check_paraview.py to judge.
import json
import sys

from paraview import simple

READERS = ["Xdmf3ReaderS", "Xdmf3ReaderT", "XDMFReader"]  # the choices ParaView 5.11 offers for .xmf


def open_with(kind, path):
    if kind == "OpenDataFile":
        return simple.OpenDataFile(path)
    if kind == "XDMFReader":
        return simple.XDMFReader(FileNames=[path])
    return getattr(simple, kind)(FileName=[path])


def probe(kind, path):
    reader = open_with(kind, path)
    times = reader.TimestepValues
    times = [float(t) for t in times] if hasattr(times, "__len__") else [float(times)]
    scene = simple.GetAnimationScene()
    scene.UpdateAnimationUsingDataTimeSteps()
    scene.AnimationTime = times[0]
    view = simple.CreateView("RenderView")
    view.ViewTime = times[0]
    display = simple.Show(reader, view)
    view.ResetCamera()
    simple.Render(view)
    info = reader.GetDataInformation()
    seen = {
        "reader": reader.GetXMLName(),
        "file": path,
        "times": times,
        "data_type": info.GetDataSetTypeAsString(),
        "points": info.GetNumberOfPoints(),
        "bounds": list(info.GetBounds()),
        "point_arrays": list(reader.PointData.keys()),
        "representation": str(display.GetProperty("Representation").GetData()),
        "color_by": str(list(display.ColorArrayName)[1]),
        "camera_position": list(view.CameraPosition),
        "camera_focal_point": list(view.CameraFocalPoint),
        "points_per_time": [],
    }
    for t in times:  # every step has its data
        reader.UpdatePipeline(t)
        seen["points_per_time"].append(reader.GetDataInformation().GetNumberOfPoints())
    simple.Delete(display)
    simple.Delete(view)
    simple.Delete(reader)
    return seen


results = []
for path in sys.argv[1:]:
    for kind in ["OpenDataFile"] + READERS:
        try:
            seen = probe(kind, path)
        except Exception as e:  # reported, judged by the caller
            seen = {"reader": kind, "file": path, "error": f"{type(e).__name__}: {e}"}
        seen["opened_with"] = kind
        results.append(seen)
print("PROBE " + json.dumps(results))
