// Boyi boards: position text parsing, SVG drawing of every game, and picking a move by
// clicking. Plain script, no build step; everything shown is built as DOM nodes with text
// content, never as markup from data.
(() => {
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';

function svgEl(tag, attrs, text) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

// ---- points and position text ----

function parsePoint(s) {
  const m = /^([a-z])(\d{1,2})$/.exec(s);
  if (!m) return null;
  return { c: m[1].charCodeAt(0) - 97, r: parseInt(m[2], 10) - 1 };
}

function pointName(c, r) {
  return String.fromCharCode(97 + c) + (r + 1);
}

// Xiangqi squares use ranks 0-9 (ICCS).
function parseSquare(s) {
  const m = /^([a-i])(\d)$/.exec(s);
  return m ? { c: m[1].charCodeAt(0) - 97, r: parseInt(m[2], 10) } : null;
}

function squareName(c, r) {
  return String.fromCharCode(97 + c) + r;
}

function pointOrder(a, b) {
  const p = parsePoint(a), q = parsePoint(b);
  return p.c - q.c || p.r - q.r;
}

// Grid position text: rows from the top, `x` black, `o` white, numbers for empty runs.
function parseGrid(text) {
  const fields = text.trim().split(/\s+/);
  const rows = fields[0].split('/');
  const size = rows.length;
  const cells = [];
  for (let i = 0; i < size; i++) {
    const r = size - 1 - i;
    const row = [];
    const re = /(\d+)|([xo])/g;
    let m;
    while ((m = re.exec(rows[i]))) {
      if (m[1]) for (let k = 0; k < parseInt(m[1], 10); k++) row.push(null);
      else row.push(m[2] === 'x' ? 'black' : 'white');
    }
    cells[r] = row;
  }
  return { size, cells, side: fields[1] === 'w' ? 'white' : 'black', fields };
}

// Xiangqi FEN: board[rank][file], rank 0 at red's side; upper case red.
function parseFen(text) {
  const fields = text.trim().split(/\s+/);
  const rows = fields[0].split('/');
  const board = [];
  for (let i = 0; i < 10; i++) {
    const rank = 9 - i;
    const row = [];
    for (const ch of rows[i] || '') {
      if (/\d/.test(ch)) for (let k = 0; k < parseInt(ch, 10); k++) row.push(null);
      else row.push(ch);
    }
    board[rank] = row;
  }
  return { board, side: fields[1] === 'b' ? 'black' : 'white' };
}

// The points a move text touches: {stones, path, jumped, captures, from, to}.
function moveMarks(game, text) {
  if (!text) return null;
  if (game === 'xiangqi') {
    return { from: parseSquare(text.slice(0, 2)), to: parseSquare(text.slice(2, 4)) };
  }
  if (game === 'jiu') {
    const [path, ...caps] = text.split(' x ');
    const flying = path.includes('*');
    const pts = path.split(/[-*]/).map(parsePoint);
    const jumped = [];
    if (!flying) {
      for (let i = 1; i < pts.length; i++) {
        const a = pts[i - 1], b = pts[i];
        if (Math.abs(a.c - b.c) + Math.abs(a.r - b.r) === 2) jumped.push({ c: (a.c + b.c) / 2, r: (a.r + b.r) / 2 });
      }
    }
    return { path: pts, flying, jumped, captures: caps.map(parsePoint) };
  }
  if (text === 'pass') return { stones: [] };
  return { stones: text.split(' ').map(parsePoint) };
}

// ---- drawing ----

const XQ_GLYPHS = {
  K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵',
  k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒',
};

// Draws a grid board (gomoku, connect6, jiu). `view` holds: position, game, last (move
// text), marks {targets: [names], chosen: [names], pending: [{name, side}], path: [names]}.
function drawGrid(view) {
  const g = parseGrid(view.position);
  const n = g.size;
  const cell = Math.max(22, Math.min(40, Math.floor(560 / (n + 1))));
  const m = cell;
  const w = m * 2 + cell * (n - 1);
  const svg = svgEl('svg', { viewBox: `0 0 ${w} ${w}`, width: w, height: w, class: 'board grid-board', 'data-game': view.game });
  const X = (c) => m + c * cell;
  const Y = (r) => m + (n - 1 - r) * cell;
  svg.appendChild(svgEl('rect', { x: 0, y: 0, width: w, height: w, class: 'wood' }));
  for (let i = 0; i < n; i++) {
    svg.appendChild(svgEl('line', { x1: X(0), y1: Y(i), x2: X(n - 1), y2: Y(i), class: 'line' }));
    svg.appendChild(svgEl('line', { x1: X(i), y1: Y(0), x2: X(i), y2: Y(n - 1), class: 'line' }));
    const letter = String.fromCharCode(97 + i);
    svg.appendChild(svgEl('text', { x: X(i), y: w - m * 0.18, class: 'coord' }, letter));
    svg.appendChild(svgEl('text', { x: X(i), y: m * 0.38, class: 'coord' }, letter));
    svg.appendChild(svgEl('text', { x: m * 0.27, y: Y(i) + 4, class: 'coord' }, String(i + 1)));
    svg.appendChild(svgEl('text', { x: w - m * 0.27, y: Y(i) + 4, class: 'coord' }, String(i + 1)));
  }
  if (view.game === 'jiu') {
    // The central diagonal (久物) between g7 and h8.
    svg.appendChild(svgEl('line', { x1: X(6), y1: Y(6), x2: X(7), y2: Y(7), class: 'jiu-diagonal' }));
  } else {
    const stars = n === 15 ? [3, 7, 11] : n === 19 ? [3, 9, 15] : n >= 9 ? [Math.floor(n / 2)] : [];
    for (const a of stars) for (const b of stars) {
      if (n !== 15 && n !== 19 && (a !== b)) continue;
      svg.appendChild(svgEl('circle', { cx: X(a), cy: Y(b), r: 3, class: 'star' }));
    }
  }
  const marks = view.marks || {};
  const last = moveMarks(view.game, view.last);
  // Last jiu path: the route, jumped and captured points.
  if (last && last.path && last.path.length > 1) {
    const pts = last.path.map((p) => `${X(p.c)},${Y(p.r)}`).join(' ');
    svg.appendChild(svgEl('polyline', { points: pts, class: last.flying ? 'last-path flying' : 'last-path' }));
  }
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const s = g.cells[r][c];
      const name = pointName(c, r);
      if (s) {
        svg.appendChild(svgEl('circle', { cx: X(c), cy: Y(r), r: cell * 0.45, class: `stone ${s}`, 'data-stone': name }));
      }
    }
  }
  if (last && last.stones) {
    for (const p of last.stones) {
      const s = g.cells[p.r] && g.cells[p.r][p.c];
      svg.appendChild(svgEl('circle', { cx: X(p.c), cy: Y(p.r), r: cell * 0.14, class: `last-mark on-${s || 'none'}` }));
    }
  }
  if (last && last.path && last.path.length) {
    const p = last.path[last.path.length - 1];
    svg.appendChild(svgEl('circle', { cx: X(p.c), cy: Y(p.r), r: cell * 0.14, class: 'last-mark on-' + (g.cells[p.r][p.c] || 'none') }));
    for (const q of last.jumped.concat(last.captures)) {
      const d = cell * 0.22;
      svg.appendChild(svgEl('path', { d: `M${X(q.c) - d},${Y(q.r) - d}L${X(q.c) + d},${Y(q.r) + d}M${X(q.c) + d},${Y(q.r) - d}L${X(q.c) - d},${Y(q.r) + d}`, class: 'captured-mark' }));
    }
  }
  if (marks.path && marks.path.length > 1) {
    const pts = marks.path.map((s) => { const p = parsePoint(s); return `${X(p.c)},${Y(p.r)}`; }).join(' ');
    svg.appendChild(svgEl('polyline', { points: pts, class: 'sel-path' }));
  }
  for (const s of marks.pending || []) {
    const p = parsePoint(s.name);
    svg.appendChild(svgEl('circle', { cx: X(p.c), cy: Y(p.r), r: cell * 0.45, class: `stone ${s.side} pending` }));
  }
  for (const s of marks.chosen || []) {
    const p = parsePoint(s);
    svg.appendChild(svgEl('circle', { cx: X(p.c), cy: Y(p.r), r: cell * 0.47, class: 'chosen' }));
  }
  for (const s of marks.targets || []) {
    const p = parsePoint(s);
    const occupied = g.cells[p.r][p.c];
    svg.appendChild(svgEl('circle', { cx: X(p.c), cy: Y(p.r), r: occupied ? cell * 0.47 : cell * 0.16, class: occupied ? 'target-ring' : 'target' }));
  }
  // Click targets last, on top of everything.
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      svg.appendChild(svgEl('rect', { x: X(c) - cell / 2, y: Y(r) - cell / 2, width: cell, height: cell, class: 'hit', 'data-p': pointName(c, r) }));
    }
  }
  return svg;
}

