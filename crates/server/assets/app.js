// Boyi web page: lobby, new game, tables, replays and the analysis board, over one
// WebSocket speaking docs/protocol.md. Every text from the server is shown with
// textContent (see `h`), so names and messages can never become markup.
'use strict';

const { drawBoard, Picker } = window.Boards;

// ---- DOM helper ----
function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) {
    const v = attrs[k];
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'class') e.className = v;
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
  return e;
}

// Replaces the children of `el`, leaving out empty (null/false) ones.
function fill(el, ...kids) { el.replaceChildren(...kids.flat().filter((k) => k !== null && k !== undefined && k !== false)); }

const view = () => document.getElementById('view');
let meta = null;
// Protocol version 2: after a move the server sends an `update` (no move list).
const PROTOCOL = 2;
// A position read from a photo, waiting to be opened on the analysis board or played from.
let preset = null;

// ---- seats this browser holds, per table ----
function seatsOf(table) {
  try { return JSON.parse(localStorage.getItem('boyi.t.' + table)) || { held: {} }; } catch (_) { return { held: {} }; }
}
function saveSeats(table, s) { localStorage.setItem('boyi.t.' + table, JSON.stringify(s)); }
function myName() { return localStorage.getItem('boyi.name') || ''; }

// ---- the WebSocket, reconnecting ----
const conn = {
  ws: null, queue: [], handlers: new Set(), onOpen: new Set(), delay: 500,
  open() {
    const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws');
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      setBanner('');
      for (const m of this.queue.splice(0)) ws.send(m);
      for (const f of this.onOpen) f();
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (_) { return; }
      for (const f of [...this.handlers]) f(msg);
    };
    ws.onclose = () => {
      setBanner('Connection lost — reconnecting…');
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    };
  },
  send(msg) {
    const text = JSON.stringify({ v: PROTOCOL, ...msg });
    if (this.ws && this.ws.readyState === 1) this.ws.send(text); else this.queue.push(text);
  },
  listen(f) { this.handlers.add(f); return () => this.handlers.delete(f); },
};

function setBanner(text) {
  const b = document.getElementById('conn');
  b.textContent = text;
  b.hidden = !text;
}

// Views register cleanup here; the router runs it on navigation.
let cleanup = [];
function onLeave(f) { cleanup.push(f); }

