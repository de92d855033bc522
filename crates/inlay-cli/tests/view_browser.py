#!/usr/bin/env python3
"""End-to-end test of `inlay view --output` pages in headless Chromium (issue 16).

Driven through chromedriver (WebDriver) with the `selenium` package; run by
crates/inlay-cli/tests/view.rs (which skips visibly without chromium, chromedriver or
selenium) and once by .ci/run. Checks, for a generated draw loaded from file://:
  - no console errors;
  - the canvas shows the mesh: pixels at projected triangle centres differ from the background;
  - the table's first rows equal `inlay decode --format csv` (and --hex with the hex toggle);
  - clicking a row selects that vertex; clicking a vertex in 3D selects its row;
then measures the first paint of a generated 1,000,000-vertex draw and prints it, and saves
a screenshot of an example (a real dump from $INLAY_SHARED when present) with --screenshot.
"""
import argparse
import csv
import io
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

LAYOUT = {"elements": [
    {"semantic": "POSITION", "format": "R32G32B32_FLOAT", "offset": 0},
    {"semantic": "NORMAL", "format": "R8G8B8A8_SNORM", "offset": 12},
    {"semantic": "TEXCOORD", "format": "R16G16_FLOAT", "offset": 16},
    {"semantic": "BLENDINDICES", "format": "R8G8B8A8_UINT", "offset": 20},
]}
STRIDE = 24


def vertex(x, y, z, n, u, v, k):
    return (struct.pack("<3f", x, y, z) + struct.pack("<4b", *n)
            + struct.pack("<2e", u, v) + struct.pack("<4B", k, 1, 2, 3))


def grid_vertices(w, h):
    """Vertex (i, j) of a (w+1)×(h+1) wavy grid, as bytes."""
    out = []
    for j in range(h + 1):
        for i in range(w + 1):
            x, y = i / w * 2 - 1, j / h * 2 - 1
            z = 0.25 * math.sin(3 * x) * math.cos(2 * y)
            out.append(vertex(x, y, z, (int(40 * x), int(40 * y), 110, 0), i / w, j / h, (i + 2 * j) % 7))
    return out


def write_draws(d):
    """A small non-indexed triangle list (table rows = decode rows) and a 1M-vertex indexed one."""
    with open(os.path.join(d, "grid.json"), "w") as f:
        json.dump(LAYOUT, f)
    w, h = 6, 4
    verts = grid_vertices(w, h)
    tris = []
    for j in range(h):
        for i in range(w):
            a, b, c, e = j * (w + 1) + i, j * (w + 1) + i + 1, (j + 1) * (w + 1) + i + 1, (j + 1) * (w + 1) + i
            tris += [a, b, c, a, c, e]
    with open(os.path.join(d, "grid.vb"), "wb") as f:
        f.write(b"".join(verts[t] for t in tris))
    # 1000 × 1000 vertices, indexed.
    w = h = 999
    verts = grid_vertices(w, h)
    with open(os.path.join(d, "big.vb"), "wb") as f:
        f.write(b"".join(verts))
    idx = bytearray()
    for j in range(h):
        for i in range(w):
            a, b, c, e = j * (w + 1) + i, j * (w + 1) + i + 1, (j + 1) * (w + 1) + i + 1, (j + 1) * (w + 1) + i
            idx += struct.pack("<6I", a, b, c, a, c, e)
    with open(os.path.join(d, "big.ib"), "wb") as f:
        f.write(idx)
    # An indexed, instanced draw: the grid's triangles through a 16-bit index buffer
    # (base vertex 2, so rows' vertex_id and element differ) and a per-instance slot.
    layout = {"elements": LAYOUT["elements"] + [
        {"semantic": "TEXCOORD", "index": 1, "format": "R32G32B32A32_FLOAT", "slot": 1, "offset": 0,
         "class": "instance", "step_rate": 1}]}
    with open(os.path.join(d, "inst.json"), "w") as f:
        json.dump(layout, f)
    w, h = 6, 4
    with open(os.path.join(d, "inst.vb"), "wb") as f:
        f.write(b"".join([vertex(9, 9, 9, (0, 0, 0, 0), 0, 0, 0)] * 2 + grid_vertices(w, h)))
    with open(os.path.join(d, "inst1.vb"), "wb") as f:
        f.write(b"".join(struct.pack("<4f", 0.25 * i, 1.5, -i, 7) for i in range(3)))
    idx = []
    for j in range(h):
        for i in range(w):
            a, b, c, e = j * (w + 1) + i, j * (w + 1) + i + 1, (j + 1) * (w + 1) + i + 1, (j + 1) * (w + 1) + i
            idx += [a, b, c, a, c, e]
    with open(os.path.join(d, "inst.ib"), "wb") as f:
        f.write(struct.pack(f"<{len(idx)}H", *idx))
    return len(tris)


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {r.returncode}: {r.stderr}")
    return r.stdout


