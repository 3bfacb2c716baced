// The board of a Zhanguo game drawn as SVG, shared by the game viewer page (zsim view) and the
// playtest app (zsim serve). Plain JavaScript, no library: the viewer page inlines this file so
// that it works offline, the playtest app serves it.
//
// The host page sets ``M`` (the game's meta data, zsim.viewer.record.game_meta) before drawing,
// and ``changed`` (the signature keys of what the step shown changed, framed in orange) when it
// likes. A snapshot ``s`` is one table state of the step record, its players' boards inlined. A
// board whose ``hand`` is null shows the backs of the hand (``hand_backs``: cards per suit): a
// player's view of another hand.
"use strict";
let M = null;  // the game's meta data
let changed = new Set();  // what the current step changed on the table, by signature key
const SVGNS = "http://www.w3.org/2000/svg";
const SEAT_COLOURS = {Blue: "#2f6fd0", Yellow: "#e0b000", Red: "#d03a2f", Purple: "#8a3fc0",
                      Green: "#2e9a48", Black: "#333", White: "#ccc"};
const SUIT_FILL = {writing: "#d5ecd0", currency: "#f7e2ae", laws: "#d3def2", alchemist: "#ead9f3"};
const SUIT_EDGE = {writing: "#3d8a40", currency: "#b07d10", laws: "#3d5f9c", alchemist: "#7d4b9c"};
const ACTION_SHORT = {recruit: "Recruit", hire: "Hire", elixir: "Elixir", palace: "Palace",
                      governor: "Governor", wall: "Wall"};
const CATEGORY_NAMES = {vp_palaces: "Palaces", vp_palace_tiles: "Palace tiles",
  vp_cards: "Cards", vp_governor_tiles: "Governor tiles", vp_mausoleum: "Mausoleum",
  vp_rewards: "Rewards", vp_majorities: "Majorities", vp_elixir: "Elixir",
  vp_mausoleum_lines: "Mausoleum lines", vp_walls: "Walls", vp_extra_soldiers: "Extra soldiers"};


// One value per thing that can change on the table, to mark what a step changed.
function signature(s) {
  const sig = {court: s.court};
  s.walls.forEach((slots, i) => slots.forEach((h, k) => { sig["wall." + i + "." + k] = h; }));
  s.mausoleum.forEach((slots, i) => slots.forEach((h, k) => { sig["maus." + i + "." + k] = h; }));
  s.governor_slots.forEach((row, r) => row.forEach((slot, k) => {
    sig["gslot." + r + "." + k] = slot[1];
  }));
  s.palaces.forEach((row, r) => { sig["palaces." + r] = row.join(); });
  s.governors.forEach((row, r) => { sig["governors." + r] = row.join(); });
  s.players.forEach((p, seat) => {
    const k = "p" + seat + ".";
    sig[k + "ship"] = p.ship;
    sig[k + "tokens"] = [p.tokens.join(), p.large.join(), p.soldiers, p.entrance].join("/");
    sig[k + "supply"] = [p.official_supply.join(), p.governors, p.palaces, p.walls,
                         p.alchemists].join("/");
    sig[k + "vp"] = Object.values(p.vp).join();
    sig[k + "hand"] = p.hand ? p.hand.join() : p.hand_backs.join("/");
    for (let r = 0; r < 5; r++) {
      sig[k + r + ".cards"] = p.tableau[r].map((c) => c + (p.emperor[String(c)] || "")).join();
      sig[k + r + ".unrest"] = p.unrest[r];
      sig[k + r + ".officials"] = p.officials[r].join();
      sig[k + r + ".workers"] = p.workers[r];
    }
  });
  return sig;
}
// What differs from snapshot ``before`` to snapshot ``after``, as signature keys.
function changesBetween(before, after) {
  const was = signature(before), now = signature(after);
  return new Set(Object.keys(now).filter((key) => was[key] !== now[key]));
}
// An orange frame around what the step changed.
function glow(parent, x, y, w, h, key) {
  if (!changed.has(key)) return;
  el(parent, "rect", {x: x - 2, y: y - 2, width: w + 4, height: h + 4, rx: 5, fill: "none",
                      stroke: "#ff7a00", "stroke-width": 3, class: "changed"});
}

