// The review of a finished game: the server's strongest engine looks at every position
// (docs/protocol.md, `review`), and the page draws black's expected score move by move,
// marks inaccuracies, mistakes and blunders, and gives the better move with its line.
import { h, s } from './dom.js';
import { t, sideLabel } from './i18n.js';
import { conn } from './conn.js';
import { scoreText, lineText, JUDGE_SIGNS } from './widgets.js';

let nextId = 1000;

// Starts a review of `game` ({game, variant, start, moves: [text]}); `onChange()` runs
// whenever something arrives. Returns the review's state, with `stop()`.
export function startReview(game, onChange) {
  const id = nextId++;
  const r = { id, positions: [], judged: [], verdicts: [], done: false, error: null, total: game.moves.length + 1 };
  const off = conn.listen((m) => {
    if (m.id !== id) return;
    if (m.type === 'review_position') r.positions[m.ply] = m;
    else if (m.type === 'review_move') {
      r.verdicts[m.ply] = m;
      r.judged[m.ply] = m.judgement || null;
    } else if (m.type === 'review_done') {
      r.done = true;
      r.error = m.error || null;
      off();
    } else if (m.type === 'error') {
      r.done = true;
      r.error = m.message;
      off();
    } else return;
    onChange();
  });
  // One analysis or review runs per connection: this one replaces any other.
  conn.send({ type: 'stop_analysis' });
  conn.send({ type: 'review', id, game: game.game, variant: game.variant, position: game.start, moves: game.moves });
  r.stop = () => { off(); if (!r.done) conn.send({ type: 'stop_analysis' }); };
  return r;
}

// Black's expected score over the game as a graph; a click picks the position.
export function reviewGraph(game, r, current, onPick) {
  const n = Math.max(1, r.total - 1);
  const W = 600, H = 120;
  const X = (ply) => (ply / n) * W;
  const Y = (black) => (1 - black) * H;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'review-graph', preserveAspectRatio: 'none', role: 'img', 'aria-label': t('review.graph', { side: sideLabel(game, 'black') }) });
  svg.appendChild(s('rect', { x: 0, y: 0, width: W, height: H, class: 'graph-bg' }));
  const known = r.positions.filter(Boolean);
  if (known.length) {
    const pts = known.map((p) => `${X(p.ply).toFixed(1)},${Y(p.black).toFixed(1)}`);
    const lastPly = known[known.length - 1].ply;
    svg.appendChild(s('polygon', { points: `0,${H} ${pts.join(' ')} ${X(lastPly).toFixed(1)},${H}`, class: 'graph-black' }));
    svg.appendChild(s('polyline', { points: pts.join(' '), class: 'graph-line' }));
  }
  svg.appendChild(s('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'graph-mid' }));
  r.judged.forEach((j, k) => {
    const after = r.positions[k + 1];
    if (!j || !after) return;
    svg.appendChild(s('circle', { cx: X(k + 1), cy: Y(after.black), r: 5, class: `graph-dot ${j}`, 'data-judged': k + 1 }));
  });
  if (current !== undefined) svg.appendChild(s('line', { x1: X(current), y1: 0, x2: X(current), y2: H, class: 'graph-cursor' }));
  svg.addEventListener('click', (ev) => {
    const box = svg.getBoundingClientRect();
    onPick(Math.round(((ev.clientX - box.left) / box.width) * n));
  });
  return svg;
}

// Counts of each judgement per side.
export function reviewSummary(game, r, moves) {
  const rows = ['black', 'white'].map((side) => {
    const count = (j) => r.judged.filter((x, k) => x === j && moves[k] && moves[k].side === side).length;
    return h('tr', {}, h('th', {}, sideLabel(game, side)), ...['inaccuracy', 'mistake', 'blunder'].map((j) => h('td', { class: j }, String(count(j)))));
  });
  return h('table', { class: 'review-summary' },
    h('tr', {}, h('th', {}), ...['inaccuracy', 'mistake', 'blunder'].map((j) => h('th', { class: j }, `${JUDGE_SIGNS[j]} ${t(`judge.${j}s`)}`))), ...rows);
}

// What the engine says about the move that led to position `ply`: its judgement, the better
// move and its line; `onShow(line)` plays the better line on the analysis board.
export function verdictBox(game, r, ply, moves, onShow) {
  const pos = r.positions[ply];
  const out = [];
  if (pos && pos.score !== undefined && pos.score !== null) {
    out.push(h('p', { class: 'review-eval' }, t('review.eval'), ' ', h('b', {}, scoreText(game, pos.score, pos.to_move)),
      pos.pv && pos.pv.length ? [' · ', h('span', { class: 'pv' }, lineText(game, pos.pv, pos.pv_chinese))] : null));
  }
  const v = ply > 0 ? r.verdicts[ply - 1] : null;
  if (v && v.judgement) {
    const m = moves[ply - 1];
    out.push(h('div', { class: `verdict ${v.judgement}` },
      h('p', {}, h('b', {}, `${m ? m.label : v.move} ${JUDGE_SIGNS[v.judgement]}`), ' ', t(`judge.${v.judgement}`), ` (−${Math.round(v.loss * 100)}%)`),
      v.best ? h('p', {}, t('review.better'), ' ', h('b', { class: 'better-move' }, lineText(game, [v.best], v.line_chinese && v.line_chinese.slice(0, 1))),
        v.line.length > 1 ? [' · ', h('span', { class: 'pv' }, lineText(game, v.line, v.line_chinese))] : null, ' ',
        h('button', { onclick: () => onShow(ply - 1, v.line) }, t('review.showLine'))) : null));
  }
  return out;
}
