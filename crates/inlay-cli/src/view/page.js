// inlay view: the page's script. Plain WebGL2 and DOM, no libraries. The data block
// (#inlay-data) is written by `inlay view` (crates/inlay-cli/src/view.rs).
"use strict";
(async function () {
  const t0 = performance.now();
  const D = JSON.parse(document.getElementById("inlay-data").textContent);
  const api = (window.inlayView = { ready: false, selected: -1, firstPaintMs: null, timings: { script: t0 } });
  const mark = (k) => (api.timings[k] = Math.round(performance.now()));
  mark("json");

  // ---- data -------------------------------------------------------------------------------
  // Served pages fetch each array from the binary blob with a range request when it is first
  // needed (the first paint waits only for what it draws); a written page carries each array
  // in a block of its own: base64 of the raw-deflated bytes, regrouped into `shuffle` byte
  // planes, the items' words delta-coded when `delta` (see `Arrays` in view.rs).
  const prof = (api.prof = {});
  async function fetchRange(ref) {
    if (!ref.length) return new Uint8Array(0);
    const t = performance.now();
    const r = await fetch(D.blob, { headers: { Range: "bytes=" + ref.offset + "-" + (ref.offset + ref.length - 1) } });
    if (!r.ok) throw new Error(D.blob + ": " + r.status);
    const b = new Uint8Array(await r.arrayBuffer());
    if (b.length !== ref.length) throw new Error(D.blob + ": " + b.length + " bytes at " + ref.offset + ", expected " + ref.length);
    prof["@" + ref.offset] = [Math.round(t), Math.round(performance.now() - t)];
    return b;
  }
  // A block the parser has not reached yet (the byte view's, after this script) is there
  // once the document is parsed.
  const parsed = document.readyState === "loading"
    ? new Promise((resolve) => document.addEventListener("DOMContentLoaded", resolve)) : Promise.resolve();
  function fromBase64(text) {
    if (Uint8Array.fromBase64) return Uint8Array.fromBase64(text);
    const bin = atob(text);
    const u8 = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) u8[i] = bin.charCodeAt(i);
    return u8;
  }
  // Inflating a block and putting its planes back into items (the byte arrays of `ref`, see
  // `Arrays` in view.rs). Self-contained: the workers below run the same source.
  async function unpackBlock(packed, ref) {
    // Inflated straight into one buffer of the expected length.
    // From the bytes in memory (a Blob's stream would go through the browser's blob store).
    const source = new ReadableStream({
      start(c) {
        c.enqueue(packed);
        c.close();
      },
    });
    const reader = source.pipeThrough(new DecompressionStream("deflate-raw")).getReader();
    const planes = new Uint8Array(ref.length);
    let got = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (got + value.length > planes.length) throw new Error(ref.block + ": more than the expected " + ref.length + " bytes");
      planes.set(value, got);
      got += value.length;
    }
    if (got !== ref.length) throw new Error(ref.block + ": " + got + " bytes, expected " + ref.length);
    const w = ref.shuffle || 1;
    if (w === 1) return planes;
    const n = Math.floor(ref.length / w);
    const out = new Uint8Array(ref.length);
    if (w % 4 === 0) {
      // Items of L words: word l of every item from planes 4l..4l+3, each the sum of the
      // deltas so far when delta-coded.
      const L = w / 4;
      const o32 = new Uint32Array(out.buffer, 0, n * L);
      for (let l = 0; l < L; l++) {
        const p0 = planes.subarray(4 * l * n, (4 * l + 1) * n), p1 = planes.subarray((4 * l + 1) * n, (4 * l + 2) * n);
        const p2 = planes.subarray((4 * l + 2) * n, (4 * l + 3) * n), p3 = planes.subarray((4 * l + 3) * n, (4 * l + 4) * n);
        if (ref.delta) {
          let acc = 0;
          for (let i = 0, j = l; i < n; i++, j += L) {
            acc = (acc + (p0[i] | (p1[i] << 8) | (p2[i] << 16) | (p3[i] << 24))) | 0;
            o32[j] = acc;
          }
        } else {
          for (let i = 0, j = l; i < n; i++, j += L) o32[j] = (p0[i] | (p1[i] << 8) | (p2[i] << 16) | (p3[i] << 24)) >>> 0;
        }
      }
    } else {
      for (let k = 0; k < w; k++) for (let i = 0, j = k; i < n; i++, j += w) out[j] = planes[k * n + i];
    }
    out.set(planes.subarray(n * w), n * w);
    return out;
  }
  // Blocks are unpacked in workers, side by side and off this thread (a worker made from a
  // blob: URL works from file:// too); where workers cannot start or fail, here.
  // (Measured in headless Chromium on 2 cores: a 1M-vertex page's first arrays are ready
  // ~0.3 s sooner with them.) Started with the first block: a served page needs none.
  const pool = [];
  let next = 0, jobs = 0, started = false;
  const waiting = new Map();
  function startPool() {
    started = true;
    try {
      const src = "const unpackBlock = " + unpackBlock.toString() + ";\n" +
        "onmessage = async (e) => {\n" +
        "  try { const out = await unpackBlock(e.data.packed, e.data.ref); postMessage({ id: e.data.id, out: out }, [out.buffer]); }\n" +
        "  catch (err) { postMessage({ id: e.data.id, error: String(err) }); }\n" +
        "};\n";
      const url = URL.createObjectURL(new Blob([src], { type: "text/javascript" }));
      const size = Math.max(2, Math.min(4, (navigator.hardwareConcurrency || 2) + 1));
      for (let i = 0; i < size; i++) {
        const w = new Worker(url);
        w.onmessage = (e) => {
          const job = waiting.get(e.data.id);
          waiting.delete(e.data.id);
          if (e.data.error) job.reject(new Error(e.data.error));
          else job.resolve(e.data.out);
        };
        // A worker that cannot run: its jobs (and every later one) are done here.
        w.onerror = (e) => {
          e.preventDefault();
          pool.length = 0;
          for (const [id, job] of waiting) {
            if (job.worker !== w) continue;
            waiting.delete(id);
            unpackBlock(job.packed, job.ref).then(job.resolve, job.reject);
          }
        };
        pool.push(w);
      }
    } catch (e) {
      pool.length = 0;
    }
  }
  function unpackAnywhere(packed, ref) {
    if (!started) startPool();
    if (!pool.length) return unpackBlock(packed, ref);
    const worker = pool[next++ % pool.length];
    const id = ++jobs;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve: resolve, reject: reject, worker: worker, packed: packed, ref: ref });
      worker.postMessage({ id: id, packed: packed, ref: ref });
    });
  }
  async function bytesOf(ref) {
    if (!ref) return new Uint8Array(0);
    if (ref.block === undefined) return fetchRange(ref);
    let el = document.getElementById(ref.block);
    if (!el) {
      await parsed;
      el = document.getElementById(ref.block);
    }
    const t = performance.now();
    const packed = fromBase64(el.textContent.trim());
    el.textContent = "";
    const out = await unpackAnywhere(packed, ref);
    prof[ref.block] = [Math.round(t), Math.round(performance.now() - t)];
    return out;
  }
  async function u32s(ref) {
    const b = await bytesOf(ref);
    return new Uint32Array(b.buffer, b.byteOffset, b.length >> 2);
  }
  const N = D.vertex_count;
  // Attribute arrays hold the lanes the format has (`lanes`), one u32 each per vertex. They
  // are unpacked when first needed: the 3D view's position and colour before the first paint,
  // the rest for the table after it.
  const attrs = D.attributes.map((a) => Object.assign({}, a, { L: a.lanes.length, bits: null, f32: null, loading: null }));
  function ensure(i) {
    const a = attrs[i];
    if (!a) return Promise.resolve();
    if (!a.loading) {
      a.loading = u32s(a.data).then((bits) => {
        a.bits = bits;
        a.f32 = new Float32Array(bits.buffer, bits.byteOffset, bits.length);
      });
    }
    return a.loading;
  }
  // The instance whose per-instance values the 3D view and a single-instance table show.
  const K = Math.max(1, D.instance_count);
  let instance = 0;
  // Lane `l` (0..3) of vertex `v` as f32 (a per-instance attribute: of the shown instance),
  // or the IA's default for a lane the format lacks.
  function laneF(a, v, l) {
    const j = a.lanes.indexOf(l);
    const row = a.per_instance ? instance : v;
    return j >= 0 ? a.f32[row * a.L + j] : l === 3 ? 1 : 0;
  }
  const normalIndex = attrs.findIndex((a) => a.semantic.toUpperCase() === "NORMAL" && a.kind !== "uint" && a.kind !== "sint");
  // The first paint unpacks only what it draws (awaited once the shaders are compiling, in
  // the 3D section below); the table's other columns and the stream follow it.
  const firstArrays = Promise.all([
    u32s(D.indices),
    D.vertex_elements ? u32s(D.vertex_elements) : Promise.resolve(null),
    ensure(D.position),
    ensure(normalIndex),
  ]);
  let indices = null, elements = null;
  const elementOf = (v) => (elements ? elements[v] : (D.vertex_base + v) >>> 0);
  // Mesh vertex of element number `e`, or -1 when the draw reads no such vertex.
  function vertexOfElement(e) {
    if (!elements) {
      const v = (e - D.vertex_base) >>> 0;
      return v < N ? v : -1;
    }
    let lo = 0, hi = N - 1;
    while (lo <= hi) {
      const m = (lo + hi) >> 1;
      if (elements[m] === e) return m;
      if (elements[m] < e) lo = m + 1; else hi = m - 1;
    }
    return -1;
  }

  // ---- values exactly as `inlay decode` prints them -----------------------------------------
  // Floats: Rust's `{:?}` of the f32 — the shortest digits that read back as the same f32,
  // in exponent form below 1e-4 or from 1e16 up, else positional with at least one fraction
  // digit. Integers: the u32 or i32. Hex: the 8 register-bit digits.
  const f32buf = new Float32Array(1);
  const u32buf = new Uint32Array(f32buf.buffer);
  function fmtFloat(bits) {
    u32buf[0] = bits;
    const f = f32buf[0];
    if (Number.isNaN(f)) return "NaN";
    if (f === Infinity) return "inf";
    if (f === -Infinity) return "-inf";
    if (f === 0) return bits >>> 31 ? "-0.0" : "0.0";
    const a = Math.abs(f);
    let e = "";
    for (let p = 1; p <= 9; p++) {
      e = a.toExponential(p - 1);
      if (Math.fround(parseFloat(e)) === a) break;
    }
    const [mant, expS] = e.split("e");
    const digits = mant.replace(".", "").replace(/0+$/, "") || "0";
    const exp = parseInt(expS, 10);
    const sign = f < 0 ? "-" : "";
    if (a < 1e-4 || a >= 1e16) {
      return sign + digits[0] + (digits.length > 1 ? "." + digits.slice(1) : "") + "e" + exp;
    }
    if (exp >= 0) {
      const int = digits.length > exp + 1 ? digits.slice(0, exp + 1) : digits.padEnd(exp + 1, "0");
      const frac = digits.length > exp + 1 ? digits.slice(exp + 1) : "0";
      return sign + int + "." + frac;
    }
    return sign + "0." + "0".repeat(-exp - 1) + digits;
  }
  function fmt(bits, kind, hex) {
    if (hex) return (bits >>> 0).toString(16).padStart(8, "0");
    if (kind === "uint") return String(bits >>> 0);
    if (kind === "sint") return String(bits | 0);
    return fmtFloat(bits);
  }
  api.format = fmt;

  // ---- table (virtualised: only the visible rows are in the DOM) ----------------------------
  // decode's rows: one per vertex-stream position, of one instance or of every instance in
  // turn ("all instances": row r is instance r / P, position r % P of it).
  const P = D.positions;
  let stream = null;
  let allInstances = false;
  const rowCount = () => (allInstances ? K * P : P);
  function rowInfo(r) {
    const i = allInstances ? Math.floor(r / P) : instance;
    const p = allInstances ? r % P : r;
    const v = stream[p];
    const element = elementOf(v);
    return { instance: i, p: p, position: i * P + p, vertex: v, element: element, vertexId: (element - D.vertex_id_base) >>> 0 };
  }
  const ROW = 18;
  const LANE = ["x", "y", "z", "w"];
  const columns = [];
  for (const a of attrs) a.lanes.forEach((l, j) => columns.push({ a: a, j: j, name: a.name + "." + LANE[l] }));
  const names = ["position", "vertex_id", "element", "instance_id"].concat(columns.map((c) => c.name));
  const widths = names.map((n, i) => Math.max(i < 4 ? 8 : 12, n.length));
  const pad = (s, w) => (s.length >= w ? s : " ".repeat(w - s.length) + s);
  const hexBox = document.getElementById("hex");
  function cells(r) {
    const hex = hexBox.checked;
    const q = rowInfo(r);
    const out = [String(q.position), String(q.vertexId), String(q.element), String(q.instance)];
    for (const c of columns) {
      const row = c.a.per_instance ? q.instance : q.vertex;
      const k = row * c.a.L + c.j;
      out.push(k < c.a.bits.length ? fmt(c.a.bits[k], c.a.kind, hex) : "?");
    }
    return out;
  }
  function rowText(r) {
    return cells(r).map((s, i) => pad(s, widths[i])).join(" ");
  }
  api.cells = cells;
  api.rowText = rowText;
  api.rowInfo = rowInfo;
  document.getElementById("thead").textContent = " " + names.map((s, i) => pad(s, widths[i])).join(" ");
  const rowsBox = document.getElementById("rows");
  const spacer = document.getElementById("spacer");
  const live = new Map();
  let tableReady = false;
  function renderRows(force) {
    if (!tableReady) return;
    const n = rowCount();
    spacer.style.height = n * ROW + "px";
    document.getElementById("rowcount").textContent =
      n + " rows (" + P + " positions" + (K > 1 ? (allInstances ? " × " + K + " instances" : " of instance " + instance) : "") + "), " + N + " vertices";
    const first = Math.max(0, Math.floor(rowsBox.scrollTop / ROW) - 5);
    const last = Math.min(n, Math.ceil((rowsBox.scrollTop + rowsBox.clientHeight) / ROW) + 5);
    for (const [r, el] of live) {
      if (force || r < first || r >= last) {
        el.remove();
        live.delete(r);
      }
    }
    for (let r = first; r < last; r++) {
      if (live.has(r)) continue;
      const el = document.createElement("div");
      el.className = "row" + (r === api.selectedRow ? " selected" : "");
      el.style.top = r * ROW + "px";
      el.dataset.row = r;
      el.textContent = rowText(r);
      rowsBox.appendChild(el);
      live.set(r, el);
    }
  }
  rowsBox.addEventListener("scroll", () => renderRows(false));
  rowsBox.addEventListener("click", (ev) => {
    const el = ev.target.closest(".row");
    if (el) selectRow(parseInt(el.dataset.row, 10), false);
  });
  hexBox.addEventListener("change", () => renderRows(true));
  document.getElementById("thead").style.paddingLeft = "4px";
  rowsBox.addEventListener("scroll", () => {
    document.getElementById("thead").scrollLeft = rowsBox.scrollLeft;
  });

  // Instances: one at a time, or every instance's rows in turn.
  const instSel = document.getElementById("instance");
  for (let i = 0; i < K; i++) instSel.add(new Option("instance " + i, String(i)));
  if (K > 1) instSel.add(new Option("all instances (" + K + " × " + P + " rows)", "all"));
  instSel.hidden = K <= 1;
  function setInstance(value) {
    const q = api.selectedRow >= 0 ? rowInfo(api.selectedRow) : null;
    allInstances = value === "all";
    if (!allInstances) instance = Math.max(0, Math.min(K - 1, parseInt(value, 10) || 0));
    instSel.value = allInstances ? "all" : String(instance);
    api.selectedRow = q ? (allInstances ? instance * P + q.p : q.p) : -1;
    recolour();
    renderRows(true);
    selectRow(api.selectedRow, true);
  }
  instSel.addEventListener("change", () => setInstance(instSel.value));
  api.setInstance = (v) => setInstance(String(v));

  // Selection: a row (a position of an instance); its mesh vertex is marked in 3D and its
  // records in the byte view.
  api.selectedRow = -1;
  api.selected = -1;
  function selectRow(r, scroll) {
    if (!stream) return;
    api.selectedRow = r >= 0 && r < rowCount() ? r : -1;
    const q = api.selectedRow >= 0 ? rowInfo(api.selectedRow) : null;
    api.selected = q ? q.vertex : -1;
    if (q && allInstances && q.instance !== instance) {
      instance = q.instance;
      recolour();
    }
    for (const [k, el] of live) el.classList.toggle("selected", k === api.selectedRow);
    if (scroll && api.selectedRow >= 0) {
      const y = api.selectedRow * ROW;
      if (y < rowsBox.scrollTop || y > rowsBox.scrollTop + rowsBox.clientHeight - ROW) {
        rowsBox.scrollTop = Math.max(0, y - rowsBox.clientHeight / 2);
      }
      renderRows(false);
    }
    document.getElementById("pickinfo").textContent = q
      ? "position " + q.position + ": vertex " + q.vertex + " (element " + q.element + "), instance " + q.instance
      : "";
    renderBytes();
    draw();
  }
  // The first row of the shown instance(s) that reads mesh vertex `v`.
  let firstPos = null;
  function rowOfVertex(v) {
    if (!firstPos) {
      firstPos = new Int32Array(N).fill(-1);
      for (let p = P - 1; p >= 0; p--) firstPos[stream[p]] = p;
    }
    const p = v >= 0 && v < N ? firstPos[v] : -1;
    if (p < 0) return -1;
    return allInstances ? instance * P + p : p;
  }
  function select(v, scroll) {
    if (!stream) return;
    selectRow(rowOfVertex(v), scroll);
  }
  api.select = (v) => select(v, true);
  api.selectRow = (r) => selectRow(r, true);

  // ---- byte view: the selected row's records in each slot, as the buffer holds them ---------
  const slotBytes = new Map();
  function ensureSlot(s) {
    if (!slotBytes.has(s.slot)) slotBytes.set(s.slot, bytesOf(s.bytes).then((b) => slotBytes.set(s.slot, b)));
    const b = slotBytes.get(s.slot);
    return b instanceof Uint8Array ? null : b;
  }
  const hex2 = (b) => (b < 16 ? "0" : "") + b.toString(16);
  // The element of a slot that covers byte `k` of a record: its index, -1 (padding) or -2
  // (two elements overlap there).
  function elementAt(slot, k) {
    let found = -1;
    for (let i = 0; i < D.elements.length; i++) {
      const e = D.elements[i];
      if (e.slot === slot && k >= e.offset && k < e.offset + e.size) found = found === -1 ? i : -2;
    }
    return found;
  }
  const bytesBox = document.getElementById("bytes");
  let bytesWaiting = false;
  function renderBytes() {
    bytesBox.textContent = "";
    const q = api.selectedRow >= 0 ? rowInfo(api.selectedRow) : null;
    if (!q) {
      bytesBox.textContent = "select a row (or a vertex in 3D) to see its bytes";
      return;
    }
    for (const s of D.slots) {
      const n = s.per_instance ? s.instance_elements[q.instance] : q.element;
      const head = document.createElement("div");
      head.className = "slothead";
      const at = s.offset + n * s.stride;
      head.textContent = "slot " + s.slot + " (" + (s.file ? s.file.split(/[\\/]/).pop() : "unbound") + "): " +
        (s.per_instance ? "instance " + q.instance + " reads" : "vertex") + " element " + n +
        ", bytes " + at + ".." + (at + s.width) + " (stride " + s.stride + ", offset " + s.offset + ")" +
        (s.note ? " — " + s.note : "");
      bytesBox.appendChild(head);
      if (!s.bytes || n === undefined) continue;
      const pending = ensureSlot(s);
      if (pending) {
        if (!bytesWaiting) {
          bytesWaiting = true;
          pending.then(() => { bytesWaiting = false; renderBytes(); });
        }
        continue;
      }
      const bytes = slotBytes.get(s.slot);
      const lo = Math.max(s.first, n - 2), hi = Math.min(s.first + s.count - 1, n + 2);
      for (let m = lo; m <= hi; m++) {
        const rec = document.createElement("div");
        rec.className = "rec" + (m === n ? " sel" : "");
        rec.dataset.slot = s.slot;
        rec.dataset.element = m;
        const label = document.createElement("span");
        label.className = "off";
        label.textContent = pad(String(m), 8) + " @" + pad(String(s.offset + m * s.stride), 10) + " ";
        rec.appendChild(label);
        const base = (m - s.first) * s.stride;
        for (let k = 0; k < s.width; k++) {
          const cell = document.createElement("span");
          cell.className = "b";
          const i = base + k;
          cell.textContent = i < bytes.length ? hex2(bytes[i]) : "··";
          const e = elementAt(s.slot, k);
          if (e >= 0) cell.style.background = D.elements[e].colour;
          else if (e === -2) cell.style.background = "#e03030";
          cell.title = "byte " + k + (e >= 0 ? ": " + D.elements[e].name : e === -2 ? ": overlap" : ": padding") +
            (i < bytes.length ? "" : " (past the buffer: reads as zero)");
          rec.appendChild(cell);
        }
        bytesBox.appendChild(rec);
      }
    }
    api.bytesShown = (api.bytesShown || 0) + 1;
  }
  // Clicking a record selects the first row that reads it.
  bytesBox.addEventListener("click", (ev) => {
    const rec = ev.target.closest(".rec");
    if (!rec || api.selectedRow < 0) return;
    const s = D.slots.find((x) => x.slot === parseInt(rec.dataset.slot, 10));
    const m = parseInt(rec.dataset.element, 10);
    const q = rowInfo(api.selectedRow);
    if (s.per_instance) {
      const i = s.instance_elements.indexOf(m);
      if (i < 0) return;
      if (allInstances) selectRow(i * P + q.p, true);
      else {
        instance = i;
        instSel.value = String(i);
        recolour();
        renderRows(true);
        selectRow(q.p, true);
      }
      return;
    }
    const v = vertexOfElement(m);
    if (v >= 0 && rowOfVertex(v) >= 0) select(v, true);
    else document.getElementById("pickinfo").textContent = "element " + m + " is not read by the draw";
  });

  // ---- info panel ---------------------------------------------------------------------------
  document.getElementById("result").textContent = D.result;
  document.getElementById("diagnostics").textContent = D.diagnostics.join("\n") || "no diagnostics";
  document.getElementById("layout").textContent = D.layout_table;
  document.getElementById("mapsvg").innerHTML = D.map_svg;
  document.getElementById("maptext").textContent = D.map_text;
  document.getElementById("draw").textContent =
    D.draw + "\nfiles: " + D.files.join(", ") + (D.warnings.length ? "\nwarnings:\n" + D.warnings.join("\n") : "");

  // ---- 3D -----------------------------------------------------------------------------------
  const canvas = document.getElementById("gl");
  // Multisampling only for draws of up to 300 000 primitives: a larger mesh's primitives are
  // about a pixel each, and a software renderer (headless Chromium's SwiftShader) spends
  // twice as long drawing a 1M-vertex grid with it (2-core machine: 2 s more).
  const primitives = ((D.indices && D.indices.length) || 0) / 4 / (D.mode === "triangles" ? 3 : D.mode === "lines" ? 2 : 1);
  const gl = canvas.getContext("webgl2", { preserveDrawingBuffer: true, antialias: primitives <= 300000 });
  const posAttr = D.position === null || D.position === undefined ? null : attrs[D.position];
  function fail(msg) {
    const e = document.getElementById("glerror");
    e.hidden = false;
    e.textContent = msg;
  }
  if (!gl) fail("WebGL2 is not available in this browser: the table and byte map still work.");
  if (!posAttr) fail("no position element (POSITION or a float element with 2+ components) to draw");

  const VS = `#version 300 es
  layout(location = 0) in vec3 aPos;
  layout(location = 1) in vec4 aCol;
  layout(location = 2) in uvec4 aKey;
  uniform mat4 uMvp, uView;
  uniform float uPointSize;
  // How the colour attribute becomes a colour: 0 as it is (a colour, or the UV the
  // fragment shader draws a checker from), 1 a normal (0.5 + 0.5 n), 2 scaled into the
  // range uLo..uLo+uSpan, 3 a category hashed from uKeyLanes integer lanes (FNV-1a).
  uniform int uColMode, uKeyLanes;
  uniform vec3 uLo, uSpan;
  out vec4 vCol; out vec3 vView;
  void main() {
    gl_Position = uMvp * vec4(aPos, 1.0);
    vView = (uView * vec4(aPos, 1.0)).xyz;
    vec4 c = aCol;
    if (uColMode == 1) c = vec4(0.5 + 0.5 * aCol.xyz, 1.0);
    else if (uColMode == 2) c = vec4(mix(vec3(0.5), (aCol.xyz - uLo) / max(uSpan, vec3(1e-30)), vec3(greaterThan(uSpan, vec3(0.0)))), 1.0);
    else if (uColMode == 3) {
      uint h = 2166136261u;
      for (int j = 0; j < 4; j++) if (j < uKeyLanes) h = (h ^ aKey[j]) * 16777619u;
      c = vec4(0.3 + 0.7 * vec3(float(h & 255u), float((h >> 8) & 255u), float((h >> 16) & 255u)) / 255.0, 1.0);
    }
    vCol = c;
    gl_PointSize = uPointSize;
  }`;
  const FS = `#version 300 es
  precision highp float;
  in vec4 vCol; in vec3 vView;
  uniform int uLit, uChecker, uHighlight;
  out vec4 o;
  void main() {
    if (uHighlight == 1) { o = vec4(1.0, 0.85, 0.1, 1.0); return; }
    vec3 c = vCol.rgb;
    if (uChecker == 1) {
      float k = mod(floor(vCol.x * 8.0) + floor(vCol.y * 8.0), 2.0);
      c = mix(vec3(0.25, 0.28, 0.35), vec3(0.9, 0.9, 0.85), k);
    }
    if (uLit == 1) {
      vec3 n = normalize(cross(dFdx(vView), dFdy(vView)));
      c *= 0.3 + 0.7 * abs(n.z);
    }
    o = vec4(c, 1.0);
  }`;
  let prog, uni = {}, triIbo = null, lineIbo = null, lineCount = 0;

  // Orientation: a grid on the XZ plane at the bounds' lowest y (a line every power-of-ten
  // step, the lines z = 0 and x = 0 in the X and Z axis colours), drawn first as a backdrop
  // the mesh covers, and an axis gizmo in the lower left corner (X red, Y green, Z blue, with
  // labels) that turns with the camera. Their own program and vertex arrays (x, y, z, r, g, b).
  const LVS = `#version 300 es
  layout(location = 0) in vec3 aPos;
  layout(location = 1) in vec3 aCol;
  uniform mat4 uMvp;
  out vec3 vCol;
  void main() { gl_Position = uMvp * vec4(aPos, 1.0); vCol = aCol; }`;
  const LFS = `#version 300 es
  precision highp float;
  in vec3 vCol;
  out vec4 o;
  void main() { o = vec4(vCol, 1.0); }`;
  const AXIS_RGB = [[0.95, 0.3, 0.3], [0.35, 0.9, 0.35], [0.35, 0.55, 1.0]];
  const GRID_RGB = [0.25, 0.27, 0.33];
  let lineProg = null, lineMvp = null, meshVao = null, gridVao = null, gridVerts = 0, gizmoVao = null;
  const grid = (api.grid = { y: 0, step: 1, lo: [0, 0], hi: [0, 0] });
  function lineArray(data) {
    const vao = gl.createVertexArray();
    gl.bindVertexArray(vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(data), gl.STATIC_DRAW);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 24, 0);
    gl.enableVertexAttribArray(1);
    gl.vertexAttribPointer(1, 3, gl.FLOAT, false, 24, 12);
    gl.bindVertexArray(meshVao);
    return vao;
  }
  // The grid for bounds lo..hi: 1.2 × the bounding radius around the centre, rounded out to
  // the step, a power of ten giving 2 to 20 cells a side.
  function buildGrid(lo, hi) {
    const half = 1.2 * bbox.r;
    const step = Math.pow(10, Math.ceil(Math.log10(half / 10)));
    const x0 = Math.floor((bbox.c[0] - half) / step), x1 = Math.ceil((bbox.c[0] + half) / step);
    const z0 = Math.floor((bbox.c[2] - half) / step), z1 = Math.ceil((bbox.c[2] + half) / step);
    const y = Number.isFinite(lo[1]) ? lo[1] : 0;
    Object.assign(grid, { y: y, step: step, lo: [x0 * step, z0 * step], hi: [x1 * step, z1 * step] });
    const data = [];
    for (let i = x0; i <= x1; i++) {
      const c = i === 0 ? AXIS_RGB[2] : GRID_RGB;
      data.push(i * step, y, z0 * step, ...c, i * step, y, z1 * step, ...c);
    }
    for (let k = z0; k <= z1; k++) {
      const c = k === 0 ? AXIS_RGB[0] : GRID_RGB;
      data.push(x0 * step, y, k * step, ...c, x1 * step, y, k * step, ...c);
    }
    gridVerts = data.length / 6;
    gridVao = lineArray(data);
  }
  const gizmoLabels = ["X", "Y", "Z"].map((t, i) => {
    const e = document.createElement("span");
    e.className = "axislabel";
    e.textContent = t;
    e.style.color = "rgb(" + AXIS_RGB[i].map((x) => Math.round(x * 255)).join(",") + ")";
    return e;
  });
  // The gizmo's square (CSS pixels) and, for each axis, where its tip is drawn: the view's
  // rotation applied to the unit axes, orthographic.
  const GIZMO = 90;
  function gizmoTips(view) {
    return [0, 1, 2].map((a) => [
      (0.5 + 0.5 * 0.75 * view[a * 4]) * GIZMO,
      canvas.clientHeight - (0.5 + 0.5 * 0.75 * view[a * 4 + 1]) * GIZMO,
    ]);
  }
  api.gizmo = () => ({ origin: [GIZMO / 2, canvas.clientHeight - GIZMO / 2], tips: gizmoTips(matrices().view) });
  function paintHelpers(view, dpr, before) {
    const show = document.getElementById("grid").checked;
    gizmoLabels.forEach((e) => { e.hidden = !show; });
    if (!show || !lineProg) return;
    gl.useProgram(lineProg);
    if (before && gridVao) {
      // The grid: depth-tested against nothing, writing no depth, so the mesh covers it.
      gl.depthMask(false);
      gl.uniformMatrix4fv(lineMvp, false, matrices().mvp);
      gl.bindVertexArray(gridVao);
      gl.drawArrays(gl.LINES, 0, gridVerts);
      gl.depthMask(true);
    } else if (!before) {
      const s = Math.round(GIZMO * dpr);
      gl.viewport(0, 0, s, s);
      gl.disable(gl.DEPTH_TEST);
      const r = new Float32Array(16);
      for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) r[c * 4 + k] = 0.75 * view[c * 4 + k] * (k === 2 ? -0.5 : 1);
      r[15] = 1;
      gl.uniformMatrix4fv(lineMvp, false, r);
      gl.bindVertexArray(gizmoVao);
      gl.drawArrays(gl.LINES, 0, 6);
      gl.viewport(0, 0, canvas.width, canvas.height);
      gizmoTips(view).forEach(([x, y], a) => {
        const e = gizmoLabels[a];
        e.style.left = canvas.offsetLeft + GIZMO / 2 + (x - GIZMO / 2) * 1.25 - 4 + "px";
        e.style.top = canvas.offsetTop + canvas.clientHeight - GIZMO / 2 + (y - canvas.clientHeight + GIZMO / 2) * 1.25 - 8 + "px";
      });
    }
    gl.bindVertexArray(meshVao);
    gl.useProgram(prog);
  }
  const bbox = { c: [0, 0, 0], r: 1 };
  const cam = { yaw: 0.6, pitch: 0.4, dist: 3, target: [0, 0, 0] };

  // The colour attribute goes to the GPU as the page holds it (f32 lanes, or the integer
  // lanes as uvec4) and the vertex shader maps it (uColMode): no per-vertex pass here. A
  // per-instance attribute is a constant: the shown instance's value.
  let colBuf = null;
  let colMode = 0, keyLanes = 0, colLo = [0, 0, 0], colSpan = [0, 0, 0];
  function colourOf(choice) {
    const a = choice >= 0 ? attrs[choice] : null;
    if (!a) return { mode: 0, checker: 0 };
    const sem = a.semantic.toUpperCase();
    if (a.kind === "uint" || a.kind === "sint") return { mode: 3, checker: 0 };
    if (sem.indexOf("NORMAL") >= 0 || sem.indexOf("TANGENT") >= 0) return { mode: 1, checker: 0 };
    if (sem.indexOf("TEXCOORD") >= 0 || (a.lanes.length === 2 && sem !== "POSITION")) return { mode: 0, checker: 1 };
    if (sem.indexOf("COLOR") >= 0) return { mode: 0, checker: 0 };
    return { mode: 2, checker: 0 };
  }
  // Lowest and highest finite value of lanes 0..2 (a lane the format lacks is 0).
  function range(a) {
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    if (a === posAttr && D.bounds) {
      D.bounds.lo.forEach((x, l) => { if (x !== null) { lo[l] = x; hi[l] = D.bounds.hi[l]; } });
    } else {
      const rows = a.per_instance ? 1 : N;
      for (let v = 0; v < rows; v++)
        for (let l = 0; l < Math.min(3, a.L); l++) {
          const x = a.f32[(a.per_instance ? instance : v) * a.L + l];
          if (Number.isFinite(x)) { if (x < lo[l]) lo[l] = x; if (x > hi[l]) hi[l] = x; }
        }
    }
    for (let l = 0; l < 3; l++) {
      if (l >= a.L || !(lo[l] <= hi[l])) { lo[l] = 0; hi[l] = 0; }
    }
    return { lo: lo, span: [0, 1, 2].map((l) => hi[l] - lo[l]) };
  }
  let checker = 0;
  async function setColour(choice) {
    await ensure(choice);
    const a = choice >= 0 ? attrs[choice] : null;
    const c = colourOf(choice);
    checker = c.checker;
    colMode = c.mode;
    keyLanes = a ? a.L : 0;
    if (c.mode === 2) {
      const r = range(a);
      colLo = r.lo;
      colSpan = r.span;
    }
    gl.disableVertexAttribArray(1);
    gl.disableVertexAttribArray(2);
    gl.vertexAttrib4f(1, 0.62, 0.7, 0.85, 1);
    gl.vertexAttribI4ui(2, 0, 0, 0, 0);
    if (a && a.per_instance) {
      const row = Array.from(a.bits.subarray(instance * a.L, (instance + 1) * a.L));
      const f = Array.from(a.f32.subarray(instance * a.L, (instance + 1) * a.L));
      if (c.mode === 3) gl.vertexAttribI4ui(2, row[0] || 0, row[1] || 0, row[2] || 0, row[3] || 0);
      else gl.vertexAttrib4f(1, f[0] || 0, f[1] || 0, f[2] || 0, a.L > 3 ? f[3] : 1);
    } else if (a) {
      if (!colBuf) colBuf = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, colBuf);
      gl.bufferData(gl.ARRAY_BUFFER, a.bits.subarray(0, N * a.L), gl.STATIC_DRAW);
      if (c.mode === 3) {
        gl.enableVertexAttribArray(2);
        gl.vertexAttribIPointer(2, a.L, gl.UNSIGNED_INT, a.L * 4, 0);
      } else {
        gl.enableVertexAttribArray(1);
        gl.vertexAttribPointer(1, a.L, gl.FLOAT, false, a.L * 4, 0);
      }
    }
    draw();
  }
  const colourSel = document.getElementById("colour");
  // A per-instance colour follows the shown instance.
  function recolour() {
    const i = parseInt(colourSel.value, 10);
    if (gl && posAttr && attrs[i] && attrs[i].per_instance) setColour(i);
  }
  colourSel.add(new Option("constant", "-1"));
  attrs.forEach((a, i) => colourSel.add(new Option(a.name + " (" + a.format + ")", String(i))));
  colourSel.value = String(normalIndex >= 0 ? normalIndex : -1);

  // The position's bounds come with the data (`bounds`, from inlay): no pass over the vertices.
  function frameAll() {
    const PL = posAttr.L;
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    if (D.bounds) {
      D.bounds.lo.forEach((x, l) => { if (x !== null) { lo[l] = x; hi[l] = D.bounds.hi[l]; } });
    }
    for (let l = PL; l < 3; l++) { lo[l] = 0; hi[l] = 0; }
    if (!(lo[0] <= hi[0])) { lo.fill(-1); hi.fill(1); }
    bbox.c = [0, 1, 2].map((l) => (lo[l] + hi[l]) / 2);
    bbox.r = Math.max(1e-6, Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2);
    cam.target = bbox.c.slice();
    cam.dist = bbox.r * 2.6;
    if (lineProg && !gridVao) buildGrid(lo, hi); // the bounds do not change: built once
    draw();
  }

  // Column-major 4×4 matrices.
  function mul(a, b) {
    const o = new Float32Array(16);
    for (let c = 0; c < 4; c++)
      for (let r = 0; r < 4; r++) {
        let s = 0;
        for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
        o[c * 4 + r] = s;
      }
    return o;
  }
  function matrices() {
    const w = canvas.width, h = canvas.height;
    const cp = Math.cos(cam.pitch), sp = Math.sin(cam.pitch), cy = Math.cos(cam.yaw), sy = Math.sin(cam.yaw);
    const eye = [cam.target[0] + cam.dist * cp * sy, cam.target[1] + cam.dist * sp, cam.target[2] + cam.dist * cp * cy];
    const f = [cam.target[0] - eye[0], cam.target[1] - eye[1], cam.target[2] - eye[2]];
    const fl = Math.hypot(f[0], f[1], f[2]);
    f[0] /= fl; f[1] /= fl; f[2] /= fl;
    let s = [f[1] * 0 - f[2] * 1, f[2] * 0 - f[0] * 0, f[0] * 1 - f[1] * 0];
    const sl = Math.hypot(s[0], s[1], s[2]) || 1;
    s = s.map((x) => x / sl);
    const u = [s[1] * f[2] - s[2] * f[1], s[2] * f[0] - s[0] * f[2], s[0] * f[1] - s[1] * f[0]];
    const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    const view = new Float32Array([s[0], u[0], -f[0], 0, s[1], u[1], -f[1], 0, s[2], u[2], -f[2], 0,
      -dot(s, eye), -dot(u, eye), dot(f, eye), 1]);
    const near = Math.max(cam.dist - bbox.r * 4, cam.dist * 1e-3), far = cam.dist + bbox.r * 4;
    const t = 1 / Math.tan(0.4);
    const proj = new Float32Array([t / (w / h), 0, 0, 0, 0, t, 0, 0, 0, 0, (far + near) / (near - far), -1,
      0, 0, (2 * far * near) / (near - far), 0]);
    return { view: view, mvp: mul(proj, view), s: s, u: u };
  }

  let pending = false;
  function draw() {
    if (!gl || !posAttr || !indices || pending) return;
    pending = true;
    requestAnimationFrame(paint);
  }
  function paint() {
    pending = false;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(canvas.clientWidth * dpr)), h = Math.max(1, Math.round(canvas.clientHeight * dpr));
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
    gl.viewport(0, 0, w, h);
    gl.clearColor(0.067, 0.075, 0.094, 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.enable(gl.DEPTH_TEST);
    const m = matrices();
    paintHelpers(m.view, dpr, true);
    gl.useProgram(prog);
    gl.uniformMatrix4fv(uni.uMvp, false, m.mvp);
    gl.uniformMatrix4fv(uni.uView, false, m.view);
    gl.uniform1i(uni.uChecker, checker);
    gl.uniform1i(uni.uHighlight, 0);
    gl.uniform1i(uni.uColMode, colMode);
    gl.uniform1i(uni.uKeyLanes, keyLanes);
    gl.uniform3fv(uni.uLo, colLo);
    gl.uniform3fv(uni.uSpan, colSpan);
    gl.uniform1f(uni.uPointSize, 3 * dpr);
    const mode = document.getElementById("mode").value;
    const prim = D.mode;
    if (mode === "points" || prim === "points" || indices.length === 0) {
      gl.uniform1i(uni.uLit, 0);
      if (prim === "points" && indices.length) {
        gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, triIbo);
        gl.drawElements(gl.POINTS, indices.length, gl.UNSIGNED_INT, 0);
      } else gl.drawArrays(gl.POINTS, 0, N);
    } else if (mode === "wire" || prim === "lines") {
      gl.uniform1i(uni.uLit, 0);
      if (prim === "lines") {
        gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, triIbo);
        gl.drawElements(gl.LINES, indices.length, gl.UNSIGNED_INT, 0);
      } else {
        if (!lineIbo) {
          const l = new Uint32Array((indices.length / 3) * 6);
          for (let t = 0, j = 0; t + 2 < indices.length; t += 3) {
            l[j++] = indices[t]; l[j++] = indices[t + 1];
            l[j++] = indices[t + 1]; l[j++] = indices[t + 2];
            l[j++] = indices[t + 2]; l[j++] = indices[t];
          }
          lineIbo = gl.createBuffer();
          gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, lineIbo);
          gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, l, gl.STATIC_DRAW);
          lineCount = l.length;
        }
        gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, lineIbo);
        // Each triangle's three edges are six line indices: a part's triangle range maps to
        // twice its index range.
        if (partRanges) {
          for (const [first, count] of partRanges) gl.drawElements(gl.LINES, count * 2, gl.UNSIGNED_INT, first * 8);
        } else gl.drawElements(gl.LINES, lineCount, gl.UNSIGNED_INT, 0);
      }
    } else {
      gl.uniform1i(uni.uLit, 1);
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, triIbo);
      if (partRanges) {
        for (const [first, count] of partRanges) gl.drawElements(gl.TRIANGLES, count, gl.UNSIGNED_INT, first * 4);
      } else gl.drawElements(gl.TRIANGLES, indices.length, gl.UNSIGNED_INT, 0);
    }
    if (api.selected >= 0) {
      gl.disable(gl.DEPTH_TEST);
      gl.uniform1i(uni.uHighlight, 1);
      gl.uniform1f(uni.uPointSize, 12 * dpr);
      gl.drawArrays(gl.POINTS, api.selected, 1);
    }
    paintHelpers(m.view, dpr, false);
    if (api.firstPaintMs === null) {
      // The first paint is done when its pixels are: gl.finish() returns before a software
      // renderer has drawn them, reading one pixel waits for them.
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
      api.firstPaintMs = performance.now();
      mark("paint");
    }
    api.frames = (api.frames || 0) + 1;
  }

  // Nearest vertex on screen to (x, y) CSS pixels, within 12 px.
  function pick(x, y) {
    const m = matrices().mvp;
    const w = canvas.clientWidth, h = canvas.clientHeight;
    let best = -1, bestD = 144, bestZ = Infinity;
    for (let v = 0; v < N; v++) {
      const px = laneF(posAttr, v, 0), py = laneF(posAttr, v, 1), pz = laneF(posAttr, v, 2);
      const cw = m[3] * px + m[7] * py + m[11] * pz + m[15];
      if (!(cw > 0)) continue;
      const sx = ((m[0] * px + m[4] * py + m[8] * pz + m[12]) / cw * 0.5 + 0.5) * w;
      const sy = (0.5 - (m[1] * px + m[5] * py + m[9] * pz + m[13]) / cw * 0.5) * h;
      const d = (sx - x) * (sx - x) + (sy - y) * (sy - y);
      const z = (m[2] * px + m[6] * py + m[10] * pz + m[14]) / cw;
      if (d < bestD - 1 || (d <= bestD + 1 && z < bestZ)) { best = v; bestD = d; bestZ = z; }
    }
    return best;
  }
  api.pick = pick;
  // Where a point of the world is drawn, in CSS pixels of the canvas.
  api.projectWorld = (p) => {
    const m = matrices().mvp;
    const cw = m[3] * p[0] + m[7] * p[1] + m[11] * p[2] + m[15];
    return [((m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12]) / cw * 0.5 + 0.5) * canvas.clientWidth,
      (0.5 - (m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13]) / cw * 0.5) * canvas.clientHeight];
  };
  // Turns the camera (radians), as dragging does.
  api.orbit = (yaw, pitch) => { cam.yaw = yaw; cam.pitch = pitch; draw(); };
  api.project = (v) => {
    const m = matrices().mvp;
    const px = laneF(posAttr, v, 0), py = laneF(posAttr, v, 1), pz = laneF(posAttr, v, 2);
    const cw = m[3] * px + m[7] * py + m[11] * pz + m[15];
    return [((m[0] * px + m[4] * py + m[8] * pz + m[12]) / cw * 0.5 + 0.5) * canvas.clientWidth,
      (0.5 - (m[1] * px + m[5] * py + m[9] * pz + m[13]) / cw * 0.5) * canvas.clientHeight];
  };

  // The shaders compile (in the GPU process) while the first paint's arrays arrive.
  let shaders = null;
  if (gl && posAttr) {
    prog = gl.createProgram();
    shaders = [gl.VERTEX_SHADER, gl.FRAGMENT_SHADER].map((type, i) => {
      const sh = gl.createShader(type);
      gl.shaderSource(sh, i ? FS : VS);
      gl.compileShader(sh);
      gl.attachShader(prog, sh);
      return sh;
    });
    gl.linkProgram(prog);
  }
  // A mod's parts (inlay view Mod.ini): which triangle ranges of the index list the chosen
  // state draws, each part switchable.
  let partRanges = null;
  if (D.mod) {
    const M = D.mod;
    document.getElementById("modbox").hidden = false;
    document.getElementById("modinfo").textContent =
      "component " + M.component + (M.components.length > 1 ? " (others: " + M.components.filter((c) => c !== M.component).join(", ") + "; --component NAME)" : "") +
      (M.profile ? ", profile " + M.profile : "");
    const stateSel = document.getElementById("modstate");
    M.states.forEach((s, i) => {
      const o = document.createElement("option");
      o.value = String(i);
      o.textContent = s.label + " (" + s.parts.length + " parts)";
      stateSel.appendChild(o);
    });
    const box = document.getElementById("modparts");
    const shown = new Set();
    const update = () => {
      partRanges = [];
      for (const id of M.states[parseInt(stateSel.value, 10) || 0].parts) {
        if (shown.has(id)) partRanges.push([M.parts[id].first, M.parts[id].count]);
      }
      draw();
    };
    const listParts = () => {
      box.textContent = "";
      shown.clear();
      for (const id of M.states[parseInt(stateSel.value, 10) || 0].parts) {
        const p = M.parts[id];
        shown.add(id);
        const label = document.createElement("label");
        const cb = document.createElement("input");
        cb.type = "checkbox";
        cb.checked = true;
        cb.dataset.part = p.name;
        cb.addEventListener("change", () => { if (cb.checked) shown.add(id); else shown.delete(id); update(); });
        label.appendChild(cb);
        label.appendChild(document.createTextNode(" " + p.name + " — " + p.count / 3 + " triangles (" + p.at + ")"));
        if (p.conditions.length) {
          const c = document.createElement("span");
          c.className = "cond";
          c.textContent = "  if " + p.conditions.join(" and ");
          label.appendChild(c);
        }
        box.appendChild(label);
      }
      update();
    };
    stateSel.addEventListener("change", listParts);
    document.getElementById("modtoggles").textContent = M.toggles.length
      ? M.toggles.map((t) => "[" + t.section + "] " + t.keys.join(" / ") + " (" + t.type + "): " +
          t.vars.map((v) => v.var + " = " + v.values.map((x) => (x === null ? "" : x)).join(",")).join("; ")).join("\n")
      : "none";
    listParts();
    api.modParts = () => [...box.querySelectorAll("input")].filter((c) => c.checked).map((c) => c.dataset.part);
  }
  [indices, elements] = await firstArrays;
  mark("base64");
  document.getElementById("summary").textContent =
    D.title + ": " + N + " vertices, " + indices.length + " indices, " + D.topology +
    (D.instance_count > 1 ? ", " + D.instance_count + " instances" : "");
  if (gl && posAttr) {
    try {
      if (!gl.getProgramParameter(prog, gl.LINK_STATUS)) {
        const bad = shaders.find((sh) => !gl.getShaderParameter(sh, gl.COMPILE_STATUS));
        throw new Error(bad ? gl.getShaderInfoLog(bad) : gl.getProgramInfoLog(prog));
      }
      for (const n of ["uMvp", "uView", "uPointSize", "uLit", "uChecker", "uHighlight", "uColMode", "uKeyLanes", "uLo", "uSpan"]) uni[n] = gl.getUniformLocation(prog, n);
      mark("link");
      meshVao = gl.createVertexArray();
      gl.bindVertexArray(meshVao);
      const pb = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, pb);
      gl.bufferData(gl.ARRAY_BUFFER, posAttr.f32.subarray(0, N * posAttr.L), gl.STATIC_DRAW);
      gl.enableVertexAttribArray(0);
      gl.vertexAttribPointer(0, Math.min(3, posAttr.L), gl.FLOAT, false, posAttr.L * 4, 0);
      gl.vertexAttribI4ui(2, 0, 0, 0, 0);
      mark("positions");
      triIbo = gl.createBuffer();
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, triIbo);
      gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, indices, gl.STATIC_DRAW);
      mark("upload");
      lineProg = gl.createProgram();
      for (const [type, src] of [[gl.VERTEX_SHADER, LVS], [gl.FRAGMENT_SHADER, LFS]]) {
        const sh = gl.createShader(type);
        gl.shaderSource(sh, src);
        gl.compileShader(sh);
        gl.attachShader(lineProg, sh);
      }
      gl.linkProgram(lineProg);
      if (!gl.getProgramParameter(lineProg, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(lineProg));
      lineMvp = gl.getUniformLocation(lineProg, "uMvp");
      gizmoVao = lineArray([0, 1, 2].flatMap((a) => [0, 0, 0, ...AXIS_RGB[a], a === 0 ? 1 : 0, a === 1 ? 1 : 0, a === 2 ? 1 : 0, ...AXIS_RGB[a]]));
      gizmoLabels.forEach((e) => canvas.parentNode.appendChild(e));
      await setColour(parseInt(colourSel.value, 10));
      mark("colour");
      frameAll();
      mark("frame");
    } catch (e) {
      fail("WebGL setup failed: " + e.message);
    }
    colourSel.addEventListener("change", () => setColour(parseInt(colourSel.value, 10)));
    document.getElementById("mode").addEventListener("change", draw);
    document.getElementById("grid").addEventListener("change", draw);
    document.getElementById("frame").addEventListener("click", frameAll);
    window.addEventListener("resize", draw);
    window.addEventListener("keydown", (e) => { if (e.key === "f" && e.target === document.body) frameAll(); });
    let drag = null;
    canvas.addEventListener("contextmenu", (e) => e.preventDefault());
    canvas.addEventListener("pointerdown", (e) => {
      drag = { x: e.clientX, y: e.clientY, moved: false, pan: e.button !== 0 || e.shiftKey };
      canvas.setPointerCapture(e.pointerId);
    });
    canvas.addEventListener("pointermove", (e) => {
      if (!drag) return;
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 2) drag.moved = true;
      drag.x = e.clientX; drag.y = e.clientY;
      if (drag.pan) {
        const m = matrices(), k = (cam.dist * 0.8) / canvas.clientHeight;
        for (let i = 0; i < 3; i++) cam.target[i] += (-dx * m.s[i] + dy * m.u[i]) * k;
      } else {
        cam.yaw -= dx * 0.01;
        cam.pitch = Math.max(-1.55, Math.min(1.55, cam.pitch + dy * 0.01));
      }
      draw();
    });
    canvas.addEventListener("pointerup", (e) => {
      if (drag && !drag.moved) {
        const r = canvas.getBoundingClientRect();
        const v = pick(e.clientX - r.left, e.clientY - r.top);
        if (v >= 0) select(v, true);
      }
      drag = null;
    });
    canvas.addEventListener("wheel", (e) => {
      e.preventDefault();
      cam.dist *= Math.exp(e.deltaY * 0.001);
      draw();
    }, { passive: false });
  }
  // The table's other columns are unpacked once the first frame is on screen.
  requestAnimationFrame(async () => {
    if (api.firstPaintMs === null) api.firstPaintMs = performance.now();
    await Promise.all(attrs.map((_, i) => ensure(i)));
    stream = D.stream === "indices" ? indices : await u32s(D.stream);
    mark("table");
    tableReady = true;
    renderRows(false);
    renderBytes();
    api.ready = true;
  });
})();
