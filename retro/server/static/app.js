// retro workbench: a client of the JSON API (/api/v1). No framework, no network beyond this server.
"use strict";

const FILES = "abcdefgh";
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

// ---------------------------------------------------------------- the set-up
// The fields after the placement are kept as the user gave them (a FEN's fields are the user's statement):
// the editor's controls change them, the page never rewrites them, and the commands judge them.
const setup = { squares: new Array(64).fill(""), turn: "w", castling: "KQkq", ep: "-", counters: "0 1" };
// `line` is the retract-by-hand line, latest retraction last: each entry holds the position after the move (`after`),
// the retraction record, and the move in retro notation; the set-up is the position before the last one.
const state = { flipped: false, tool: "P", view: null, marks: { zone: new Set(), frozen: new Set() }, searched: new Set(),
  panel: "check", line: [] };

function squareName(index) { return FILES[index % 8] + (Math.floor(index / 8) + 1); }
function squareIndex(name) { return FILES.indexOf(name[0]) + 8 * (Number(name[1]) - 1); }

function placementOf(squares) {
  const ranks = [];
  for (let rank = 7; rank >= 0; rank--) {
    let text = "", empty = 0;
    for (let file = 0; file < 8; file++) {
      const piece = squares[rank * 8 + file];
      if (!piece) { empty++; continue; }
      if (empty) { text += empty; empty = 0; }
      text += piece;
    }
    ranks.push(text + (empty ? empty : ""));
  }
  return ranks.join("/");
}

function squaresOf(placement) {
  const rows = placement.split("/");
  if (rows.length !== 8) throw new Error(`a board has 8 ranks, got ${rows.length}`);
  const squares = new Array(64).fill("");
  rows.forEach((row, i) => {
    let file = 0;
    for (const c of row) {
      if (/[1-8]/.test(c)) file += Number(c);
      else if (/[KQRBNPkqrbnp]/.test(c)) { if (file < 8) squares[(7 - i) * 8 + file] = c; file++; }
      else throw new Error(`unexpected character ${JSON.stringify(c)} in rank ${8 - i}`);
    }
    if (file !== 8) throw new Error(`rank ${8 - i} has ${file} squares`);
  });
  return squares;
}

function setupFen() {
  const fields = [placementOf(setup.squares), setup.turn, setup.castling || "-", setup.ep || "-", setup.counters];
  return fields.filter(Boolean).join(" ");
}

// A FEN, or a bare placement (the editor then starts from White to move, no rights, no e.p. square).
function loadFen(text) {
  const fields = text.trim().split(/\s+/);
  setup.squares = squaresOf(fields[0] || "");
  setup.turn = fields[1] || "w";
  setup.castling = fields[2] && fields[2] !== "-" ? fields[2] : "";
  setup.ep = fields[3] || "-";
  setup.counters = fields.length > 1 ? fields.slice(4).join(" ") : "0 1";
  state.searched.clear();
}

function syncEditor() {
  $$("input[name=turn]").forEach((radio) => { radio.checked = radio.value === setup.turn; });
  $$("#castling input[type=checkbox]").forEach((box) => { box.checked = setup.castling.includes(box.value); });
  $("#ep").value = setup.ep;
  $("#fen").value = setupFen();
  $("#fen-error").hidden = true;
  drawBoard();
}

// Each control sets its own field only, so a field the user did not touch stays as given.
function readEditor(event) {
  const input = event.target;
  if (input.name === "turn") setup.turn = input.value;
  else if (input.id === "ep") setup.ep = input.value.trim() || "-";
  else setup.castling = "KQkq".split("").filter((c) => $(`#castling input[value=${c}]`).checked).join("");
  $("#fen").value = setupFen();
}

// ---------------------------------------------------------------- the board
const SVG = "http://www.w3.org/2000/svg";
const SQ = 45, MARGIN = 16;

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function pieceHref(piece) {
  return `/pieces/${piece === piece.toUpperCase() ? "w" : "b"}${piece.toUpperCase()}.svg`;
}