function roundLabel(round) { return round === 0 ? "Setup" : "Round " + round; }
function seatColour(seat) {
  return SEAT_COLOURS[M.players[seat].colour] || "#777";
}
function seatName(seat) {
  return M.players[seat].colour + " (" + M.players[seat].strategy + ")";
}

// --- SVG helpers -----------------------------------------------------------------------------
function el(parent, name, attrs, text) {
  const node = document.createElementNS(SVGNS, name);
  for (const key in attrs) node.setAttribute(key, attrs[key]);
  if (text !== undefined) node.textContent = text;
  parent.appendChild(node);
  return node;
}
function text(parent, x, y, content, attrs) {
  return el(parent, "text", Object.assign({x: x, y: y, "font-size": 12}, attrs || {}), content);
}
function box(parent, x, y, w, h, attrs) {
  return el(parent, "rect", Object.assign({x: x, y: y, width: w, height: h, rx: 4,
    fill: "none", stroke: "#b8ae98"}, attrs || {}));
}
function title(node, content) { el(node, "title", {}, content); return node; }
function wrap(parent, x, y, content, width, attrs) {
  // Break a line of text into lines that fit the width (an average glyph: 0.55 em).
  const size = (attrs && attrs["font-size"]) || 12;
  const limit = Math.max(8, Math.floor(width / (0.55 * size)));
  const words = content.split(" ");
  let line = "", lines = [];
  for (const word of words) {
    if ((line + " " + word).trim().length > limit) { lines.push(line.trim()); line = word; }
    else line += " " + word;
  }
  if (line.trim()) lines.push(line.trim());
  lines.forEach((l, i) => text(parent, x, y + i * 13, l, attrs));
  return lines.length;
}
function piece(parent, cx, cy, seat, r) {
  return el(parent, "circle", {cx: cx, cy: cy, r: r || 7, fill: seatColour(seat),
                               stroke: "#222", "stroke-width": 1});
}
function card(parent, x, y, number, emperorAction, w, h) {
  const info = M.cards[String(number)];
  const g = el(parent, "g", {class: "card", "data-card": number});
  w = w || 86; h = h || 34;
  box(g, x, y, w, h, {fill: SUIT_FILL[info.type], stroke: SUIT_EDGE[info.type],
                      "stroke-width": emperorAction ? 2.5 : 1.2});
  // Alchemist cards by their short id: "A1.3" is Alchemist alch_1_3, "M2" Master Alchemist 2.
  const label = info.type !== "alchemist" ? String(number) :
    info.name.startsWith("Master") ? "M" + info.name.split("_").pop() :
    "A" + info.name.split("_").slice(1).join(".");
  const small = h < 30;  // a card in a hand: the number above, the trigger below it, so that
  // a number of three digits never runs into a long trigger word ("Governor")
  text(g, x + 4, y + (small ? 10 : 15), label, {
    "font-size": small ? 11 : info.type === "alchemist" ? 12 : 15,
    "font-weight": 700, fill: SUIT_EDGE[info.type]});
  const trigger = emperorAction || info.trigger;
  text(g, x + w - 3, small ? y + h - 2 : y + 14, ACTION_SHORT[trigger],
       {"font-size": small ? 8 : 10, "text-anchor": "end",
        "font-weight": emperorAction ? 700 : 400});
  if (!small) text(g, x + 5, y + h - 5, info.type === "alchemist" ? "Alchemist" :
       info.type.charAt(0).toUpperCase() + info.type.slice(1), {"font-size": 9, fill: "#555"});
  if (emperorAction) text(g, x + w - 4, y + h - 5, "\u2605", {"font-size": 11,
       "text-anchor": "end", fill: "#a00000", "font-weight": 700});
  title(g, info.name + " \u2014 triggers on " + trigger + (emperorAction ? " (Emperor tile)" : "")
        + ": " + info.text);
  return g;
}

