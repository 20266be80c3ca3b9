// The new-game form: game, rules, board size, opponent (a level of the computer, a paper's
// player, a person here or elsewhere, or two computers), side, clock and undo.
import { h, view } from './dom.js';
import { t, gameName, variantName, sideLabel, levelName, playerName } from './i18n.js';
import { conn } from './conn.js';
import { saveSeats, myName, setMyName } from './local.js';
import { onLeave, takeHandOff } from './router.js';
import { select } from './widgets.js';

export function gameMeta(meta, name) { return meta.games.find((g) => g.name === name); }

// The computer opponents of a game, grouped: the levels, the papers' players, the engines
// configured on the server, other players. Values are `level:<id>` or a player spec.
export function opponentOptions(g) {
  const groups = [[t('opp.levels'), g.levels.map((l) => [`level:${l.id}`, levelName(l.id)])]];
  const papers = g.players.filter((p) => /^boyi:seed\d+/.test(p.name));
  if (papers.length) groups.push([t('opp.papers'), papers.map((p) => [p.name, playerName(p.name)])]);
  const engines = g.players.filter((p) => p.name.startsWith('engine:'));
  if (engines.length) groups.push([t('opp.engines'), engines.map((p) => [p.name, p.name.slice(7)])]);
  groups.push([t('opp.other'), ['boyi:strong', 'boyi:random'].filter((n) => g.players.some((p) => p.name === n)).map((n) => [n, playerName(n)])]);
  return groups;
}

// The seat request for an opponent value of `opponentOptions` with its thinking time.
export function computerSeat(value, thinkMs) {
  if (value.startsWith('level:')) return { kind: 'computer', level: value.slice(6) };
  return { kind: 'computer', player: value, think_ms: thinkMs };
}