function route() {
  for (const f of cleanup.splice(0)) f();
  const hash = location.hash.replace(/^#\/?/, '');
  const parts = hash.split('/');
  if (parts[0] === 'new') return newGameView();
  if (parts[0] === 't' && parts[1]) return tableView(parts[1], parts[2]);
  if (parts[0] === 'r' && parts[1]) return replayView(parts[1]);
  if (parts[0] === 'analysis') return analysisView();
  if (parts[0] === 'photo') return photoView();
  return lobbyView();
}

// ---- lobby ----
function lobbyView() {
  const live = h('div', { class: 'list' }, 'Loading…');
  const done = h('div', { class: 'list' });
  view().replaceChildren(h('section', { class: 'lobby' },
    h('div', { class: 'lobby-head' }, h('h2', {}, 'Tables'), h('a', { class: 'button primary', href: '#/new' }, 'New game')),
    live, h('h2', {}, 'Finished games'), done));
  const load = async () => {
    let data;
    try { data = await (await fetch('/api/lobby')).json(); } catch (_) { return; }
    live.replaceChildren(...(data.live.length ? data.live.map(lobbyRow) : [h('p', { class: 'muted' }, 'No table is being played. Start one!')]));
    done.replaceChildren(...data.finished.map((g) => h('div', { class: 'row' },
      h('span', { class: 'game-tag' }, g.game), h('span', {}, seatNames(g.seats)),
      h('span', { class: 'muted' }, `${g.moves} moves · ${g.winner === 'draw' ? 'draw' : (g.winner || '') + ' wins'} (${g.reason || ''})`),
      h('a', { href: `#/r/${g.id}` }, 'Replay'), downloadRecord(g.id, g.game, 'Download'))));
  };
  load();
  const timer = setInterval(load, 3000);
  onLeave(() => clearInterval(timer));
}

function seatNames(seats) {
  return (seats || []).map((s) => s.name + (s.open ? ' (open)' : '')).join(' vs ');
}

function lobbyRow(t) {
  const open = t.seats.find((s) => s.open);
  const sit = open && h('button', { class: 'primary', onclick: () => {
    const off = conn.listen((m) => {
      if (m.type === 'seated' && m.table === t.table) {
        off();
        const s = seatsOf(t.table); s.held[m.side] = m.token; saveSeats(t.table, s);
        location.hash = `#/t/${t.table}`;
      } else if (m.type === 'error' && m.table === t.table) { off(); alert(m.message); }
    });
    conn.send({ type: 'sit', table: t.table, side: open.side, name: myName() || undefined });
  } }, `Play as ${open.label}`);
  return h('div', { class: 'row' }, h('span', { class: 'game-tag' }, t.game), h('span', {}, seatNames(t.seats)),
    h('span', { class: 'muted' }, `${t.variant} · ${t.moves} moves · ${t.to_move} to move`),
    sit, h('a', { href: `#/t/${t.table}` }, 'Watch'));
}

// ---- new game ----
function gameMeta(name) { return meta.games.find((g) => g.name === name); }

function newGameView() {
  const f = {};
  const sel = (name, options, value) => {
    f[name] = h('select', { name }, ...options.map(([v, label]) => h('option', { value: v, selected: v === value }, label)));
    return f[name];
  };
  const game = sel('game', meta.games.map((g) => [g.name, g.name]), 'gomoku');
  const variant = h('span');
  const size = h('span');
  const players = (id) => h('span', {}, sel(id, [], ''), ' think ', f[id + 'ms'] = h('input', { type: 'number', min: 10, max: 60000, value: 1000, step: 10, class: 'num' }), ' ms');
  const comp1 = players('player1');
  const comp2 = players('player2');
  const fillGame = () => {
    const g = gameMeta(f.game.value);
    variant.replaceChildren(sel('variant', g.variants.map((v) => [v, v]), g.variants[0]));
    f.size = null;
    size.replaceChildren(g.sizes.length ? sel('size', g.sizes.map((s) => [String(s), `${s}×${s}`]), String(g.sizes[0])) : h('span', { class: 'muted' }, 'fixed board'));
    for (const id of ['player1', 'player2']) {
      const opts = g.players.map((p) => [p.name, p.name]).concat([2, 3, 4].map((d) => [`boyi:alphabeta?depth=${d}`, `boyi:alphabeta?depth=${d}`]));
      f[id].replaceChildren(...opts.map(([v, l]) => h('option', { value: v, selected: v === 'boyi:alphabeta?depth=3' }, l)));
    }
    f.colour.replaceChildren(...[['first', `${g.sides[g.first === 'black' ? 0 : 1]} (moves first)`], ['second', g.sides[g.first === 'black' ? 1 : 0]], ['random', 'random']].map(([v, l]) => h('option', { value: v }, l)));
  };
  f.colour = h('select', { name: 'colour' });
  const opp = sel('opponent', [['computer', 'the computer'], ['local', 'a person on this screen'], ['invite', 'a person elsewhere (invitation link)'], ['engines', 'computer vs computer (watch)']], 'computer');
  const timeMode = sel('time', [['none', 'no clock'], ['clock', 'base + increment']], 'none');
  f.base = h('input', { type: 'number', min: 1, max: 180, value: 10, class: 'num', name: 'base' });
  f.inc = h('input', { type: 'number', min: 0, max: 600, value: 5, class: 'num', name: 'inc' });
  f.undo = h('input', { type: 'checkbox', name: 'undo', checked: true });
  f.name = h('input', { type: 'text', maxlength: 32, value: myName(), name: 'name', placeholder: 'your name' });
  const err = h('p', { class: 'error', role: 'alert' });
  const compRow = h('label', {}, 'Computer: ', comp1);
  const comp2Row = h('label', {}, 'Second computer: ', comp2);
  const colourRow = h('label', {}, 'You play: ', f.colour);
  const clockRow = h('span', {}, ' ', f.base, ' min + ', f.inc, ' s');
  const sync = () => {
    const o = f.opponent.value;
    compRow.hidden = !(o === 'computer' || o === 'engines');
    comp2Row.hidden = o !== 'engines';
    colourRow.hidden = !(o === 'computer' || o === 'invite');
    clockRow.hidden = f.time.value !== 'clock';
  };
  game.addEventListener('change', () => { fillGame(); sync(); });
  opp.addEventListener('change', sync);
  timeMode.addEventListener('change', sync);
  const from = preset && preset.for === 'new' ? preset : null;
  preset = null;
  const fromRow = from ? h('p', { class: 'muted from-photo' }, 'Starting position read from the photo: ', h('code', { class: 'postext' }, from.position)) : null;
  if (from) { f.game.value = from.game; }
  const submit = (ev) => {
    ev.preventDefault();
    err.textContent = '';
    const g = gameMeta(f.game.value);
    localStorage.setItem('boyi.name', f.name.value.trim());
    const o = f.opponent.value;
    let mine = f.colour.value;
    if (mine === 'random') mine = Math.random() < 0.5 ? 'first' : 'second';
    const firstSide = g.first, secondSide = g.first === 'black' ? 'white' : 'black';
    const mySide = mine === 'first' ? firstSide : secondSide;
    const computer = (id) => ({ kind: 'computer', player: f[id].value, think_ms: parseInt(f[id + 'ms'].value, 10) });
    const me = { kind: 'human', name: f.name.value.trim() || undefined };
    const seats = {};
    if (o === 'local') { seats.black = { kind: 'human' }; seats.white = { kind: 'human' }; }
    if (o === 'engines') { seats[firstSide] = computer('player1'); seats[secondSide] = computer('player2'); }
    if (o === 'computer' || o === 'invite') {
      seats[mySide] = me;
      seats[mySide === 'black' ? 'white' : 'black'] = o === 'computer' ? computer('player1') : { kind: 'human', hold: false };
    }
    const req = { type: 'create', game: g.name, variant: f.variant.value, black: seats.black, white: seats.white, undo: f.undo.checked, local: o === 'local' };
    if (from && from.game === g.name) req.position = from.position;
    else if (f.size) req.size = parseInt(f.size.value, 10);
    if (f.time.value === 'clock') req.clock = { base_ms: Math.round(parseFloat(f.base.value) * 60000), inc_ms: Math.round(parseFloat(f.inc.value) * 1000) };
    const off = conn.listen((m) => {
      if (m.type === 'created') {
        off();
        const s = { held: {} };
        for (const side in m.tokens) {
          if (o === 'invite' && side !== mySide) s.invite = m.tokens[side]; else s.held[side] = m.tokens[side];
        }
        saveSeats(m.table, s);
        location.hash = `#/t/${m.table}`;
      } else if (m.type === 'error' && !m.table) { off(); err.textContent = m.message; }
    });
    conn.send(req);
  };
  const form = h('form', { class: 'new-game', onsubmit: submit },
    h('h2', {}, 'New game'),
    fromRow, h('label', {}, 'Game: ', game), h('label', {}, 'Rules: ', variant), h('label', {}, 'Board: ', size),
    h('label', {}, 'Opponent: ', opp), colourRow, compRow, comp2Row,
    h('label', {}, 'Time: ', timeMode, clockRow),
    h('label', {}, f.undo, ' allow taking moves back'),
    h('label', {}, 'Name: ', f.name),
    err, h('button', { type: 'submit', class: 'primary', id: 'create' }, 'Start'));
  view().replaceChildren(form);
  fillGame();
  sync();
}

// ---- a table ----
function fmtClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}

