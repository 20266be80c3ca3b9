// Drawing every game's board as SVG: the position, the last move, the signals (check,
// forbidden points, the winning line), an engine's best move, and a picker's marks.
import { s } from './dom.js';
import { parseGrid, parseFen, parsePoint, parseSquare, pointName, squareName, moveMarks } from './position.js';

const XQ_GLYPHS = {
  K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵',
  k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒',
};

// Red numbers its files 一..九 from its own right, black 1..9 from its own right: seen from
// red's side, file a is red's 九 and black's 1.
const XQ_RED_FILES = '九八七六五四三二一';

let markerIds = 0;

// An arrow head marker in `svg`'s defs; returns its url.
function arrowHead(svg, cls) {
  const id = `arrow-${++markerIds}`;
  const defs = s('defs');
  const marker = s('marker', { id, viewBox: '0 0 10 10', refX: 6, refY: 5, markerWidth: 4, markerHeight: 4, orient: 'auto-start-reverse' });
  marker.appendChild(s('path', { d: 'M0,0L10,5L0,10z', class: cls }));
  defs.appendChild(marker);
  svg.appendChild(defs);
  return `url(#${id})`;
}

function cross(svg, x, y, d, cls) {
  svg.appendChild(s('path', { d: `M${x - d},${y - d}L${x + d},${y + d}M${x + d},${y - d}L${x - d},${y + d}`, class: cls }));
}

// A grid board (gomoku, connect6, jiu). `view`: {game, position, last, flip, marks, signals,
// best}; marks from a picker: {targets, chosen, pending: [{name, side}], path}; signals:
// {forbidden: [points], win: [points], squares: [points: lower-left corners of 2×2 blocks]}.
function drawGrid(view) {
  const g = parseGrid(view.position);
  const n = g.size;
  const cell = Math.max(22, Math.min(40, Math.floor(560 / (n + 1))));
  const m = cell;
  const w = m * 2 + cell * (n - 1);
  const svg = s('svg', { viewBox: `0 0 ${w} ${w}`, width: w, height: w, class: 'board grid-board', 'data-game': view.game });
  const X = (c) => m + (view.flip ? n - 1 - c : c) * cell;
  const Y = (r) => m + (view.flip ? r : n - 1 - r) * cell;
  const P = (name) => { const p = parsePoint(name); return p ? [X(p.c), Y(p.r)] : null; };
  svg.appendChild(s('rect', { x: 0, y: 0, width: w, height: w, class: 'wood' }));
  for (let i = 0; i < n; i++) {
    svg.appendChild(s('line', { x1: X(0), y1: Y(i), x2: X(n - 1), y2: Y(i), class: 'line' }));
    svg.appendChild(s('line', { x1: X(i), y1: Y(0), x2: X(i), y2: Y(n - 1), class: 'line' }));
    const letter = String.fromCharCode(97 + i);
    svg.appendChild(s('text', { x: X(i), y: w - m * 0.18, class: 'coord' }, letter));
    svg.appendChild(s('text', { x: X(i), y: m * 0.38, class: 'coord' }, letter));
    svg.appendChild(s('text', { x: m * 0.27, y: Y(i) + 4, class: 'coord' }, String(i + 1)));
    svg.appendChild(s('text', { x: w - m * 0.27, y: Y(i) + 4, class: 'coord' }, String(i + 1)));
  }
  if (view.game === 'jiu') {
    // The central diagonal (久物) between g7 and h8.
    svg.appendChild(s('line', { x1: X(6), y1: Y(6), x2: X(7), y2: Y(7), class: 'jiu-diagonal' }));
  } else {
    const stars = n === 15 ? [3, 7, 11] : n === 19 ? [3, 9, 15] : n >= 9 ? [Math.floor(n / 2)] : [];
    for (const a of stars) for (const b of stars) {
      if (n !== 15 && n !== 19 && a !== b) continue;
      svg.appendChild(s('circle', { cx: X(a), cy: Y(b), r: 3, class: 'star' }));
    }
  }
  const marks = view.marks || {};
  const sig = view.signals || {};
  for (const corner of sig.squares || []) {
    const p = parsePoint(corner);
    const xs = [X(p.c), X(p.c + 1)], ys = [Y(p.r), Y(p.r + 1)];
    const pad = cell * 0.5;
    svg.appendChild(s('rect', { x: Math.min(...xs) - pad, y: Math.min(...ys) - pad, width: cell + 2 * pad, height: cell + 2 * pad, rx: 6, class: 'square-block' }));
  }
  const last = moveMarks(view.game, view.last);
  if (last && last.path && last.path.length > 1) {
    svg.appendChild(s('polyline', { points: last.path.map((p) => `${X(p.c)},${Y(p.r)}`).join(' '), class: last.flying ? 'last-path flying' : 'last-path' }));
  }
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const st = g.cells[r][c];
      if (st) svg.appendChild(s('circle', { cx: X(c), cy: Y(r), r: cell * 0.45, class: `stone ${st}`, 'data-stone': pointName(c, r) }));
    }
  }
  for (const name of sig.win || []) {
    const [x, y] = P(name);
    svg.appendChild(s('circle', { cx: x, cy: y, r: cell * 0.47, class: 'win-ring', 'data-win': name }));
  }
  if (last && last.stones) {
    for (const p of last.stones) {
      const st = g.cells[p.r] && g.cells[p.r][p.c];
      svg.appendChild(s('circle', { cx: X(p.c), cy: Y(p.r), r: cell * 0.14, class: `last-mark on-${st || 'none'}` }));
    }
  }
  if (last && last.path && last.path.length) {
    const p = last.path[last.path.length - 1];
    svg.appendChild(s('circle', { cx: X(p.c), cy: Y(p.r), r: cell * 0.14, class: 'last-mark on-' + (g.cells[p.r][p.c] || 'none') }));
    for (const q of last.jumped.concat(last.captures)) cross(svg, X(q.c), Y(q.r), cell * 0.22, 'captured-mark');
  }
  for (const name of sig.forbidden || []) {
    const [x, y] = P(name);
    cross(svg, x, y, cell * 0.16, 'forbidden-mark');
  }
  if (view.best) drawGridBest(svg, view, g, X, Y, cell);
  if (marks.path && marks.path.length > 1) {
    svg.appendChild(s('polyline', { points: marks.path.map((n2) => P(n2).join(',')).join(' '), class: 'sel-path' }));
  }
  for (const p of marks.pending || []) {
    const [x, y] = P(p.name);
    svg.appendChild(s('circle', { cx: x, cy: y, r: cell * 0.45, class: `stone ${p.side} pending` }));
  }
  for (const name of marks.chosen || []) {
    const [x, y] = P(name);
    svg.appendChild(s('circle', { cx: x, cy: y, r: cell * 0.47, class: 'chosen' }));
  }
  for (const name of marks.targets || []) {
    const p = parsePoint(name);
    const occupied = g.cells[p.r][p.c];
    svg.appendChild(s('circle', { cx: X(p.c), cy: Y(p.r), r: occupied ? cell * 0.47 : cell * 0.16, class: occupied ? 'target-ring' : 'target' }));
  }
  // Click targets last, on top of everything.
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      svg.appendChild(s('rect', { x: X(c) - cell / 2, y: Y(r) - cell / 2, width: cell, height: cell, class: 'hit', 'data-p': pointName(c, r) }));
    }
  }
  return svg;
}

