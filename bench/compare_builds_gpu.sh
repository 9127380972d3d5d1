#!/usr/bin/env bash
# compare_builds_gpu.sh OLD_EXE NEW_EXE OUT: the GPU half of proving that a change of code shape
# changed no number and cost no time, in one session on one GPU (run from the repository root):
#   1. every sample deck (Poisson once per solver) with both executables at 1 and 2 ranks sharing
#      the GPU, device=gpu, outputs compared bitwise (compare_builds.sh; large decks shrunk);
#   2. heat2d_large (16384^2 float, 2000 steps) tuned on-line into a fresh cache, then from the
#      cache, old and new alternating twice (each first once): stencil Gcell/s and wall time from --summary;
#   3. poisson3d_large (513^3 double, 1e-8) with multigrid, cg-mg and spectral, old and new
#      alternating twice: solve time and iterations from --summary.
# Results: OUT/compare.log, OUT/perf.json (one record per run), OUT/perf.txt (the ratios),
# OUT/full_size_compare.log (the timed runs' fields, old against new, bitwise).
set -uo pipefail
old=$1 new=$2 out=$3
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
status=0
# SKIP_COMPARE=1 leaves out part 1 (to time again after a change that cannot move a number).
if [ "${SKIP_COMPARE:-0}" != 1 ]; then
  SHRINK_LARGE=1 bash "$here/bench/compare_builds.sh" "$old" "$new" /tmp/cmp-gpu "1 2" device=gpu device_sharing=true \
    > "$out/compare.log" 2>&1 || status=1
fi
records=()
run() {  # run TAG EXE LABEL DECK OVERRIDES...: one run, its --summary kept as a record
  local tag=$1 exe=$2 label=$3 deck=$4; shift 4
  local summary=/tmp/perf-$tag-$label.json
  rm -f "$summary"
  rm -rf /tmp/perf-out-$tag-$label
  "$exe" "$deck" "$@" output.dir=/tmp/perf-out-$tag-$label --summary "$summary" > /tmp/perf-$tag-$label.log 2>&1 || status=1
  [ -s "$summary" ] && records+=("{\"binary\": \"$tag\", \"case\": \"$label\", \"summary\": $(cat "$summary")}")
}
for round in 1 2; do
  order="old new"; [ $round = 2 ] && order="new old"  # neither build always runs first
  for tag in $order; do
    exe=$old; [ $tag = new ] && exe=$new
    rm -f /tmp/perf-cache-$tag-$round.json
    run $tag "$exe" heat_tuning_r$round inputs/heat2d_large.toml tuning.cache=/tmp/perf-cache-$tag-$round.json
    run $tag "$exe" heat_cached_r$round inputs/heat2d_large.toml tuning.cache=/tmp/perf-cache-$tag-$round.json
    for s in multigrid cg-mg spectral; do
      run $tag "$exe" poisson_${s}_r$round inputs/poisson3d_large.toml solver=$s
    done
  done
done
( IFS=,; echo "[${records[*]}]" ) > "$out/perf.json"
# The full-size runs' fields, old against new, bitwise (their decks differ in tuning.cache).
for d in /tmp/perf-out-old-*; do
  label=${d#/tmp/perf-out-old-}
  INPUT=0 bash "$here/bench/compare_outputs.sh" "$d" "/tmp/perf-out-new-$label" "$label" || status=1
done > "$out/full_size_compare.log"
/usr/bin/python3 - "$out/perf.json" > "$out/perf.txt" <<'PY'
import json, sys, statistics
runs = json.load(open(sys.argv[1]))
cases = sorted({r["case"].rsplit("_r", 1)[0] for r in runs})
print(f"{'case':22s} {'figure':24s} {'old':>10s} {'new':>10s} {'new/old':>8s}")
for c in cases:
    for key, what in (("cell_updates_per_second", "Gcell/s"), ("stepping_seconds", "stepping s"), ("wall_seconds", "wall s")):
        v = {t: [r["summary"][key] for r in runs if r["binary"] == t and r["case"].startswith(c + "_r")] for t in ("old", "new")}
        if not v["old"] or not v["new"]:
            continue
        scale = 1e-9 if key == "cell_updates_per_second" else 1
        o, n = statistics.median(v["old"]) * scale, statistics.median(v["new"]) * scale
        print(f"{c:22s} {what:24s} {o:10.4f} {n:10.4f} {n / o:8.3f}")
PY
cat "$out/compare.log" "$out/perf.txt" "$out/full_size_compare.log" 2> /dev/null
exit $status