function resultText(state, r) {
  if (!r) return '';
  if (!r.winner) return `Draw — ${r.reason}`;
  const seat = state.seats.find((s) => s.side === r.winner);
  return `${seat.label[0].toUpperCase()}${seat.label.slice(1)} (${seat.name}) wins — ${r.reason}`;
}

// A stored game's record to download, in the format picked beside the link (the formats
// players' other tools read: PGN with ICCS, WXF or Chinese moves, XQF, SGF, .psq, ...).
function downloadRecord(id, game, label) {
  const known = meta && meta.games.find((x) => x.name === game);
  const formats = (known && known.formats) || [{ name: 'boyi', label: 'Boyi (.boyi)' }];
  const url = (f) => `/api/games/${encodeURIComponent(id)}/record?format=${f}`;
  const link = h('a', { href: url(formats[0].name) }, label || 'Download record');
  const pick = h('select', { class: 'record-format', 'aria-label': 'Record format', onchange: (e) => { link.href = url(e.target.value); } },
    formats.map((f) => h('option', { value: f.name }, f.label)));
  return h('span', { class: 'download' }, link, ' ', pick);
}

function moveList(game, moves, onPick, current) {
  const list = h('ol', { class: 'moves' });
  moves.forEach((m, i) => {
    const label = game === 'xiangqi' ? [h('span', { class: 'zh' }, m.chinese || ''), ' ', h('span', { class: 'wxf' }, m.wxf || ''), ' ', h('span', { class: 'muted' }, m.text)] : [m.text];
    list.appendChild(h('li', { class: i + 1 === current ? 'current' : '', onclick: onPick ? () => onPick(i + 1) : undefined }, ...label));
  });
  return list;
}