// Red numbers its files 一..九 from its own right, black 1..9 from its own right: seen from
// red's side, file a is red's 九 and black's 1.
const XQ_RED_FILES = '九八七六五四三二一';

// Draws a xiangqi board; `view.flip` puts black at the bottom. File numbers stand on both
// sides (each side's own numbers on its side), ICCS letters and ranks at the edges.
function drawXiangqi(view) {
  const f = parseFen(view.position);
  const cell = 56, m = 60;
  const w = m * 2 + cell * 8, hgt = m * 2 + cell * 9;
  const svg = svgEl('svg', { viewBox: `0 0 ${w} ${hgt}`, width: w, height: hgt, class: 'board xiangqi-board', 'data-game': 'xiangqi' });
  const X = (c) => m + (view.flip ? 8 - c : c) * cell;
  const Y = (r) => m + (view.flip ? r : 9 - r) * cell;
  svg.appendChild(svgEl('rect', { x: 0, y: 0, width: w, height: hgt, class: 'wood' }));
  for (let r = 0; r < 10; r++) svg.appendChild(svgEl('line', { x1: X(0), y1: Y(r), x2: X(8), y2: Y(r), class: 'line' }));
  for (let c = 0; c < 9; c++) {
    if (c === 0 || c === 8) {
      svg.appendChild(svgEl('line', { x1: X(c), y1: Y(0), x2: X(c), y2: Y(9), class: 'line' }));
    } else {
      svg.appendChild(svgEl('line', { x1: X(c), y1: Y(0), x2: X(c), y2: Y(4), class: 'line' }));
      svg.appendChild(svgEl('line', { x1: X(c), y1: Y(5), x2: X(c), y2: Y(9), class: 'line' }));
    }
  }
  for (const [r0, r1] of [[0, 2], [7, 9]]) {
    svg.appendChild(svgEl('line', { x1: X(3), y1: Y(r0), x2: X(5), y2: Y(r1), class: 'line' }));
    svg.appendChild(svgEl('line', { x1: X(5), y1: Y(r0), x2: X(3), y2: Y(r1), class: 'line' }));
  }
  const riverY = (Y(4) + Y(5)) / 2 + 9;
  svg.appendChild(svgEl('text', { x: (X(1) + X(3)) / 2 + (view.flip ? 0 : 0), y: riverY, class: 'river' }, view.flip ? '漢 界' : '楚 河'));
  svg.appendChild(svgEl('text', { x: (X(5) + X(7)) / 2, y: riverY, class: 'river' }, view.flip ? '楚 河' : '漢 界'));
  for (let c = 0; c < 9; c++) {
    svg.appendChild(svgEl('text', { x: X(c), y: hgt - 5, class: 'coord' }, String.fromCharCode(97 + c)));
    const red = svgEl('text', { x: X(c), class: 'file-num red-file', 'data-file': `red-${9 - c}` }, XQ_RED_FILES[c]);
    const black = svgEl('text', { x: X(c), class: 'file-num black-file', 'data-file': `black-${c + 1}` }, String(c + 1));
    const [top, bottom] = view.flip ? [red, black] : [black, red];
    top.setAttribute('y', m - 30);
    bottom.setAttribute('y', m + 9 * cell + 44);
    svg.appendChild(top);
    svg.appendChild(bottom);
  }
  for (let r = 0; r < 10; r++) svg.appendChild(svgEl('text', { x: 14, y: Y(r) + 4, class: 'coord' }, String(r)));
  const last = moveMarks('xiangqi', view.last);
  if (last && last.from && last.to) {
    for (const p of [last.from, last.to]) {
      svg.appendChild(svgEl('rect', { x: X(p.c) - cell / 2 + 3, y: Y(p.r) - cell / 2 + 3, width: cell - 6, height: cell - 6, class: 'last-square' }));
    }
  }
  const marks = view.marks || {};
  for (let r = 0; r < 10; r++) {
    for (let c = 0; c < 9; c++) {
      const p = f.board[r][c];
      if (!p) continue;
      const red = p === p.toUpperCase();
      const name = squareName(c, r);
      const chosen = (marks.chosen || []).includes(name);
      const g = svgEl('g', { class: `piece ${red ? 'red' : 'black'}${chosen ? ' chosen' : ''}`, 'data-piece': name });
      g.appendChild(svgEl('circle', { cx: X(c), cy: Y(r), r: cell * 0.43 }));
      g.appendChild(svgEl('circle', { cx: X(c), cy: Y(r), r: cell * 0.36, class: 'inner' }));
      g.appendChild(svgEl('text', { x: X(c), y: Y(r) + 9 }, XQ_GLYPHS[p] || p));
      svg.appendChild(g);
    }
  }
  for (const s of marks.targets || []) {
    const p = parseSquare(s);
    const occupied = f.board[p.r][p.c];
    svg.appendChild(svgEl('circle', { cx: X(p.c), cy: Y(p.r), r: occupied ? cell * 0.45 : 8, class: occupied ? 'target-ring' : 'target' }));
  }
  for (let r = 0; r < 10; r++) {
    for (let c = 0; c < 9; c++) {
      svg.appendChild(svgEl('rect', { x: X(c) - cell / 2, y: Y(r) - cell / 2, width: cell, height: cell, class: 'hit', 'data-p': squareName(c, r) }));
    }
  }
  return svg;
}

