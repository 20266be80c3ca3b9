// Pieces several views share: the move list, scores that say whom they favour, the
// evaluation bar, results and seat names.
import { h } from './dom.js';
import { t, lang, sideLabel, reasonText, levelName, playerName } from './i18n.js';

export const other = (side) => (side === 'black' ? 'white' : 'black');

// A move as this interface writes it: Xiangqi in Chinese notation when the interface is
// Chinese (WXF and ICCS beside it otherwise); other games their canonical text.
export function moveLabel(game, m) {
  if (game === 'xiangqi' && lang() === 'zh' && m.chinese) return m.chinese;
  return m.text;
}

// A line of moves (a principal variation): Chinese notation when given and wanted.
export function lineText(game, pv, chinese) {
  if (game === 'xiangqi' && lang() === 'zh' && chinese && chinese.length) return chinese.join(' ');
  return (pv || []).join(' ');
}

// The move list: `onPick(k)` (k moves played) makes entries clickable; `current` marks the
// position shown; `judged[k]` marks move k as an inaccuracy, mistake or blunder.
export function moveList(game, moves, onPick, current, judged) {
  const items = moves.map((m, i) => {
    const j = judged && judged[i];
    const extra = [];
    if (game === 'xiangqi' && m.chinese) {
      if (lang() === 'zh') extra.push(' ', h('span', { class: 'wxf' }, m.text));
      else extra.push(' ', h('span', { class: 'zh' }, m.chinese), ' ', h('span', { class: 'wxf' }, m.wxf || ''));
    }
    return h('li', {
      class: [current === i + 1 ? 'current' : '', m.later ? 'later' : '', j ? `judged ${j}` : ''].join(' ').trim() || null,
      onclick: onPick ? () => onPick(i + 1) : null,
      'data-ply': i + 1,
    }, h('span', { class: 'mv' }, moveLabel(game, m)), ...extra, j ? h('span', { class: 'judgement-sign', title: t(`judge.${j}`) }, JUDGE_SIGNS[j]) : null);
  });
  return h('ol', { class: onPick ? 'moves pickable' : 'moves' }, ...items);
}

export const JUDGE_SIGNS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

// A score (text from the mover's view: "35", "mate 3", "mate -2") as words that name the
// side it favours: "Red +1.35", "Black wins in 3".
export function scoreText(game, score, mover) {
  if (score === null || score === undefined) return '–';
  const mate = /^mate (-?\d+)$/.exec(score);
  if (mate) {
    const n = parseInt(mate[1], 10);
    const winner = n > 0 ? mover : other(mover);
    return t('score.winsIn', { side: sideLabel(game, winner), n: Math.abs(n) });
  }
  const v = parseInt(score, 10);
  if (Number.isNaN(v)) return score;
  if (v === 0) return t('score.even');
  const side = v > 0 ? mover : other(mover);
  const amount = game === 'xiangqi' ? (Math.abs(v) / 100).toFixed(2) : String(Math.abs(v));
  return `${sideLabel(game, side)} +${amount}`;
}

// A bar of black's expected score (0..1) from the server: black's share from the bottom
// unless `blackOnTop`.
export function evalBar(game, black, blackOnTop) {
  const share = Math.max(0, Math.min(1, black === null || black === undefined ? 0.5 : black));
  const el = h('div', { class: 'eval-bar', role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': Math.round(share * 100), title: t('eval.bar', { side: sideLabel(game, 'black'), p: Math.round(share * 100) }) },
    h('div', { class: 'eval-fill', style: null }));
  el.classList.add(blackOnTop ? 'black-top' : 'black-bottom');
  el.style.setProperty('--share', `${(share * 100).toFixed(1)}%`);
  return el;
}

// "Black wins — five in a row" / "Draw — board full", in the interface's language.
export function resultText(game, result) {
  if (!result) return t('result.unfinished');
  const reason = reasonText(game, result.reason || '', result.winner && other(result.winner));
  return result.winner ? t('result.wins', { side: sideLabel(game, result.winner), reason }) : t('result.draw', { reason });
}

// A seat's name for people: a level or a built-in player by its name, a person as named.
export function seatName(x) {
  if (x.kind === 'computer' && x.level) return levelName(x.level);
  if (x.kind === 'computer' && x.name === x.player) return playerName(x.player);
  return x.name;
}

// The record formats each game downloads in (from /api/meta), Boyi's own first.
const formatsOf = {};
export function knowFormats(meta) {
  for (const g of meta.games) formatsOf[g.name] = g.formats;
}

// A stored game's record to download, in the format picked beside the link (what players'
// other tools read: PGN with ICCS, WXF or Chinese moves, XQF, SGF, .psq, ...).
export function downloadRecord(id, game) {
  const formats = formatsOf[game] || [{ name: 'boyi', label: 'Boyi (.boyi)' }];
  const url = (f) => `/api/games/${encodeURIComponent(id)}/record?format=${f}`;
  const link = h('a', { href: url(formats[0].name) }, t('lobby.download'));
  const pick = h('select', { class: 'record-format', 'aria-label': t('lobby.format'), onchange: (e) => { link.href = url(e.target.value); } },
    formats.map((f) => h('option', { value: f.name }, f.label)));
  return h('span', { class: 'download' }, link, ' ', pick);
}

export function seatNames(seats) {
  return (seats || []).map((x) => seatName(x) + (x.open ? ` (${t('seat.open')})` : '')).join(t('vs'));
}

// A select whose options are [value, label] pairs, optionally in groups [label, options].
export function select(attrs, options, value) {
  const opt = ([v, l]) => h('option', { value: v, selected: v === value }, l);
  return h('select', attrs, ...options.map((o) => (Array.isArray(o[1]) ? h('optgroup', { label: o[0] }, ...o[1].map(opt)) : opt(o))));
}