function tableView(id, inviteToken) {
  let seats = seatsOf(id);
  if (inviteToken && !Object.values(seats.held).includes(inviteToken)) seats.pending = inviteToken;
  saveSeats(id, seats);
  if (inviteToken) { history.replaceState(null, '', `#/t/${id}`); }
  let state = null, picker = null, thinking = null, errorText = '', receivedAt = 0;
  const boardBox = h('div', { class: 'board-box' });
  const side = h('aside', { class: 'panel' });
  view().replaceChildren(h('section', { class: 'table' }, boardBox, side));
  const join = () => {
    seats = seatsOf(id);
    const tokens = Object.values(seats.held);
    if (seats.pending) tokens.push(seats.pending);
    if (!tokens.length) conn.send({ type: 'watch', table: id });
    for (const t of tokens) conn.send({ type: 'join', table: id, token: t, name: myName() || undefined });
  };
  const tokenFor = (s) => seats.held[s];
  const actingToken = () => tokenFor(state.to_move) || Object.values(seats.held)[0];
  const act = (type, extra) => conn.send({ type, table: id, token: actingToken(), ...extra });
  const answer = (type, accept, asker) => {
    const other = asker === 'black' ? 'white' : 'black';
    conn.send({ type, table: id, token: tokenFor(other), accept });
  };
  const canMove = () => state && state.status === 'playing' && !!tokenFor(state.to_move) && state.seats.find((s) => s.side === state.to_move).kind === 'human';
  const render = () => {
    if (!state) return;
    const last = state.moves.length ? state.moves[state.moves.length - 1].text : null;
    const flip = state.game === 'xiangqi' && tokenFor('black') && !tokenFor('white');
    drawBoard(boardBox, { game: state.game, position: state.position, last, flip }, canMove() ? picker : null);
    renderPanel();
  };
  const renderPanel = () => {
    const me = Object.keys(seats.held);
    const seatBox = state.seats.map((s) => h('div', { class: `seat ${s.side}${state.to_move === s.side && state.status === 'playing' ? ' to-move' : ''}`, 'data-side': s.side },
      h('span', { class: `dot ${state.game === 'xiangqi' && s.side === 'white' ? 'red' : s.side}` }),
      h('span', { class: 'name' }, s.name), h('span', { class: 'muted' }, ` ${s.label}${s.kind === 'computer' ? ' · ' + s.player : ''}${s.open ? ' · waiting for a player' : ''}${me.includes(s.side) ? ' · you' : ''}`),
      state.clocks ? h('span', { class: 'clock', 'data-clock': s.side }, fmtClock(state.clocks[s.side])) : null));
    const st = state.status === 'playing'
      ? h('p', { class: 'turn' }, canMove() ? `Your move (${state.seats.find((s) => s.side === state.to_move).label})` : `${state.seats.find((s) => s.side === state.to_move).label} to move`)
      : h('p', { class: 'result-banner', role: 'status' }, resultText(state, state.result));
    const info = [];
    if (state.game === 'jiu') {
      const f = window.Boards.parseGrid(state.position).fields;
      info.push(h('p', { class: 'muted' }, f[2] === 'place' ? `Placement: ${f[3]} / 196 points filled` : `Battle · ${f[4]} moves without capture`));
    }
    if (state.game === 'connect6' && state.hints) {
      info.push(h('p', { class: 'muted stones-left' }, `Stones this turn: ${state.hints.stones}${picker && picker.sel.length ? ` (${state.hints.stones - picker.sel.length} left)` : ''}`));
    }
    if (picker && picker.status()) info.push(h('p', { class: 'hint' }, picker.status()));
    const buttons = [];
    const mine = me.length > 0 && state.status === 'playing';
    if (mine) {
      if (state.game === 'gomoku' && canMove() && state.hints && state.hints.pass) buttons.push(h('button', { onclick: () => act('move', { move: 'pass' }) }, 'Pass'));
      if (state.options.undo) buttons.push(h('button', { onclick: () => act('request_undo') }, 'Undo'));
      buttons.push(h('button', { onclick: () => act('offer_draw') }, 'Offer draw'));
      buttons.push(h('button', { class: 'danger', onclick: () => { if (confirm('Resign this game?')) act('resign'); } }, 'Resign'));
    }
    const offers = [];
    for (const [kind, label] of [['draw', 'offers a draw'], ['undo', 'asks to take back a move']]) {
      const asker = state.offers[kind];
      if (!asker) continue;
      const other = asker === 'black' ? 'white' : 'black';
      const askerLabel = state.seats.find((s) => s.side === asker).label;
      if (tokenFor(other)) {
        offers.push(h('div', { class: 'offer' }, `${askerLabel} ${label}. `,
          h('button', { onclick: () => answer(`answer_${kind}`, true, asker) }, 'Accept'),
          h('button', { onclick: () => answer(`answer_${kind}`, false, asker) }, 'Decline')));
      } else offers.push(h('div', { class: 'offer' }, `${askerLabel} ${label}…`));
    }
    const invite = seats.invite && state.seats.some((s) => s.open)
      ? h('div', { class: 'invite' }, 'Invite a friend with this link: ', h('input', { readonly: true, value: `${location.origin}/#/t/${id}/${seats.invite}`, class: 'invite-link', onclick: (e) => e.target.select() }))
      : null;
    const think = thinking && state.status === 'playing'
      ? h('div', { class: 'thinking' }, h('b', {}, 'Computer thinking: '), `depth ${thinking.depth ?? '-'} · score ${thinking.score ?? '-'} · `, h('span', { class: 'pv' }, (thinking.pv || []).join(' ')))
      : null;
    fill(side, ...seatBox, st, ...info, ...offers, h('div', { class: 'buttons' }, ...buttons), invite, think,
      errorText ? h('p', { class: 'error', role: 'alert' }, errorText) : null,
      h('h3', {}, 'Moves'), moveList(state.game, state.moves),
      h('p', {}, downloadRecord(id, state.game), state.status === 'finished' ? h('a', { href: `#/r/${id}`, class: 'sp' }, 'Replay') : null));
    const list = side.querySelector('.moves');
    if (list) list.scrollTop = list.scrollHeight;
  };
  const off = conn.listen((m) => {
    if (m.table !== id) return;
    if (m.type === 'joined') {
      seats = seatsOf(id);
      const tok = seats.pending;
      if (tok) { seats.held[m.side] = tok; delete seats.pending; saveSeats(id, seats); }
    } else if (m.type === 'update') {
      // A version 2 change: the new move (if any) and the rest of the state.
      if (!state) return;
      const moves = state.moves.slice();
      if (m.plies === moves.length + 1 && m.move) moves.push(m.move);
      else if (m.plies !== moves.length) { conn.send({ type: 'watch', table: id }); return; }
      const { type, move, plies, ...rest } = m;
      onState({ ...state, ...rest, type: 'state', moves });
    } else if (m.type === 'state') {
      onState(m);
    } else if (m.type === 'thinking') { thinking = m; renderPanel(); }
    else if (m.type === 'error') {
      errorText = m.message;
      if (seats.pending && /no seat/.test(m.message)) { delete seats.pending; saveSeats(id, seats); }
      if (picker) picker.reset(); else renderPanel();
    }
  });
  function onState(m) {
    {
      const changed = !state || state.position !== m.position || state.moves.length !== m.moves.length;
      state = m; receivedAt = performance.now();
      if (changed) { thinking = null; errorText = ''; }
      if (changed || !picker) picker = new Picker({ game: m.game, position: m.position, hints: m.hints || {}, toMove: m.to_move }, (text) => act('move', { move: text }), render);
      render();
    }
  }
  const tick = setInterval(() => {
    if (!state || !state.clocks || !state.clocks.running) return;
    const el = side.querySelector(`[data-clock="${state.clocks.running}"]`);
    if (el) el.textContent = fmtClock(state.clocks[state.clocks.running] - (performance.now() - receivedAt));
  }, 250);
  conn.onOpen.add(join);
  onLeave(() => { off(); clearInterval(tick); conn.onOpen.delete(join); conn.send({ type: 'unwatch', table: id }); });
  join();
}