def browser():
    opts = webdriver.ChromeOptions()
    for a in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000",
              "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist",
              "--allow-file-access-from-files"]:
        opts.add_argument(a)
    opts.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(options=opts, service=service)


def load(drv, path, timeout=120):
    t0 = time.time()
    drv.get(path if path.startswith("http") else "file://" + os.path.abspath(path))
    while not drv.execute_script("return !!(window.inlayView && window.inlayView.ready)"):
        if time.time() - t0 > timeout:
            sys.exit(f"FAIL: {path} not ready after {timeout} s")
        time.sleep(0.05)
    return time.time() - t0


def console_errors(drv):
    return [e for e in drv.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]


def byte_records(drv):
    """The byte view's records: (slot, element, selected) -> the hex cells."""
    recs = drv.execute_script(
        "return Array.from(document.querySelectorAll('#bytes .rec')).map(r => [+r.dataset.slot, "
        "+r.dataset.element, r.classList.contains('sel'), Array.from(r.querySelectorAll('.b')).map(c => c.textContent)])")
    return {(s, e, sel): cells for s, e, sel, cells in recs}


def check_instanced(drv, inlay, d):
    """An indexed instanced draw: rows per index position, as decode prints them, for one
    instance at a time and for all instances expanded; per-instance bytes per instance."""
    common = [os.path.join(d, "inst.json"), "--vb", "0=" + os.path.join(d, "inst.vb"),
              "--vb", "1=" + os.path.join(d, "inst1.vb"), "--ib", os.path.join(d, "inst.ib") + ",format=R16_UINT",
              "--topology", "triangle_list", "--draw",
              "draw_indexed_instanced,index_count_per_instance=72,instance_count=3,base_vertex=2"]
    page = os.path.join(d, "inst.html")
    run([inlay, "view", *common, "--output", page, "--force"])
    rows = list(csv.reader(io.StringIO(run([inlay, "decode", *common, "--format", "csv"]))))
    assert len(rows) == 3 * 72 + 1, len(rows)
    load(drv, page)
    header = drv.find_element(By.ID, "thead").text.split()
    if header != rows[0]:
        fail(f"instanced table header {header} != decode's {rows[0]}")

    def visible():
        return drv.execute_script(
            "return Array.from(document.querySelectorAll('#rows .row'))"
            ".sort((a, b) => a.dataset.row - b.dataset.row).map(r => r.textContent.trim().split(/ +/))")

    def check(label, want_rows):
        got = visible()
        if len(got) < 10:
            fail(f"{label}: only {len(got)} rows shown")
        for r in got:
            if r != want_rows[int(r[0])]:
                fail(f"{label}: row {r} != decode {want_rows[int(r[0])]}")
    body = rows[1:]
    if drv.execute_script("return document.getElementById('instance').hidden"):
        fail("no instance selector for a 3-instance draw")
    check("instance 0", body)
    Select(drv.find_element(By.ID, "instance")).select_by_value("1")
    time.sleep(0.2)
    # Instance 1's rows are decode's rows 72..143; the table numbers them by position.
    got = visible()
    for r in got:
        if r != body[int(r[0])]:
            fail(f"instance 1: row {r} != decode {body[int(r[0])]}")
    if int(got[0][0]) != 72 or got[0][3] != "1":
        fail(f"instance 1 starts at {got[0]}")
    Select(drv.find_element(By.ID, "instance")).select_by_value("all")
    time.sleep(0.2)
    n = drv.execute_script("return document.getElementById('spacer').style.height")
    if n != f"{3 * 72 * 18}px":
        fail(f"all instances: table height {n}, expected {3 * 72} rows")
    drv.execute_script("window.inlayView.selectRow(3 * 72 - 1)")
    time.sleep(0.3)
    check("all instances (scrolled to the end)", body)
    # Per-instance bytes: instance 2 reads record 2 of inst1.vb.
    ivb = open(os.path.join(d, "inst1.vb"), "rb").read()
    rec = byte_records(drv).get((1, 2, True))
    if rec != [f"{b:02x}" for b in ivb[32:48]]:
        fail(f"instance 2's per-instance record {rec} != inst1.vb bytes 32..48")
    # Index-ordered rows: row 3*72-1 is index 71 of instance 2 (vertex element idx[71] + 2).
    q = drv.execute_script("return window.inlayView.rowInfo(3 * 72 - 1)")
    if [q["position"], q["vertexId"], q["element"], q["instance"]] != [int(x) for x in body[-1][:4]]:
        fail(f"last row {q} != decode's {body[-1][:4]}")
    errs = console_errors(drv)
    if errs:
        fail(f"instanced page console errors: {errs}")
    print(f"instanced indexed draw: rows per index equal decode for instance 0, instance 1 and all "
          f"{3 * 72} rows expanded; per-instance bytes follow the instance")