// An engine's best move on a grid: translucent stones (one, or Connect6's pair), or a Jiu
// path with an arrow head and crosses on what it takes.
function drawGridBest(svg, view, g, X, Y, cell) {
  const best = moveMarks(view.game, view.best);
  if (!best) return;
  const side = g.side;
  if (best.stones) {
    best.stones.forEach((p, i) => {
      svg.appendChild(s('circle', { cx: X(p.c), cy: Y(p.r), r: cell * 0.42, class: `stone ${side} best-stone`, 'data-best': pointName(p.c, p.r) }));
      if (best.stones.length > 1) svg.appendChild(s('text', { x: X(p.c), y: Y(p.r) + 5, class: `best-num on-${side}` }, String(i + 1)));
    });
    return;
  }
  if (best.path) {
    if (best.path.length === 1) {
      const p = best.path[0];
      svg.appendChild(s('circle', { cx: X(p.c), cy: Y(p.r), r: cell * 0.42, class: `stone ${side} best-stone`, 'data-best': pointName(p.c, p.r) }));
      return;
    }
    const head = arrowHead(svg, 'best-head');
    svg.appendChild(s('polyline', { points: best.path.map((p) => `${X(p.c)},${Y(p.r)}`).join(' '), class: best.flying ? 'best-path flying' : 'best-path', 'marker-end': head, 'data-best': view.best }));
    for (const q of best.jumped.concat(best.captures)) cross(svg, X(q.c), Y(q.r), cell * 0.2, 'best-capture');
  }
}