// ---- picking a move ----

// A Picker turns clicks into one move text for the position it was made for.
// `state`: {game, position, hints, toMove}; `send(text)` is called with a complete move.
class Picker {
  constructor(state, send, onChange) {
    this.s = state;
    this.send = send;
    this.onChange = onChange;
    this.sel = [];       // clicked points (origin and landings, or connect6 stones)
    this.path = null;    // jiu: the chosen path text awaiting captures
    this.need = 0;       // jiu: captures to choose
    this.caps = [];
  }

  status() {
    const h = this.s.hints || {};
    if (this.s.game === 'connect6' && h.stones === 2) {
      return `${2 - this.sel.length} stone(s) left to place this turn`;
    }
    if (this.path) return `Square! Click ${this.need - this.caps.length} enemy piece(s) to remove`;
    if (this.s.game === 'jiu' && this.sel.length) return 'Click where the piece goes (click the last point again to stop a jump chain)';
    if (this.s.game === 'xiangqi' && this.sel.length) return 'Click a highlighted point';
    return '';
  }

  marks() {
    const h = this.s.hints || {};
    const side = this.s.toMove;
    if (this.s.game === 'connect6') {
      return { pending: this.sel.map((name) => ({ name, side })) };
    }
    if (this.s.game === 'xiangqi') {
      if (!this.sel.length) return {};
      const from = this.sel[0];
      return { chosen: [from], targets: (h.moves || []).filter((m) => m.startsWith(from)).map((m) => m.slice(2)) };
    }
    if (this.s.game === 'jiu' && h.paths) {
      const landing = this.sel.length > 1 ? [{ name: this.sel[this.sel.length - 1], side }] : [];
      if (this.path) {
        return { path: this.sel, pending: landing, chosen: this.caps, targets: this.captureTargets().filter((p) => !this.caps.includes(p)) };
      }
      if (!this.sel.length) return {};
      return { path: this.sel, pending: landing, chosen: [this.sel[0]], targets: this.nextPoints() };
    }
    return {};
  }