PIXEL_JS = """
const c = document.getElementById('gl');
const t = document.createElement('canvas'); t.width = c.width; t.height = c.height;
const g = t.getContext('2d'); g.drawImage(c, 0, 0);
const k = c.width / c.clientWidth;
return arguments[0].map(([x, y]) => Array.from(g.getImageData(Math.round(x * k), Math.round(y * k), 1, 1).data));
"""


# The sum of each channel over the whole canvas.
CANVAS_SUM_JS = """
const c = document.getElementById('gl');
const t = document.createElement('canvas'); t.width = c.width; t.height = c.height;
const g = t.getContext('2d'); g.drawImage(c, 0, 0);
const d = g.getImageData(0, 0, t.width, t.height).data;
const s = [0, 0, 0];
for (let i = 0; i < d.length; i += 4) { s[0] += d[i]; s[1] += d[i + 1]; s[2] += d[i + 2]; }
return s;
"""

# For each CSS point, how strongly channel arguments[1] dominates the others at the best pixel
# within arguments[2] pixels (a 1-pixel line may fall a pixel off the rounded point).
DOMINANT_JS = """
const c = document.getElementById('gl');
const t = document.createElement('canvas'); t.width = c.width; t.height = c.height;
const g = t.getContext('2d'); g.drawImage(c, 0, 0);
const k = c.width / c.clientWidth, ch = arguments[1], r = arguments[2];
return arguments[0].map(([x, y]) => {
  let best = -255;
  for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) {
    const px = Math.round(x * k) + dx, py = Math.round(y * k) + dy;
    if (px < 0 || py < 0 || px >= t.width || py >= t.height) continue;
    const p = g.getImageData(px, py, 1, 1).data;
    best = Math.max(best, p[ch] - Math.max(p[(ch + 1) % 3], p[(ch + 2) % 3]));
  }
  return best;
});
"""