// --- the board -------------------------------------------------------------------------------
function drawWall(svg, s, x0, y0) {
  text(svg, x0, y0 + 12, "The Great Wall", {"font-size": 14, "font-weight": 700});
  const width = 150, gap = 8, siteGap = 18;
  M.walls.forEach((wall, i) => {
    const x = x0 + i * (width + gap) + wall.site * siteGap, y = y0 + 20;
    const g = el(svg, "g", {class: "wall-section", "data-section": i});
    box(g, x, y, width, 128, {fill: "#efe8da"});
    text(g, x + 6, y + 15, "Site " + (wall.site + 1) + " \u00b7 section " + (i + 1),
         {"font-weight": 700});
    text(g, x + 6, y + 29, wall.tile + " (" + wall.face + ")", {"font-size": 10.5});
    wrap(g, x + 6, y + 42, wall.scores, width - 10, {"font-size": 10, fill: "#444"});
    const built = s.walls[i].some((holder) => holder >= 0);
    if (wall.emperor) {
      text(g, x + 6, y + 82, built ? "Emperor tile: taken" : "\u2605 Emperor tile: " +
           ACTION_SHORT[wall.emperor], {"font-size": 10.5, fill: built ? "#888" : "#a00000"});
    }
    s.walls[i].forEach((holder, slot) => {
      const cx = x + 20 + slot * 36, cy = y + 106;
      const spot = el(g, "g", {class: "wall-slot", "data-section": i, "data-slot": slot,
                               "data-holder": holder});
      el(spot, "rect", {x: cx - 14, y: cy - 14, width: 28, height: 28, rx: 3,
        fill: holder >= 0 ? seatColour(holder) : "#fff", stroke: "#6b5d45"});
      glow(spot, cx - 14, cy - 14, 28, 28, "wall." + i + "." + slot);
      text(spot, cx, cy + 5, String(wall.tiers[slot]), {"text-anchor": "middle",
        "font-weight": 700, fill: holder >= 0 ? "#fff" : "#6b5d45"});
      title(spot, "Slot " + (slot + 1) + ": tier " + wall.tiers[slot] + " (Workers)" +
            (holder >= 0 ? ", Wall of " + seatName(holder) : ", empty"));
    });
  });
}

function drawRegions(svg, s, x0, y0) {
  text(svg, x0, y0 + 12, "Palaces and Governors by region", {"font-size": 14, "font-weight": 700});
  const width = 192;
  M.regions.forEach((region, r) => {
    const x = x0 + r * (width + 8), y = y0 + 20;
    const g = el(svg, "g", {class: "region", "data-region": r});
    box(g, x, y, width, 140, {fill: "#f1ecdf"});
    text(g, x + 6, y + 16, region, {"font-size": 13, "font-weight": 700});
    glow(g, x + 4, y + 22, width - 8, 16, "palaces." + r);
    text(g, x + 6, y + 34, "Palaces:", {"font-size": 11});
    let px = x + 58;
    s.palaces[r].forEach((count, seat) => {
      for (let k = 0; k < count; k++) {
        el(g, "path", {d: `M${px} ${y + 36} l0 -8 l6 -6 l6 6 l0 8 z`, fill: seatColour(seat),
                       stroke: "#222"});
        px += 15;
      }
    });
    wrap(g, x + 6, y + 52, "Tiles left: " + (s.palace_tiles[r].map(shortTile).join(", ") || "none"),
         width - 10, {"font-size": 10, fill: "#555"});
    text(g, x + 6, y + 82, "Governor slots:", {"font-size": 11});
    s.governor_slots[r].forEach(([tile, holder], k) => {
      const sx = x + 6 + k * 92, sy = y + 88;
      const slot = el(g, "g", {class: "governor-slot", "data-region": r, "data-slot": k});
      box(slot, sx, sy, 88, 20, {fill: holder >= 0 ? seatColour(holder) : "#fff"});
      glow(slot, sx, sy, 88, 20, "gslot." + r + "." + k);
      text(slot, sx + 4, sy + 14, clip(shortTile(tile), 17), {"font-size": 9.5,
           fill: holder >= 0 ? "#fff" : "#333"});
      title(slot, tile + (holder >= 0 ? ": " + seatName(holder) : ": free"));
    });
    glow(g, x + 4, y + 114, width - 8, 20, "governors." + r);
    text(g, x + 6, y + 128, "Governors:", {"font-size": 11});
    let gx = x + 74;
    s.governors[r].forEach((count, seat) => {
      if (!count) return;
      piece(g, gx, y + 124, seat, 8);
      text(g, gx, y + 128, String(count), {"text-anchor": "middle", "font-size": 10,
           fill: "#fff", "font-weight": 700});
      gx += 22;
    });
  });
}