// ---- replay of a stored game ----
async function replayView(id) {
  const box = h('div', { class: 'board-box' });
  const panel = h('aside', { class: 'panel' });
  view().replaceChildren(h('section', { class: 'table' }, box, panel));
  const res = await fetch(`/api/games/${id}`);
  const g = await res.json();
  if (!res.ok) { fill(panel, h('p', { class: 'error' }, g.error)); return; }
  let i = g.positions.length - 1;
  const show = () => {
    drawBoard(box, { game: g.game, position: g.positions[i], last: i ? g.moves[i - 1].text : null }, null);
    fill(panel, h('h3', {}, `${g.game} · ${seatNames(g.seats)}`),
      h('p', { class: 'result-banner' }, g.result ? (g.result.winner ? `${g.result.winner} wins — ${g.result.reason}` : `Draw — ${g.result.reason}`) : 'unfinished'),
      h('div', { class: 'buttons' }, h('button', { onclick: () => { i = 0; show(); } }, '⏮'), h('button', { onclick: () => { i = Math.max(0, i - 1); show(); } }, '◀'),
        h('span', { class: 'muted' }, ` ${i} / ${g.moves.length} `),
        h('button', { onclick: () => { i = Math.min(g.moves.length, i + 1); show(); } }, '▶'), h('button', { onclick: () => { i = g.moves.length; show(); } }, '⏭')),
      moveList(g.game, g.moves, (k) => { i = k; show(); }, i),
      h('p', {}, downloadRecord(id, g.game)));
  };
  show();
}

