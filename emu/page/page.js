/* The player of a run's page (bin/emu --html, spec/cli.md "The run as a web
 * page"). It reads the recording (the JSON above it; emu/html.h says what
 * each part is), draws the folded network once -- plane 0 above the
 * processors, plane 1 below them, layer 1 nearest -- and for each chosen
 * timestep replays the recorded changes up to it and draws the packets,
 * the buffers' occupancy, the processors' status and the timestep's events.
 *
 * The place of a packet in a buffer or input port is its rank in order of
 * entry, since both are FIFOs: that is how the recording can leave it out.
 * The URL fragment chooses the timestep (#t=19); tests add keys=right,space
 * to press keys once the page is up, and bench=N to time N timesteps. */
"use strict";

(function () {
  const errors = document.getElementById("errors");
  function reportError(text) {
    errors.hidden = false;
    errors.textContent += text + "\n";
    document.body.dataset.errors = String((+document.body.dataset.errors || 0) + 1);
  }
  window.addEventListener("error", function (e) { reportError("error: " + e.message); });
  window.addEventListener("unhandledrejection", function (e) { reportError("error: " + e.reason); });

  const started = performance.now();
  const R = JSON.parse(document.getElementById("run").textContent);
  const C = R.config;
  const N = C.procs, K = C.k, H = N / 2, P = C.ports, FULL = C.duplex === "full";
  const V = C.lanes;           // virtual channels: a lane per channel on every link
  const LAST = R.recorded;
  const SVGNS = "http://www.w3.org/2000/svg";
  const $ = function (id) { return document.getElementById(id); };

  /* ---- the recording --------------------------------------------------------- */

  const packets = new Map();          // id -> [id, src, dst, port, data, created, route]
  for (const p of R.packets)
    packets.set(p[0], { id: p[0], src: p[1], dst: p[2], port: p[3], data: p[4],
                        created: p[5], route: [p[6], p[7], p[8], p[9]] });

  // Each count so far, by timestep: link and buffer collisions, sent,
  // delivered, in flight.
  const totals = [[], [], [], [], []];
  for (let t = 0, run = [0, 0, 0, 0, 0]; t <= LAST; t++)
    for (let i = 0; i < 5; i++) {
      run[i] += R.counts[5 * t + i];
      totals[i][t] = run[i];
    }

  function decode(code) {
    return { kind: code % 4, dir: Math.floor(code / 4) % 2,
             lane: Math.floor(code / 8) % 8, at: Math.floor(code / 64) };
  }

  /* The state at the end of a timestep: where each packet is (place code,
   * order of entry, the place before its last move and when that was), its
   * route, and each processor's status. */
  function emptyState() {
    const procs = [];
    for (let p = 0; p < N; p++) procs.push([5, 0]);
    return { t: -1, at: new Map(), routes: new Map(), procs: procs };
  }

  function copyState(s) {
    const at = new Map();
    for (const [id, v] of s.at) at.set(id, Object.assign({}, v));
    return { t: s.t, at: at, routes: new Map(s.routes), procs: s.procs.map(function (x) { return x.slice(); }) };
  }

  function apply(s, t) {
    const moves = R.moves[t];
    for (let i = 0; i < moves.length; i += 2) {
      const id = moves[i], code = moves[i + 1];
      const old = s.at.get(id);
      if (code < 0) { s.at.delete(id); continue; }
      s.at.set(id, { code: code, order: t * 1e7 + i, before: old ? old.code : -1, moved: t });
    }
    const procs = R.procs[t];
    for (let i = 0; i < procs.length; i += 3) s.procs[procs[i]] = [procs[i + 1], procs[i + 2]];
    const routes = R.routes[t];
    for (let i = 0; i < routes.length; i += 6) s.routes.set(routes[i], routes.slice(i + 1, i + 6));
    s.t = t;
  }

  // Snapshots every SNAP timesteps, made as the replay passes them, so that
  // going back costs at most SNAP timesteps of replay.
  const SNAP = 200;
  const snaps = new Map();
  let state = emptyState();

  function stateAt(t) {
    if (state.t > t || state.t < 0) {
      let from = Math.floor(t / SNAP) * SNAP;
      while (from > 0 && !snaps.has(from)) from -= SNAP;
      state = snaps.has(from) ? copyState(snaps.get(from)) : emptyState();
    }
    while (state.t < t) {
      apply(state, state.t + 1);
      if (state.t % SNAP === 0 && !snaps.has(state.t)) snaps.set(state.t, copyState(state));
    }
    return state;
  }

  /* ---- names, as --state prints them ---------------------------------------- */

  const PORT_NAMES = ["d0", "d1", "u0", "u1"];

  function switchOf(s) {
    const row = Math.floor(s / H);
    return { plane: Math.floor(row / K), layer: row % K + 1, j: s % H };
  }

  function linkName(link) {
    const sw = switchOf(link >> 1), x = link & 1;
    if (sw.layer === 1) return "p" + sw.plane + ".cpu" + (2 * sw.j + x);
    const bit = 1 << (sw.layer - 2);
    const low = (sw.j & ~bit) | (x ? bit : 0), b = sw.j & bit ? 1 : 0;
    return "p" + sw.plane + ".l" + (sw.layer - 1) + ".s" + low + ".u" + b;
  }

  function bufferName(b) {
    const sw = switchOf(b >> 2);
    return "p" + sw.plane + ".l" + sw.layer + ".s" + sw.j + "." + PORT_NAMES[b & 3];
  }

  function laneName(where) { return V > 1 ? " vc" + where.lane : ""; }

  function placeName(pk, where, position, queued) {
    switch (where.kind) {
    case 0: return "output slot of p" + pk.src;
    case 1: return "link " + linkName(FULL ? where.at >> 1 : where.at) + (where.dir ? " down" : " up") +
                   laneName(where);
    case 2: return "buffer " + bufferName(where.at) + laneName(where) + " place " + position + " of " + queued;
    default: return "input port " + (where.at % P) + " of p" + Math.floor(where.at / P);
    }
  }

  function bits(v, n) {
    let s = "0b";
    for (let i = n - 1; i >= 0; i--) s += (v >>> i) & 1;
    return s;
  }

  function routeText(r, multicast) {
    const c = r[1];
    return "plane " + r[0] + " count " + c + " routing " + (c <= 1 ? "-" : bits(r[2], c - 1)) +
           " addressing " + (multicast ? "-" : bits(r[3], c));
  }

  // A packet's route and destination(s) at the end of state s's timestep:
  // adaptive routing fills in the route, a split divides a multicast's set.
  function current(pk, s) {
    const r = s.routes.get(pk.id);
    return r ? { route: r, dst: r[4] } : { route: pk.route, dst: pk.dst };
  }
  function destName(dst) { return typeof dst === "string" ? dst : "p" + dst; }

  const STATUS = ["running", "waiting on IN port ", "waiting on OUT", "halted (status ",
                  "faulted: ", "idle"];
  const STATUS_CLASS = ["running", "wait-in", "wait-out", "halted", "faulted", "idle"];
  function statusText(st) {
    if (st[0] === 1) return STATUS[1] + st[1];
    if (st[0] === 3) return STATUS[3] + st[1] + ")";
    if (st[0] === 4) return STATUS[4] + st[1];
    return STATUS[st[0]];
  }

  /* ---- the drawing ---------------------------------------------------------- */

  const W = 26, SH = 30, LY = 74, PH = 44, M = 14;     // column, switch, layer, processor
  const PLANES = C.planes;
  const TOP = M + K * LY;                              // the processors' row
  const HEIGHT = TOP + PH / 2 + (PLANES > 1 ? K * LY : 0) + PH / 2 + M;
  const WIDTH = 2 * M + N * W;
  const net = $("net");
  net.setAttribute("viewBox", "0 0 " + WIDTH + " " + HEIGHT);

  function el(parent, name, attrs, text) {
    const e = document.createElementNS(SVGNS, name);
    for (const a in attrs) e.setAttribute(a, attrs[a]);
    if (text !== undefined) e.textContent = text;
    parent.appendChild(e);
    return e;
  }

  // Plane 0 grows up from the processors, plane 1 down: `away` is the sign
  // of a step away from them.
  function away(plane) { return plane === 0 ? -1 : 1; }
  function procX(p) { return M + p * W + W / 2; }
  function switchX(j) { return M + (2 * j + 1) * W; }
  function switchY(plane, l) { return TOP + away(plane) * (PH / 2 + (l - 0.5) * LY); }
  // Where port q of switch (plane, l, j) meets its link.
  function portXY(plane, l, j, q) {
    const side = q < 2 ? -1 : 1;                       // down ports face the processors
    return [switchX(j) + ((q & 1) ? W / 2 : -W / 2), switchY(plane, l) + away(plane) * side * SH / 2];
  }
  function procEnd(plane, p) { return [procX(p), TOP + away(plane) * PH / 2]; }

  // Link 2S + x: its two ends, lower first.
  function linkEnds(link) {
    const sw = switchOf(link >> 1), x = link & 1;
    const upper = portXY(sw.plane, sw.layer, sw.j, x);
    if (sw.layer === 1) return [procEnd(sw.plane, 2 * sw.j + x), upper];
    const bit = 1 << (sw.layer - 2);
    const low = (sw.j & ~bit) | (x ? bit : 0), b = sw.j & bit ? 1 : 0;
    return [portXY(sw.plane, sw.layer - 1, low, 2 + b), upper];
  }

  // The place of buffer b: a box inside its switch, by its port.
  function bufferBox(b) {
    const sw = switchOf(b >> 2), q = b & 3;
    const [x] = portXY(sw.plane, sw.layer, sw.j, q);
    const y = switchY(sw.plane, sw.layer), side = q < 2 ? -1 : 1;
    const h = SH / 2 - 3, top = side * away(sw.plane) > 0 ? y + 1 : y - 1 - h;
    return { x: x - (W / 2 - 2), y: top, w: W - 4, h: h };
  }

  const layerLinks = el(net, "g", {}), layerSwitches = el(net, "g", {}), layerProcs = el(net, "g", {});
  const layerEvents = el(net, "g", {}), layerPackets = el(net, "g", {});
  const links = PLANES * K * N;
  for (let link = 0; link < links; link++) {
    const [a, b] = linkEnds(link);
    el(layerLinks, "line", { class: "link", x1: a[0], y1: a[1], x2: b[0], y2: b[1] });
  }
  const fills = [];
  for (let s = 0; s < PLANES * K * H; s++) {
    const sw = switchOf(s);
    const g = el(layerSwitches, "g", {});
    el(g, "rect", { class: "switch", x: switchX(sw.j) - W + 2, y: switchY(sw.plane, sw.layer) - SH / 2,
                    width: 2 * W - 4, height: SH, rx: 3 });
    el(g, "title", {}, "switch p" + sw.plane + ".l" + sw.layer + ".s" + sw.j);
    for (let q = 0; q < (sw.layer === K ? 2 : 4); q++) {
      const box = bufferBox(4 * s + q);
      el(g, "rect", { class: "buffer", x: box.x, y: box.y, width: box.w, height: box.h });
      for (let v = 0; v < V; v++)        // a strip per channel's buffer
        fills[(4 * s + q) * V + v] = el(g, "rect", { class: "fill", x: box.x, y: box.y + v * box.h / V,
                                                     width: 0, height: box.h / V });
    }
  }
  for (let plane = 0; plane < PLANES; plane++)
    for (let l = 1; l <= K; l++)
      el(net, "text", { class: "axis", x: 2, y: switchY(plane, l) + 3 }, "l" + l);
  const procBoxes = [];
  for (let p = 0; p < N; p++) {
    const g = el(layerProcs, "g", {});
    procBoxes.push(el(g, "rect", { class: "proc idle", x: procX(p) - W / 2 + 2, y: TOP - PH / 2,
                                   width: W - 4, height: PH, rx: 3 }));
    el(g, "text", { class: "label", x: procX(p), y: TOP - PH / 2 + 10 }, "p" + p);
    el(g, "title", {}, "");
  }

  function colour(src) { return "hsl(" + ((src * 137.508) % 360).toFixed(1) + ",70%,52%)"; }

  /* ---- one timestep ----------------------------------------------------------- */

  let now = 0, chosen = null;
  const info = $("info");

  // Buffer and port queues: places in order of entry.
  function queues(s) {
    const q = new Map();
    for (const [id, v] of s.at) {
      const w = decode(v.code);
      if (w.kind < 2) continue;
      const key = (w.kind * 1e12 + w.at) * 8 + w.lane;
      if (!q.has(key)) q.set(key, []);
      q.get(key).push(id);
    }
    for (const list of q.values())
      list.sort(function (a, b) { return s.at.get(a).order - s.at.get(b).order; });
    return q;
  }

  function packetXY(w, position, queued) {
    if (w.kind === 0) {                                 // the output slot: top of the processor
      return [0, 0];
    }
    if (w.kind === 1) {
      const link = FULL ? w.at >> 1 : w.at;
      const [a, b] = linkEnds(link);
      // Lanes side by side along the link, channel 0 nearest the bottom end.
      const f = (FULL ? (w.dir ? 0.62 : 0.38) : 0.5) + (w.lane - (V - 1) / 2) * 0.1;
      return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f];
    }
    if (w.kind === 2) {
      const box = bufferBox(w.at);
      const step = Math.min(7, (box.w - 6) / Math.max(1, queued - 1));
      return [box.x + 3 + (position - 1) * step, box.y + (w.lane + 0.5) * box.h / V];
    }
    const p = Math.floor(w.at / P);
    return [procX(p) - W / 2 + 6 + (position - 1) * 5, TOP + PH / 2 - 7];
  }

  function describe(pk, s, w, place) {
    const v = s.at.get(pk.id);
    const cur = current(pk, s);
    let before = "not yet sent";
    if (v.moved < now) before = "the same place";
    else if (v.before >= 0) before = placeName(pk, decode(v.before), "?", "?").replace(/ place \? of \?$/, "");
    return "#" + pk.id + " p" + pk.src + " -> " + destName(cur.dst) + "  port " + pk.port +
           "\ndata " + pk.data + "\n" + routeText(cur.route, typeof cur.dst === "string") +
           "\nage " + (now - pk.created) + " timesteps\nnow: " + place + "\nbefore: " + before;
  }

  // A message of several words is drawn as a worm: a line through its
  // flits ("id.i") in index order, under them, its head ringed.
  function drawWorms(worms, flitsOf) {
    for (const [m, f] of flitsOf) {
      if (f.at.length < 2) continue;
      f.at.sort(function (a, b) { return a[0] - b[0]; });
      el(worms, "polyline", { class: "worm", stroke: colour(f.src), "data-message": m,
        points: f.at.map(function (e) { return e[1][0].toFixed(1) + "," + e[1][1].toFixed(1); }).join(" ") });
    }
  }

  function drawPackets(s) {
    layerPackets.textContent = "";
    const q = queues(s);
    const slotOf = new Map(), flitsOf = new Map();
    const worms = el(layerPackets, "g", {});
    for (const [id, v] of s.at) {
      const pk = packets.get(id), w = decode(v.code);
      let position = 1, queued = 1;
      if (w.kind >= 2) {
        const list = q.get((w.kind * 1e12 + w.at) * 8 + w.lane);
        position = list.indexOf(id) + 1;
        queued = list.length;
      }
      const cur = current(pk, s);
      const place = placeName(pk, w, position, queued);
      let xy = packetXY(w, position, queued);
      if (w.kind === 0) xy = [procX(pk.src), TOP - PH / 2 + 18];
      if (w.kind === 3) slotOf.set(id, true);
      const flit = typeof id === "string" ? id.split(".") : null;
      if (flit) {
        if (!flitsOf.has(flit[0])) flitsOf.set(flit[0], { src: pk.src, at: [] });
        flitsOf.get(flit[0]).at.push([+flit[1], xy]);
      }
      const c = el(layerPackets, "circle", {
        class: "pk" + (pk.copy ? " copy" : "") + (chosen === id ? " chosen" : "") +
               (flit && flit[1] === "0" ? " head" : ""),
        cx: xy[0].toFixed(1), cy: xy[1].toFixed(1), r: w.kind === 3 ? 2.5 : 4.5,
        fill: colour(pk.src), "data-id": id, "data-place": place,
        "data-line": "#" + id + " p" + pk.src + "->" + destName(cur.dst) + " port " + pk.port +
                     " data " + pk.data + ", " + routeText(cur.route, typeof cur.dst === "string") + ": " + place });
      el(c, "title", {}, "#" + id + " p" + pk.src + "->" + destName(cur.dst));
      c.addEventListener("mouseenter", function () { info.textContent = describe(pk, s, w, place); });
      c.addEventListener("click", function () {
        chosen = chosen === id ? null : id;
        info.textContent = describe(pk, s, w, place);
        show(now);
      });
    }
    drawWorms(worms, flitsOf);
    // Buffers: the fraction of their places that are taken, channel by channel.
    for (let i = 0; i < fills.length; i++) {
      if (!fills[i]) continue;
      const b = Math.floor(i / V), list = q.get((2e12 + b) * 8 + i % V), n = list ? list.length : 0;
      const box = bufferBox(b);
      fills[i].setAttribute("width", (box.w * Math.min(1, n / C.buffer)).toFixed(1));
      fills[i].dataset.count = n;
    }
    if (chosen !== null && s.at.has(chosen)) {
      const pk = packets.get(chosen);
      info.textContent = describe(pk, s, decode(s.at.get(chosen).code), "(see the drawing)");
    }
  }

  function drawProcessors(s) {
    for (let p = 0; p < N; p++) {
      const st = s.procs[p], box = procBoxes[p];
      box.setAttribute("class", "proc " + STATUS_CLASS[st[0]]);
      box.dataset.status = statusText(st);
      box.parentNode.lastChild.textContent = "p" + p + ": " + statusText(st);
    }
  }

  const EVENT_NAMES = ["sent", "link-collision", "buffer-full", "queued", "delivered", "read",
                       "split", "port-wait"];

  // Where the event of packet `id` at `place` is marked in state s: a link
  // collision on the claimant's lane of the wire it claimed (its
  // channel is its port's), a port wait on the packet's own lane into the
  // processor, and the rest at their buffer, switch or processor.
  function eventXY(kind, id, place, s) {
    if (kind === 1) {
      const pk = packets.get(id);
      return packetXY({ kind: 1, at: place, dir: FULL ? place & 1 : 0, lane: pk ? pk.port % V : 0 }, 1, 1);
    }
    if (kind === 2 || kind === 3) {
      const box = bufferBox(place);
      return [box.x + box.w / 2, box.y + box.h / 2];
    }
    if (kind === 6) {
      const sw = switchOf(place);
      return [switchX(sw.j), switchY(sw.plane, sw.layer)];
    }
    if (kind === 7) {
      const v = s.at.get(id), w = v ? decode(v.code) : null;
      return w && w.kind === 1 ? packetXY(w, 1, 1) : [procX(place), TOP + PH / 2 - 7];
    }
    return [procX(place), TOP];
  }

  // The packets in channel `lane` of buffer b at the end of state s's
  // timestep (all of them, or those ahead of packet `id`), as ", held up by
  // #3, #5": what kept packet `id` out, or in a queue.
  function heldBy(s, b, lane, id, ahead) {
    const mine = s.at.get(id), list = [];
    for (const [other, v] of s.at) {
      const w = decode(v.code);
      if (other !== id && w.kind === 2 && w.at === b && w.lane === lane &&
          (!ahead || !mine || v.order < mine.order))
        list.push([v.order, other]);
    }
    list.sort(function (a, b2) { return a[0] - b2[0]; });
    return list.length ? ", held up by " + list.map(function (e) { return "#" + e[1]; }).join(", ") : "";
  }

  function eventText(kind, id, place, copy, s) {
    const pk = packets.get(id) || { id: id, src: "?", dst: "?", route: [] };
    const who = "#" + id + " (p" + pk.src + "->" + destName(current(pk, s).dst) + ")";
    switch (kind) {
    case 0: return "p" + pk.src + " sends " + who;
    case 1: {
      let by = "";
      for (const [other, v] of s.at) {
        const w = decode(v.code);
        if (other !== id && w.kind === 1 && w.at === place) by = ", held up by #" + other;
      }
      return "link collision: " + who + " on link " + linkName(FULL ? place >> 1 : place) + by;
    }
    case 2: return "buffer collision: " + who + " refused by full buffer " + bufferName(place) +
                   heldBy(s, place, pk.port % V, id, false);
    case 3: return "buffer collision: " + who + " queues in buffer " + bufferName(place) +
                   heldBy(s, place, pk.port % V, id, true);
    case 4: return who + " delivered to p" + place;
    case 5: return "p" + place + " reads " + who;
    case 6: return who + " splits: copy #" + copy;
    default: return who + " waits for a full input port";
    }
  }

  function drawEvents(s, t) {
    layerEvents.textContent = "";
    const list = $("events");
    list.textContent = "";
    const ev = t <= LAST ? R.events[t] : [];
    for (let i = 0; i < ev.length; i += 4) {
      const kind = ev[i], id = ev[i + 1], place = ev[i + 2], copy = ev[i + 3];
      const xy = eventXY(kind, id, place, s);
      el(layerEvents, "circle", { class: "ev " + EVENT_NAMES[kind], cx: xy[0].toFixed(1),
                                   cy: xy[1].toFixed(1), r: kind === 1 || kind === 2 || kind === 3 ? 9 : 7 });
      if (kind === 6) { const cp = packets.get(copy); if (cp) cp.copy = true; }
      if (i < 400) {
        const li = document.createElement("li");
        li.className = EVENT_NAMES[kind];
        li.textContent = eventText(kind, id, place, copy, s);
        list.appendChild(li);
      }
    }
    if (ev.length > 400) {
      const li = document.createElement("li");
      li.textContent = "... and " + (ev.length - 400) / 4 + " more";
      list.appendChild(li);
    }
  }

  function drawCounts(t) {
    const link = totals[0][t], buffer = totals[1][t];
    const before = t > 0 ? totals[0][t - 1] + totals[1][t - 1] : 0;
    $("n-t").textContent = t;
    $("n-step").textContent = link + buffer - before;
    $("n-coll").textContent = link + buffer;
    $("n-link").textContent = link;
    $("n-buffer").textContent = buffer;
    $("n-sent").textContent = totals[2][t];
    $("n-delivered").textContent = totals[3][t];
    $("n-flight").textContent = totals[4][t];
  }

  /* ---- charts ----------------------------------------------------------------- */

  const CW = 300, CH = 120;
  const chart = $("chart"), cursor = { line: null };
  function drawChart() {
    chart.setAttribute("viewBox", "0 0 " + CW + " " + CH);
    // At most one point per unit of width: the largest value of its span.
    const cols = Math.min(LAST + 1, CW - 20), coll = [], flight = [];
    let most = 1;
    for (let c = 0; c < cols; c++) {
      const a = Math.floor(c * (LAST + 1) / cols), b = Math.max(a + 1, Math.floor((c + 1) * (LAST + 1) / cols));
      let mc = 0, mf = 0;
      for (let t = a; t < b; t++) {
        const n = totals[0][t] + totals[1][t] - (t > 0 ? totals[0][t - 1] + totals[1][t - 1] : 0);
        mc = Math.max(mc, n);
        mf = Math.max(mf, totals[4][t]);
      }
      coll.push(mc); flight.push(mf);
      most = Math.max(most, mc, mf);
    }
    const x = function (c) { return (20 + c * (CW - 22) / Math.max(1, cols - 1)).toFixed(1); };
    const y = function (v) { return (CH - 14 - v * (CH - 24) / most).toFixed(1); };
    el(chart, "polyline", { class: "flight", points: flight.map(function (v, c) { return x(c) + "," + y(v); }).join(" ") });
    el(chart, "polyline", { class: "coll", points: coll.map(function (v, c) { return x(c) + "," + y(v); }).join(" ") });
    el(chart, "text", { class: "axis", x: 2, y: 10 }, String(most));
    el(chart, "text", { class: "axis", x: 2, y: CH - 14 }, "0");
    el(chart, "text", { class: "axis", x: 20, y: CH - 2 }, "red: collisions, blue: in flight, by timestep");
    cursor.line = el(chart, "line", { class: "cursor", x1: 0, x2: 0, y1: 0, y2: CH - 14 });
    cursor.x = function (t) { return 20 + t * (CW - 22) / Math.max(1, LAST); };
    chart.addEventListener("click", function (e) {
      const r = chart.getBoundingClientRect();
      const f = ((e.clientX - r.left) * CW / r.width - 20) / (CW - 22);
      show(Math.round(Math.max(0, Math.min(1, f)) * LAST));
    });
  }

  function drawHistogram() {
    const hist = $("hist"), h = R.report.latency_histogram, keys = Object.keys(h).map(Number);
    hist.setAttribute("viewBox", "0 0 " + CW + " " + CH);
    if (keys.length === 0) { el(hist, "text", { class: "axis", x: 10, y: 20 }, "no packet delivered"); return; }
    const lo = Math.min.apply(null, keys), hi = Math.max.apply(null, keys);
    let most = 1;
    for (const k of keys) most = Math.max(most, h[k]);
    const bw = (CW - 24) / (hi - lo + 1);
    for (const k of keys) {
      const bh = h[k] * (CH - 26) / most;
      const bar = el(hist, "rect", { class: "bar", x: (20 + (k - lo) * bw).toFixed(1), y: (CH - 14 - bh).toFixed(1),
                                     width: Math.max(0.5, bw - 1).toFixed(1), height: bh.toFixed(1) });
      el(bar, "title", {}, h[k] + " packets took " + k + " timesteps");
    }
    el(hist, "text", { class: "axis", x: 20, y: CH - 2 }, String(lo));
    el(hist, "text", { class: "axis", x: CW - 4, y: CH - 2, "text-anchor": "end" }, String(hi));
    el(hist, "text", { class: "axis", x: 2, y: 10 }, String(most));
  }

  /* ---- controls --------------------------------------------------------------- */

  const slider = $("slider"), jump = $("jump"), playButton = $("play");
  let timer = null;

  function show(t) {
    t = Math.max(0, Math.min(LAST, Math.round(+t || 0)));
    now = t;
    const s = stateAt(t);
    drawPackets(s);
    drawProcessors(s);
    drawEvents(s, t);
    drawCounts(t);
    slider.value = t;
    jump.value = t;
    if (cursor.line) {
      const x = cursor.x(t).toFixed(1);
      cursor.line.setAttribute("x1", x);
      cursor.line.setAttribute("x2", x);
    }
    document.body.dataset.t = t;
  }

  function play(on) {
    if (timer) clearInterval(timer);
    timer = null;
    if (on) {
      if (now >= LAST) show(0);
      timer = setInterval(function () {
        if (now >= LAST) { play(false); return; }
        show(now + 1);
      }, 1000 / +$("speed").value);
    }
    playButton.textContent = timer ? "pause" : "play";
  }

  playButton.addEventListener("click", function () { play(!timer); });
  $("back").addEventListener("click", function () { play(false); show(now - 1); });
  $("forward").addEventListener("click", function () { play(false); show(now + 1); });
  slider.addEventListener("input", function () { show(slider.value); });
  jump.addEventListener("change", function () { play(false); show(jump.value); });
  $("speed").addEventListener("change", function () { if (timer) play(true); });
  document.addEventListener("keydown", function (e) {
    if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT")) return;
    if (e.key === " ") { play(!timer); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { play(false); show(now - 1); e.preventDefault(); }
    else if (e.key === "ArrowRight") { play(false); show(now + 1); e.preventDefault(); }
  });

  function fragment() {
    const f = {};
    for (const part of location.hash.replace(/^#/, "").split("&")) {
      const eq = part.indexOf("=");
      if (eq > 0) f[part.slice(0, eq)] = decodeURIComponent(part.slice(eq + 1));
    }
    return f;
  }
  window.addEventListener("hashchange", function () {
    const f = fragment();
    if (f.t !== undefined) show(f.t);
  });

  /* ---- start ------------------------------------------------------------------ */

  const cfg = R.config;
  $("title").textContent = R.program + ": " + cfg.procs + " processors, --routing " + cfg.routing +
    ", --duplex " + cfg.duplex + ", --planes " + cfg.planes + ", --buffer " + cfg.buffer +
    (V > 1 ? ", --vcs " + V : "") + "; ended " + R.report.end + " after " + R.report.timesteps + " timesteps";
  document.title = R.program + " (" + cfg.routing + ")";
  $("last").textContent = LAST;
  slider.max = LAST;
  jump.max = LAST;
  if (LAST < R.report.timesteps)
    $("note").textContent = "Timesteps 0 to " + LAST + " of " + R.report.timesteps +
      " are recorded (a page holds at most 2,560,000 processor-timesteps); the counts are those of timestep " + LAST + ".";
  $("legend").innerHTML = "processors: " + STATUS_CLASS.map(function (c) {
    return "<span class=\"proc " + c + "\" style=\"background:var(--x)\"></span>" + c; }).join(" ");
  for (const span of $("legend").querySelectorAll("span")) {
    const probe = el(net, "rect", { class: span.className });
    span.style.background = getComputedStyle(probe).fill;
    net.removeChild(probe);
  }
  drawChart();
  drawHistogram();
  const f = fragment();
  show(f.t !== undefined ? f.t : 0);
  document.body.dataset.loadMs = Math.round(performance.now() - started);
  const names = { right: "ArrowRight", left: "ArrowLeft", space: " " };
  if (f.keys)
    for (const k of f.keys.split(","))
      document.dispatchEvent(new KeyboardEvent("keydown", { key: names[k] || k, bubbles: true }));
  document.body.dataset.playing = timer ? "yes" : "no";
  if (timer && f.keys) play(false);                    // a test reads the timestep its keys reached
  if (f.bench) {
    const n = +f.bench, from = now, t0 = performance.now();
    for (let i = 1; i <= n; i++) show((from + i) % (LAST + 1));
    document.body.dataset.stepMs = ((performance.now() - t0) / n).toFixed(1);
    // (a test reads the times from the page's DOM: without the recording,
    // which the page has read, that DOM is small)
    document.getElementById("run").remove();
  }
})();
