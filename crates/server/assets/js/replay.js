// A stored game move by move (buttons and the arrow keys), its review, and any of its
// positions opened on the analysis board.
import { h, fill, view } from './dom.js';
import { t, gameName } from './i18n.js';
import { onLeave, handOff } from './router.js';
import { drawBoard } from './board.js';
import { winningLine } from './position.js';
import { moveList, moveLabel, resultText, seatNames, downloadRecord } from './widgets.js';
import { startReview, reviewGraph, reviewSummary, verdictBox } from './review.js';

export async function replayView(id, mode) {
  const box = h('div', { class: 'board-box' });
  const panel = h('aside', { class: 'panel' });
  view().replaceChildren(h('section', { class: 'table' }, box, panel));
  let g;
  try {
    const res = await fetch(`/api/games/${encodeURIComponent(id)}`);
    g = await res.json();
    if (!res.ok) throw new Error(g.error || String(res.status));
  } catch (e) {
    fill(panel, h('div', { class: 'not-found', role: 'alert' }, h('h2', {}, t('replay.notFound')), h('p', { class: 'muted' }, String(e.message || e)),
      h('a', { class: 'button primary', href: '#/' }, t('table.backToLobby'))));
    return;
  }
  const moves = g.moves.map((m) => ({ ...m, label: moveLabel(g.game, m) }));
  let i = g.positions.length - 1;
  let flip = false;
  let review = null;
  const openAnalysis = (k, extra) => {
    const line = g.moves.slice(0, k).map((m) => m.text).concat(extra || g.moves.slice(k).map((m) => m.text));
    handOff({ for: 'analysis', game: g.game, variant: g.variant, position: g.start, moves: line, cursor: k });
    location.hash = '#/analysis';
  };
  const go = (k) => { i = Math.max(0, Math.min(g.moves.length, k)); show(); };
  const runReview = () => {
    if (review) return;
    review = startReview({ game: g.game, variant: g.variant, start: g.start, moves: g.moves.map((m) => m.text) }, show);
    show();
  };
  const signals = () => {
    if (i !== g.moves.length || !g.result || !g.result.winner || !/ in a row$/.test(g.result.reason || '')) return {};
    return { win: winningLine(g.positions[i], g.moves[i - 1].text, g.result.winner, g.game === 'connect6' ? 6 : 5) };
  };
  const show = () => {
    drawBoard(box, { game: g.game, position: g.positions[i], last: i ? g.moves[i - 1].text : null, flip, signals: signals() }, null);
    const reviewBox = [];
    if (review) {
      const have = review.positions.filter(Boolean).length;
      reviewBox.push(h('h3', {}, t('review.title')));
      if (!review.done) reviewBox.push(h('p', { class: 'muted review-progress' }, t('review.progress', { n: have, total: review.total })));
      if (review.error) reviewBox.push(h('p', { class: 'error' }, review.error));
      reviewBox.push(reviewGraph(g.game, review, i, go));
      if (review.done && !review.error) reviewBox.push(reviewSummary(g.game, review, g.moves));
      reviewBox.push(...verdictBox(g.game, review, i, moves, (k, line) => openAnalysis(k, line)));
    }
    fill(panel, h('h2', {}, `${gameName(g.game)} · ${seatNames(g.seats)}`),
      h('p', { class: 'result-banner' }, resultText(g.game, g.result)),
      h('div', { class: 'buttons replay-nav' },
        h('button', { onclick: () => go(0), title: t('nav.first'), 'aria-label': t('nav.first') }, '«'), h('button', { onclick: () => go(i - 1), title: t('nav.prev'), 'aria-label': t('nav.prev') }, '‹'),
        h('span', { class: 'muted ply' }, ` ${i} / ${g.moves.length} `),
        h('button', { onclick: () => go(i + 1), title: t('nav.next'), 'aria-label': t('nav.next') }, '›'), h('button', { onclick: () => go(g.moves.length), title: t('nav.last'), 'aria-label': t('nav.last') }, '»'),
        h('button', { class: 'flip', onclick: () => { flip = !flip; show(); } }, t('btn.flip'))),
      h('div', { class: 'buttons' },
        review ? null : h('button', { class: 'primary', id: 'start-review', onclick: runReview }, t('btn.review')),
        h('button', { id: 'analyse-here', onclick: () => openAnalysis(i) }, t('btn.analyseHere'))),
      ...reviewBox,
      h('h3', {}, t('moves.title')), moveList(g.game, g.moves, go, i, review ? review.judged : null),
      h('p', {}, downloadRecord(g.table, g.game)));
    const list = panel.querySelector('ol.moves');
    const cur = list && list.querySelector('li.current');
    if (cur) list.scrollTop = cur.offsetTop - list.clientHeight / 2;
  };
  const keys = (ev) => {
    if (ev.target.closest('input, select, textarea')) return;
    const k = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: g.moves.length, ArrowUp: 0, ArrowDown: g.moves.length }[ev.key];
    if (k === undefined) return;
    ev.preventDefault();
    go(k);
  };
  document.addEventListener('keydown', keys);
  onLeave(() => { document.removeEventListener('keydown', keys); if (review) review.stop(); });
  show();
  if (mode === 'review') runReview();
}