function clip(label, size) {
  return label.length > size ? label.slice(0, size - 1) + "\u2026" : label;
}
function shortTile(id) {
  return id.replace(/^palace_/, "").replace(/^gov_/, "").replace(/_/g, " ");
}

function drawElixir(svg, s, x0, y0) {
  text(svg, x0, y0 + 12, "Elixir route and Ships", {"font-size": 14, "font-weight": 700});
  const spaces = M.elixir.vp.length, w = 37;
  for (let i = 0; i < spaces; i++) {
    const x = x0 + i * w, y = y0 + 40;
    const symbol = M.elixir.symbols.includes(i), master = M.elixir.master === i;
    box(svg, x, y, w - 3, 36, {fill: symbol ? "#e8dcf5" : "#fff"});
    text(svg, x + (w - 3) / 2, y + 14, String(i), {"text-anchor": "middle", "font-size": 10,
         fill: "#777"});
    text(svg, x + (w - 3) / 2, y + 30, M.elixir.vp[i] + "VP", {"text-anchor": "middle",
         "font-size": 11, "font-weight": 700});
    if (symbol) text(svg, x + (w - 3) / 2, y - 2, master ? "\u2697 M" : "\u2697",
                     {"text-anchor": "middle", "font-size": 11, fill: "#7d4b9c"});
  }
  const stacks = {};
  s.players.forEach((p, seat) => {
    const k = stacks[p.ship] = (stacks[p.ship] || 0) + 1;
    const cx = x0 + p.ship * w + (w - 3) / 2, cy = y0 + 80 + k * 13;
    glow(svg, cx - 10, cy - 6, 20, 11, "p" + seat + ".ship");
    const ship = el(svg, "path", {d: `M${cx - 9} ${cy - 5} h18 l-4 9 h-10 z`,
                                  fill: seatColour(seat), stroke: "#222", class: "ship",
                                  "data-seat": seat, "data-space": p.ship});
    title(ship, seatName(seat) + ": Ship on space " + p.ship);
  });
}

