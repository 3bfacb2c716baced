// The game page of zsim serve: the board (board.js), the question of the human seat to play as
// buttons, the bots' moves shown one by one, hints, undo, hot-seat turns and the score sheet.
//
// The page keeps nothing the server does not: on load it asks for the whole game (GET
// /api/games/ID), and each answer returns the steps played since, which it shows with a short
// pause after each change a bot made (?pace=MS sets the pause, 0 for none). What the server
// sends is only what the seat to play may see; in hot-seat play a curtain hides the board until
// the next player says they are the one looking.
"use strict";
const GAME = document.body.dataset.game;
const PACE = (() => {
  const asked = new URLSearchParams(location.search).get("pace");
  return asked !== null && asked !== "" ? Number(asked) : Number(document.body.dataset.pace);
})();
const $ = (id) => document.getElementById(id);
let known = {epoch: -1, next: 0};  // the steps the page has, of which take-back epoch
let game = null;  // the last answer of the server
let seen = null;  // the table at the human's last look: the orange frames show what changed
let lastTable = null;  // the table drawn last
let revealed = null;  // hot-seat: the seat whose hand the page shows
let hinted = null;  // the hint for the question shown
let skipping = false;
const waiting = [];

// --- the page's state, for people and for tests ------------------------------------------------
// body[data-state] is loading | busy (a request or the bots' moves under way) | question |
// curtain (hot-seat: the next player must say they look) | over | failed | idle.
function setState(value) {
  document.body.dataset.state = value;
  if (value !== "busy" && value !== "loading") waiting.splice(0).forEach((done) => done(value));
}
// A promise of the next state in which the page waits for someone.
window.whenIdle = () => new Promise((done) => {
  const now = document.body.dataset.state;
  if (now !== "busy" && now !== "loading") done(now); else waiting.push(done);
});

async function call(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", body: JSON.stringify(body), headers: {"Content-Type": "application/json"}};
  const answer = await fetch(path, options);
  let data;
  try { data = await answer.json(); } catch (error) { data = {error: answer.statusText}; }
  if (!answer.ok) {
    const failure = new Error(data.error || answer.statusText);
    failure.status = answer.status;
    throw failure;
  }
  return data;
}
function since() { return "after=" + known.next + "&epoch=" + known.epoch; }
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

function status(message, kind) {
  const box = $("status");
  box.hidden = !message;
  box.textContent = message || "";
  box.className = "panel " + (kind || "");
}

// --- taking in what the server sends --------------------------------------------------------------

async function take(payload, animate) {
  if (payload.meta) M = payload.meta;
  if (payload.from === 0) {
    $("log").replaceChildren();
    lastTable = null;
  }
  const pause = animate && payload.from > 0 ? PACE : 0;
  skipping = false;
  $("skip").hidden = pause === 0 || !payload.steps.length;
  let previous = null;
  for (const step of payload.steps) {
    const table = payload.tables[step.state];
    logStep(step, payload);
    const moved = previous !== null && step.state !== previous;
    previous = step.state;
    if (pause > 0 && !skipping && moved && !payload.humans.includes(step.seat)) {
      const who = step.kind === "decision" ? step.by : step.seat;
      status((who !== null ? seatName(who) : step.round === 0 ? "Setting the game up"
              : "The round's rewards") + "\u2026", "busy");
      showTable(table, who, null);
      await sleep(pause);
    }
    lastTable = table;
  }
  $("skip").hidden = true;
  known = {epoch: payload.epoch, next: payload.next};
  game = payload;
  if (payload.from === 0) seen = null;
  render();
}

function showTable(table, active, scores) {
  changed = lastTable ? changesBetween(lastTable, table) : new Set();
  drawBoard($("board"), table, active, scores);
  lastTable = table;
}

function logStep(step, payload) {
  const line = document.createElement("div");
  line.className = "step " + step.kind;
  if (step.kind === "decision") {
    line.textContent = seatName(step.by) + ": " + step.chosen;
    if (!payload.humans.includes(step.by)) line.classList.add("bot");
  } else {
    line.textContent = step.text.trim();
  }
  const log = $("log");
  log.append(line);
  while (log.childElementCount > 400) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}

// --- the page as the game stands ------------------------------------------------------------------

