// The play page: it draws the server's state of the game and posts the
// person's actions. The game lives on the server, so a reload or a second
// tab draws the same game.
"use strict";

const token = new URLSearchParams(location.search).get("t") || "";
const glyphs = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
const files = "abcdefgh";
let state = null;
let selected = null;   // the square of the man picked to move
let clockTimer = null;

function squareName(i) { return files[i % 8] + (Math.floor(i / 8) + 1); }
function squareIndex(name) { return files.indexOf(name[0]) + 8 * (Number(name[1]) - 1); }
function el(id) { return document.getElementById(id); }

async function api(path, body) {
  const opts = { headers: { "X-Blindfish-Token": token } };
  if (body !== undefined) {
    opts.method = "POST";
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  const data = await r.json().catch(() => ({ error: "an answer that is not JSON (" + r.status + ")" }));
  if (!r.ok) { throw new Error(data.error || ("HTTP " + r.status)); }
  return data;
}

async function act(a) {
  el("message").textContent = "";
  a.question = state ? state.question : 0;
  // The pick is spent now, not when the answer comes: the next question
  // may be drawn while this one's answer is on its way (a refused try is
  // asked again at once), and a man picked on it must stay picked.
  selected = null;
  try { await api("/api/act", a); } catch (e) { el("message").textContent = e.message; if (state) { draw(); } }
}

function moveFor(from, to) {
  // The moves of from to to the server lists; a promotion is a queen's
  // unless typed.
  const ms = (state.moves || []).filter(m => m.startsWith(from + to));
  return ms.find(m => m.endsWith("q")) || ms.find(m => m.length === 4) || ms[0];
}

function clickSquare(name) {
  if (!state) { return; }
  if (state.phase === "sense") {
    if ((state.senses || []).includes(name)) { act({ kind: "sense", square: name }); }
    else { el("message").textContent = name + " is not a square to sense"; }
    return;
  }
  if (state.phase !== "move" && state.phase !== "try") { return; }
  const mine = state.board[squareIndex(name)];
  const ours = mine && ((state.color === "white") === (mine === mine.toUpperCase()));
  if (selected && selected !== name) {
    const m = moveFor(selected, name);
    if (m) { act({ kind: "move", move: m }); return; }
  }
  selected = ours && selected !== name ? name : null;
  draw();
}

function typed(text) {
  const t = text.trim().toLowerCase();
  if (!t) { return; }
  if (t === "pass" || t === "any" || t === "resign") { act({ kind: t }); return; }
  if (/^[a-h][1-8]$/.test(t)) { clickSquare(t); return; }
  if (/^[a-h][1-8][a-h][1-8][nbrq]?$/.test(t)) { act({ kind: "move", move: t }); return; }
  el("message").textContent = "type a square (e5), a move (e2e4 or e7e8q), pass, any or resign";
}

function prompt() {
  switch (state.phase) {
    case "sense": return "Your turn: click a square to sense the 3×3 window around it (or pass).";
    case "move": return "Move: click one of your men, then where it goes (or pass).";
    case "try": return "Try a move: click one of your men, then where it goes" + (state.any ? ", or ask any?" : "") + ".";
    case "over": return state.result || "The game is over.";
    default: return "The opponent is thinking…";
  }
}

function draw() {
  document.body.dataset.phase = state.phase;
  const titles = { kriegspiel: "Kriegspiel", invisible: "Invisible chess", rbc: "Reconnaissance Blind Chess" };
  el("title").textContent = (titles[state.game] || state.game) +
    ": you play " + state.color + " against " + state.opponent;
  const board = el("board");
  board.innerHTML = "";
  const flip = state.color === "black";
  const windowSquares = new Map((state.window || []).map(w => [w.square, w.piece]));
  const hidden = new Set(state.hidden || []);
  const targets = new Set(selected ? (state.moves || []).filter(m => m.startsWith(selected)).map(m => m.slice(2, 4)) : []);
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const rank = flip ? row : 7 - row, file = flip ? 7 - col : col;
      const i = rank * 8 + file, name = squareName(i);
      const d = document.createElement("div");
      d.className = "sq " + ((rank + file) % 2 ? "light" : "dark");
      d.dataset.square = name;
      let piece = state.board[i];
      if (windowSquares.has(name)) {
        d.classList.add("window");
        const seen = windowSquares.get(name);
        if (seen && !piece) { piece = seen; d.classList.add("seen"); }
      }
      if (piece) { d.textContent = glyphs[piece]; d.dataset.piece = piece; }
      if (name === state.lost) { d.classList.add("lost"); }
      if (hidden.has(name)) { d.classList.add("hidden"); }
      const heat = state.heat ? state.heat[i] : 0;
      if (heat > 0.0005) {
        // The belief of the opponent's invisible pieces: red, as strong
        // as the probability that one of them stands here.
        const h = document.createElement("span");
        h.className = "heat";
        h.style.background = "rgba(211,51,51," + (0.15 + 0.7 * heat).toFixed(3) + ")";
        h.textContent = Math.round(100 * heat) + "%";
        d.dataset.heat = heat.toFixed(3);
        d.appendChild(h);
      }
      if (name === selected) { d.classList.add("selected"); }
      if (targets.has(name)) { d.classList.add("target"); }
      if (state.phase === "sense" && (state.senses || []).includes(name)) { d.classList.add("choice"); }
      if (col === 0) { const c = document.createElement("span"); c.className = "coord"; c.textContent = name[1]; d.appendChild(c); }
      d.addEventListener("click", () => clickSquare(name));
      board.appendChild(d);
    }
  }
  el("prompt").textContent = prompt();
  el("belief").hidden = !state.heat;
  if (state.heat) {
    el("belief").textContent = "Your belief of the opponent's invisible pieces (red, the chance one stands there): " +
      (state.placements || 0) + " placements, " + (state.entropy || 0).toFixed(2) + " bits. Your invisible pieces are dashed.";
  }
  el("pass").hidden = !(state.phase === "sense" || state.phase === "move");
  el("any").hidden = !(state.phase === "try" && state.any);
  el("resign").hidden = state.phase === "over";
  const log = el("log");
  log.innerHTML = "";
  for (const line of state.log) { const li = document.createElement("li"); li.textContent = line; log.appendChild(li); }
  log.scrollTop = log.scrollHeight;
  el("result").textContent = state.phase === "over" ? (state.failed ? "The game could not go on: " + state.failed : (state.result || "")) +
    (state.viewer ? " Opening the replay…" : "") : "";
  drawClocks();
}

