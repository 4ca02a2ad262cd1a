"use strict";
// The page of frctool tree: reads the trees from the JSON document in
// #tree-data, draws the board of the current position from its FEN and
// lists the moves played from it. State lives in the URL fragment,
// "#t=TREE&m=UCI,UCI,...", so a reload or a link shows the same position.
(function () {
  const doc = JSON.parse(document.getElementById("tree-data").textContent);
  const trees = doc.trees || [];
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";

  let t = 0; // index of the tree shown
  let path = []; // moves played from the root: {from, move} with move an element of nodes[from].moves
  let future = []; // moves taken back, to play again with Forward
  let flipped = false;

  const tree = () => trees[t];
  const current = () => (path.length ? path[path.length - 1].move.to : 0);

  // Glyphs: the filled set for both sides, coloured by CSS; U+FE0E asks
  // for the text form where a font would draw the pawn as an emoji.
  const glyphs = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F\uFE0E" };

  function squares(fen) {
    const board = [];
    const rows = fen.split(" ")[0].split("/");
    for (let r = 0; r < 8; r++) {
      let f = 0;
      for (const c of rows[r] || "") {
        if (c >= "1" && c <= "8") {
          f += Number(c);
        } else {
          board.push({ file: f, rank: 7 - r, piece: c });
          f++;
        }
      }
    }
    return board;
  }

  function squareXY(file, rank) {
    return flipped ? [7 - file, rank] : [file, 7 - rank];
  }

  function el(name, attrs, text) {
    const e = document.createElementNS(SVG, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function drawBoard(fen, uci) {
    const svg = el("svg", { viewBox: "0 0 8 8", role: "img" });
    const marked = new Set();
    if (uci && uci.length >= 4) {
      marked.add(uci.slice(0, 2));
      marked.add(uci.slice(2, 4));
    }
    for (let rank = 0; rank < 8; rank++) {
      for (let file = 0; file < 8; file++) {
        const [x, y] = squareXY(file, rank);
        const name = "abcdefgh"[file] + (rank + 1);
        svg.appendChild(el("rect", { x, y, width: 1, height: 1, class: (file + rank) % 2 ? "light" : "dark" }));
        if (marked.has(name)) svg.appendChild(el("rect", { x, y, width: 1, height: 1, class: "mark" }));
      }
    }
    for (let i = 0; i < 8; i++) {
      const [fx, fy] = squareXY(i, flipped ? 7 : 0);
      svg.appendChild(el("text", { x: fx + 0.96, y: fy + 0.95, class: "coord", "text-anchor": "end" }, "abcdefgh"[i]));
      const [rx, ry] = squareXY(flipped ? 7 : 0, i);
      svg.appendChild(el("text", { x: rx + 0.04, y: ry + 0.24, class: "coord" }, String(i + 1)));
    }
    for (const s of squares(fen)) {
      const [x, y] = squareXY(s.file, s.rank);
      const white = s.piece === s.piece.toUpperCase();
      svg.appendChild(el("text", { x: x + 0.5, y: y + 0.54, class: "piece " + (white ? "white" : "black"), "data-square": "abcdefgh"[s.file] + (s.rank + 1) }, glyphs[s.piece.toLowerCase()] || "?"));
    }
    const box = $("board");
    box.replaceChildren(svg);
  }

  const pct = (x) => (x === null || x === undefined ? "" : (100 * x).toFixed(1) + "%");
  const num = (x, d) => (x === null || x === undefined ? "" : x.toFixed(d));

  // moveLabel writes a move of the path with its number: "5." before
  // White's moves, "5..." before Black's when it opens a line.
  function moveLabel(fen, san, first) {
    const parts = fen.split(" ");
    const black = parts[1] === "b";
    const n = Number(parts[5]) || 1;
    if (!black) return n + ". " + san;
    return first ? n + "... " + san : san;
  }

  function drawPath() {
    const p = $("path");
    p.replaceChildren();
    const nodes = tree().nodes;
    if (tree().moves) {
      const fixed = document.createElement("span");
      fixed.className = "fixed";
      fixed.textContent = tree().moves + " ";
      p.appendChild(fixed);
    }
    const start = document.createElement("a");
    start.textContent = "start";
    start.dataset.ply = "0";
    if (!path.length) start.className = "current";
    start.onclick = () => go(0);
    p.appendChild(start);
    // The moves taken back stay on the path, after the current one, so
    // that a click on one plays forward to it.
    const line = path.concat(future.slice().reverse());
    line.forEach((step, i) => {
      p.appendChild(document.createTextNode(" "));
      const a = document.createElement("a");
      a.textContent = moveLabel(nodes[step.from].fen, step.move.move, i === 0);
      a.dataset.ply = String(i + 1);
      if (i === path.length - 1) a.className = "current";
      else if (i >= path.length) a.className = "future";
      a.onclick = () => go(i + 1);
      p.appendChild(a);
    });
  }

  function drawTable(node) {
    const body = $("moves").tBodies[0];
    body.replaceChildren();
    if (!node.moves.length) {
      const tr = body.insertRow();
      const td = tr.insertCell();
      td.colSpan = 10;
      td.className = "empty";
      td.textContent = path.length >= doc.depth ? "The tree ends here (" + doc.depth + " plies)." : "No move was played from here often enough to be shown.";
      return;
    }
    for (const m of node.moves) {
      const tr = body.insertRow();
      tr.dataset.uci = m.uci;
      const cell = (text, cls) => {
        const td = tr.insertCell();
        td.textContent = text;
        if (cls) td.className = cls;
        return td;
      };
      const mv = cell("", "l move");
      const a = document.createElement("a");
      a.href = "#";
      a.textContent = m.move;
      mv.appendChild(a);
      cell(m.games + (node.games ? " (" + Math.round((100 * m.games) / node.games) + "%)" : ""));
      const bar = cell("", "bar");
      const fin = m.white_wins + m.draws + m.black_wins;
      const res = document.createElement("div");
      res.className = "results";
      for (const [cls, n] of [["w", m.white_wins], ["d", m.draws], ["b", m.black_wins]]) {
        if (!fin || !n) continue;
        const s = document.createElement("span");
        s.className = cls;
        s.style.width = (100 * n) / fin + "%";
        const share = Math.round((100 * n) / fin);
        s.textContent = share >= 25 ? share + "%" : "";
        s.title = n + " " + { w: "White wins", d: "draws", b: "Black wins" }[cls];
        res.appendChild(s);
      }
      bar.appendChild(res);
      cell(pct(m.score));
      cell(m.score_low === null ? "" : Math.round(100 * m.score_low) + "\u2013" + Math.round(100 * m.score_high) + "%");
      cell(pct(m.draw_rate));
      cell(num(m.avg_elo, 0));
      cell(num(m.performance, 0));
      cell(num(m.avg_year, 1));
      cell(m.last_played || "");
      tr.onclick = (e) => {
        e.preventDefault();
        play(m);
      };
    }
  }

  function draw() {
    const nodes = tree().nodes;
    const node = nodes[current()];
    const last = path.length ? path[path.length - 1].move.uci : "";
    drawBoard(node.fen, last);
    drawPath();
    drawTable(node);
    const toMove = node.fen.split(" ")[1] === "b" ? "Black" : "White";
    const fin = node.white_wins + node.draws + node.black_wins;
    let s = node.games + (node.games === 1 ? " game" : " games") + " reached this position; " + toMove + " to move.";
    if (fin) {
      s += " White won " + pct(node.white_wins / fin) + ", drew " + pct(node.draws / fin) + ", lost " + pct(node.black_wins / fin) + ".";
    }
    $("summary").textContent = s;
    $("fen").textContent = node.fen;
    $("back").disabled = !path.length;
    $("start").disabled = !path.length;
    $("forward").disabled = !future.length;
    saveState();
  }

  function play(m) {
    const from = current();
    if (future.length && future[future.length - 1].move.uci === m.uci) {
      future.pop();
    } else {
      future = [];
    }
    path.push({ from, move: m });
    draw();
  }

  function back() {
    if (!path.length) return;
    future.push(path.pop());
    draw();
  }

  function forward() {
    if (!future.length) return;
    path.push(future.pop());
    draw();
  }

  // go goes back or forward to the position after n moves of the path.
  function go(n) {
    while (path.length > n) future.push(path.pop());
    while (path.length < n && future.length) path.push(future.pop());
    draw();
  }

  function saveState() {
    const hash = "#t=" + t + (path.length ? "&m=" + path.map((s) => s.move.uci).join(",") : "");
    if (location.hash === hash) return;
    try {
      history.replaceState(null, "", hash);
    } catch (e) {
      location.hash = hash;
    }
  }

  function loadState() {
    const params = new URLSearchParams(location.hash.slice(1));
    const ti = Number(params.get("t"));
    t = Number.isInteger(ti) && ti >= 0 && ti < trees.length ? ti : 0;
    path = [];
    future = [];
    const moves = params.get("m");
    if (!moves) return;
    for (const uci of moves.split(",")) {
      const from = current();
      const m = tree().nodes[from].moves.find((x) => x.uci === uci);
      if (!m) break;
      path.push({ from, move: m });
    }
  }

  function fillPicker() {
    const sel = $("tree");
    trees.forEach((tr, i) => {
      const o = document.createElement("option");
      o.value = String(i);
      const rank = tr.start.split(" ")[0].split("/")[7].toUpperCase();
      let name = tr.sp === null ? rank : "SP " + tr.sp + " " + rank;
      if (tr.moves) name += " after " + tr.moves;
      o.textContent = name + " \u2014 " + tr.games + (tr.games === 1 ? " game" : " games");
      sel.appendChild(o);
    });
    sel.onchange = () => {
      t = Number(sel.value);
      path = [];
      future = [];
      draw();
    };
    if (trees.length < 2) $("picker").hidden = true;
  }

  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") back();
    else if (e.key === "ArrowRight") forward();
    else if (e.key === "Home") go(0);
    else if (e.key === "f" || e.key === "F") {
      flipped = !flipped;
      draw();
    } else return;
    e.preventDefault();
  });
  $("start").onclick = () => go(0);
  $("back").onclick = back;
  $("forward").onclick = forward;
  $("flip").onclick = () => {
    flipped = !flipped;
    draw();
  };

  if (!trees.length) {
    $("summary").textContent = "No game was read from a start position with a tree.";
    $("picker").hidden = true;
    return;
  }
  fillPicker();
  loadState();
  $("tree").value = String(t);
  draw();
  window.addEventListener("hashchange", () => {
    loadState();
    $("tree").value = String(t);
    draw();
  });
})();