function drawBoard() {
  const board = $("#board");
  board.replaceChildren();
  const squares = state.view ? squaresOf(state.view.fens[state.view.index].split(" ")[0]) : setup.squares;
  const highlight = state.view ? state.view.highlight || new Set() : retractedSquares();
  const showMarks = !state.view && state.panel === "cage";
  for (let index = 0; index < 64; index++) {
    const file = index % 8, rank = Math.floor(index / 8);
    const x = MARGIN + SQ * (state.flipped ? 7 - file : file);
    const y = SQ * (state.flipped ? rank : 7 - rank);
    const name = squareName(index);
    const group = el("g", { class: "sq", "data-square": name }, board);
    el("rect", { x, y, width: SQ, height: SQ, fill: (file + rank) % 2 ? "var(--light)" : "var(--dark)" }, group);
    if (showMarks && state.searched.has(name)) {
      el("rect", { x: x + 1.5, y: y + 1.5, width: SQ - 3, height: SQ - 3, fill: "none", stroke: "var(--searched)",
        "stroke-width": 3 }, group);
    }
    if (showMarks && state.marks.zone.has(name)) el("rect", { x, y, width: SQ, height: SQ, fill: "var(--zone)" }, group);
    if (showMarks && state.marks.frozen.has(name)) {
      el("rect", { x: x + 2, y: y + 2, width: SQ - 4, height: SQ - 4, fill: "var(--frozen)", rx: 4 }, group);
    }
    if (highlight.has(name)) el("rect", { x, y, width: SQ, height: SQ, fill: "var(--mark)" }, group);
    if (squares[index]) el("image", { href: pieceHref(squares[index]), x, y, width: SQ, height: SQ }, group);
    group.addEventListener("click", () => clickSquare(name));
  }
  for (let i = 0; i < 8; i++) {
    const file = state.flipped ? 7 - i : i, rank = state.flipped ? i + 1 : 8 - i;
    el("text", { x: MARGIN + SQ * i + SQ / 2, y: 8 * SQ + 11, "text-anchor": "middle" }, board).textContent = FILES[file];
    el("text", { x: 7, y: SQ * i + SQ / 2 + 3, "text-anchor": "middle" }, board).textContent = rank;
  }
}

function clickSquare(name) {
  if (state.view) return;
  const mode = $("input[name=cage-mode]:checked").value;
  if (state.panel === "cage" && mode !== "pieces") {
    const set = state.marks[mode];
    if (set.has(name)) set.delete(name); else set.add(name);
    state.searched.clear();
    showMarks();
    drawBoard();
    return;
  }
  const index = squareIndex(name);
  state.searched.clear();
  forgetLine();
  setup.squares[index] = state.tool === "x" || setup.squares[index] === state.tool ? "" : state.tool;
  syncEditor();
}

function buildPalette() {
  const palette = $("#palette");
  for (const piece of ["K", "Q", "R", "B", "N", "P", "x", "k", "q", "r", "b", "n", "p"]) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.piece = piece;
    if (piece === "x") { button.className = "eraser"; button.textContent = "\u2715"; button.title = "remove"; }
    else { const img = document.createElement("img"); img.src = pieceHref(piece); img.alt = piece; button.appendChild(img); }
    button.addEventListener("click", () => selectTool(piece));
    palette.appendChild(button);
  }
  selectTool("P");
}

function selectTool(piece) {
  state.tool = piece;
  $$("#palette button").forEach((b) => b.classList.toggle("selected", b.dataset.piece === piece));
}

// ---------------------------------------------------------------- playback
// A view shows a list of positions on the board instead of the set-up.
function showLine(label, fens, { index = 0, onStep = null, highlights = null } = {}) {
  state.view = { label, fens, index, onStep, highlights };
  $("#view-banner").hidden = false;
  $("#playback").hidden = fens.length < 2;
  stepTo(index);
}

function stepTo(index) {
  const view = state.view;
  if (!view) return;
  view.index = Math.max(0, Math.min(view.fens.length - 1, index));
  view.highlight = view.highlights ? view.highlights[view.index] : null;
  $("#view-label").textContent = view.label;
  $("#ply-label").textContent = view.fens.length > 1 ? `position ${view.index} of ${view.fens.length - 1}` : "";
  if (view.onStep) view.onStep(view.index);
  drawBoard();
}

function closeView() {
  state.view = null;
  $("#view-banner").hidden = true;
  $("#playback").hidden = true;
  $$(".moves span.m.current, tr.pick.current").forEach((n) => n.classList.remove("current"));
  drawBoard();
}

