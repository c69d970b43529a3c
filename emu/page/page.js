/* The player of a run's page (bin/emu --html, spec/cli.md "The run as a web
 * page"). It reads the recording (the JSON above it; emu/html.h says what
 * each part is) and, for each chosen timestep, replays the recorded changes
 * up to it and shows the machine at its end in one of two views:
 *
 *   network  the folded network drawn whole -- plane 0 above the
 *            processors, plane 1 below them, layer 1 nearest -- with every
 *            packet, the buffers' occupancy and owners, the processors'
 *            status and the timestep's events;
 *   summary  a heat map, a row per layer of switches and per layer of
 *            links, a column per processor: the packets each switch holds
 *            and each link carries, and where the collisions are. It is what
 *            a machine of hundreds or thousands of processors can show.
 *
 * Both zoom (wheel, + and -) and pan (drag). Beside them: the counts, the
 * lines the program printed up to the timestep and why the run ended, the
 * timestep's events, a timeline of collisions and packets in flight, and
 * the latency histogram.
 *
 * The place of a packet in a buffer or input port is its rank in order of
 * entry, since both are FIFOs: that is how the recording can leave it out.
 * The URL fragment chooses the timestep (#t=19) and the view
 * (view=summary); tests add keys=right,space,plus to press keys once the
 * page is up, bench=N to time N timesteps and cells=1 to have the summary
 * write its numbers into the DOM. */
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
  const C = R.config, REPORT = R.report;
  const N = C.procs, K = C.k, H = N / 2, P = C.ports, FULL = C.duplex === "full";
  const V = C.lanes;           // virtual channels: a lane per channel on every link
  const PLANES = C.planes;
  const LAST = R.recorded;
  const MULTICASTS = REPORT.multicasts > 0, MESSAGES = REPORT.messages > 0;
  const NETWORK_MAX = 256;     // the most processors the network view draws
  const SVGNS = "http://www.w3.org/2000/svg";
  const $ = function (id) { return document.getElementById(id); };

  /* ---- the recording --------------------------------------------------------- */

  const packets = new Map();          // id -> [id, src, dst, port, data, created, route]
  for (const p of R.packets)
    packets.set(p[0], { id: p[0], src: p[1], dst: p[2], port: p[3], data: p[4],
                        created: p[5], route: [p[6], p[7], p[8], p[9]] });
  // A split's copies are drawn apart from the packets that were sent.
  for (const ev of R.events)
    for (let i = 0; i < ev.length; i += 4)
      if (ev[i] === 6 && packets.has(ev[i + 3])) packets.get(ev[i + 3]).copy = true;

  // Each count so far, by timestep: link and buffer collisions, sent,
  // delivered, in flight; then multicasts, copies, messages, flits sent,
  // flits delivered.
  const totals = [];
  for (let i = 0; i < 10; i++) totals.push(new Float64Array(LAST + 1));
  for (let t = 0, run = [0, 0, 0, 0, 0]; t <= LAST; t++)
    for (let i = 0; i < 5; i++) {
      run[i] += R.counts[5 * t + i];
      totals[i][t] = run[i];
    }
  for (let t = 0, i = 0, run = [0, 0, 0, 0, 0]; t <= LAST; t++) {
    for (; i < R.more_counts.length && R.more_counts[i] === t; i += 6)
      for (let j = 0; j < 5; j++) run[j] += R.more_counts[i + 1 + j];
    for (let j = 0; j < 5; j++) totals[5 + j][t] = run[j];
    totals[8][t] += totals[2][t];        // (the flits beyond the packets)
    totals[9][t] += totals[3][t];
  }

  // Where each timestep's entries start in a list of entries of `width`
  // numbers, each led by its timestep: entries [at[t], at[t + 1]).
  function byTimestep(list, width) {
    const at = new Int32Array(LAST + 2);
    let i = 0;
    for (let t = 0; t <= LAST + 1; t++) {
      while (i < list.length && list[i] < t) i += width;
      at[t] = i;
    }
    return at;
  }
  const ownersAt = byTimestep(R.owners, 3), printsAt = byTimestep(R.prints, 3);

  function decode(code) {
    return { kind: code % 4, dir: Math.floor(code / 4) % 2,
             lane: Math.floor(code / 8) % 8, at: Math.floor(code / 64) };
  }

  /* The state at the end of a timestep: where each packet is (place code,
   * order of entry, the place before its last move and when that was), its
   * route, each processor's status, and the owner of each owned place. */
  function emptyState() {
    const procs = [];
    for (let p = 0; p < N; p++) procs.push([5, 0]);
    return { t: -1, at: new Map(), routes: new Map(), procs: procs, owners: new Map() };
  }

  function copyState(s) {
    const at = new Map();
    for (const [id, v] of s.at) at.set(id, Object.assign({}, v));
    return { t: s.t, at: at, routes: new Map(s.routes), owners: new Map(s.owners),
             procs: s.procs.map(function (x) { return x.slice(); }) };
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
    for (let i = ownersAt[t]; i < ownersAt[t + 1]; i += 3) {
      if (R.owners[i + 2] < 0) s.owners.delete(R.owners[i + 1]);
      else s.owners.set(R.owners[i + 1], R.owners[i + 2]);
    }
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
  function switchName(s) {
    const sw = switchOf(s);
    return "p" + sw.plane + ".l" + sw.layer + ".s" + sw.j;
  }

  function linkName(link) {
    const sw = switchOf(link >> 1), x = link & 1;
    if (sw.layer === 1) return "p" + sw.plane + ".cpu" + (2 * sw.j + x);
    const bit = 1 << (sw.layer - 2);
    const low = (sw.j & ~bit) | (x ? bit : 0), b = sw.j & bit ? 1 : 0;
    return "p" + sw.plane + ".l" + (sw.layer - 1) + ".s" + low + ".u" + b;
  }

  function bufferName(b) { return switchName(b >> 2) + "." + PORT_NAMES[b & 3]; }

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

  function ownedName(code, id) {
    const w = decode(code);
    return (w.kind === 2 ? "buffer " + bufferName(w.at) + laneName(w)
                         : "input port " + (w.at % P) + " of p" + Math.floor(w.at / P)) + " by #" + id;
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
  function shortName(id, s) {
    const pk = packets.get(id);
    return "#" + id + (pk ? " (p" + pk.src + "->" + destName(current(pk, s).dst) + ")" : "");
  }

  const STATUS = ["running", "waiting on IN port ", "waiting on OUT", "halted (status ",
                  "faulted: ", "idle"];
  const STATUS_CLASS = ["running", "wait-in", "wait-out", "halted", "faulted", "idle"];
  function statusText(st) {
    if (st[0] === 1) return STATUS[1] + st[1];
    if (st[0] === 3) return STATUS[3] + st[1] + ")";
    if (st[0] === 4) return STATUS[4] + st[1];
    return STATUS[st[0]];
  }

  // A packet's colour, by its source: hues from yellow round to purple, so
  // that none is the red of a collision's ring or the orange of a buffer's,
  // spread by the golden ratio so that neighbours differ.
  // A source's colour: hues from 60 to 320, clear of the collisions' red
  // and orange. Up to 16 processors the hues are spread evenly, and
  // neighbours differ in lightness too, so that every source is told apart
  // at a glance; beyond, the golden ratio spreads them.
  function colour(src) {
    const f = N <= 16 ? src / N : (src * 0.618034) % 1;
    return "hsl(" + (60 + 260 * f).toFixed(1) + ",75%," + (src % 2 ? 38 : 52) + "%)";
  }
  function messageColour(id) {
    const pk = packets.get(id + ".0") || packets.get(id);
    return pk ? colour(pk.src) : "#444";
  }

  function el(parent, name, attrs, text) {
    const e = document.createElementNS(SVGNS, name);
    for (const a in attrs) e.setAttribute(a, attrs[a]);
    if (text !== undefined) e.textContent = text;
    parent.appendChild(e);
    return e;
  }

  // The fill the page's CSS gives a processor of each status, for the
  // legend and the summary.
  const net = $("net");
  const STATUS_FILL = STATUS_CLASS.map(function (c) {
    const probe = el(net, "rect", { class: "proc " + c });
    const fill = getComputedStyle(probe).fill;
    net.removeChild(probe);
    return fill;
  });

  /* ---- the network view ------------------------------------------------------- */

  const W = 26, SH = 30, LY = 60, PH = 44, M = 14;     // column, switch, layer, processor
  const LM = 50;                                       // the left margin, for the labels
  const NAMES = 12;                                    // the switches' names, beyond a plane
  const TOP = M + NAMES + K * LY;                      // the processors' row
  const HEIGHT = TOP + PH / 2 + (PLANES > 1 ? K * LY + NAMES : 0) + PH / 2 + M;
  const WIDTH = LM + N * W + M;

  // Plane 0 grows up from the processors, plane 1 down: `away` is the sign
  // of a step away from them.
  function away(plane) { return plane === 0 ? -1 : 1; }
  function procX(p) { return LM + p * W + W / 2; }
  function switchX(j) { return LM + (2 * j + 1) * W; }
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

  // The drawing is made the first time the view is shown: a page of many
  // processors may never need it.
  let layers = null;
  const fills = [], procBoxes = [];
  function buildNetwork() {
    net.setAttribute("viewBox", "0 0 " + WIDTH + " " + HEIGHT);
    layers = { links: el(net, "g", {}), switches: el(net, "g", {}), procs: el(net, "g", {}),
               owned: el(net, "g", {}), events: el(net, "g", {}), packets: el(net, "g", {}) };
    for (let link = 0; link < PLANES * K * N; link++) {
      const [a, b] = linkEnds(link);
      el(layers.links, "line", { class: "link", x1: a[0], y1: a[1], x2: b[0], y2: b[1] });
    }
    for (let s = 0; s < PLANES * K * H; s++) {
      const sw = switchOf(s);
      const g = el(layers.switches, "g", {});
      el(g, "rect", { class: "switch", x: switchX(sw.j) - W + 2, y: switchY(sw.plane, sw.layer) - SH / 2,
                      width: 2 * W - 4, height: SH, rx: 3 });
      el(g, "title", {}, "switch " + switchName(s));
      for (let q = 0; q < (sw.layer === K ? 2 : 4); q++) {
        const box = bufferBox(4 * s + q);
        el(g, "rect", { class: "buffer", x: box.x, y: box.y, width: box.w, height: box.h });
        for (let v = 0; v < V; v++)        // a strip per channel's buffer
          fills[(4 * s + q) * V + v] = el(g, "rect", { class: "fill", x: box.x, y: box.y + v * box.h / V,
                                                       width: 0, height: box.h / V });
      }
    }
    // Each plane named beside its layers, which are numbered from the
    // processors out.
    for (let plane = 0; plane < PLANES; plane++) {
      const mid = (switchY(plane, 1) + switchY(plane, K)) / 2;
      el(net, "text", { class: "plane", x: 14, y: mid, transform: "rotate(-90 14 " + mid + ")" },
         "plane " + plane);
      for (let l = 1; l <= K; l++)
        el(net, "text", { class: "axis", x: LM - 6, y: switchY(plane, l) + 3, "text-anchor": "end" }, "l" + l);
      // The switches' numbers in a layer (s0, s1, ...), beyond its last
      // layer, and the ports of the first switch of each layer on its
      // buffers: what the events, --state and --trace name (p0.l1.s0.u0).
      const y = switchY(plane, K) + away(plane) * (SH / 2 + 4) + (plane === 0 ? 0 : 7);
      for (let j = 0; j < H; j++)
        el(net, "text", { class: "label switch-name", x: switchX(j), y: y }, "s" + j);
      for (let l = 1; l <= K; l++) {
        const s = (plane * K + l - 1) * H;
        for (let q = 0; q < (l === K ? 2 : 4); q++) {
          const box = bufferBox(4 * s + q);
          el(layers.switches, "text", { class: "port-name", x: box.x + box.w / 2, y: box.y + box.h / 2 + 2.5 },
             PORT_NAMES[q]);
        }
      }
    }
    for (let p = 0; p < N; p++) {
      const g = el(layers.procs, "g", {});
      procBoxes.push(el(g, "rect", { class: "proc idle", x: procX(p) - W / 2 + 2, y: TOP - PH / 2,
                                     width: W - 4, height: PH, rx: 3 }));
      el(g, "text", { class: "label", x: procX(p), y: TOP - PH / 2 + 10 }, "p" + p);
      el(g, "title", {}, "");
    }
  }

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

  // A packet's dot: smaller in an input port, and in a buffer small enough
  // that its queue fits the box (or its channel's strip) side by side.
  function dotRadius(w, queued) {
    if (w.kind === 3) return 2.5;
    if (w.kind !== 2) return 4.5;
    const box = bufferBox(w.at);
    return Math.max(1.5, Math.min(4.5, (box.w - 2) / (2 * queued), box.h / V / 2));
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
      const box = bufferBox(w.at), r = dotRadius(w, queued);
      return [box.x + 1 + r + (position - 1) * 2 * r, box.y + (w.lane + 0.5) * box.h / V];
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
           "\nage " + (now - pk.created) + (now - pk.created === 1 ? " timestep" : " timesteps") + "\nnow: " + place + "\nbefore: " + before;
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
    const layer = layers.packets;
    layer.textContent = "";
    const q = queues(s);
    const flitsOf = new Map();
    const worms = el(layer, "g", {});
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
      const flit = typeof id === "string" ? id.split(".") : null;
      if (flit) {
        if (!flitsOf.has(flit[0])) flitsOf.set(flit[0], { src: pk.src, at: [] });
        flitsOf.get(flit[0]).at.push([+flit[1], xy]);
      }
      const c = el(layer, "circle", {
        class: "pk" + (pk.copy ? " copy" : "") + (chosen === id ? " chosen" : "") +
               (flit && flit[1] === "0" ? " head" : ""),
        cx: xy[0].toFixed(1), cy: xy[1].toFixed(1), r: dotRadius(w, queued),
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

  // The buffers and input ports that messages own (messages.md), outlined
  // in the owner's colour whether or not a flit of it is there now.
  function drawOwned(s) {
    const layer = layers.owned;
    layer.textContent = "";
    for (const [code, id] of s.owners) {
      const w = decode(code);
      let box;
      if (w.kind === 2) {
        const b = bufferBox(w.at);
        box = { x: b.x - 1, y: b.y + w.lane * b.h / V - 1, w: b.w + 2, h: b.h / V + 2 };
      } else {
        const p = Math.floor(w.at / P);
        box = { x: procX(p) - W / 2 + 2.5, y: TOP + PH / 2 - 13, w: W - 5, h: 12 };
      }
      el(layer, "rect", { class: "owned", x: box.x.toFixed(1), y: box.y.toFixed(1), width: box.w.toFixed(1),
                          height: box.h.toFixed(1), stroke: messageColour(id), "data-owned": ownedName(code, id) });
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
                       "split", "port-wait", "buffer-owned"];
  // The kinds of event that are buffer collisions: refused without room,
  // queued behind another packet, refused by a buffer another message owns.
  function isBufferCollision(kind) { return kind === 2 || kind === 3 || kind === 8; }

  // Where the event of packet `id` at `place` is marked in state s: a link
  // collision on the claimant's lane of the wire it claimed (its
  // channel is its port's), a port wait on the packet's own lane into the
  // processor, and the rest at their buffer, switch or processor.
  function eventXY(kind, id, place, s) {
    if (kind === 1) {
      const pk = packets.get(id);
      return packetXY({ kind: 1, at: place, dir: FULL ? place & 1 : 0, lane: pk ? pk.port % V : 0 }, 1, 1);
    }
    if (isBufferCollision(kind)) {
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

  function ringEvents(s, t) {
    layers.events.textContent = "";
    const ev = R.events[t];
    for (let i = 0; i < ev.length; i += 4) {
      const kind = ev[i], xy = eventXY(kind, ev[i + 1], ev[i + 2], s);
      el(layers.events, "circle", { class: "ev " + EVENT_NAMES[kind], cx: xy[0].toFixed(1),
                                    cy: xy[1].toFixed(1), r: kind === 1 || isBufferCollision(kind) ? 9 : 7 });
    }
  }

  /* ---- the view's place in the drawing: zoom and pan ------------------------------ */

  // The network view shows the drawing's units from (cx, cy) at its centre
  // at `scale` pixels a unit; the summary shows processors x0 to x1.
  const view = { name: "network", cx: WIDTH / 2, cy: HEIGHT / 2, zoom: 1, x0: 0, x1: N };

  function netFit() {
    const r = net.getBoundingClientRect();
    return Math.min(r.width / WIDTH, r.height / HEIGHT) || 1;
  }
  function placeNetwork() {
    const r = net.getBoundingClientRect(), scale = netFit() * view.zoom;
    if (!r.width || !r.height) return;
    const w = r.width / scale, h = r.height / scale;
    net.setAttribute("viewBox", [view.cx - w / 2, view.cy - h / 2, w, h].map(function (v) {
      return v.toFixed(2); }).join(" "));
  }

  // Zooms by `factor` keeping the point at fraction (fx, fy) of the view
  // where it is.
  function zoomBy(factor, fx, fy) {
    if (view.name === "network") {
      const r = net.getBoundingClientRect(), zoom = Math.max(1, Math.min(60, view.zoom * factor));
      const before = netFit() * view.zoom, after = netFit() * zoom;
      view.cx += (fx - 0.5) * r.width * (1 / before - 1 / after);
      view.cy += (fy - 0.5) * r.height * (1 / before - 1 / after);
      view.zoom = zoom;
      if (zoom === 1) { view.cx = WIDTH / 2; view.cy = HEIGHT / 2; }
      placeNetwork();
    } else {
      const span = view.x1 - view.x0, at = view.x0 + fx * span;
      const next = Math.max(Math.min(N, 4), Math.min(N, span / factor));
      view.x0 = Math.max(0, Math.min(N - next, at - (at - view.x0) * next / span));
      view.x1 = view.x0 + next;
      view.zoom = N / next;
      drawSummary();
    }
    document.body.dataset.zoom = view.zoom.toFixed(2);
  }

  function panBy(dx, dy) {
    if (view.name === "network") {
      const scale = netFit() * view.zoom;
      view.cx = Math.max(0, Math.min(WIDTH, view.cx - dx / scale));
      view.cy = Math.max(0, Math.min(HEIGHT, view.cy - dy / scale));
      placeNetwork();
    } else {
      const span = view.x1 - view.x0, unit = span / Math.max(1, heat.clientWidth - HEAT_LABELS);
      view.x0 = Math.max(0, Math.min(N - span, view.x0 - dx * unit));
      view.x1 = view.x0 + span;
      drawSummary();
    }
  }

  function fit() {
    view.zoom = 1; view.cx = WIDTH / 2; view.cy = HEIGHT / 2; view.x0 = 0; view.x1 = N;
    if (view.name === "network") placeNetwork(); else drawSummary();
    document.body.dataset.zoom = "1.00";
  }

  // The wheel zooms; a drag pans, and a drag is not a click.
  let dragged = false, dragging = false;
  function zoomable(target, fractionX) {
    target.addEventListener("wheel", function (e) {
      const r = target.getBoundingClientRect();
      zoomBy(Math.exp(-e.deltaY * 0.0015), fractionX(e, r), (e.clientY - r.top) / r.height);
      e.preventDefault();
    }, { passive: false });
    let from = null;
    target.addEventListener("pointerdown", function (e) { from = [e.clientX, e.clientY]; dragged = false; });
    target.addEventListener("pointermove", function (e) {
      if (!from || !(e.buttons & 1)) { from = null; return; }
      const dx = e.clientX - from[0], dy = e.clientY - from[1];
      if (!dragged && Math.abs(dx) + Math.abs(dy) < 4) return;
      if (!dragged) { dragged = dragging = true; target.setPointerCapture(e.pointerId); target.classList.add("grab"); }
      from = [e.clientX, e.clientY];
      panBy(dx, dy);
    });
    target.addEventListener("pointerup", function () {
      from = null;
      dragging = false;
      target.classList.remove("grab");
    });
    target.addEventListener("click", function (e) { if (dragged) { e.stopPropagation(); dragged = false; } }, true);
  }

  /* ---- the summary view: a heat map -------------------------------------------- */

  const heat = $("heat"), HEAT_LABELS = 64;            // CSS pixels of labels on its left
  // Its rows, top to bottom, as the network view has them: plane 0's
  // layers from the top down, each with its links below it, the
  // processors, then plane 1's layers from the processors out.
  const ROWS = [];
  for (let l = K; l >= 1; l--) ROWS.push({ kind: "switches", plane: 0, layer: l }, { kind: "links", plane: 0, layer: l });
  ROWS.push({ kind: "procs" });
  if (PLANES > 1)
    for (let l = 1; l <= K; l++) ROWS.push({ kind: "links", plane: 1, layer: l }, { kind: "switches", plane: 1, layer: l });
  const ROW_WEIGHT = { switches: 3, links: 1, procs: 3 };

  function rgb(r, g, b) { return (255 << 24 | b << 16 | g << 8 | r) >>> 0; }
  function parseRgb(css) {
    const m = /rgba?\((\d+), *(\d+), *(\d+)/.exec(css);
    return m ? rgb(+m[1], +m[2], +m[3]) : rgb(255, 255, 255);
  }
  const PAPER = rgb(255, 255, 255), EMPTY = rgb(236, 239, 243);
  // Occupancy: from a pale blue (one packet) to a deep one (every place taken).
  const OCCUPANCY = [];
  for (let i = 0; i <= 64; i++) {
    const f = i / 64;
    OCCUPANCY.push(rgb(Math.round(140 - 132 * f), Math.round(180 - 132 * f), Math.round(235 - 128 * f)));
  }
  const ON_LINK = [PAPER, rgb(140, 160, 200), rgb(60, 85, 140)];
  const COLLISION = [0, rgb(240, 95, 95), rgb(225, 45, 45), rgb(185, 0, 0)];
  const STATUS_RGB = STATUS_FILL.map(parseRgb);
  // Which status a column of several processors shows, the first of:
  // faulted, waiting on OUT, waiting on IN, running, halted, idle.
  const STATUS_RANK = [3, 2, 1, 4, 0, 5];   // by status: running, wait-in, ..., idle

  // What each switch holds and each link carries at the end of state s's
  // timestep, and the collisions of timestep t at each.
  function heatValues(s, t) {
    const occ = new Uint16Array(PLANES * K * H), onLink = new Uint8Array(PLANES * K * N);
    const bufColl = new Uint16Array(PLANES * K * H), linkColl = new Uint16Array(PLANES * K * N);
    for (const v of s.at.values()) {
      const kind = v.code % 4, at = Math.floor(v.code / 64);
      if (kind === 2) occ[at >> 2]++;
      else if (kind === 1) onLink[FULL ? at >> 1 : at]++;
    }
    const ev = R.events[t];
    for (let i = 0; i < ev.length; i += 4) {
      if (ev[i] === 1) linkColl[FULL ? ev[i + 2] >> 1 : ev[i + 2]]++;
      else if (ev[i] === 2 || ev[i] === 3) bufColl[ev[i + 2] >> 2]++;
    }
    return { occ: occ, onLink: onLink, bufColl: bufColl, linkColl: linkColl };
  }

  // Rows' tops in device pixels, and their bottoms.
  function rowBounds(height) {
    let total = 0, acc = 0;
    for (const r of ROWS) total += ROW_WEIGHT[r.kind];
    return ROWS.map(function (r) {
      const top = Math.round(acc * height / total);
      acc += ROW_WEIGHT[r.kind];
      return [top, Math.round(acc * height / total)];
    });
  }

  // The colour of one row over processors [u0, u1).
  function cellColour(row, values, s, u0, u1) {
    if (row.kind === "procs") {
      let best = 5;
      for (let p = Math.floor(u0); p < Math.min(N, Math.ceil(u1)); p++)
        if (STATUS_RANK[s.procs[p][0]] < STATUS_RANK[best]) best = s.procs[p][0];
      return [STATUS_RGB[best], 0];
    }
    const base = (row.plane * K + row.layer - 1) * (row.kind === "links" ? N : H);
    const width = row.kind === "links" ? 1 : 2;
    let most = 0, coll = 0;
    for (let i = Math.floor(u0 / width); i < Math.min(N / width, Math.ceil(u1 / width)); i++) {
      if (row.kind === "links") {
        most = Math.max(most, values.onLink[base + i]);
        coll += values.linkColl[base + i];
      } else {
        most = Math.max(most, values.occ[base + i]);
        coll += values.bufColl[base + i];
      }
    }
    if (row.kind === "links")
      return [coll ? COLLISION[Math.min(3, coll + 1)] : ON_LINK[Math.min(2, most)], 0];
    const places = (row.layer === K ? 2 : 4) * C.buffer * V;
    const body = most ? OCCUPANCY[Math.round(64 * Math.min(1, most / places))] : EMPTY;
    return [body, coll ? COLLISION[Math.min(3, coll)] : 0];
  }

  let heatCells = null;        // with cells=1: the numbers the test reads
  function drawSummary() {
    if (view.name !== "summary") return;
    const dpr = window.devicePixelRatio || 1;
    const cw = Math.max(1, Math.round(heat.clientWidth * dpr)), ch = Math.max(1, Math.round(heat.clientHeight * dpr));
    if (heat.width !== cw || heat.height !== ch) { heat.width = cw; heat.height = ch; }
    const ctx = heat.getContext("2d");
    const s = stateAt(now), values = heatValues(s, now);
    const left = Math.round(HEAT_LABELS * dpr), cols = cw - left;
    const unit = (view.x1 - view.x0) / Math.max(1, cols);        // processors a pixel
    const image = ctx.createImageData(cw, ch), px = new Uint32Array(image.data.buffer);
    px.fill(PAPER);
    const bounds = rowBounds(ch), line = new Uint32Array(cw), band = new Uint32Array(cw);
    ROWS.forEach(function (row, r) {
      const width = row.kind === "procs" || row.kind === "links" ? 1 : 2;
      const gaps = width / unit >= 5;                    // items wide enough to part
      let any = false;
      line.fill(PAPER); band.fill(0);
      for (let c = 0; c < cols; c++) {
        const u0 = view.x0 + c * unit, u1 = u0 + unit;
        if (gaps && Math.floor(u0 / width) !== Math.floor((u0 - unit) / width) && c > 0) continue;
        const [body, coll] = cellColour(row, values, s, u0, u1);
        line[left + c] = body;
        band[left + c] = coll;
        any = any || coll !== 0;
      }
      const [top, bottom] = bounds[r], gap = Math.max(1, Math.round(dpr));
      const bandTop = row.kind === "switches" ? Math.round(bottom - (bottom - top) * 0.4) : bottom;
      for (let y = top + gap; y < bottom; y++) {
        if (any && y >= bandTop) {
          for (let x = left; x < cw; x++) px[y * cw + x] = band[x] || line[x];
        } else {
          px.set(line, y * cw);
        }
      }
    });
    ctx.putImageData(image, 0, 0);
    summaryLabels(ctx, bounds, dpr, left, unit);
    if (heatCells !== null) heatCells = summaryNumbers(values);
    if (heatCells) heat.dataset.cells = heatCells;
  }

  function summaryLabels(ctx, bounds, dpr, left, unit) {
    ctx.fillStyle = "#333";
    ctx.textBaseline = "middle";
    ctx.font = Math.round(12 * dpr) + "px system-ui, sans-serif";
    ROWS.forEach(function (row, r) {
      const y = (bounds[r][0] + bounds[r][1]) / 2;
      if (row.kind === "switches") ctx.fillText("l" + row.layer, left - 22 * dpr, y);
      if (row.kind === "procs") ctx.fillText("procs", 4 * dpr, y);
    });
    ctx.font = "bold " + Math.round(13 * dpr) + "px system-ui, sans-serif";
    for (let plane = 0; plane < PLANES; plane++) {
      const rows = [];
      ROWS.forEach(function (row, r) { if (row.plane === plane) rows.push(r); });
      const y = (bounds[rows[0]][0] + bounds[rows[rows.length - 1]][1]) / 2;
      ctx.save();
      ctx.translate(12 * dpr, y);
      ctx.rotate(-Math.PI / 2);
      ctx.textAlign = "center";
      ctx.fillText("plane " + plane, 0, 0);
      ctx.restore();
    }
    // Processor numbers along their row, as many as fit.
    const procs = bounds[ROWS.findIndex(function (row) { return row.kind === "procs"; })];
    let step = 1;
    while (step / unit < 44 * dpr) step *= 2;
    ctx.font = Math.round(11 * dpr) + "px system-ui, sans-serif";
    ctx.textAlign = "center";
    ctx.fillStyle = "#111";
    for (let p = Math.ceil(view.x0 / step) * step; p < view.x1; p += step) {
      const x = left + (p + (step === 1 ? 0.5 : 0) - view.x0) / unit;
      ctx.fillText("p" + p, x, (procs[0] + procs[1]) / 2);
    }
    ctx.textAlign = "start";
  }

  // For the test: each layer's switches' packets, and the collisions, one
  // after another with ';'.
  function summaryNumbers(values) {
    const lines = [];
    let coll = 0;
    for (let plane = 0; plane < PLANES; plane++)
      for (let l = 1; l <= K; l++) {
        const base = (plane * K + l - 1) * H;
        lines.push("p" + plane + ".l" + l + " " + Array.from(values.occ.subarray(base, base + H)).join(" "));
      }
    for (const n of values.bufColl) coll += n;
    for (const n of values.linkColl) coll += n;
    lines.push("collisions " + coll);
    return lines.join(";");
  }

  // What lies under the pointer in the summary, in the panel.
  function summaryAt(x, y) {
    const dpr = window.devicePixelRatio || 1, left = HEAT_LABELS;
    const bounds = rowBounds(heat.clientHeight * dpr);
    const r = bounds.findIndex(function (b) { return y * dpr >= b[0] && y * dpr < b[1]; });
    if (r < 0 || x < left) return null;
    const u = view.x0 + (x - left) * (view.x1 - view.x0) / Math.max(1, heat.clientWidth - left);
    const row = ROWS[r], s = stateAt(now), lines = [];
    const here = function (test) {
      const list = [];
      for (const [id, v] of s.at) if (test(decode(v.code))) list.push(shortName(id, s));
      return list;
    };
    const ev = R.events[now], coll = function (test) {
      let n = 0;
      for (let i = 0; i < ev.length; i += 4) if (test(ev[i], ev[i + 2])) n++;
      return n;
    };
    const owned = function (test) {
      const list = [];
      for (const [code, id] of s.owners) if (test(decode(code))) list.push(ownedName(code, id));
      return list.length ? ["owned: " + list.join(", ")] : [];
    };
    const p = Math.min(N - 1, Math.floor(u));
    if (row.kind === "procs") {
      lines.push("p" + p + ": " + statusText(s.procs[p]));
      const slot = here(function (w) { return w.kind === 0 && w.at === p; });
      const ports = here(function (w) { return w.kind === 3 && Math.floor(w.at / P) === p; });
      lines.push("output slot: " + (slot.length ? slot.join(", ") : "empty"));
      lines.push("input ports: " + (ports.length ? ports.join(", ") : "empty"));
      lines.push.apply(lines, owned(function (w) { return w.kind === 3 && Math.floor(w.at / P) === p; }));
    } else if (row.kind === "switches") {
      const sw = (row.plane * K + row.layer - 1) * H + (p >> 1);
      const list = here(function (w) { return w.kind === 2 && w.at >> 2 === sw; });
      lines.push("switch " + switchName(sw) + ": " + list.length + " in its buffers");
      if (list.length) lines.push(list.slice(0, 12).join(", ") + (list.length > 12 ? ", ..." : ""));
      lines.push("buffer collisions in this timestep: " +
                 coll(function (k, at) { return isBufferCollision(k) && at >> 2 === sw; }));
      lines.push.apply(lines, owned(function (w) { return w.kind === 2 && w.at >> 2 === sw; }));
    } else {
      const link = 2 * ((row.plane * K + row.layer - 1) * H) + p;
      const list = here(function (w) { return w.kind === 1 && (FULL ? w.at >> 1 : w.at) === link; });
      lines.push("link " + linkName(link) + ": " + (list.length ? list.join(", ") : "empty"));
      lines.push("link collisions in this timestep: " +
                 coll(function (k, at) { return k === 1 && (FULL ? at >> 1 : at) === link; }));
    }
    return lines.join("\n");
  }

  let pinned = null;           // the summary's cell whose details stay in the panel
  heat.addEventListener("mousemove", function (e) {
    if (pinned || dragging) return;
    const r = heat.getBoundingClientRect(), text = summaryAt(e.clientX - r.left, e.clientY - r.top);
    if (text) info.textContent = text;
  });
  heat.addEventListener("click", function (e) {
    const r = heat.getBoundingClientRect(), at = [e.clientX - r.left, e.clientY - r.top];
    pinned = pinned ? null : at;
    const text = summaryAt(at[0], at[1]);
    if (text) info.textContent = text;
  });

  /* ---- the panel: counts, output, events ---------------------------------------- */

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
    case 2: return "buffer collision: " + who + (MESSAGES ? " refused by buffer " + bufferName(place) +
                   ", without room for it" : " refused by full buffer " + bufferName(place)) +
                   heldBy(s, place, pk.port % V, id, false);
    case 8: return "buffer collision: " + who + " refused by buffer " + bufferName(place) +
                   ", owned by message #" + copy;
    case 3: return "buffer collision: " + who + " queues in buffer " + bufferName(place) +
                   heldBy(s, place, pk.port % V, id, true);
    case 4: return who + " delivered to p" + place;
    case 5: return "p" + place + " reads " + who;
    case 6: return who + " splits: copy #" + copy;
    case 7: return who + " waits for a full input port";
    default: return who;
    }
  }

  const EVENTS_SHOWN = 100;
  function listEvents(s, t) {
    const list = $("events");
    list.textContent = "";
    const ev = R.events[t];
    for (let i = 0; i < ev.length && i < 4 * EVENTS_SHOWN; i += 4) {
      const li = document.createElement("li");
      li.className = EVENT_NAMES[ev[i]];
      li.textContent = eventText(ev[i], ev[i + 1], ev[i + 2], ev[i + 3], s);
      list.appendChild(li);
    }
    if (ev.length > 4 * EVENTS_SHOWN) {
      const li = document.createElement("li");
      li.textContent = "... and " + (ev.length / 4 - EVENTS_SHOWN) + " more";
      list.appendChild(li);
    }
  }

  function drawCounts(t) {
    const link = totals[0][t], buffer = totals[1][t];
    const before = t > 0 ? totals[0][t - 1] + totals[1][t - 1] : 0;
    const shown = { "n-t": t, "n-step": link + buffer - before, "n-coll": link + buffer, "n-link": link,
                    "n-buffer": buffer, "n-sent": totals[2][t], "n-delivered": totals[3][t],
                    "n-flight": totals[4][t], "n-multicasts": totals[5][t], "n-copies": totals[6][t],
                    "n-flits-sent": totals[8][t], "n-flits-delivered": totals[9][t] };
    for (const id in shown) $(id).textContent = shown[id];
  }

  // The lines printed up to timestep t, the newest of them (those of t)
  // marked; at the last timestep, how the run ended and why.
  const OUTPUT_SHOWN = 300;
  let scrolling = 0;
  function drawOutput(t) {
    const out = $("output");
    out.textContent = "";
    const end = printsAt[t + 1], atT = printsAt[t], from = Math.max(0, end - 3 * OUTPUT_SHOWN);
    const line = function (i) { return "t=" + R.prints[i] + " p" + R.prints[i + 1] + ": " + R.prints[i + 2] + "\n"; };
    const add = function (cls, text) {
      const e = document.createElement(cls === "end" ? "div" : "span");
      if (cls) e.className = cls;
      e.textContent = text;
      return out.appendChild(e);
    };
    if (from > 0) add("more", "(" + from / 3 + " lines before these)\n");
    let old = "", fresh = "";
    for (let i = from; i < end; i += 3) if (i < atT) old += line(i); else fresh += line(i);
    if (old) add("", old);
    if (fresh) add("now", fresh);
    if (R.prints.length === 0) add("more", "(the program prints nothing)\n");
    else if (end === 0) add("more", "(nothing printed yet)\n");
    let ending = null;
    if (t === LAST) {
      const whole = LAST === REPORT.timesteps;
      ending = add("end", (whole ? "end: " + REPORT.end + " at timestep " + LAST
                        : "the run went on unrecorded to timestep " + REPORT.timesteps + ", end: " + REPORT.end) +
                 (REPORT.end === "normal" && !R.ending ? " (every processor halted, the network empty)" : ""));
      if (R.ending) add(REPORT.end === "normal" ? "" : "why", R.ending);
    }
    // The newest lines in view, or the start of the reason the run ended
    // (once the page is laid out: asking now would lay it out for each
    // timestep played).
    cancelAnimationFrame(scrolling);
    scrolling = requestAnimationFrame(function () {
      out.scrollTop = ending ? ending.offsetTop - out.offsetTop - 2 : out.scrollHeight;
    });
  }

  /* ---- charts ----------------------------------------------------------------- */

  // The timeline under the controls: collisions (red) and packets in flight
  // (blue) by timestep, at most one point a pixel (the largest of its span);
  // a click goes there.
  const chart = $("chart"), CHART_LEFT = 96;
  function drawChart() {
    chart.textContent = "";
    const w = Math.max(100, chart.clientWidth), h = Math.max(20, chart.clientHeight);
    chart.setAttribute("viewBox", "0 0 " + w + " " + h);
    const cols = Math.max(1, Math.min(LAST + 1, w - CHART_LEFT - 2)), coll = [], flight = [];
    let most = 1;
    for (let c = 0; c < cols; c++) {
      const a = Math.floor(c * (LAST + 1) / cols), b = Math.max(a + 1, Math.floor((c + 1) * (LAST + 1) / cols));
      let mc = 0, mf = 0;
      for (let t = a; t < b; t++) {
        mc = Math.max(mc, totals[0][t] + totals[1][t] - (t > 0 ? totals[0][t - 1] + totals[1][t - 1] : 0));
        mf = Math.max(mf, totals[4][t]);
      }
      coll.push(mc); flight.push(mf);
      most = Math.max(most, mc, mf);
    }
    const x = function (c) { return (CHART_LEFT + c * (w - CHART_LEFT - 2) / Math.max(1, cols - 1)).toFixed(1); };
    const y = function (v) { return (h - 2 - v * (h - 6) / most).toFixed(1); };
    el(chart, "rect", { x: CHART_LEFT, y: 0, width: w - CHART_LEFT, height: h, fill: "#fcfcfc" });
    el(chart, "polyline", { class: "flight", points: flight.map(function (v, c) { return x(c) + "," + y(v); }).join(" ") });
    el(chart, "polyline", { class: "coll", points: coll.map(function (v, c) { return x(c) + "," + y(v); }).join(" ") });
    el(chart, "text", { class: "axis", x: 2, y: 10, style: "fill:#d00" }, "collisions");
    el(chart, "text", { class: "axis", x: 2, y: 21, style: "fill:#06c" }, "in flight");
    el(chart, "text", { class: "axis", x: 2, y: 32 }, "max " + most);
    cursor.line = el(chart, "line", { class: "cursor", x1: 0, x2: 0, y1: 0, y2: h });
    cursor.x = function (t) { return CHART_LEFT + t * (w - CHART_LEFT - 2) / Math.max(1, LAST); };
    placeCursor();
  }
  const cursor = { line: null, x: null };
  function placeCursor() {
    if (!cursor.line) return;
    const x = cursor.x(now).toFixed(1);
    cursor.line.setAttribute("x1", x);
    cursor.line.setAttribute("x2", x);
  }
  chart.addEventListener("click", function (e) {
    const r = chart.getBoundingClientRect();
    const f = (e.clientX - r.left - CHART_LEFT) / (r.width - CHART_LEFT - 2);
    play(false);
    show(Math.round(Math.max(0, Math.min(1, f)) * LAST));
  });

  function drawHistogram() {
    const hist = $("hist"), h = REPORT.latency_histogram, keys = Object.keys(h).map(Number);
    hist.textContent = "";
    const cw = Math.max(100, hist.clientWidth), ch = Math.max(40, hist.clientHeight);
    hist.setAttribute("viewBox", "0 0 " + cw + " " + ch);
    if (keys.length === 0) { el(hist, "text", { class: "axis", x: 10, y: 20 }, "no packet delivered"); return; }
    const lo = Math.min.apply(null, keys), hi = Math.max.apply(null, keys);
    // At most HIST_BARS bars: a wide spread of latencies is binned, each
    // bar `span` timesteps, so that none is too thin to see.
    const HIST_BARS = 40, span = Math.ceil((hi - lo + 1) / HIST_BARS);
    const bins = new Map();
    for (const k of keys) {
      const b = Math.floor((k - lo) / span);
      bins.set(b, (bins.get(b) || 0) + h[k]);
    }
    let most = 1;
    for (const n of bins.values()) most = Math.max(most, n);
    const bw = (cw - 24) / Math.ceil((hi - lo + 1) / span);
    for (const [b, n] of bins) {
      const bh = n * (ch - 22) / most, from = lo + b * span, to = Math.min(hi, from + span - 1);
      const bar = el(hist, "rect", { class: "bar", x: (20 + b * bw).toFixed(1), y: (ch - 12 - bh).toFixed(1),
                                     width: Math.max(0.5, bw - 1).toFixed(1), height: bh.toFixed(1) });
      el(bar, "title", {}, n + (MESSAGES ? " messages" : " packets") + " took " +
                           (from === to ? from : from + " to " + to) + " timesteps");
    }
    el(hist, "text", { class: "axis", x: 20, y: ch - 1 }, String(lo));
    el(hist, "text", { class: "axis", x: cw - 4, y: ch - 1, "text-anchor": "end" }, String(hi));
    el(hist, "text", { class: "axis", x: 2, y: 10 }, String(most));
  }

  /* ---- the legend ----------------------------------------------------------------- */

  function legendItem(swatch, text) {
    return "<span><i style=\"" + swatch + "\"></i>" + text + "</span>";
  }
  function drawLegend() {
    const items = [];
    STATUS_CLASS.forEach(function (c, i) {
      items.push(legendItem("background:" + STATUS_FILL[i] + (c === "idle" ? ";border-style:dashed" : ""), c));
    });
    if (view.name === "network") {
      items.push(legendItem("background:" + colour(3) + ";border-radius:50%", "a packet, in its source's colour"));
      if (MESSAGES) items.push(legendItem("border:2px dashed " + colour(3), "held by a message"));
      const rings = [["#d00", "link collision"], ["#e80", "buffer collision"], ["#999", "waits for its port"],
                     ["#080", "delivered"], ["#06c", "read"], ["#80c", "sent"]];
      if (MULTICASTS) rings.push(["#c0c", "split"]);
      for (const r of rings) items.push("<span><i class=\"ring\" style=\"border-color:" + r[0] + "\"></i>" + r[1] + "</span>");
    } else {
      items.push(legendItem("background:rgb(140,180,235)", "a switch with a packet"),
                 legendItem("background:rgb(8,48,107)", "every buffer place taken"),
                 legendItem("background:rgb(140,160,200)", "a packet on a link"),
                 legendItem("background:rgb(225,45,45)", "collisions"));
    }
    $("legend").innerHTML = items.join("");
  }

  /* ---- controls --------------------------------------------------------------- */

  const slider = $("slider"), jump = $("jump"), playButton = $("play");
  let timer = null, clampNote = "";

  function show(t) {
    t = Math.max(0, Math.min(LAST, Math.round(+t || 0)));
    now = t;
    const s = stateAt(t);
    if (view.name === "network") {
      drawPackets(s);
      drawOwned(s);
      drawProcessors(s);
      ringEvents(s, t);
    } else {
      drawSummary();
      if (pinned) info.textContent = summaryAt(pinned[0], pinned[1]) || "";
    }
    listEvents(s, t);
    drawCounts(t);
    drawOutput(t);
    slider.value = t;
    jump.value = t;
    placeCursor();
    $("note-clamp").textContent = clampNote;
    clampNote = "";
    document.body.dataset.t = t;
  }

  // Goes to the timestep asked for (typed, or in the address), saying so
  // when there is no such timestep.
  function go(asked) {
    const t = Math.round(+asked);
    if (String(asked).trim() === "" || !isFinite(t))
      clampNote = "'" + asked + "' is not a timestep: showing " + now + ".";
    else if (t > LAST && LAST < REPORT.timesteps && t <= REPORT.timesteps)
      clampNote = "Timestep " + t + " is not recorded: this page holds timesteps 0 to " + LAST + "; showing " + LAST + ".";
    else if (t > LAST || t < 0)
      clampNote = "There is no timestep " + t + ": the run has timesteps 0 to " + REPORT.timesteps +
                  "; showing " + (t < 0 ? 0 : LAST) + ".";
    show(isFinite(t) && String(asked).trim() !== "" ? t : now);
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

  // Shows view `name` (at once, unless `later`: the page is starting, and
  // will show its first timestep itself).
  function setView(name, later) {
    if (name === "network" && N > NETWORK_MAX) name = "summary";
    view.name = name;
    $("view").value = name;
    document.body.dataset.view = name;
    net.style.display = name === "network" ? "" : "none";     // (an SVG element has no `hidden`)
    $("summary").hidden = name !== "summary";
    if (name === "network" && !layers) buildNetwork();
    info.textContent = name === "network" ? "Point at a packet to see it." : "Point at a switch, link or processor to see it.";
    pinned = null;
    drawLegend();
    if (later) return;
    fit();
    show(now);
  }

  playButton.addEventListener("click", function () { play(!timer); });
  $("back").addEventListener("click", function () { play(false); show(now - 1); });
  $("forward").addEventListener("click", function () { play(false); show(now + 1); });
  $("zoom-in").addEventListener("click", function () { zoomBy(1.5, 0.5, 0.5); });
  $("zoom-out").addEventListener("click", function () { zoomBy(1 / 1.5, 0.5, 0.5); });
  $("zoom-fit").addEventListener("click", fit);
  $("view").addEventListener("change", function () { setView($("view").value); });
  slider.addEventListener("input", function () { show(slider.value); });
  jump.addEventListener("change", function () { play(false); go(jump.value); });
  $("speed").addEventListener("change", function () { if (timer) play(true); });
  document.addEventListener("keydown", function (e) {
    if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT")) return;
    if (e.key === " ") { play(!timer); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { play(false); show(now - 1); e.preventDefault(); }
    else if (e.key === "ArrowRight") { play(false); show(now + 1); e.preventDefault(); }
    else if (e.key === "+" || e.key === "=") zoomBy(1.5, 0.5, 0.5);
    else if (e.key === "-") zoomBy(1 / 1.5, 0.5, 0.5);
    else if (e.key === "0") fit();
  });
  zoomable(net, function (e) {
    // (the view's own fraction: the drawing fills the element, at any zoom)
    const r = net.getBoundingClientRect();
    return (e.clientX - r.left) / r.width;
  });
  zoomable(heat, function (e, r) {
    return Math.max(0, (e.clientX - r.left - HEAT_LABELS) / Math.max(1, r.width - HEAT_LABELS));
  });
  let resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () {
      drawChart();
      drawHistogram();
      if (view.name === "network") placeNetwork(); else drawSummary();
    }, 50);
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
    if (f.t !== undefined) go(f.t);
  });

  /* ---- start ------------------------------------------------------------------ */

  const title = R.program + ": " + N + " processors, --routing " + C.routing +
    ", --duplex " + C.duplex + ", --planes " + PLANES + ", --buffer " + C.buffer +
    (V > 1 ? ", --vcs " + V : "") + "; ended " + REPORT.end + " after " + REPORT.timesteps + " timesteps";
  $("title").textContent = title;
  $("title").title = title;
  document.title = R.program + " (" + C.routing + ")";
  $("last").textContent = LAST;
  slider.max = LAST;
  jump.max = LAST;
  if (LAST < REPORT.timesteps)
    $("note-limit").textContent = "Timesteps 0 to " + LAST + " of " + REPORT.timesteps +
      " are recorded (a page holds at most 2,560,000 processor-timesteps); the counts are those of timestep " + LAST + ".";
  // The counts a run with multicasts or messages needs.
  for (const row of document.querySelectorAll("#counts .multicast")) row.hidden = !MULTICASTS;
  for (const row of document.querySelectorAll("#counts .message")) row.hidden = !MESSAGES;
  if (MESSAGES) {
    $("l-sent").textContent = MULTICASTS ? "packets and messages sent" : "messages sent";
    $("l-flight").textContent = "flits in flight";
  } else if (MULTICASTS) {
    $("l-delivered").textContent = "delivered, copies too";
    $("l-flight").textContent = "in flight, copies too";
  }
  if (N > NETWORK_MAX) {
    const option = $("view").querySelector("option[value=network]");
    option.disabled = true;
    option.textContent = "network (up to " + NETWORK_MAX + ")";
  }
  drawChart();
  drawHistogram();
  const f = fragment();
  if (f.cells) heatCells = "";
  if (f.t !== undefined) clampNote = "";
  setView(f.view || (N > 64 ? "summary" : "network"), true);
  if (view.name === "network") placeNetwork();
  document.body.dataset.zoom = "1.00";
  if (f.t !== undefined) go(f.t); else show(0);
  document.body.dataset.loadMs = Math.round(performance.now() - started);
  const names = { right: "ArrowRight", left: "ArrowLeft", space: " ", plus: "+", minus: "-" };
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