// ---- analysis board ----
function analysisView() {
  const a = { game: 'gomoku', variant: null, size: null, position: null, line: [], branches: [], insp: null, seq: 0, info: null, best: null };
  const box = h('div', { class: 'board-box' });
  const panel = h('aside', { class: 'panel' });
  view().replaceChildren(h('section', { class: 'table' }, box, panel));
  const gameSel = h('select', {}, ...meta.games.map((g) => h('option', { value: g.name }, g.name)));
  const variantSel = h('select');
  const posInput = h('input', { type: 'text', placeholder: 'position text (empty: start position)', class: 'wide' });
  const player = h('select');
  const think = h('input', { type: 'number', value: 2000, min: 100, max: 60000, step: 100, class: 'num' });
  const err = h('p', { class: 'error', role: 'alert' });
  const fillGame = () => {
    const g = gameMeta(gameSel.value);
    variantSel.replaceChildren(...g.variants.map((v) => h('option', { value: v }, v)));
    const opts = g.players.map((p) => p.name).concat([2, 3, 4].map((d) => `boyi:alphabeta?depth=${d}`));
    player.replaceChildren(...opts.map((p) => h('option', { value: p, selected: p === 'boyi:alphabeta?depth=3' }, p)));
  };
  gameSel.addEventListener('change', fillGame);
  if (preset && preset.for === 'analysis') {
    gameSel.value = preset.game;
    posInput.value = preset.position;
    preset = null;
  }
  fillGame();
  const inspect = (line) => {
    a.seq += 1;
    conn.send({ type: 'inspect', id: a.seq, game: a.game, variant: a.variant, position: a.position || undefined, moves: line });
    a.pendingLine = line;
  };
  const setup = () => {
    a.game = gameSel.value; a.variant = variantSel.value; a.position = posInput.value.trim() || null;
    a.line = []; a.branches = []; a.info = null; a.best = null;
    inspect([]);
  };
  const play = (text) => {
    const rest = a.line.slice(a.cursor);
    if (rest.length && rest[0] !== text) a.branches.push(a.line.slice());
    inspect(a.line.slice(0, a.cursor).concat([text]));
  };
  const render = () => {
    const i = a.insp;
    if (!i) return;
    const last = i.moves.length ? i.moves[i.moves.length - 1].text : null;
    const picker = i.hints ? new Picker({ game: i.game, position: i.position, hints: i.hints, toMove: i.to_move }, play, render) : null;
    drawBoard(box, { game: i.game, position: i.position, last }, picker);
    fill(panel, 
      h('h2', {}, 'Analysis board'),
      h('div', { class: 'form-row' }, gameSel, variantSel), posInput,
      h('div', { class: 'buttons' }, h('button', { onclick: setup }, 'Set up'),
        h('button', { onclick: () => { if (a.cursor > 0) inspect(a.line.slice(0, a.cursor - 1)); } }, 'Take back')),
      h('p', { class: 'muted' }, `Position: `, h('code', { class: 'postext' }, i.position)),
      i.result ? h('p', { class: 'result-banner' }, i.result.winner ? `${i.result.winner} wins — ${i.result.reason}` : `Draw — ${i.result.reason}`) : h('p', {}, `${i.to_move} to move`),
      h('div', { class: 'form-row' }, player, think, ' ms ', h('button', { class: 'primary', onclick: () => {
        a.info = null; a.best = null;
        conn.send({ type: 'analyze', id: a.seq, game: a.game, variant: a.variant, position: a.position || undefined, moves: a.line.slice(0, a.cursor), player: player.value, think_ms: parseInt(think.value, 10) });
        render();
      } }, 'Analyse')),
      a.info ? h('div', { class: 'thinking' }, `depth ${a.info.depth ?? '-'} · score ${a.info.score ?? '-'} · `, h('span', { class: 'pv' }, (a.info.pv || []).join(' '))) : null,
      a.best ? h('p', {}, 'Best move: ', h('b', {}, a.best), ' ', h('button', { onclick: () => play(a.best) }, 'Play it')) : null,
      picker && picker.status() ? h('p', { class: 'hint' }, picker.status()) : null,
      err,
      h('h3', {}, 'Line'), moveList(i.game, i.moves, (k) => inspect(a.line.slice(0, k)), a.cursor),
      a.branches.length ? h('h3', {}, 'Other lines') : null,
      ...a.branches.map((b, k) => h('p', {}, h('a', { href: '#/analysis', onclick: (e) => { e.preventDefault(); const cur = a.line.slice(); a.branches.splice(k, 1, cur); a.line = b; inspect(b.slice()); } }, b.join(', ') || '(start)'))));
  };
  const off = conn.listen((m) => {
    if (m.type === 'inspection' && m.id === a.seq) {
      const line = a.pendingLine;
      const keep = a.line.length > line.length && line.every((t, k) => a.line[k] === t);
      if (!keep) a.line = line;
      a.cursor = line.length;
      a.insp = m;
      render();
    } else if (m.type === 'analysis') { a.info = m; render(); }
    else if (m.type === 'analysis_done') { a.best = m.bestmove || null; if (m.error) err.textContent = m.error; render(); }
    else if (m.type === 'error' && m.id !== undefined && !m.table) { err.textContent = m.message; }
  });
  onLeave(() => { off(); conn.send({ type: 'stop_analysis' }); });
  setup();
}

