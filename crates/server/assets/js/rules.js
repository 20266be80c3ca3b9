// A rules page for each game (`#/rules/<game>`), its diagrams drawn by the page's own board.
import { h, view } from './dom.js';
import { t, lang, gameName } from './i18n.js';
import { drawBoard } from './board.js';
import { RULES } from './rulestext.js';

const GAMES = ['gomoku', 'connect6', 'jiu', 'xiangqi'];

// Grid position text (rows from the top) with the given stones.
function gridText(size, black, white, jiu) {
  const at = new Map();
  for (const p of black) at.set(p, 'x');
  for (const p of white) at.set(p, 'o');
  const rows = [];
  for (let r = size - 1; r >= 0; r--) {
    let row = '', run = 0;
    for (let c = 0; c < size; c++) {
      const x = at.get(String.fromCharCode(97 + c) + (r + 1));
      if (!x) { run++; continue; }
      if (run) row += run;
      row += x;
      run = 0;
    }
    if (run) row += run;
    rows.push(row);
  }
  const side = black.length > white.length ? 'w' : 'b';
  return rows.join('/') + ' ' + side + (jiu ? ' battle 196 0' : '');
}

function diagram(game, d) {
  const box = h('div', { class: 'board-box diagram' });
  if (d.xiangqi) {
    drawBoard(box, { game: 'xiangqi', position: d.xiangqi, last: d.last || null, signals: { check: d.check } }, null);
  } else {
    const position = gridText(d.size, d.b, d.w, d.jiu);
    drawBoard(box, { game, position, last: d.last || null, signals: { win: d.win, forbidden: d.forbidden, squares: d.squares } }, null);
  }
  return box;
}

export function rulesView(game) {
  if (!GAMES.includes(game)) game = 'jiu';
  const tabs = h('nav', { class: 'rules-tabs' }, ...GAMES.map((g) => h('a', { href: `#/rules/${g}`, class: g === game ? 'current' : null }, gameName(g))));
  const sections = RULES[game].map((part) => {
    const [title, text] = part[lang()] || part.en;
    return h('section', { class: 'rules-part' }, h('div', { class: 'rules-text' }, h('h3', {}, title), h('p', {}, text)),
      part.diagram ? diagram(game, part.diagram) : null);
  });
  view().replaceChildren(h('article', { class: 'rules', 'data-game': game }, h('h2', {}, t('rules.title', { game: gameName(game) })), tabs, ...sections,
    h('p', {}, h('a', { class: 'button primary', href: '#/new' }, t('nav.new')), ' ', h('a', { class: 'button', href: '#/analysis' }, t('nav.analysis')))));
}