function render() {
  const p = game, q = p.question;
  const over = p.status === "over", failed = p.status === "failed";
  $("title").textContent = "Zhanguo \u00b7 " + M.n_players + " players" +
    (M.solo ? " (solo)" : "") + (M.seed !== null ? " \u00b7 seed " + M.seed : "");
  $("variant").textContent = p.variants && p.variants.length ?
    "Variant: " + p.variants.join(", ") : "The rules as printed (no variant)";
  // a position is of a game under way: once it is over (or stopped) there is none to save
  $("positionlink").hidden = over || failed;
  const round = p.steps.length ? p.steps[p.steps.length - 1].round : null;
  $("where").textContent = over ? "Game over" : (round !== null ? roundLabel(round) : "") +
    (q ? " \u00b7 " + seatName(q.seat) + " to play" : "");
  if (q && p.humans.length > 1 && revealed !== q.seat) {
    curtain(q.seat);
    return;
  }
  $("curtain").hidden = true;
  changed = seen ? changesBetween(seen, p.table) : new Set();
  drawBoard($("board"), p.table, q ? q.seat : null, over ? M.result.scores : null);
  lastTable = p.table;
  if (q) seen = p.table;
  showQuestion(q);
  showHand(p);
  showUndo(p);
  drawScores($("scores"), p.table, over ? M.result.scores : null);
  $("final").hidden = !over;
  if (over) {
    $("winners").textContent = "Winner" + (M.result.winners.length > 1 ? "s: " : ": ") +
      M.result.winners.map(seatName).join(", ") + ". ";
  }
  if (failed) status("The game stopped: " + p.failure, "failed");
  else if (over) status("The game is over.", "over");
  else status("");
  setState(q ? "question" : over ? "over" : failed ? "failed" : "idle");
}

function curtain(seat) {
  // the last table of the steps just played: a public one (no hand shown) in hot-seat play
  changed = new Set();
  if (game.tables.length) drawBoard($("board"), game.tables[game.tables.length - 1], seat, null);
  else $("board").replaceChildren();
  showQuestion(null);
  $("hand").replaceChildren();
  $("curtain-text").textContent = "Pass the device to " + seatName(seat) + ". " +
    M.players[seat].colour + ": show your hand when only you are looking.";
  $("curtain").hidden = false;
  status("");
  setState("curtain");
}

// The two-step move picker of a turn (q.picks, zsim.serve.adapter.picks): the cards of the
// hand first, then what the card picked can do (a region to tuck it under, a Court action).
let picked = null;  // {number: the question's, card: the card picked, or null}

function showQuestion(q) {
  $("ask").hidden = !q;
  const list = $("options");
  list.replaceChildren();
  $("cards").replaceChildren();
  $("picker").hidden = !(q && q.picks);
  if (!q) return;
  $("question").textContent = q.question;
  const hint = hinted && hinted.number === q.number ? hinted : null;
  $("hinted").textContent = hint ? hint.bot + " would choose: " + q.options[hint.choice].text +
    (hint.values ? " (its value of each option is beside it)" : "") : "";
  let shown = q.options.map((option, i) => i);
  if (q.picks) {
    if (!picked || picked.number !== q.number) picked = {number: q.number, card: null};
    if (hint) picked.card = q.picks[hint.choice].card;
    showCards(q, hint);
    shown = picked.card === null ? [] : shown.filter((i) => q.picks[i].card === picked.card);
    $("usestitle").hidden = picked.card === null;
  }
  for (const i of shown) {
    const option = q.options[i];
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "option";
    button.dataset.index = i;
    if (q.picks) {
      const pick = q.picks[i];
      button.textContent = pick.use === "unify" ? "Tuck under " + pick.label :
        pick.use === "court" ? "Court: " + pick.label : "To the Court, no action";
      button.title = option.text;
      item.className = "use-" + pick.use;
    } else {
      button.textContent = option.text;
    }
    button.addEventListener("mouseenter", () => highlight(option.targets));
    button.addEventListener("focus", () => highlight(option.targets));
    button.addEventListener("mouseleave", () => highlight(cardTargets(q)));
    button.addEventListener("click", () => answer(q, i));
    item.append(button);
    if (hint) {
      if (hint.choice === i) item.classList.add("hinted");
      if (hint.values) {
        const value = document.createElement("span");
        value.className = "value";
        value.textContent = hint.values[i] === null ? "\u2013" : hint.values[i].toFixed(2);
        value.title = hint.bot + "'s value of this option";
        item.append(value);
      }
    }
    list.append(item);
  }
  const chosen = list.querySelector("li.hinted");
  if (chosen) chosen.scrollIntoView({block: "nearest"});
  if (q.picks) highlight(cardTargets(q));
}

// Every target of a card's options (by default the picked card's): the card in the hand,
// the regions it can be tucked under, the Court; each once.
function cardTargets(q, card) {
  if (card === undefined) card = picked && picked.card;
  if (!q || !q.picks || card === null || card === undefined) return [];
  const seen = new Set();
  return q.options.filter((o, i) => q.picks[i].card === card).flatMap((o) => o.targets)
    .filter((t) => !seen.has(JSON.stringify(t)) && seen.add(JSON.stringify(t)));
}

function showCards(q, hint) {
  const row = $("cards");
  const cards = [...new Set(q.picks.map((pick) => pick.card))];
  for (const card of cards) {
    const info = M.cards[String(card)];
    const button = document.createElement("button");
    button.type = "button";
    button.className = "card-pick " + info.type;
    button.dataset.card = card;
    const uses = q.picks.filter((pick) => pick.card === card).length;
    button.textContent = info.name + " \u00b7 " + ACTION_SHORT[info.trigger];
    button.title = info.text + " (" + uses + " option" + (uses === 1 ? "" : "s") + ")";
    if (picked.card === card) button.classList.add("picked");
    if (hint && q.picks[hint.choice].card === card) button.classList.add("hinted");
    button.addEventListener("mouseenter", () => highlight(cardTargets(q, card)));
    button.addEventListener("mouseleave", () => highlight(cardTargets(q)));
    button.addEventListener("click", () => {
      picked.card = picked.card === card ? null : card;
      showQuestion(q);
    });
    row.append(button);
  }
  const info = picked.card !== null ? M.cards[String(picked.card)] : null;
  $("cardtext").textContent = info ? info.name + ", on " + ACTION_SHORT[info.trigger] + ": " +
    info.text : "Pick a card to see where it can go; point at one for its ability.";
}