function drawMausoleum(svg, s, x0, y0) {
  text(svg, x0, y0 + 12, "Mausoleum", {"font-size": 14, "font-weight": 700});
  const cols = M.mausoleum.columns, w = 196, h = 66;
  M.mausoleum.spots.forEach((spot, i) => {
    const x = x0 + (i % cols) * (w + 6), y = y0 + 20 + Math.floor(i / cols) * (h + 6);
    const g = el(svg, "g", {class: "mausoleum-spot", "data-spot": i});
    box(g, x, y, w, h, {fill: "#ece6f3"});
    const binding = spot.binding.startsWith("site") ? "Wall site " + spot.binding.slice(4) :
      spot.binding === "elixir" ? "Elixir route" :
      spot.binding.charAt(0).toUpperCase() + spot.binding.slice(1);
    text(g, x + 6, y + 14, binding, {"font-weight": 700});
    text(g, x + 6, y + 28, spot.condition.replace(/_/g, " "), {"font-size": 10, fill: "#444"});
    s.mausoleum[i].forEach((holder, slot) => {
      const usable = slot < M.mausoleum.usable;
      const cx = x + 20 + slot * 38, cy = y + 48;
      el(g, "rect", {x: cx - 14, y: cy - 12, width: 28, height: 24, rx: 3,
        fill: holder >= 0 ? seatColour(holder) : usable ? "#fff" : "#ddd", stroke: "#6b5d45"});
      glow(g, cx - 14, cy - 12, 28, 24, "maus." + i + "." + slot);
      text(g, cx, cy + 4, M.mausoleum.slot_values[slot] + "", {"text-anchor": "middle",
           "font-size": 11, "font-weight": 700, fill: holder >= 0 ? "#fff" : "#6b5d45"});
    });
    title(g, binding + " (" + spot.tile + "): " + spot.condition);
  });
}

function drawCourt(svg, s, x0, y0) {
  text(svg, x0, y0 + 12, "Court", {"font-size": 14, "font-weight": 700});
  const g = el(svg, "g", {id: "court"});
  glow(g, x0, y0 + 22, 110, 44, "court");
  if (s.court !== null) card(g, x0, y0 + 22, s.court, null, 110, 44);
  else box(g, x0, y0 + 22, 110, 44, {"stroke-dasharray": "4 3"});
  text(g, x0 + 120, y0 + 36, s.court_size + " card(s) at Court", {"font-size": 11});
  text(g, x0 + 120, y0 + 52, s.court_free ? "next card: free activation" :
       "next card must beat " + (s.court !== null ? s.court : "-"), {"font-size": 11});
  let y = y0 + 90;
  text(svg, x0, y, "Supply: " + M.suits.map((n, i) => n + " " + s.supply[i]).join(", "),
       {"font-size": 11.5});
  text(svg, x0, y + 16, "Large tokens on the board: " + M.suits.filter((n, i) => s.large[i])
       .join(", ") || "none", {"font-size": 11.5});
  text(svg, x0, y + 32, "Decks: " + M.suits.map((n, i) => n + " " + s.decks[i]).join(", "),
       {"font-size": 11.5});
  text(svg, x0, y + 48, "Master Alchemists: " + (s.masters.map((c) =>
       M.cards[String(c)].name.replace("Master Alchemist ", "")).join(", ") || "none"),
       {"font-size": 11.5});
  text(svg, x0, y + 64, "Turn order: " + s.order.map((seat) => M.players[seat].colour)
       .join(" \u2192 "), {"font-size": 11.5, id: "turn-order"});
  if (s.lisi) text(svg, x0, y + 80, "Li Si: " + s.lisi.deck + " action cards left, Palace tiles: "
                   + (s.lisi.palace_tiles.map(shortTile).join(", ") || "none"), {"font-size": 11.5});
  let rewardsY = y + (s.lisi ? 102 : 86);
  text(svg, x0, rewardsY, "Unification rewards (" + M.rewards.board + "), by round",
       {"font-size": 11.5, "font-weight": 700});
  rewardsY += 15;
  M.rewards.aspects.forEach((aspect) => {
    const lines = wrap(svg, x0, rewardsY, aspect.aspect.charAt(0).toUpperCase() +
      aspect.aspect.slice(1) + ": " + aspect.rounds.map((t, k) => (k + 1) + ". " + t).join(" "),
      370, {"font-size": 9.5, fill: "#444"});
    rewardsY += lines * 13 + 4;
  });
}

