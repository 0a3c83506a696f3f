#!/usr/bin/env python3
"""The shapely side of `scripts/bench area`: writes N random points over Germany's box to a
CSV, then locates them with an STRtree and prepared geometries, lowest key first where
districts overlap (as vital does), timing the lookups alone.

usage: scripts/bench-area.py GEOJSON POINTS.csv N
prints: shapely_seconds S, then one line per point (id or empty) to POINTS.shapely
"""
import json, random, sys, time

from shapely.geometry import Point, shape
from shapely.prepared import prep
from shapely.strtree import STRtree

geojson, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = random.Random(42)
points = [(rng.uniform(47.2, 55.1), rng.uniform(5.8, 15.1)) for _ in range(n)]
with open(out, "w") as f:
    f.write("lat,lon\n")
    for lat, lon in points:
        f.write(f"{lat:.6f},{lon:.6f}\n")
points = [(float(f"{lat:.6f}"), float(f"{lon:.6f}")) for lat, lon in points]

features = json.load(open(geojson))["features"]
geoms = [shape(f["geometry"]) for f in features]
ids = [f["properties"]["RS"] for f in features]
tree = STRtree(geoms)
prepared = [prep(g) for g in geoms]
start = time.perf_counter()
answers = []
for lat, lon in points:
    p = Point(lon, lat)
    hit = ""
    for i in sorted(tree.query(p), key=lambda i: ids[i]):
        if prepared[i].covers(p):
            hit = ids[i]
            break
    answers.append(hit)
seconds = time.perf_counter() - start
with open(out + ".shapely", "w") as f:
    f.write("\n".join(answers) + "\n")
print(f"shapely_seconds {seconds:.3f}")