def check_orientation(drv, options, initial):
    """Issue 35 item 8: wireframe follows the colour choice; the axis gizmo shows each axis in
    its colour where the camera puts it, and turns with the camera; the grid's lines z = 0 and
    x = 0 lie where the XZ plane projects. Each against the same page with the grid and axes
    switched off, so the mesh's own colours cannot pass it."""
    colour, mode = Select(drv.find_element(By.ID, "colour")), Select(drv.find_element(By.ID, "mode"))
    mode.select_by_value("wire")
    sums = {}
    for value in options:
        colour.select_by_value(value)
        time.sleep(0.3)
        sums[value] = tuple(drv.execute_script(CANVAS_SUM_JS))
    if len(set(sums.values())) < 3:
        fail(f"wireframe: the colour choices {options} do not change the drawn colours: {sums}")
    print(f"wireframe: {len(options)} colour choices draw {len(set(sums.values()))} different pictures")
    mode.select_by_value("solid")
    colour.select_by_value(initial)
    grid_box = drv.find_element(By.ID, "grid")

    def shown(points, ch):
        on = drv.execute_script(DOMINANT_JS, points, ch, 2)
        grid_box.click()
        time.sleep(0.3)
        off = drv.execute_script(DOMINANT_JS, points, ch, 2)
        grid_box.click()
        time.sleep(0.3)
        return [a > 50 and b < 30 for a, b in zip(on, off)]

    for yaw, pitch in [(0.6, 0.4), (0.6 + math.pi / 2, -0.3), (2.5, 1.0)]:
        drv.execute_script("window.inlayView.orbit(arguments[0], arguments[1])", yaw, pitch)
        time.sleep(0.3)
        h = drv.execute_script("return document.getElementById('gl').clientHeight")
        # The camera of the page (an orbit around the target): the view's right and up vectors,
        # computed here from yaw and pitch; each world axis's tip is drawn at (right, up) · axis.
        cp, sp, cy, sy = math.cos(pitch), math.sin(pitch), math.cos(yaw), math.sin(yaw)
        f = [-cp * sy, -sp, -cp * cy]
        right = [-f[2], 0.0, f[0]]
        n = math.hypot(*right)
        right = [x / n for x in right]
        up = [right[1] * f[2] - right[2] * f[1], right[2] * f[0] - right[0] * f[2], right[0] * f[1] - right[1] * f[0]]
        ox, oy = 45, h - 45
        mids = [[ox + 0.6 * 0.75 * 45 * right[a], oy - 0.6 * 0.75 * 45 * up[a]] for a in range(3)]
        hits = [shown([mids[a]], a)[0] for a in range(3)]
        if not all(hits):
            fail(f"axes at yaw {yaw:.2f}, pitch {pitch:.2f}: X/Y/Z drawn in their colours at {mids}: {hits}")
    drv.execute_script("window.inlayView.orbit(0.6, 0.4)")
    time.sleep(0.3)
    g = drv.execute_script("return window.inlayView.grid")
    size = drv.execute_script("const c = document.getElementById('gl'); return [c.clientWidth, c.clientHeight]")
    found = []
    for ch, axis in [(0, "z = 0"), (2, "x = 0")]:
        lo, hi = (g["lo"][0], g["hi"][0]) if ch == 0 else (g["lo"][1], g["hi"][1])
        ts = [lo + (hi - lo) * (i + 0.5) / 16 for i in range(16)]
        world = [[t, g["y"], 0] if ch == 0 else [0, g["y"], t] for t in ts]
        pts = [drv.execute_script("return window.inlayView.projectWorld(arguments[0])", w) for w in world]
        pts = [p for p in pts if 8 < p[0] < size[0] - 8 and 8 < p[1] < size[1] - 8
               and not (p[0] < 100 and p[1] > size[1] - 100)]
        hits = sum(shown(pts, ch))
        if hits < 3:
            fail(f"grid line {axis}: only {hits} of {len(pts)} points on it drawn in its colour")
        found.append(hits)
    print(f"orientation: X/Y/Z in their colours at three camera angles; grid lines z = 0 and x = 0 "
          f"in place ({found[0]} and {found[1]} points; grid y = {g['y']}, step {g['step']})")