export function newGameView(meta) {
  const from = takeHandOff('new');
  const f = {};
  f.game = select({ name: 'game' }, meta.games.map((g) => [g.name, gameName(g.name)]), from ? from.game : 'gomoku');
  if (from) f.game.disabled = true;
  const variantBox = h('span');
  const sizeBox = h('span');
  const player = (id) => {
    f[id] = h('select', { name: id });
    f[id + 'ms'] = h('input', { type: 'number', min: 10, max: 30000, value: 1000, step: 10, class: 'num', name: id + '-ms' });
    const think = h('span', { class: 'think' }, ' ', t('new.think'), ' ', f[id + 'ms'], ' ms');
    f[id].addEventListener('change', () => { think.hidden = f[id].value.startsWith('level:'); });
    f[id + 'think'] = think;
    return h('span', { class: 'player-choice' }, f[id], think);
  };
  const comp1 = player('player1');
  const comp2 = player('player2');
  f.colour = h('select', { name: 'colour' });
  const fillGame = () => {
    const g = gameMeta(meta, f.game.value);
    f.variant = select({ name: 'variant' }, g.variants.map((v) => [v, variantName(g.name, v)]), g.variants[0]);
    variantBox.replaceChildren(f.variant);
    f.size = null;
    if (from) sizeBox.replaceChildren(h('span', { class: 'muted' }, t('new.fromPosition')));
    else if (g.sizes.length) sizeBox.replaceChildren(f.size = select({ name: 'size' }, g.sizes.map((n) => [String(n), `${n}×${n}`]), String(g.sizes[0])));
    else sizeBox.replaceChildren(h('span', { class: 'muted' }, t('new.fixedBoard')));
    for (const id of ['player1', 'player2']) {
      const sel = select({ name: id }, opponentOptions(g), `level:${g.default_level}`);
      f[id].replaceChildren(...sel.children);
      f[id].value = `level:${g.default_level}`;
      f[id + 'think'].hidden = true;
    }
    const [first, second] = g.first === 'black' ? ['black', 'white'] : ['white', 'black'];
    f.colour.replaceChildren(...[['first', t('new.firstMover', { side: sideLabel(g.name, first) })], ['second', sideLabel(g.name, second)], ['random', t('new.random')]]
      .map(([v, l]) => h('option', { value: v }, l)));
  };
  f.opponent = select({ name: 'opponent' }, [['computer', t('new.oppComputer')], ['local', t('new.oppLocal')], ['invite', t('new.oppInvite')], ['engines', t('new.oppEngines')]], 'computer');
  f.time = select({ name: 'time' }, [['none', t('new.noClock')], ['clock', t('new.clock')]], 'none');
  f.base = h('input', { type: 'number', min: 1, max: 180, value: 10, class: 'num', name: 'base' });
  f.inc = h('input', { type: 'number', min: 0, max: 600, value: 5, class: 'num', name: 'inc' });
  f.undo = h('input', { type: 'checkbox', name: 'undo', checked: true });
  f.name = h('input', { type: 'text', maxlength: 32, value: myName(), name: 'name', placeholder: t('new.namePlaceholder') });
  const err = h('p', { class: 'error', role: 'alert' });
  const compRow = h('label', {}, t('new.computer'), ' ', comp1);
  const comp2Row = h('label', {}, t('new.secondComputer'), ' ', comp2);
  const colourRow = h('label', {}, t('new.youPlay'), ' ', f.colour);
  const clockRow = h('span', {}, ' ', f.base, ` ${t('new.min')} + `, f.inc, ` ${t('new.sec')}`);
  const sync = () => {
    const o = f.opponent.value;
    compRow.hidden = !(o === 'computer' || o === 'engines');
    comp2Row.hidden = o !== 'engines';
    colourRow.hidden = !(o === 'computer' || o === 'invite');
    clockRow.hidden = f.time.value !== 'clock';
  };
  f.game.addEventListener('change', () => { fillGame(); sync(); });
  f.opponent.addEventListener('change', sync);
  f.time.addEventListener('change', sync);
  fillGame();
  sync();

  const create = (ev) => {
    ev.preventDefault();
    err.textContent = '';
    const g = gameMeta(meta, f.game.value);
    const o = f.opponent.value;
    const name = f.name.value.trim();
    if (name) setMyName(name);
    const me = { kind: 'human', name: name || undefined };
    let mySide = f.colour.value === 'random' ? (Math.random() < 0.5 ? 'first' : 'second') : f.colour.value;
    mySide = (mySide === 'first') === (g.first === 'black') ? 'black' : 'white';
    const comp = (id) => computerSeat(f[id].value, parseInt(f[id + 'ms'].value, 10));
    const seats = {};
    if (o === 'computer') { seats[mySide] = me; seats[mySide === 'black' ? 'white' : 'black'] = comp('player1'); }
    else if (o === 'local') { seats.black = { kind: 'human' }; seats.white = { kind: 'human' }; }
    else if (o === 'invite') { seats[mySide] = me; seats[mySide === 'black' ? 'white' : 'black'] = { kind: 'human', hold: false }; }
    else { seats[g.first] = comp('player1'); seats[g.first === 'black' ? 'white' : 'black'] = comp('player2'); }
    const req = { type: 'create', game: g.name, variant: f.variant.value, black: seats.black, white: seats.white, undo: f.undo.checked, local: o === 'local' };
    if (from) req.position = from.position;
    else if (f.size) req.size = parseInt(f.size.value, 10);
    if (f.time.value === 'clock') req.clock = { base_ms: parseInt(f.base.value, 10) * 60000, inc_ms: parseInt(f.inc.value, 10) * 1000 };
    const off = conn.listen((m) => {
      if (m.type === 'created') {
        off();
        const held = {};
        let invite = null;
        for (const side of ['black', 'white']) {
          if (!m.tokens[side]) continue;
          if (o === 'invite' && side !== mySide) invite = m.tokens[side]; else held[side] = m.tokens[side];
        }
        saveSeats(m.table, { held, invite, inviteSide: invite ? (mySide === 'black' ? 'white' : 'black') : undefined, creator: m.creator });
        location.hash = `#/t/${m.table}`;
      } else if (m.type === 'error' && !m.table) { off(); err.textContent = m.message; }
    });
    onLeave(off);
    conn.send(req);
  };
  view().replaceChildren(h('section', {},
    h('h2', {}, t('new.title')),
    h('form', { class: 'new-game', onsubmit: create },
      from ? h('p', { class: 'from-photo' }, t('new.fromPhoto'), ' ', h('code', { class: 'postext' }, from.position)) : null,
      h('label', {}, t('new.game'), ' ', f.game, ' ', variantBox, ' ', sizeBox),
      h('label', {}, t('new.opponent'), ' ', f.opponent),
      compRow, comp2Row, colourRow,
      h('label', {}, t('new.clockLabel'), ' ', f.time, clockRow),
      h('label', {}, f.undo, ' ', t('new.undo')),
      h('label', {}, t('new.yourName'), ' ', f.name),
      h('button', { class: 'primary', type: 'submit', id: 'create' }, t('new.start')), err)));
}