function clockText(ms) {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000), m = Math.floor(s / 60);
  return m + ":" + String(s % 60).padStart(2, "0") + (m < 1 ? "." + Math.floor((ms % 1000) / 100) : "");
}

function drawClocks() {
  if (!state) { return; }
  const sides = ["white", "black"];
  const me = sides.indexOf(state.color);
  const rows = [[el("clock-bottom"), me, "you"], [el("clock-top"), 1 - me, state.opponent]];
  for (const [node, side, name] of rows) {
    let ms = state.clock[side];
    const running = state.running === sides[side];
    if (running) { ms -= Date.now() - state.at; }
    node.querySelector(".name").textContent = name + " (" + sides[side] + ")";
    node.querySelector(".time").textContent = clockText(ms);
    node.classList.toggle("running", running);
  }
}

async function poll() {
  let since = -1;
  for (;;) {
    try {
      const s = await api("/api/state?since=" + since);
      el("message").textContent = el("message").textContent === "connection lost: retrying" ? "" : el("message").textContent;
      if (s.version !== since) {
        state = s;
        window.bfState = s; // for tests and the curious
        since = s.version;
        if (state.phase !== "move" && state.phase !== "try") { selected = null; }
        draw();
        if (state.viewer) { location.href = state.viewer; return; }
      }
    } catch (e) {
      el("message").textContent = token ? "connection lost: retrying" : "no token: open the address the command printed";
      if (!token) { return; }
      await new Promise(r => setTimeout(r, 1000));
    }
  }
}

el("entry").addEventListener("submit", e => { e.preventDefault(); typed(el("entry-text").value); el("entry-text").value = ""; });
el("pass").addEventListener("click", () => act({ kind: "pass" }));
el("any").addEventListener("click", () => act({ kind: "any" }));
el("resign").addEventListener("click", () => { if (confirm("Resign the game?")) { act({ kind: "resign" }); } });
clockTimer = setInterval(drawClocks, 100);
poll();