  jiuPaths() {
    return (this.s.hints.paths || []).map((p) => ({ text: p.path, pts: p.path.split(/[-*]/), captures: p.captures }));
  }

  extending() {
    const k = this.sel.length;
    return this.jiuPaths().filter((p) => p.pts.length >= k && this.sel.every((s, i) => p.pts[i] === s));
  }

  nextPoints() {
    const k = this.sel.length;
    return [...new Set(this.extending().filter((p) => p.pts.length > k).map((p) => p.pts[k]))];
  }

  captureTargets() {
    const g = parseGrid(this.s.position);
    const enemy = this.s.toMove === 'black' ? 'white' : 'black';
    const marks = moveMarks('jiu', this.path);
    const jumped = new Set(marks.jumped.map((p) => pointName(p.c, p.r)));
    const out = [];
    for (let r = 0; r < g.size; r++) for (let c = 0; c < g.size; c++) {
      const name = pointName(c, r);
      if (g.cells[r][c] === enemy && !jumped.has(name)) out.push(name);
    }
    return out;
  }

  reset() {
    this.sel = [];
    this.path = null;
    this.caps = [];
    this.need = 0;
    this.onChange();
  }

  click(p) {
    const h = this.s.hints || {};
    const g = this.s.game;
    if (g === 'gomoku' || (g === 'jiu' && h.points)) {
      if ((h.points || []).includes(p)) this.send(p);
      return;
    }
    if (g === 'connect6') return this.clickConnect6(p, h);
    if (g === 'xiangqi') return this.clickXiangqi(p, h);
    if (g === 'jiu') return this.clickJiu(p);
  }