// ---- a photo of a real board ----
function photoView() {
  const games = meta.games.filter((g) => g.name !== 'xiangqi');
  const gameSel = h('select', { name: 'photo-game' }, ...games.map((g) => h('option', { value: g.name }, g.name)));
  const sizeSel = h('select', { name: 'photo-size' }, h('option', { value: '' }, 'find in the photo'), ...[9, 13, 15, 19].map((n) => h('option', { value: n }, `${n}×${n}`)));
  const file = h('input', { type: 'file', accept: 'image/jpeg,image/png', name: 'photo', id: 'photo-file' });
  const out = h('div', { class: 'photo-result' });
  const box = h('div', { class: 'board-box' });
  const err = h('p', { class: 'error', role: 'alert' });
  const read = async (ev) => {
    ev.preventDefault();
    err.textContent = '';
    out.replaceChildren();
    box.replaceChildren();
    const f = file.files[0];
    if (!f) { err.textContent = 'Choose a photo first.'; return; }
    if (f.size > 8 * 1024 * 1024) { err.textContent = 'The photo is larger than 8 MiB.'; return; }
    const q = new URLSearchParams({ game: gameSel.value });
    if (sizeSel.value) q.set('size', sizeSel.value);
    out.replaceChildren(h('p', { class: 'muted' }, 'Reading the photo…'));
    let res, body;
    try {
      res = await fetch(`/api/photo?${q}`, { method: 'POST', body: f, headers: { 'Content-Type': f.type || 'application/octet-stream' } });
      body = await res.json();
    } catch (e) { out.replaceChildren(); err.textContent = `Upload failed: ${e}`; return; }
    out.replaceChildren();
    if (!res.ok) { err.textContent = body.error || `error ${res.status}`; return; }
    drawBoard(box, { game: body.game, position: body.position, last: null }, null);
    const doubt = body.doubtful.length ? h('p', { class: 'muted' }, 'Least certain: ', body.doubtful.map((d) => `${d.point} (${d.confidence})`).join(', ')) : null;
    const open = (target) => { preset = { for: target, game: body.game, position: body.position }; location.hash = target === 'analysis' ? '#/analysis' : '#/new'; };
    fill(out,
      h('p', { class: 'read-ok' }, `Read a ${body.size}×${body.size} ${body.game} board: ${body.stones.black} black, ${body.stones.white} white.`),
      h('p', {}, 'Position: ', h('code', { class: 'postext', id: 'photo-position' }, body.position)), doubt,
      h('div', { class: 'buttons' },
        h('button', { class: 'primary', id: 'photo-analyse', onclick: () => open('analysis') }, 'Open on the analysis board'),
        h('button', { id: 'photo-play', onclick: () => open('new') }, 'Start a game from it')));
  };
  view().replaceChildren(h('section', { class: 'table' }, box, h('aside', { class: 'panel' },
    h('h2', {}, 'Read a photo of a board'),
    h('p', { class: 'muted' }, 'A photo of a real Gomoku, Connect6 or Jiu board (JPEG or PNG, at most 8 MiB), taken from above or at a slant.'),
    h('form', { onsubmit: read, class: 'photo-form' },
      h('label', {}, 'Game: ', gameSel), h('label', {}, 'Lines: ', sizeSel), h('label', {}, file),
      h('button', { type: 'submit', class: 'primary', id: 'photo-read' }, 'Read the position')),
    err, out)));
}

// ---- start ----
async function main() {
  meta = await (await fetch('/api/meta')).json();
  conn.open();
  window.addEventListener('hashchange', route);
  route();
}
main();
