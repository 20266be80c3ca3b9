// The analysis board: any position of any game, moves played by clicking (the server checks
// them), lines and branches, and the strongest engine thinking about each position with an
// evaluation bar and its best move drawn on the board.
import { h, fill, view } from './dom.js';
import { t, gameName, variantName, sideLabel } from './i18n.js';
import { conn } from './conn.js';
import { onLeave, takeHandOff } from './router.js';
import { drawBoard } from './board.js';
import { Picker } from './picker.js';
import { moveList, scoreText, lineText, evalBar, resultText, select } from './widgets.js';
import { gameMeta } from './newgame.js';

const THINK = [[1000, '1 s'], [3000, '3 s'], [10000, '10 s'], [30000, '30 s']];

export function analysisView(meta) {
  const from = takeHandOff('analysis');
  const a = { game: 'gomoku', variant: null, position: null, line: [], cursor: 0, branches: [], insp: null, seq: 0,
    picker: null, rest: [], live: false, aid: 0, info: null, best: null, flip: false, note: '' };
  const box = h('div', { class: 'board-box' });
  const bar = h('div', { class: 'eval-slot' });
  const panel = h('aside', { class: 'panel analysis-panel' });
  view().replaceChildren(h('section', { class: 'table' }, h('div', { class: 'board-wrap' }, bar, box), panel));
  const gameSel = select({ name: 'analysis-game' }, meta.games.map((g) => [g.name, gameName(g.name)]), from ? from.game : 'gomoku');
  const variantSel = h('select', { name: 'analysis-variant' });
  const posInput = h('input', { type: 'text', placeholder: t('an.positionPlaceholder'), class: 'wide', name: 'analysis-position' });
  const think = select({ name: 'analysis-think' }, THINK.map(([v, l]) => [String(v), l]), '3000');
  const err = h('p', { class: 'error', role: 'alert' });
  const fillVariants = () => {
    const g = gameMeta(meta, gameSel.value);
    variantSel.replaceChildren(...g.variants.map((v) => h('option', { value: v }, variantName(g.name, v))));
  };
  fillVariants();
  if (from) {
    if (from.variant) variantSel.value = from.variant;
    posInput.value = from.position || '';
  }
  // Lines asked for, by request id; the moves the server has written out, by line.
  const asked = new Map();
  const known = new Map();
  const inspect = (line) => {
    a.seq += 1;
    asked.set(a.seq, line);
    conn.send({ type: 'inspect', id: a.seq, game: a.game, variant: a.variant, position: a.position || undefined, moves: line });
  };
  const stopAnalysis = () => {
    a.aid += 1;
    conn.send({ type: 'stop_analysis' });
  };
  const analyse = () => {
    const i = a.insp;
    a.info = null; a.best = null;
    if (!i || i.result) { a.live = false; return; }
    a.aid += 1;
    conn.send({ type: 'analyze', id: a.aid, game: a.game, variant: a.variant, position: a.position || undefined, moves: a.line.slice(0, a.cursor), think_ms: parseInt(think.value, 10) });
  };
  const setup = () => {
    err.textContent = '';
    a.game = gameSel.value; a.variant = variantSel.value; a.position = posInput.value.trim() || null;
    a.line = []; a.branches = []; a.info = null; a.best = null; a.note = '';
    inspect([]);
  };
  // A new game or rules starts from its start position at once.
  gameSel.addEventListener('change', () => { fillVariants(); posInput.value = ''; setup(); });
  variantSel.addEventListener('change', () => setup());
  const play = (text) => {
    const rest = a.line.slice(a.cursor);
    if (rest.length && rest[0] !== text) a.branches.push(a.line.slice());
    inspect(a.line.slice(0, a.cursor).concat([text]));
  };
  const go = (k) => { if (k >= 0 && k <= a.line.length && k !== a.cursor) inspect(a.line.slice(0, k)); };
  const drawn = () => {
    const i = a.insp;
    const last = i.moves.length ? i.moves[i.moves.length - 1].text : null;
    const best = a.live && a.info && a.info.pv && a.info.pv.length ? a.info.pv[0] : a.best;
    const signals = {};
    if (i.check) signals.check = i.check;
    if (i.hints && i.hints.forbidden && i.to_move === 'black') signals.forbidden = i.hints.forbidden.map((f) => f.point);
    drawBoard(box, { game: i.game, position: i.position, last, flip: a.flip, signals, best }, i.hints ? a.picker : null);
    bar.replaceChildren(a.live || a.info ? evalBar(i.game, a.info ? a.info.black : 0.5, a.flip !== (i.game === 'xiangqi')) : h('span'));
  };
  const render = () => {
    const i = a.insp;
    if (!i) return;
    drawn();
    const hint = a.picker && a.picker.status();
    const engine = a.live || a.info
      ? h('div', { class: 'thinking' }, h('b', {}, t('an.engine')), ' ',
        a.info ? `${t('think.depth', { n: a.info.depth ?? '–' })} · ${scoreText(i.game, a.info.score, i.to_move)} · ` : t('an.starting'),
        a.info ? h('span', { class: 'pv' }, lineText(i.game, a.info.pv, a.info.pv_chinese)) : null)
      : null;
    fill(panel,
      h('h2', {}, t('nav.analysis')),
      h('div', { class: 'form-row' }, gameSel, variantSel), posInput,
      h('div', { class: 'buttons' }, h('button', { onclick: setup, id: 'setup' }, t('an.setup')),
        h('button', { onclick: () => go(a.cursor - 1) }, t('an.takeBack')),
        h('button', { class: 'flip', onclick: () => { a.flip = !a.flip; render(); } }, t('btn.flip'))),
      h('p', { class: 'muted' }, t('an.position'), ' ', h('code', { class: 'postext' }, i.position)),
      i.result ? h('p', { class: 'result-banner' }, resultText(i.game, i.result))
        : h('p', { class: 'turn' }, i.check ? t('signal.checkTurn', { side: sideLabel(i.game, i.to_move) }) : t('toMove', { side: sideLabel(i.game, i.to_move) })),
      h('div', { class: 'form-row analyse-row' }, t('an.think'), think,
        a.live ? h('button', { onclick: () => { a.live = false; stopAnalysis(); render(); }, id: 'analyse-stop' }, t('an.stop'))
          : h('button', { class: 'primary', id: 'analyse', disabled: !!i.result, onclick: () => { a.live = true; analyse(); render(); } }, t('an.analyse'))),
      engine,
      a.best && !a.live ? h('p', { class: 'best-line' }, t('an.best'), ' ', h('b', {}, lineText(i.game, [a.best], a.bestChinese)), ' ', h('button', { onclick: () => play(a.best) }, t('an.playIt'))) : null,
      hint ? h('p', { class: 'hint' }, hint) : null,
      a.note ? h('p', { class: 'note' }, a.note) : null,
      err,
      h('h3', {}, t('an.line')), moveList(i.game, i.moves.concat(a.rest || []), go, a.cursor),
      a.branches.length ? h('h3', {}, t('an.otherLines')) : null,
      ...a.branches.map((b, k) => h('p', { class: 'branch' }, h('a', { href: '#/analysis', onclick: (e) => { e.preventDefault(); const cur = a.line.slice(); a.branches.splice(k, 1, cur); a.line = b; inspect(b.slice()); } }, b.join(', ') || t('an.start')))));
  };
  const off = conn.listen((m) => {
    if (m.type === 'inspection' && asked.has(m.id)) {
      const line = asked.get(m.id);
      asked.delete(m.id);
      m.moves.forEach((mv, k) => known.set(line.slice(0, k + 1).join('\n'), mv));
      if (m.id !== a.seq) return;
      const keep = a.line.length > line.length && line.every((x, k) => a.line[k] === x);
      if (!keep) a.line = line;
      a.cursor = line.length;
      a.insp = m;
      a.rest = a.line.slice(line.length).map((text, j) => ({ ...(known.get(a.line.slice(0, line.length + j + 1).join('\n')) || { text }), later: true }));
      a.best = null; a.info = null; a.note = '';
      err.textContent = '';
      a.picker = m.hints ? new Picker({ game: m.game, position: m.position, hints: m.hints, toMove: m.to_move }, play, render, (note) => { a.note = note; render(); }) : null;
      if (a.live) analyse();
      render();
    } else if (m.type === 'analysis' && m.id === a.aid) { a.info = m; render(); }
    else if (m.type === 'analysis_done' && m.id === a.aid) {
      a.best = m.bestmove || null;
      a.bestChinese = m.bestmove_chinese ? [m.bestmove_chinese] : null;
      a.live = false;
      if (m.error) err.textContent = m.error;
      render();
    } else if (m.type === 'error' && m.id !== undefined && !m.table) { err.textContent = m.message; if (m.id === a.aid) { a.live = false; render(); } }
  });
  const keys = (ev) => {
    if (ev.target.closest('input, select, textarea')) return;
    const k = { ArrowLeft: a.cursor - 1, ArrowRight: a.cursor + 1, Home: 0, End: a.line.length }[ev.key];
    if (k === undefined) return;
    ev.preventDefault();
    go(k);
  };
  document.addEventListener('keydown', keys);
  onLeave(() => { off(); document.removeEventListener('keydown', keys); stopAnalysis(); });
  setup();
  if (from && from.moves) {
    // The whole line first, so its moves are written out, then the position asked for.
    a.line = from.moves.slice();
    inspect(from.moves.slice());
    inspect(from.moves.slice(0, from.cursor));
  }
}