  clickConnect6(p, h) {
    const empty = (() => { const gr = parseGrid(this.s.position); const q = parsePoint(p); return !gr.cells[q.r][q.c]; })();
    if (this.sel.includes(p)) { this.sel = this.sel.filter((x) => x !== p); return this.onChange(); }
    if (!empty) return;
    if (h.stones === 1 || (this.sel.length === 0 && (h.single || []).includes(p))) return this.send(p);
    this.sel.push(p);
    if (this.sel.length === 2) {
      const text = this.sel.slice().sort(pointOrder).join(' ');
      this.sel = [];
      this.send(text);
    }
    this.onChange();
  }

  clickXiangqi(p, h) {
    const moves = h.moves || [];
    if (this.sel.length && moves.includes(this.sel[0] + p)) {
      const text = this.sel[0] + p;
      this.sel = [];
      return this.send(text);
    }
    this.sel = moves.some((m) => m.startsWith(p)) ? [p] : [];
    this.onChange();
  }

  clickJiu(p) {
    if (this.path) {
      if (this.caps.includes(p)) this.caps = this.caps.filter((x) => x !== p);
      else if (this.captureTargets().includes(p)) this.caps.push(p);
      const avail = this.captureTargets().length;
      if (this.caps.length >= Math.min(this.need, avail)) {
        const text = [this.path].concat(this.caps.slice().sort(pointOrder)).join(' x ');
        this.reset();
        return this.send(text);
      }
      return this.onChange();
    }
    const paths = this.jiuPaths();
    if (!this.sel.length) {
      if (paths.some((x) => x.pts[0] === p)) this.sel = [p];
      return this.onChange();
    }
    const last = this.sel[this.sel.length - 1];
    const exact = () => paths.find((x) => x.pts.length === this.sel.length && x.pts.every((s, i) => s === this.sel[i]));
    if (p === last && this.sel.length > 1 && exact()) return this.finishJiu(exact());
    if (this.nextPoints().includes(p)) {
      this.sel.push(p);
      if (!this.nextPoints().length && exact()) return this.finishJiu(exact());
      return this.onChange();
    }
    this.sel = paths.some((x) => x.pts[0] === p) ? [p] : [];
    this.onChange();
  }

  finishJiu(path) {
    if (!path.captures) { const t = path.text; this.reset(); return this.send(t); }
    this.path = path.text;
    this.need = path.captures;
    this.caps = [];
    this.onChange();
  }
}

// Draws `view` into `container`, wiring clicks to `picker` when given.
function drawBoard(container, view, picker) {
  const marks = picker ? picker.marks() : {};
  const svg = view.game === 'xiangqi' ? drawXiangqi({ ...view, marks }) : drawGrid({ ...view, marks });
  if (picker) {
    svg.classList.add('interactive');
    svg.addEventListener('click', (ev) => {
      const t = ev.target.closest('[data-p]');
      if (t) picker.click(t.getAttribute('data-p'));
    });
  }
  container.replaceChildren(svg);
  return svg;
}

window.Boards = { drawBoard, Picker, parseGrid, parseFen, moveMarks, parsePoint, pointOrder };
})();