def check_frame(drv, inlay, d):
    """`inlay view DIR`: the frame's draw list served, filtered and sorted in the page, and a
    draw opened from its link as the one-draw viewer."""
    fa = os.path.join(d, "fa")
    run([inlay, "frame", "--generate", fa, "--generate-draws", "24"])
    every = json.loads(run([inlay, "frame", fa, "--json"]))["draws"]
    blend = json.loads(run([inlay, "frame", fa, "--has", "BLENDINDICES", "--json"]))["draws"]
    assert 0 < len(blend) < len(every), (len(blend), len(every))
    srv = subprocess.Popen([inlay, "view", fa], stdout=subprocess.PIPE, text=True)
    try:
        line = srv.stdout.readline()  # serving http://127.0.0.1:PORT/ (Ctrl-C stops): N draws
        url = line[line.index("http://"):].split()[0]
        base = url[:url.index("/", len("http://"))]
        drv.get(base + "/")
        rows = lambda: drv.execute_script(
            "return [...document.querySelectorAll('#rows tr')].map(r => r.cells[0].textContent)")
        t0 = time.time()
        while len(rows()) != len(every):
            if time.time() - t0 > 30:
                fail(f"frame page: {len(rows())} rows, {len(every)} draws")
            time.sleep(0.05)
        if rows() != [x["draw"] for x in every]:
            fail(f"frame page rows {rows()} differ from inlay frame's draws")
        errs = console_errors(drv)
        if errs:
            fail(f"frame page console errors: {errs}")
        # The filter box takes the filter terms: the same draws as `inlay frame --has`.
        q = drv.find_element(By.ID, "q")
        q.send_keys("has=BLENDINDICES")
        if rows() != [x["draw"] for x in blend]:
            fail(f"filter has=BLENDINDICES: {rows()} vs {[x['draw'] for x in blend]}")
        q.clear()
        q.send_keys(" ")
        # Sorting: the list starts in draw order; a click on DRAW reverses it, another restores
        # it; a click on IDX orders by index count.
        head = drv.find_element(By.CSS_SELECTOR, "th[data-key=draw]")
        head.click()
        if rows() != [x["draw"] for x in every][::-1]:
            fail(f"sorted by DRAW descending: {rows()}")
        head.click()
        if rows() != [x["draw"] for x in every]:
            fail(f"sorted by DRAW ascending: {rows()}")
        drv.find_element(By.CSS_SELECTOR, "th[data-key=index_count]").click()
        counts = drv.execute_script(
            "return [...document.querySelectorAll('#rows tr')].map(r => r.cells[2].textContent)")
        nums = [int(c) for c in counts if c]
        if nums != sorted(nums) or len(nums) != sum(1 for x in every if x.get("index_count")):
            fail(f"sorted by IDX: {counts}")
        head.click()
        # A draw's link opens the one-draw viewer of that draw.
        link = drv.find_element(By.LINK_TEXT, "000001")
        href = link.get_attribute("href")
        if not href.endswith("/draw/000001"):
            fail(f"draw link {href}")
        load(drv, href)
        want = next(x for x in every if x["draw"] == "000001")
        title = drv.title
        if "000001 " + want["call"] not in drv.page_source:
            fail(f"draw page does not show draw 000001's call {want['call']} ({title})")
        if drv.execute_script("return document.getElementById('glerror').hidden") is not True:
            fail("draw page reports: " + drv.find_element(By.ID, "glerror").text)
        print(f"frame page: {len(every)} draws listed, {len(blend)} after has=BLENDINDICES, "
              f"sorted, draw 000001 opened ({title})")
        errs = console_errors(drv)
        if errs:
            fail(f"draw page console errors: {errs}")
    finally:
        srv.kill()
        srv.wait()


def fail(msg):
    sys.exit("FAIL: " + msg)


GOAL_MS = 2000  # issue 16: a 1M-vertex draw's first paint under 2 s