// Frames on the board around what an option acts on (zsim.serve.adapter.targets).
const TARGETS = {
  hand: (t) => `.hand[data-seat="${t.seat}"] .card[data-card="${t.card}"]`,
  tableau: (t) => `.player[data-seat="${t.seat}"] .tableau-region[data-region="${t.region}"]`,
  tableau_card: (t) => `.player[data-seat="${t.seat}"] .tableau-region .card[data-card="${t.card}"]`,
  court: () => "#court",
  region: (t) => `.region[data-region="${t.region}"]`,
  governor_slot: (t) => `.governor-slot[data-region="${t.region}"][data-slot="${t.slot}"]`,
  wall: (t) => `.wall-slot[data-section="${t.section}"][data-slot="${t.slot}"]`,
  spot: (t) => `.mausoleum-spot[data-spot="${t.spot}"]`,
};
function highlight(targets) {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  svg.querySelectorAll(".target").forEach((node) => node.remove());
  for (const target of targets) {
    const node = svg.querySelector(TARGETS[target.on](target));
    if (!node) continue;
    const b = node.getBBox();
    el(svg, "rect", {x: b.x - 4, y: b.y - 4, width: b.width + 8, height: b.height + 8, rx: 6,
                     fill: "none", stroke: "#0a8f5a", "stroke-width": 4, class: "target",
                     "pointer-events": "none"});
  }
}

function showHand(p) {
  const list = $("hand");
  list.replaceChildren();
  const seat = p.viewer;
  $("handpanel").hidden = seat === null;
  if (seat === null) return;
  const hand = p.table.players[seat].hand;
  $("handtitle").textContent = (seat === M.lisi_seat ? "Deck" : "Your hand") + ", " +
    seatName(seat) + " (" + hand.length + ")";
  for (const card of hand) {
    const info = M.cards[String(card)];
    const item = document.createElement("li");
    item.dataset.card = card;
    item.textContent = info.name + " \u00b7 " + ACTION_SHORT[info.trigger] + ": " + info.text;
    item.addEventListener("mouseenter", () => highlight([{on: "hand", seat: seat, card: card}]));
    item.addEventListener("mouseleave", () => highlight([]));
    list.append(item);
  }
}

function showUndo(p) {
  const select = $("undoto");
  select.replaceChildren();
  for (const point of p.undo) {
    const who = point.seat === null ? "" : seatName(point.seat) + ", ";
    const label = (point.round !== null ? roundLabel(point.round) + ": " : "") + who + point.text;
    select.add(new Option(label, String(point.number)));
  }
  $("undopanel").hidden = !p.undo.length;
}

// --- what the player does -----------------------------------------------------------------

async function act(path, body, animate) {
  setState("busy");
  status(path.endsWith("/answer") ? "The bots are playing\u2026" : "\u2026", "busy");
  try {
    await take(await call(path + "?" + since(), body), animate);
  } catch (failure) {
    status(failure.message, "error");
    if (failure.status === 409 || failure.status === 503) await load();
    else setState(game && game.question ? "question" : "idle");
  }
}

function answer(q, index) {
  if (document.body.dataset.state !== "question") return;
  highlight([]);
  hinted = null;
  act(`/api/games/${GAME}/answer`, {number: q.number, option: index}, true);
}

async function hint() {
  const q = game && game.question;
  if (!q || document.body.dataset.state !== "question") return;
  const bot = $("hintbot").value.trim();
  setState("busy");
  $("hinted").textContent = bot + " is thinking\u2026";
  try {
    hinted = Object.assign({number: q.number}, await call(`/api/games/${GAME}/hint`, {bot: bot}));
  } catch (failure) {
    hinted = null;
    status(failure.message, "error");
  }
  showQuestion(q);
  setState("question");
}

function undo() {
  const number = Number($("undoto").value);
  if (Number.isNaN(number)) return;
  revealed = null;
  hinted = null;
  act(`/api/games/${GAME}/undo`, {number: number}, false);
}

async function load() {
  setState("loading");
  known = {epoch: -1, next: 0};
  try {
    await take(await call(`/api/games/${GAME}?` + since()), false);
  } catch (failure) {
    status(failure.message, "error");
    setState("failed");
  }
}

$("hint").addEventListener("click", hint);
$("undo").addEventListener("click", undo);
$("skip").addEventListener("click", () => { skipping = true; });
$("reveal").addEventListener("click", () => {
  revealed = game.question ? game.question.seat : null;
  seen = null;
  render();
});
load();