function drawPlayer(svg, scores, s, seat, x0, y0, active) {
  const p = s.players[seat], w = 490, h = 300;
  const g = el(svg, "g", {class: "player", "data-seat": seat});
  box(g, x0, y0, w, h, {fill: "#fff", stroke: seatColour(seat), "stroke-width": active ? 5 : 2.5});
  el(g, "rect", {x: x0, y: y0, width: w, height: 24, rx: 4, fill: seatColour(seat)});
  const vp = scores ? scores[seat].vp_total : Object.values(p.vp).reduce((a, b) => a + b, 0);
  text(g, x0 + 8, y0 + 17, seatName(seat) + (active ? "  \u25C0 to play" : ""),
       {"font-size": 14, "font-weight": 700, fill: "#fff"});
  text(g, x0 + w - 8, y0 + 17, vp + " VP", {"font-size": 14, "font-weight": 700, fill: "#fff",
       "text-anchor": "end", class: "player-vp"});
  glow(g, x0 + 4, y0 + 29, w - 8, 14, "p" + seat + ".tokens");
  glow(g, x0 + 4, y0 + 44, w - 8, 14, "p" + seat + ".supply");
  glow(g, x0 + w - 70, y0 + 3, 66, 18, "p" + seat + ".vp");
  const large = p.large.map((n, i) => n ? " +large " + M.suits[i] : "").join("");
  text(g, x0 + 8, y0 + 40, "Tokens: " + M.suits.map((n, i) => n.charAt(0) + p.tokens[i])
       .join(" ") + large + "   Ship " + p.ship + "   Soldiers: " + p.soldiers +
       " locked, " + p.entrance + " at the entrance", {"font-size": 11.5});
  text(g, x0 + 8, y0 + 55, "Supply: Officials " + M.officials.map((n, i) => n.slice(0, 2) + " " +
       p.official_supply[i]).join(", ") + "; Governors " + p.governors + ", Palaces " +
       p.palaces + ", Walls " + p.walls + ", Alchemist cards " + p.alchemists,
       {"font-size": 11.5});
  const cw = 94;
  M.regions.forEach((region, r) => {
    const x = x0 + 6 + r * (cw + 2), y = y0 + 62;
    const col = el(g, "g", {class: "tableau-region", "data-region": r});
    box(col, x, y, cw, 178, {fill: "#faf7f0"});
    text(col, x + 4, y + 14, region, {"font-weight": 700});
    glow(col, x + cw - 42, y + 4, 38, 12, "p" + seat + "." + r + ".unrest");
    glow(col, x + 2, y + 20, cw - 4, 13, "p" + seat + "." + r + ".officials");
    glow(col, x + 2, y + 34, cw - 4, 13, "p" + seat + "." + r + ".workers");
    glow(col, x + 3, y + 51, cw - 6, 122, "p" + seat + "." + r + ".cards");
    for (let k = 0; k < 3; k++) {
      el(col, "circle", {cx: x + cw - 36 + k * 11, cy: y + 10, r: 4.5,
        fill: k < p.unrest[r] ? "#c0392b" : "#fff", stroke: "#c0392b"});
    }
    title(el(col, "rect", {x: x + cw - 42, y: y + 3, width: 38, height: 14, fill: "transparent"}),
          "Unrest " + p.unrest[r]);
    const officials = p.officials[r].map((n, i) => n ? M.officials[i].slice(0, 2) + "\u00d7" + n : "")
      .filter(Boolean).join(" ");
    text(col, x + 4, y + 30, officials || "no Officials", {"font-size": 10.5,
         fill: officials ? "#222" : "#aaa"});
    text(col, x + 4, y + 44, p.workers[r] ? "Workers \u00d7" + p.workers[r] : "no Workers",
         {"font-size": 10.5, fill: p.workers[r] ? "#222" : "#aaa"});
    p.tableau[r].forEach((c, k) => card(col, x + 4, y + 52 + k * 40, c, p.emperor[String(c)],
                                        cw - 8, 36));
  });
  // Li Si's cards are his face-down Unification deck, drawn from the top in turn.
  const hand = el(g, "g", {class: "hand", "data-seat": seat});
  const size = p.hand ? p.hand.length : p.hand_backs.reduce((a, b) => a + b, 0);
  text(hand, x0 + 8, y0 + 256, (seat === M.lisi_seat ? "Deck" : "Hand") + " (" + size + "):",
       {"font-size": 11});
  if (p.hand) {
    p.hand.forEach((c, k) => card(hand, x0 + 60 + (k % 7) * 61,
                                  y0 + 246 + Math.floor(k / 7) * 26, c, null, 58, 24));
  } else {
    cardBacks(hand, p.hand_backs, x0 + 60, y0 + 246);
  }
}