def paint_line(form, ms):
    """The unmissable line of one form's first paint against the goal: reported, not asserted
    (a timed assertion flakes on a loaded machine)."""
    verdict = "met" if ms < GOAL_MS else "NOT MET"
    return f"first paint 1M {form}: {ms:.0f} ms (goal < {GOAL_MS} ms: {verdict})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--inlay", required=True)
    ap.add_argument("--screenshot")
    args = ap.parse_args()
    d = tempfile.mkdtemp(prefix="inlay-view-")
    n = write_draws(d)
    common = [os.path.join(d, "grid.json"), "--vb", "0=" + os.path.join(d, "grid.vb"), "--topology", "triangle_list"]
    page = os.path.join(d, "grid.html")
    run([args.inlay, "view", *common, "--output", page, "--force"])
    rows = list(csv.reader(io.StringIO(run([args.inlay, "decode", *common, "--format", "csv"]))))
    hexrows = list(csv.reader(io.StringIO(run([args.inlay, "decode", *common, "--format", "csv", "--hex"]))))
    assert len(rows) == n + 1, (len(rows), n)
    drv = browser()
    try:
        load(drv, page)
        errs = console_errors(drv)
        if errs:
            fail(f"console errors: {errs}")
        if drv.execute_script("return document.getElementById('glerror').hidden") is not True:
            fail("the page reports: " + drv.find_element(By.ID, "glerror").text)
        # Triangle centres on screen must not show the background colour.
        cents = drv.execute_script("""
            const v = window.inlayView; const out = [];
            for (let t = 0; t < 3 * 12; t += 3) {
              const p = [t, t + 1, t + 2].map(i => v.project(i));
              out.push([(p[0][0] + p[1][0] + p[2][0]) / 3, (p[0][1] + p[1][1] + p[2][1]) / 3]);
            }
            return out;""")
        px = drv.execute_script(PIXEL_JS, cents + [[2, 2]])
        bg = px[-1]
        if bg[:3] != [17, 19, 24]:
            fail(f"background corner is {bg}, expected the clear colour (17, 19, 24)")
        shown = sum(1 for p in px[:-1] if abs(p[0] - bg[0]) + abs(p[1] - bg[1]) + abs(p[2] - bg[2]) > 30)
        if shown != len(px) - 1:
            fail(f"only {shown} of {len(px) - 1} triangle centres differ from the background: {px}")
        # The table: first rows equal decode's (element and values; decode's columns 2, 4.. ).
        def dom_rows():
            return drv.execute_script(
                "return Array.from(document.querySelectorAll('#rows .row'))"
                ".sort((a, b) => a.dataset.row - b.dataset.row).map(r => r.textContent.trim().split(/ +/))")
        header = drv.find_element(By.ID, "thead").text.split()
        if header != rows[0]:
            fail(f"table header {header} != decode's {rows[0]}")
        got = dom_rows()
        if len(got) < 10:
            fail(f"only {len(got)} rows in the DOM")
        for r in got[:20]:
            if r != rows[int(r[0]) + 1]:
                fail(f"row {r[0]}: page {r} != decode {rows[int(r[0]) + 1]}")
        if len(got) >= n:
            fail("the table is not virtualised: every row is in the DOM")
        drv.find_element(By.ID, "hex").click()
        for r in dom_rows()[:20]:
            if r != hexrows[int(r[0]) + 1]:
                fail(f"hex row {r[0]}: page {r} != decode --hex {hexrows[int(r[0]) + 1]}")
        drv.find_element(By.ID, "hex").click()
        print(f"table: first {min(20, len(got))} rows equal decode (numbers and --hex)")
        # Row click selects the vertex and draws its marker.
        frames = drv.execute_script("return window.inlayView.frames")
        drv.find_element(By.CSS_SELECTOR, '#rows .row[data-row="4"]').click()
        time.sleep(0.3)
        sel = drv.execute_script("return [window.inlayView.selected, window.inlayView.frames]")
        if sel[0] != 4 or sel[1] <= frames:
            fail(f"clicking row 4 selected {sel[0]} (frames {frames} -> {sel[1]})")
        mark = drv.execute_script(PIXEL_JS, [drv.execute_script("return window.inlayView.project(4)")])[0]
        if not (mark[0] > 200 and mark[1] > 170 and mark[2] < 80):
            fail(f"selected vertex 4 is not highlighted on the canvas: pixel {mark}")
        # Picking in 3D selects the row (a vertex far from 4's position: vertex 2).
        x, y = drv.execute_script("return window.inlayView.project(2)")
        canvas = drv.find_element(By.ID, "gl")
        r = drv.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.width, r.height]", canvas)
        ActionChains(drv).move_to_element_with_offset(canvas, x - r[0] / 2, y - r[1] / 2).click().perform()
        time.sleep(0.3)
        sel = drv.execute_script("return window.inlayView.selected")
        want_pos = drv.execute_script("return window.inlayView.project(2)")
        got_pos = drv.execute_script("return window.inlayView.project(arguments[0])", sel) if sel >= 0 else None
        if sel < 0 or abs(got_pos[0] - want_pos[0]) > 1 or abs(got_pos[1] - want_pos[1]) > 1:
            fail(f"picking vertex 2 on the canvas selected {sel}")
        if not drv.find_elements(By.CSS_SELECTOR, f'#rows .row.selected[data-row="{sel}"]'):
            fail(f"picked vertex {sel}: its row is not shown selected")
        print(f"selection: row click -> vertex 4 highlighted; pick at vertex 2 -> row {sel} selected")
        # Every colour choice (constant, position range, normal, UV checker, integer
        # categories: mapped in the vertex shader) draws the mesh without a WebGL error.
        options = drv.execute_script("return Array.from(document.getElementById('colour').options).map(o => o.value)")
        initial = drv.execute_script("return document.getElementById('colour').value")
        seen = set()
        for value in options:
            Select(drv.find_element(By.ID, "colour")).select_by_value(value)
            time.sleep(0.3)
            px = drv.execute_script(PIXEL_JS, cents)
            lit = [p for p in px if abs(p[0] - bg[0]) + abs(p[1] - bg[1]) + abs(p[2] - bg[2]) > 30]
            if len(lit) != len(px):
                fail(f"colour {value}: only {len(lit)} of {len(px)} triangle centres drawn: {px}")
            seen.add(tuple(px[0][:3]))
        if len(seen) < 3:
            fail(f"the colour choices {options} do not change the colours: {seen}")
        Select(drv.find_element(By.ID, "colour")).select_by_value(initial)
        errs = console_errors(drv)
        if errs:
            fail(f"console errors after the colour choices: {errs}")
        print(f"colour: {len(options)} choices draw the mesh ({len(seen)} distinct colours at a centre)")
        check_orientation(drv, options, initial)
        # The byte view: the selected row's record is the file's bytes, coloured by element;
        # clicking the next record selects the row that reads it.
        vb = open(os.path.join(d, "grid.vb"), "rb").read()
        drv.find_element(By.CSS_SELECTOR, '#rows .row[data-row="4"]').click()
        time.sleep(0.3)
        shown = byte_records(drv)
        want = [f"{b:02x}" for b in vb[4 * STRIDE:5 * STRIDE]]
        if shown.get((0, 4, True)) != want:
            fail(f"byte view of row 4: {shown} != grid.vb bytes {want}")
        colours = drv.execute_script(
            "return Array.from(document.querySelectorAll('#bytes .rec.sel .b')).map(c => c.style.background)")
        if len(set(colours[:12])) != 1 or colours[0] == colours[12] or colours[12] == colours[16]:
            fail(f"byte view colours do not follow the elements (POSITION 0..12, NORMAL 12..16): {colours}")
        drv.find_element(By.CSS_SELECTOR, '#bytes .rec[data-element="5"] .b').click()
        time.sleep(0.3)
        sel = drv.execute_script("return [window.inlayView.selectedRow, window.inlayView.selected]")
        if sel != [5, 5]:
            fail(f"clicking element 5's bytes selected row/vertex {sel}, expected [5, 5]")
        if byte_records(drv).get((0, 5, True)) != [f"{b:02x}" for b in vb[5 * STRIDE:6 * STRIDE]]:
            fail("after clicking element 5's bytes, its record is not the selected one")
        print("byte view: row 4's record equals grid.vb bytes 96..120; clicking element 5's bytes selects row 5")
        errs = console_errors(drv)
        if errs:
            fail(f"console errors after interaction: {errs}")
        check_instanced(drv, args.inlay, d)

        # 1M vertices: first paint (ms since navigation start, as the page records it).
        big = os.path.join(d, "big.html")
        t = time.time()
        run([args.inlay, "view", os.path.join(d, "grid.json"), "--vb", "0=" + os.path.join(d, "big.vb"),
             "--ib", os.path.join(d, "big.ib") + ",format=R32_UINT", "--topology", "triangle_list",
             "--output", big, "--force"])
        gen = time.time() - t
        drv.get("about:blank")
        time.sleep(1)
        wall = load(drv, big)
        info = drv.execute_script(
            "return [window.inlayView.firstPaintMs, document.querySelectorAll('#rows .row').length, "
            "window.inlayView.timings]")
        errs = console_errors(drv)
        if errs:
            fail(f"1M page console errors: {errs}")
        written_ms = info[0]
        print(f"1M-vertex draw: page written in {gen:.2f} s ({os.path.getsize(big) / 1e6:.1f} MB); "
              f"first paint {info[0]:.0f} ms after navigation start (ready {wall:.2f} s wall); "
              f"{info[1]} table rows in the DOM; stages (ms): {info[2]}; "
              f"arrays (start, ms): {drv.execute_script('return window.inlayView.prof')}")

        # The same draw served by `inlay view` (arrays fetched as binary, no base64).
        srv = subprocess.Popen([args.inlay, "view", os.path.join(d, "grid.json"), "--vb", "0=" + os.path.join(d, "big.vb"),
                                "--ib", os.path.join(d, "big.ib") + ",format=R32_UINT", "--topology", "triangle_list"],
                               stdout=subprocess.PIPE, text=True)
        try:
            line = srv.stdout.readline()
            if not line.startswith("serving http://127.0.0.1:"):
                fail(f"server printed {line!r}")
            url = line.split()[1]
            drv.get("about:blank")  # unload the 117 MB page first: its teardown is not this page's
            time.sleep(1)
            wall = load(drv, url)
            info = drv.execute_script(
                "return [window.inlayView.firstPaintMs, window.inlayView.timings, window.inlayView.prof]")
            errs = console_errors(drv)
            if errs:
                fail(f"served 1M page console errors: {errs}")
            served_ms = info[0]
            print(f"1M-vertex draw served: first paint {info[0]:.0f} ms after navigation start "
                  f"(ready {wall:.2f} s wall); stages (ms): {info[1]}; arrays (start, ms): {info[2]}")
        finally:
            srv.kill()
            srv.wait()
        # A 3DMigoto mod (the README's example): the part list, the state switch, a part off.
        box = os.path.join(os.path.dirname(__file__), "../../../examples/mod/Box.ini")
        boxpage = os.path.join(d, "box.html")
        run([args.inlay, "view", box, "--output", boxpage, "--force"])
        drv.get("about:blank")
        load(drv, boxpage)
        errs = console_errors(drv)
        if errs:
            fail(f"mod page console errors: {errs}")
        parts = drv.execute_script("return window.inlayView.modParts()")
        if parts != ["TextureOverrideBoxCaps", "TextureOverrideBoxSides"]:
            fail(f"mod page, default state: parts {parts}")
        lit = drv.execute_script(PIXEL_JS, [drv.execute_script("return window.inlayView.project(6)")])[0]
        drv.execute_script("""
            const s = document.getElementById('modstate'); s.value = '1';
            s.dispatchEvent(new Event('change'));""")
        parts = drv.execute_script("return window.inlayView.modParts()")
        if parts != ["TextureOverrideBoxCaps", "TextureOverrideBoxSides~2"]:
            fail(f"mod page, state $sides=1: parts {parts}")
        drv.execute_script("""
            for (const c of document.querySelectorAll('#modparts input')) {
              c.checked = false; c.dispatchEvent(new Event('change')); }""")
        time.sleep(0.3)
        parts = drv.execute_script("return window.inlayView.modParts()")
        if parts != []:
            fail(f"mod page: parts still shown after switching them off: {parts}")
        print(f"mod page: parts per state and switches ok (pixel at vertex 6 before: {lit})")

        try:
            loadavg = " / ".join(f"{x:.2f}" for x in os.getloadavg())
        except OSError:
            loadavg = "?"
        print("=" * 72)
        print(paint_line("served", served_ms))
        print(paint_line("written (file://)", written_ms))
        print(f"(load average {loadavg} on {os.cpu_count()} cores)")
        print("=" * 72)

        check_frame(drv, args.inlay, d)

        if args.screenshot:
            shared = os.environ.get("INLAY_SHARED", os.path.join(os.path.dirname(__file__), "../../../../shared"))
            rover = os.path.join(shared, "dumps/SpectrumQT+WWMI-Assets/PlayerCharacterData/RoverFemale")
            layout = os.path.join(os.path.dirname(__file__), "../../../examples/layouts/wwmi-component-48.json")
            shot = os.path.join(d, "shot.html")
            if os.path.isdir(rover):
                run([args.inlay, "view", layout, "--vb", "0=" + os.path.join(rover, "Component 6.vb"),
                     "--ib", os.path.join(rover, "Component 6.ib") + ",format=R16_UINT",
                     "--topology", "triangle_list", "--output", shot, "--force"])
            else:
                print(f"screenshot: {rover} absent, showing the generated grid")
                shot = page
            drv.set_window_size(1400, 900)
            load(drv, shot)
            # A selected row: its vertex marked in 3D, its records in the byte view below.
            drv.execute_script("window.inlayView.selectRow(6)")
            time.sleep(0.5)
            drv.save_screenshot(args.screenshot)
            print(f"screenshot: {args.screenshot}")
    finally:
        drv.quit()
        shutil.rmtree(d, ignore_errors=True)  # the 1M-vertex files are large
    print("view browser test: ok")


if __name__ == "__main__":
    main()