// The squares whose unit differs between two placements: a move's from and to squares (and the rook's in castling,
// the captured pawn's in en passant), which is how a predecessor view marks the retracted move.
function changedSquares(before, after) {
  const a = squaresOf(before.split(" ")[0]), b = squaresOf(after.split(" ")[0]);
  return new Set(a.map((piece, i) => (piece !== b[i] ? squareName(i) : null)).filter(Boolean));
}

function moveHighlights(uci) {
  // squares of the move that led to each position (none for the first)
  return [null, ...uci.map((m) => new Set([m.slice(0, 2), m.slice(2, 4)]))];
}

// ---------------------------------------------------------------- the API
async function api(path, body, method = "POST") {
  const response = await fetch(path, {
    method, headers: body ? { "Content-Type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

// Run a command as a background job: progress, elapsed time, and a cancel button in the panel.
async function runJob(panel, command, params) {
  const box = $(".job", panel), result = $(".result", panel), run = $(".run", panel);
  result.replaceChildren();
  box.hidden = false;
  box.innerHTML = `<div class="head"><span class="state">starting ${command}\u2026</span>
    <button type="button" class="cancel">Cancel</button></div><div class="bar"><div></div></div>
    <div class="line"></div>`;
  run.disabled = true;
  let job;
  try {
    job = await api("/api/v1/jobs", { command, params });
    $(".cancel", box).addEventListener("click", () => api(`/api/v1/jobs/${job.id}`, null, "DELETE").catch(() => {}));
    while (job.state === "queued" || job.state === "running") {
      await new Promise((resolve) => setTimeout(resolve, 200));
      job = await api(`/api/v1/jobs/${job.id}`, null, "GET");
      $(".state", box).textContent = `${command}: ${job.state}, ${job.elapsed.toFixed(1)} s of at most ${job.time_limit} s`;
      $(".bar div", box).style.width = `${Math.min(100, (100 * job.elapsed) / job.time_limit)}%`;
      $(".line", box).textContent = job.progress.length ? job.progress[job.progress.length - 1] : "";
    }
  } catch (error) {
    box.hidden = true;
    showError(result, error.message);
    return null;
  } finally {
    run.disabled = false;
  }
  box.hidden = true;
  if (job.state === "cancelled") { showError(result, `${command} cancelled after ${job.elapsed.toFixed(1)} s`); return null; }
  if (job.state !== "done") { showError(result, job.error || job.state); return null; }
  return job.records;
}

function showError(result, message) {
  const div = document.createElement("div");
  div.className = "error";
  div.textContent = message;
  result.replaceChildren(div);
}

function html(strings, ...values) {
  const escape = (v) => String(v).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return strings.reduce((out, s, i) => out + s + (i < values.length ? escape(values[i]) : ""), "");
}

function verdict(result, status, kind, reason, stats) {
  const div = document.createElement("div");
  div.className = "verdict";
  div.innerHTML = html`<span class="badge ${kind}">${status}</span><span class="reason">${reason || ""}</span>`;
  if (stats) div.insertAdjacentHTML("beforeend", html`<span class="stats">${stats}</span>`);
  result.appendChild(div);
  return div;
}

function rawRecord(result, record) {
  const details = document.createElement("details");
  details.innerHTML = "<summary>JSON record (as retro --json prints it)</summary><pre></pre>";
  $("pre", details).textContent = JSON.stringify(record, null, 2);
  result.appendChild(details);
}

function movesList(container, san, { white = true, number = 1, onClick }) {
  const div = document.createElement("div");
  div.className = "moves";
  san.forEach((move, i) => {
    const whiteMove = (i % 2 === 0) === white;
    const moveNumber = number + Math.floor((i + (white ? 0 : 1)) / 2);
    if (whiteMove) div.insertAdjacentHTML("beforeend", html`<span class="n">${moveNumber}.</span>`);
    else if (i === 0) div.insertAdjacentHTML("beforeend", html`<span class="n">${moveNumber}\u2026</span>`);
    const span = document.createElement("span");
    span.className = "m";
    span.dataset.ply = i + 1;
    span.textContent = move;
    span.addEventListener("click", () => onClick(i + 1));
    div.appendChild(span);
    div.appendChild(document.createTextNode(" "));
  });
  container.appendChild(div);
  return div;
}

function markCurrent(list, ply) {
  $$("span.m", list).forEach((span) => span.classList.toggle("current", Number(span.dataset.ply) === ply));
}

// ---------------------------------------------------------------- panels
const numberOf = (panel, name) => Number($(`[name=${name}]`, panel).value) || undefined;

const panels = {
  async check(panel) {
    const records = await runJob(panel, "check", { fen: setupFen() });
    if (!records) return;
    const record = records[0], result = $(".result", panel);
    if (record.status === "illegal") verdict(result, "illegal", "bad", record.reason, `rule: ${record.rule}`);
    else verdict(result, "no static objection", "", "no static rule proves the position illegal (this is not a proof of legality)");
    rawRecord(result, record);
  },

  async proofgame(panel) {
    const params = { fen: setupFen(), time_limit: numberOf(panel, "time_limit"), max_nodes: numberOf(panel, "max_nodes"),
      seed: numberOf(panel, "seed") || 0 };
    const records = await runJob(panel, "proofgame", params);
    if (!records) return;
    const record = records[0], result = $(".result", panel);
    const stats = `${record.nodes} nodes, ${record.seconds} s`;
    if (record.status !== "legal") {
      verdict(result, record.status, record.status === "illegal" ? "bad" : "warn", record.reason, stats);
      rawRecord(result, record);
      return;
    }
    verdict(result, "legal", "good", `proof game of ${record.proof.length} plies, replayed`, stats);
    const line = await api("/api/v1/replay", { moves: record.proof });
    const list = movesList(result, line.san, { onClick: (ply) => showProof(ply) });
    const buttons = document.createElement("div");
    buttons.className = "row";
    buttons.innerHTML = `<button type="button" class="play">Step through on the board</button>
      <button type="button" class="pgn">Download PGN</button>`;
    result.appendChild(buttons);
    const showProof = (ply) => showLine("Proof game", line.fens, {
      index: ply, highlights: moveHighlights(line.uci), onStep: (i) => markCurrent(list, i) });
    $(".play", buttons).addEventListener("click", () => showProof(0));
    $(".pgn", buttons).addEventListener("click", () => download("proof-game.pgn", line.pgn));
    rawRecord(result, record);
    showProof(0);
  },

  async lastmove(panel) {
    const placementOnly = $("[name=placement_only]", panel).checked;
    const params = { fen: placementOnly ? placementOf(setup.squares) : setupFen(), moves: numberOf(panel, "moves") || 1,
      cages: $("[name=cages]", panel).checked, dead_reckoning: $("[name=dead_reckoning]", panel).checked,
      legality: $("[name=legality]", panel).checked };
    // The side that moved last is the FEN's (the other side than the one to move); a pick is sent only when it
    // says something else, and a contradiction comes back as the command's own message.
    const pick = $("[name=retract]", panel).value;
    const fromFen = { w: "b", b: "w" }[setup.turn];
    if (pick !== "auto" && (placementOnly || pick !== fromFen)) params.retract = pick;
    // The session's verified cages, when ticked, go with the request instead of the server's library.
    if ($("[name=session_cages]", panel).checked && sessionCages().length) params.cages = sessionCages();
    const records = await runJob(panel, "lastmove", params);
    if (!records) return;
    showLastmove($(".result", panel), records[0]);
  },

  async dead(panel) {
    const mode = $("[name=mode]", panel).value, fen = setupFen();
    const params = { fen, quick: $("[name=quick]", panel).checked, max_nodes: numberOf(panel, "max_nodes") };
    const command = mode === "dead" ? "dead" : "unwinnable";
    if (mode !== "dead") params.winner = mode;
    const records = await runJob(panel, command, params);
    if (!records) return;
    const record = records[0], result = $(".result", panel);
    const stats = `${record.nodes} nodes, ${record.seconds} s`;
    const kind = { dead: "bad", alive: "good", winnable: "good", unwinnable: "bad" }[record.status] || "warn";
    verdict(result, record.status, kind, command === "dead" ? "" : `${record.winner}: ${record.reason}`, stats);
    const lines = command === "dead"
      ? [["White", record.white, record.white_line], ["Black", record.black, record.black_line]]
      : [[record.winner === "white" ? "White" : "Black", record.status, record.line]];
    for (const [side, status, line] of lines) {
      const title = document.createElement("div");
      title.className = "side";
      title.innerHTML = html`${side}: <span class="type">${status}</span>`;
      result.appendChild(title);
      if (status !== "winnable" || !line.length) continue;
      const played = await api("/api/v1/replay", { fen, moves: line });
      const list = movesList(result, played.san, { white: setup.turn === "w", onClick: (ply) => show(ply) });
      const show = (ply) => showLine(`${side} mates: helpmate`, played.fens, {
        index: ply, highlights: moveHighlights(played.uci), onStep: (i) => markCurrent(list, i) });
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = `Play ${side}'s helpmate`;
      button.addEventListener("click", () => show(0));
      result.appendChild(button);
    }
    rawRecord(result, record);
  },

  async cage(panel) {
    const params = { fen: placementOf(setup.squares), zone: [...state.marks.zone], frozen: [...state.marks.frozen],
      depth: numberOf(panel, "depth") ?? 20,
      forbid: $("[name=forbid]", panel).value.split(/[ ,]+/).filter(Boolean) };
    const records = await runJob(panel, "cage", params);
    if (!records) return;
    const record = records[0], result = $(".result", panel);
    const stats = `${record.nodes} states, ${record.seconds} s`;
    if (record.status === "cage") {
      verdict(result, "verified", "good", `cage verified: ${record.reason}`, stats);
      keepCage({ fen: params.fen, zone: params.zone, frozen: params.frozen, forbid: params.forbid, depth: params.depth });
    }
    else {
      verdict(result, "not verified", "bad", record.reason, stats);
      const div = document.createElement("div");
      div.innerHTML = html`<div class="side">The retraction line that escapes</div><div class="moves">${record.line.join("  ") || "(no retraction)"}</div>`;
      result.appendChild(div);
    }
    result.insertAdjacentHTML("beforeend",
      html`<div class="stats">zone searched (outlined on the board): ${record.zone.join(" ")}</div>`);
    state.searched = new Set(record.zone);
    drawBoard();
    rawRecord(result, record);
  },

  async revmoves(panel) {
    const fen = setupFen();
    const records = await runJob(panel, "revmoves", { fen });
    if (!records) return;
    const record = records[0], result = $(".result", panel);
    verdict(result, `${record.count} retractions`, record.count ? "" : "bad",
      record.count ? "" : "no legal predecessor: the position is illegal, or the initial position");
    if (record.count) {
      const table = document.createElement("table");
      table.innerHTML = "<tr><th>last move</th><th>captured</th><th>castling before</th><th>e.p. before</th></tr>";
      for (const r of record.retractions) {
        const row = document.createElement("tr");
        row.className = "pick";
        row.title = "take this move back on the board";
        Object.assign(row.dataset, { move: r.move, captured: r.captured || "-", castling: r.castling, ep: r.ep || "-" });
        row.innerHTML = html`<td class="moves">${r.move}</td><td>${r.captured || "-"}</td>
          <td>${r.castling || "-"}</td><td>${r.ep || "-"}</td>`;
        row.addEventListener("click", () => takeBack(fen, r, result));  // the full FEN the list is of
        table.appendChild(row);
      }
      result.appendChild(table);
    }
    rawRecord(result, record);
  },

  async spg(panel) {
    const placementOnly = $("[name=placement_only]", panel).checked;
    const params = { board: placementOnly ? placementOf(setup.squares) : setupFen(), plies: numberOf(panel, "plies") ?? 0,
      solutions: numberOf(panel, "solutions") || 8, time_limit: numberOf(panel, "time_limit"),
      max_nodes: numberOf(panel, "max_nodes") };
    const records = await runJob(panel, "spg", params);
    if (!records) return;
    const record = records[0], result = $(".result", panel);
    const kind = { unique: "good", no_solution: "bad", solutions: "warn" }[record.status] || "warn";
    const title = { unique: "unique", solutions: `${record.solutions.length} solutions${record.cooked ? " (cooked)" : ""}`,
      no_solution: "no solution" }[record.status] || record.status;
    verdict(result, title, kind, record.reason, `${record.nodes} nodes, ${record.seconds} s`);
    for (const [number, moves] of record.solutions.entries()) {
      const line = await api("/api/v1/replay", { moves });
      const head = document.createElement("div");
      head.className = "side";
      head.textContent = `Game ${number + 1}`;
      result.appendChild(head);
      const list = movesList(result, line.san, { onClick: (ply) => show(ply) });
      list.classList.add("spg-game");
      const show = (ply) => showLine(`SPG game ${number + 1} of ${record.solutions.length}`, line.fens, {
        index: ply, highlights: moveHighlights(line.uci), onStep: (i) => markCurrent(list, i) });
      const button = document.createElement("button");
      button.type = "button";
      button.className = "play";
      button.textContent = `Step through game ${number + 1}`;
      button.addEventListener("click", () => show(0));
      result.appendChild(button);
      if (number === 0) show(0);
    }
    rawRecord(result, record);
  },
};

// The texts of `retro lastmove` for its statuses; a status it adds is shown by its name.
const LASTMOVE_STATUS = { unique: "unique solution", none: "no solution", multiple: "multiple solutions" };
const LASTMOVE_KIND = { unique: "good", none: "bad" };

// The lastmove record, read generically: the solutions of each side with their "checked" mark, the
// per-side statistics (`results`), and the counts of unchecked candidates, whatever fields the record has.
function showLastmove(result, record) {
  const solutions = record.solutions || [];
  const sides = (record.results || [record]).map((side) => ({ ...side,
    found: solutions.some((s) => "side" in s) ? solutions.filter((s) => s.side === side.retract) : side.solutions || [] }));
  const unchecked = typeof record.unchecked === "number" ? record.unchecked
    : solutions.filter((s) => s.checked === false).length;
  const counts = unchecked ? ["checked", "unchecked"].filter((key) => typeof record[key] === "number")
    .map((key) => `${record[key]} ${key}`).join(", ") : "";
  verdict(result, LASTMOVE_STATUS[record.status] || String(record.status).replace(/_/g, " "),
    LASTMOVE_KIND[record.status] || "warn", record.reason || "", counts);
  for (const side of sides) {
    const title = document.createElement("div");
    title.className = "side";
    const stats = [side.nodes !== undefined ? `${side.nodes} positions checked` : "",
      typeof side.seconds === "number" ? `${side.seconds.toFixed(2)} s` : "",
      side.filters ? `filters: ${side.filters.join(", ")}` : ""].filter(Boolean).join("; ");
    title.innerHTML = html`${side.retract === "w" ? "White" : side.retract === "b" ? "Black" : side.retract} made the last move
      <span class="stats">${stats ? `(${stats})` : ""}</span>`;
    result.appendChild(title);
    if (!side.found.length) { result.insertAdjacentHTML("beforeend", "<div class=\"stats\">no possible last move</div>"); continue; }
    const table = document.createElement("table");
    table.innerHTML = "<tr><th>moves (latest first)</th><th>type of the last move</th><th></th></tr>";
    for (const solution of side.found) {
      const row = document.createElement("tr");
      row.className = solution.checked === false ? "pick unchecked" : "pick";
      row.title = "show the predecessors on the board";
      row.innerHTML = html`<td class="moves">${solution.moves.join("  ")}</td><td><span class="type">${solution.type}</span></td>
        <td class="stats">${solution.checked === false ? "(unchecked)" : ""}</td>`;
      row.addEventListener("click", async () => {
        try {
          const { positions } = await api("/api/v1/retract",
            { fen: record.fen.split(" ")[0], retract: side.retract, moves: solution.moves });
          const fens = [setupFen(), ...positions];
          const label = `Before ${solution.moves.join(" ")}${solution.checked === false ? " (unchecked candidate)" : ""}`;
          showLine(label, fens, { index: 1, highlights: fens.map((fen, i) => (i ? changedSquares(fen, fens[i - 1]) : null)) });
          $$("tr.pick", result).forEach((r) => r.classList.toggle("current", r === row));
        } catch (error) { showError(result, error.message); }
      });
      table.appendChild(row);
    }
    result.appendChild(table);
  }
  if (unchecked) {
    result.insertAdjacentHTML("beforeend", html`<div class="stats unchecked-note">${unchecked} candidates marked unchecked
      passed the quick rules but not the legality pipeline: it stopped at the time limit, or once two candidates had
      survived it (then the answer is 'multiple' whatever they give)</div>`);
  }
  rawRecord(result, record);
}

// ---------------------------------------------------------------- verified cages of the session
// Each cage the Cage panel verifies is kept (in this tab's sessionStorage) as the request that verified it:
// the partial position, the squares added to the default zone, the frozen units, the forbidden captures and the
// depth; as a line of a known-cage library (`retro cage -f`, `retro lastmove --cages FILE`) it is cageLine(). The
// Last move panel sends them, when ticked, as its request's cages (verified again by the server before use).
function cageLine(cage) {
  const tokens = [cage.fen];
  if (cage.zone.length) tokens.push(`zone=${cage.zone.join(",")}`);
  if (cage.frozen.length) tokens.push(`frozen=${cage.frozen.join(",")}`);
  tokens.push(`depth=${cage.depth}`);
  if (cage.forbid.length) tokens.push(`forbid=${cage.forbid.join(",")}`);
  return tokens.join(" ");
}

const CAGES_KEY = "retro.verifiedCages";

function sessionCages() {
  try { return JSON.parse(sessionStorage.getItem(CAGES_KEY) || "[]"); } catch (error) { return []; }
}

function keepCage(cage) {
  const cages = sessionCages(), key = JSON.stringify(cage);
  if (!cages.some((kept) => JSON.stringify(kept) === key)) cages.push(cage);
  sessionStorage.setItem(CAGES_KEY, JSON.stringify(cages));
  showSessionCages();
}

function showSessionCages() {
  const cages = sessionCages();
  $("#panel-cage .session-cages").hidden = !cages.length;
  $("#panel-cage .cage-list").replaceChildren(...cages.map((cage, index) => {
    const item = document.createElement("li");
    item.className = "cage-entry";
    item.innerHTML = html`<span class="moves">${cageLine(cage)}</span> ` +
      "<button type=\"button\" class=\"remove\">Remove</button>";
    $(".remove", item).addEventListener("click", () => {
      sessionStorage.setItem(CAGES_KEY, JSON.stringify(sessionCages().filter((_, i) => i !== index)));
      showSessionCages();
    });
    return item;
  }));
  $("#panel-cage .cage-lines").textContent = cages.map((cage) => `${cageLine(cage)}\n`).join("");
  const note = $("#panel-lastmove .session-cages-note");
  note.hidden = !cages.length;
  $(".session-cages-count", note).textContent =
    `my ${cages.length} verified cage${cages.length === 1 ? "" : "s"} (instead of the library)`;
}

// ---------------------------------------------------------------- retract by hand
// A revmoves row is taken back with POST /api/v1/unmove (the server checks it is one of the position's retractions);
// the predecessor becomes the set-up, so every panel works on it, and the revmoves list is asked again.
async function takeBack(fen, retraction, result) {
  try {
    const answer = await api("/api/v1/unmove", { fen, retraction });
    state.line.push({ after: setupFen(), retraction, move: answer.move, uci: answer.uci });
    setSetup(answer.fen);
  } catch (error) { showError(result, error.message); }
}

function undoRetraction() {
  const entry = state.line.pop();
  if (entry) setSetup(entry.after);
}

function setSetup(fen) {
  closeView();
  loadFen(fen);
  syncEditor();
  renderLine();
  panels.revmoves($("#panel-revmoves"));
}

// The squares of the last retraction (from and to), marked on the set-up board while the line lasts.
function retractedSquares() {
  const last = state.line[state.line.length - 1];
  return last ? new Set([last.uci.slice(0, 2), last.uci.slice(2, 4)]) : new Set();
}

function forgetLine() {
  if (!state.line.length) return;
  state.line = [];
  renderLine();
}

function renderLine() {
  $("#retracted").hidden = !state.line.length;
  $("#line-text").hidden = true;
  $("#retracted-moves").replaceChildren(...[...state.line].reverse().map((entry) => {
    const item = document.createElement("li");
    item.textContent = entry.move;
    item.title = `${entry.retraction.move} captured ${entry.retraction.captured || "-"} castling ` +
      `${entry.retraction.castling} e.p. ${entry.retraction.ep || "-"}`;
    return item;
  }));
}

// The retracted line as a game: the set-up (the earliest position) and the moves forward to the diagram.
async function lineGame() {
  return api("/api/v1/replay", { fen: setupFen(), moves: [...state.line].reverse().map((entry) => entry.uci) });
}

async function copyLine() {
  const box = $("#line-text");
  try {
    const game = await lineGame();
    box.textContent = `${setupFen()}\n${game.san.join(" ")}\n`;
  } catch (error) {
    // a line the forward replay refuses (e.g. a retraction into a position with a stated e.p. square) is still shown
    box.textContent = `${setupFen()}\n${[...state.line].reverse().map((entry) => entry.move).join(" ")}\n`;
  }
  box.hidden = false;
  if (navigator.clipboard) navigator.clipboard.writeText(box.textContent).catch(() => {});
}

async function saveLine() {
  try { download("retracted-line.pgn", (await lineGame()).pgn); }
  catch (error) { showError($("#panel-revmoves .result"), error.message); }
}

function download(name, text) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/x-chess-pgn" }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

function showMarks() {
  const fmt = (set) => [...set].sort().join(" ") || "none";
  $("#panel-cage .marks").innerHTML =
    html`Zone (added to the default): <b>${fmt(state.marks.zone)}</b> &middot; frozen: <b>${fmt(state.marks.frozen)}</b>`;
}

function selectPanel(name) {
  state.panel = name;
  $$("#tabs button").forEach((b) => b.classList.toggle("active", b.dataset.panel === name));
  $$(".panel").forEach((p) => p.classList.toggle("active", p.id === `panel-${name}`));
  drawBoard();
}

async function refreshStatus() {
  try {
    const status = await api("/api/v1/status", null, "GET");
    const pool = status.pool;
    $("#pool-status").textContent = `workers: ${pool.ready} ready, ${pool.busy} busy of ${pool.workers}` +
      (pool.waiting ? `, ${pool.waiting} waiting` : "");
    const cages = $("#panel-lastmove [name=cages]");
    cages.disabled = !status.limits.cages;
    cages.parentElement.title = status.limits.cages ? "the server's known-cage library" : "this server has no cage library";
  } catch (error) { $("#pool-status").textContent = "server unreachable"; }
}

// ---------------------------------------------------------------- wiring
function init() {
  buildPalette();
  loadFen(START);
  syncEditor();
  showMarks();
  showSessionCages();
  $$("#tabs button").forEach((b) => b.addEventListener("click", () => selectPanel(b.dataset.panel)));
  $$(".panel").forEach((panel) => {
    const name = panel.id.replace("panel-", "");
    $(".run", panel).addEventListener("click", () => panels[name](panel));
  });
  $$("input[name=turn], #castling input, #ep").forEach((input) => input.addEventListener("change", (event) => {
    forgetLine();
    readEditor(event);
  }));
  $("#flip").addEventListener("click", () => { state.flipped = !state.flipped; drawBoard(); });
  $("#start").addEventListener("click", () => { closeView(); forgetLine(); loadFen(START); syncEditor(); });
  $("#clear").addEventListener("click", () => { closeView(); forgetLine(); loadFen("8/8/8/8/8/8/8/8 w - - 0 1"); syncEditor(); });
  $("#undo-retraction").addEventListener("click", undoRetraction);
  $("#copy-line").addEventListener("click", copyLine);
  $("#save-line").addEventListener("click", saveLine);
  const load = () => {
    try { closeView(); loadFen($("#fen").value); forgetLine(); syncEditor(); }
    catch (error) { $("#fen-error").textContent = error.message; $("#fen-error").hidden = false; }
  };
  $("#load").addEventListener("click", load);
  $("#fen").addEventListener("keydown", (event) => { if (event.key === "Enter") load(); });
  $("#fen").addEventListener("paste", () => setTimeout(load, 0));
  $("#view-close").addEventListener("click", closeView);
  $("#panel-cage .clear-marks").addEventListener("click", () => {
    state.marks.zone.clear(); state.marks.frozen.clear(); state.searched.clear(); showMarks(); drawBoard();
  });
  $$("#playback button").forEach((button) => button.addEventListener("click", () => {
    const view = state.view;
    if (!view) return;
    const step = { first: 0, prev: view.index - 1, next: view.index + 1, last: view.fens.length - 1 }[button.dataset.step];
    stepTo(step);
  }));
  document.addEventListener("keydown", (event) => {
    if (!state.view || event.target.tagName === "INPUT") return;
    if (event.key === "ArrowLeft") stepTo(state.view.index - 1);
    if (event.key === "ArrowRight") stepTo(state.view.index + 1);
  });
  refreshStatus();
  setInterval(refreshStatus, 3000);
}

init();