// A Xiangqi board; `view.flip` puts black at the bottom. File numbers stand on both sides
// (each side's own numbers on its side), ICCS letters and ranks at the edges. Signals:
// {check: square of the king in check}.
function drawXiangqi(view) {
  const f = parseFen(view.position);
  const cell = 56, m = 60;
  const w = m * 2 + cell * 8, hgt = m * 2 + cell * 9;
  const svg = s('svg', { viewBox: `0 0 ${w} ${hgt}`, width: w, height: hgt, class: 'board xiangqi-board', 'data-game': 'xiangqi' });
  const X = (c) => m + (view.flip ? 8 - c : c) * cell;
  const Y = (r) => m + (view.flip ? r : 9 - r) * cell;
  svg.appendChild(s('rect', { x: 0, y: 0, width: w, height: hgt, class: 'wood' }));
  for (let r = 0; r < 10; r++) svg.appendChild(s('line', { x1: X(0), y1: Y(r), x2: X(8), y2: Y(r), class: 'line' }));
  for (let c = 0; c < 9; c++) {
    if (c === 0 || c === 8) {
      svg.appendChild(s('line', { x1: X(c), y1: Y(0), x2: X(c), y2: Y(9), class: 'line' }));
    } else {
      svg.appendChild(s('line', { x1: X(c), y1: Y(0), x2: X(c), y2: Y(4), class: 'line' }));
      svg.appendChild(s('line', { x1: X(c), y1: Y(5), x2: X(c), y2: Y(9), class: 'line' }));
    }
  }
  for (const [r0, r1] of [[0, 2], [7, 9]]) {
    svg.appendChild(s('line', { x1: X(3), y1: Y(r0), x2: X(5), y2: Y(r1), class: 'line' }));
    svg.appendChild(s('line', { x1: X(5), y1: Y(r0), x2: X(3), y2: Y(r1), class: 'line' }));
  }
  const riverY = (Y(4) + Y(5)) / 2 + 9;
  svg.appendChild(s('text', { x: (X(1) + X(3)) / 2, y: riverY, class: 'river' }, view.flip ? '漢 界' : '楚 河'));
  svg.appendChild(s('text', { x: (X(5) + X(7)) / 2, y: riverY, class: 'river' }, view.flip ? '楚 河' : '漢 界'));
  for (let c = 0; c < 9; c++) {
    svg.appendChild(s('text', { x: X(c), y: hgt - 5, class: 'coord' }, String.fromCharCode(97 + c)));
    const red = s('text', { x: X(c), class: 'file-num red-file', 'data-file': `red-${9 - c}` }, XQ_RED_FILES[c]);
    const black = s('text', { x: X(c), class: 'file-num black-file', 'data-file': `black-${c + 1}` }, String(c + 1));
    const [top, bottom] = view.flip ? [red, black] : [black, red];
    top.setAttribute('y', m - 30);
    bottom.setAttribute('y', m + 9 * cell + 44);
    svg.appendChild(top);
    svg.appendChild(bottom);
  }
  for (let r = 0; r < 10; r++) svg.appendChild(s('text', { x: 14, y: Y(r) + 4, class: 'coord' }, String(r)));
  const last = moveMarks('xiangqi', view.last);
  if (last) {
    for (const p of [last.from, last.to]) {
      svg.appendChild(s('rect', { x: X(p.c) - cell / 2 + 3, y: Y(p.r) - cell / 2 + 3, width: cell - 6, height: cell - 6, class: 'last-square' }));
    }
  }
  const sig = view.signals || {};
  const check = sig.check ? parseSquare(sig.check) : null;
  if (check) svg.appendChild(s('circle', { cx: X(check.c), cy: Y(check.r), r: cell * 0.5, class: 'check-glow', 'data-check': sig.check }));
  const marks = view.marks || {};
  for (let r = 0; r < 10; r++) {
    for (let c = 0; c < 9; c++) {
      const p = f.board[r][c];
      if (!p) continue;
      const red = p === p.toUpperCase();
      const name = squareName(c, r);
      const picked = (marks.chosen || []).includes(name);
      const g = s('g', { class: `piece ${red ? 'red' : 'black'}${picked ? ' picked' : ''}`, 'data-piece': name });
      g.appendChild(s('circle', { cx: X(c), cy: Y(r), r: cell * 0.43, class: 'outer' }));
      g.appendChild(s('circle', { cx: X(c), cy: Y(r), r: cell * 0.36, class: 'inner' }));
      g.appendChild(s('text', { x: X(c), y: Y(r) + 9 }, XQ_GLYPHS[p] || p));
      svg.appendChild(g);
    }
  }
  const best = view.best && moveMarks('xiangqi', view.best);
  if (best) {
    const head = arrowHead(svg, 'best-head');
    const [x1, y1, x2, y2] = [X(best.from.c), Y(best.from.r), X(best.to.c), Y(best.to.r)];
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const cut = cell * 0.3;
    svg.appendChild(s('line', { x1, y1, x2: x2 - (x2 - x1) * cut / len, y2: y2 - (y2 - y1) * cut / len, class: 'best-arrow', 'marker-end': head, 'data-best': view.best }));
  }
  for (const name of marks.targets || []) {
    const p = parseSquare(name);
    const occupied = f.board[p.r][p.c];
    svg.appendChild(s('circle', { cx: X(p.c), cy: Y(p.r), r: occupied ? cell * 0.45 : 8, class: occupied ? 'target-ring' : 'target' }));
  }
  for (let r = 0; r < 10; r++) {
    for (let c = 0; c < 9; c++) {
      svg.appendChild(s('rect', { x: X(c) - cell / 2, y: Y(r) - cell / 2, width: cell, height: cell, class: 'hit', 'data-p': squareName(c, r) }));
    }
  }
  return svg;
}

// Draws `view` into `container`, wiring clicks to `picker` when given.
export function drawBoard(container, view, picker) {
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
