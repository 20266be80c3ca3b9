// The lobby: tables being played (open seats first, with a button to take one) and the
// latest finished games.
import { h, view } from './dom.js';
import { t, gameName, variantName, sideLabel } from './i18n.js';
import { conn } from './conn.js';
import { seatsOf, saveSeats, myName } from './local.js';
import { onLeave } from './router.js';
import { resultText, seatNames, downloadRecord } from './widgets.js';

export function lobbyView() {
  const live = h('div', { class: 'list', id: 'live-tables' }, t('loading'));
  const done = h('div', { class: 'list', id: 'finished-games' });
  const err = h('p', { class: 'error', role: 'alert' });
  view().replaceChildren(h('section', { class: 'lobby' },
    h('div', { class: 'lobby-head' }, h('h2', {}, t('lobby.tables')), h('a', { class: 'button primary', href: '#/new' }, t('nav.new'))),
    err, live, h('h2', {}, t('lobby.finished')), done));
  const load = async () => {
    let data;
    try { data = await (await fetch('/api/lobby')).json(); } catch (_) { return; }
    live.replaceChildren(...(data.live.length ? data.live.map((x) => liveRow(x, err)) : [h('p', { class: 'muted' }, t('lobby.none'))]));
    done.replaceChildren(...data.finished.map(finishedRow));
  };
  load();
  const timer = setInterval(load, 3000);
  onLeave(() => clearInterval(timer));
}

function finishedRow(g) {
  const result = g.winner ? { winner: g.winner === 'draw' ? null : g.winner, reason: g.reason } : null;
  return h('div', { class: 'row' },
    h('span', { class: 'game-tag' }, gameName(g.game)),
    h('span', { class: 'names' }, seatNames(g.seats)),
    h('span', { class: 'muted' }, `${t('moves.count', { n: g.moves })} · ${resultText(g.game, result)}`),
    h('span', { class: 'row-links' }, h('a', { href: `#/r/${g.id}` }, t('lobby.replay')), downloadRecord(g.id, g.game)));
}

function liveRow(x, err) {
  const open = x.seats.find((seat) => seat.open);
  const sit = open && h('button', { class: 'primary', onclick: () => {
    const off = conn.listen((m) => {
      if (m.type === 'seated' && m.table === x.table) {
        off();
        const seats = seatsOf(x.table);
        seats.held[m.side] = m.token;
        saveSeats(x.table, seats);
        location.hash = `#/t/${x.table}`;
      } else if (m.type === 'error' && m.table === x.table) { off(); err.textContent = m.message; }
    });
    conn.send({ type: 'sit', table: x.table, side: open.side, name: myName() || undefined });
  } }, t('lobby.playAs', { side: sideLabel(x.game, open.side) }));
  return h('div', { class: 'row' },
    h('span', { class: 'game-tag' }, gameName(x.game)),
    h('span', { class: 'names' }, seatNames(x.seats)),
    h('span', { class: 'muted' }, `${variantName(x.game, x.variant)} · ${t('moves.count', { n: x.moves })} · ${t('toMove', { side: sideLabel(x.game, x.to_move) })}`),
    h('span', { class: 'row-links' }, sit, h('a', { href: `#/t/${x.table}` }, t('lobby.watch'))));
}