// A hand seen from another seat: the backs of its cards, by suit.
function cardBacks(parent, backs, x0, y0) {
  let k = 0;
  backs.forEach((count, suit) => {
    const type = M.suits[suit].toLowerCase();
    for (let i = 0; i < count; i++, k++) {
      const x = x0 + (k % 7) * 61, y = y0 + Math.floor(k / 7) * 26;
      const back = el(parent, "g", {class: "card-back"});
      box(back, x, y, 58, 24, {fill: SUIT_EDGE[type], stroke: "#333"});
      text(back, x + 29, y + 16, M.suits[suit], {"font-size": 9.5, "text-anchor": "middle",
           fill: "#fff"});
      title(back, "a " + M.suits[suit] + " card, face down");
    }
  });
}


// The score sheet into the table element ``table``: the in-game categories of snapshot ``s``,
// or every category of the final ``scores`` once the game is over.
function drawScores(table, s, scores) {
  table.replaceChildren();
  const head = table.insertRow();
  head.insertCell().textContent = scores ? "Final score" : "Score so far";
  for (let seat = 0; seat < M.n_players; seat++) {
    const cell = document.createElement("th");
    cell.textContent = M.players[seat].colour;
    cell.style.color = seatColour(seat);
    head.append(cell);
  }
  const categories = scores ? M.categories : M.in_game_categories;
  const score = (seat, category) => scores ? scores[seat][category]
                                           : s.players[seat].vp[category];
  for (const category of categories) {
    const row = table.insertRow();
    row.dataset.category = category;
    row.insertCell().textContent = CATEGORY_NAMES[category] || category;
    for (let seat = 0; seat < M.n_players; seat++) {
      row.insertCell().textContent = score(seat, category);
    }
  }
  const total = table.insertRow();
  total.className = "total";
  total.insertCell().textContent = "Total";
  for (let seat = 0; seat < M.n_players; seat++) {
    const cell = total.insertCell();
    cell.className = "score-total";
    cell.dataset.seat = seat;
    cell.textContent = categories.reduce((sum, c) => sum + score(seat, c), 0);
  }
}

// The whole board for snapshot ``s`` into ``holder``: ``active`` is the seat to play (its board
// framed), ``scores`` the final score sheet once the game is over (null before).
function drawBoard(holder, s, active, scores) {
  const svg = document.createElementNS(SVGNS, "svg");
  const rows = Math.ceil(M.n_players / 2);
  const height = 720 + rows * 310;
  svg.setAttribute("viewBox", "0 0 1010 " + height);
  svg.setAttribute("font-family", "system-ui, sans-serif");
  drawWall(svg, s, 10, 6);
  drawRegions(svg, s, 10, 160);
  drawElixir(svg, s, 10, 330);
  drawMausoleum(svg, s, 10, 466);
  drawCourt(svg, s, 630, 330);
  for (let seat = 0; seat < M.n_players; seat++) {
    drawPlayer(svg, scores, s, seat, 10 + (seat % 2) * 500, 716 + Math.floor(seat / 2) * 310,
               seat === active);
  }
  holder.replaceChildren(svg);
  return svg;
}
