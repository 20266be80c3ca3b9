// A table: the board, the seats and clocks, the moves, and what a seat holder may do.
// A link with an invitation token joins through it: the server answers with the joiner's
// own seat token (kept in this browser) and the link is spent.
import { h, fill, view } from './dom.js';
import { t } from './i18n.js';
import { conn } from './conn.js';
import { seatsOf, saveSeats, myName } from './local.js';
import { onLeave, handOff } from './router.js';
import { drawBoard } from './board.js';
import { Picker } from './picker.js';
import { parseFen, winningLine, moveMarks } from './position.js';
import { play } from './sound.js';
import { renderPanel, fmtClock } from './tablepanel.js';
import { other } from './widgets.js';

export function tableView(id, inviteToken) {
  let seats = seatsOf(id);
  if (inviteToken && !Object.values(seats.held).includes(inviteToken)) {
    seats.pending = inviteToken;
    saveSeats(id, seats);
  }
  if (inviteToken) history.replaceState(null, '', `#/t/${id}`);
  const v = { id, state: null, picker: null, thinking: null, error: '', note: '', notice: '', receivedAt: 0, flip: null };
  const boardBox = h('div', { class: 'board-box' });
  const side = h('aside', { class: 'panel' });
  view().replaceChildren(h('section', { class: 'table' }, boardBox, side));

  const join = () => {
    seats = seatsOf(id);
    const tokens = Object.values(seats.held);
    if (seats.pending) tokens.push(seats.pending);
    if (!tokens.length) conn.send({ type: 'watch', table: id });
    for (const tok of tokens) conn.send({ type: 'join', table: id, token: tok, name: myName() || undefined });
  };
  const tokenFor = (s) => seats.held[s];
  const actingToken = () => tokenFor(v.state.to_move) || Object.values(seats.held)[0];
  const ctl = {
    v,
    seats: () => seats,
    tokenFor,
    act: (type, extra) => conn.send({ type, table: id, token: actingToken(), ...extra }),
    answer: (type, accept, asker) => conn.send({ type, table: id, token: tokenFor(other(asker)), accept }),
    // A new invitation link for `side`, made by the other seat's holder or the creator.
    reinvite: (sideToInvite) => {
      const tok = tokenFor(other(sideToInvite)) || seats.creator;
      conn.send({ type: 'invite', table: id, token: tok, side: sideToInvite });
    },
    flip: () => { v.flip = !flipped(); render(); },
    analyse: (k) => {
      const s = v.state;
      handOff({ for: 'analysis', game: s.game, variant: s.variant, position: s.start, moves: s.moves.map((m) => m.text), cursor: k === undefined ? s.moves.length : k });
      location.hash = '#/analysis';
    },
    canMove: () => canMove(),
    render: () => render(),
  };
  const canMove = () => {
    const s = v.state;
    return s && s.status === 'playing' && !!tokenFor(s.to_move) && s.seats.find((x) => x.side === s.to_move).kind === 'human';
  };
  // Black at the bottom for a person holding only black in Xiangqi, unless turned round.
  const flipped = () => {
    if (v.flip !== null) return v.flip;
    return v.state.game === 'xiangqi' && !!tokenFor('black') && !tokenFor('white');
  };
  const signals = () => {
    const s = v.state;
    const sig = {};
    if (s.check) sig.check = s.check;
    if (s.hints && s.hints.forbidden && s.to_move === 'black') sig.forbidden = s.hints.forbidden.map((f) => f.point);
    const last = s.moves.length ? s.moves[s.moves.length - 1].text : null;
    if (s.result && s.result.winner && / in a row$/.test(s.result.reason || '')) {
      sig.win = winningLine(s.position, last, s.result.winner, s.game === 'connect6' ? 6 : 5);
    }
    return sig;
  };
  const render = () => {
    const s = v.state;
    if (!s) return;
    const last = s.moves.length ? s.moves[s.moves.length - 1].text : null;
    drawBoard(boardBox, { game: s.game, position: s.position, last, flip: flipped(), signals: signals() }, canMove() ? v.picker : null);
    renderPanel(side, ctl);
  };
  const notFound = (message) => {
    fill(side, h('div', { class: 'not-found', role: 'alert' },
      h('h2', {}, t('table.notFound')), h('p', {}, t('table.notFoundHelp')), h('p', { class: 'muted' }, message),
      h('a', { class: 'button primary', href: '#/' }, t('table.backToLobby'))));
    boardBox.replaceChildren();
  };
  const soundFor = (before, m) => {
    if (m.result) return 'end';
    if (before.game === 'xiangqi') {
      const mk = moveMarks('xiangqi', m.move && m.move.text);
      return mk && parseFen(before.position).board[mk.to.r][mk.to.c] ? 'capture' : 'move';
    }
    if (before.game === 'jiu' && m.move) {
      const mk = moveMarks('jiu', m.move.text);
      return mk && (mk.jumped.length || mk.captures.length) ? 'capture' : 'move';
    }
    return 'move';
  };
  const off = conn.listen((m) => {
    if (m.table !== id) return;
    if (m.type === 'joined') {
      seats = seatsOf(id);
      seats.held[m.side] = m.token;
      if (seats.pending && seats.pending !== m.token) delete seats.pending;
      saveSeats(id, seats);
      render();
    } else if (m.type === 'invited') {
      seats = seatsOf(id);
      seats.invite = m.token;
      seats.inviteSide = m.side;
      saveSeats(id, seats);
      render();
    } else if (m.type === 'update') {
      // A change since the last state: the new move (if any) and the rest of the state.
      if (!v.state) return;
      const moves = v.state.moves.slice();
      if (m.plies === moves.length + 1 && m.move) moves.push(m.move);
      else if (m.plies !== moves.length) { conn.send({ type: 'watch', table: id }); return; }
      if (m.plies > v.state.moves.length || (m.result && !v.state.result)) play(soundFor(v.state, m));
      const { type, move, plies, ...rest } = m;
      onState({ ...v.state, ...rest, type: 'state', moves });
    } else if (m.type === 'state') {
      if (v.state && m.moves.length > v.state.moves.length) play(m.result ? 'end' : 'move');
      onState(m);
    } else if (m.type === 'thinking') {
      v.thinking = m;
      renderPanel(side, ctl);
    } else if (m.type === 'error') {
      if (m.code === 'unknown_table') return notFound(m.message);
      if ((m.code === 'invitation_used' || m.code === 'no_seat') && m.token) {
        // A spent link, or a seat given to a new invitation: this browser watches.
        seats = seatsOf(id);
        if (seats.pending === m.token) delete seats.pending;
        for (const sd of Object.keys(seats.held)) if (seats.held[sd] === m.token) delete seats.held[sd];
        saveSeats(id, seats);
        v.notice = m.code === 'invitation_used' ? t('table.inviteUsed') : t('table.seatRevoked');
        return render();
      }
      v.error = m.message;
      if (v.picker) v.picker.reset(); else if (v.state) renderPanel(side, ctl);
    }
  });
  function onState(m) {
    const s = v.state;
    const changed = !s || s.position !== m.position || s.moves.length !== m.moves.length || s.status !== m.status;
    v.state = m;
    v.receivedAt = performance.now();
    if (changed) { v.thinking = null; v.error = ''; v.note = ''; }
    if (m.status !== 'playing') v.picker = null;
    else if (changed || !v.picker) {
      v.picker = new Picker({ game: m.game, position: m.position, hints: m.hints || {}, toMove: m.to_move },
        (text) => ctl.act('move', { move: text }), render, (note) => { v.note = note; renderPanel(side, ctl); });
    }
    render();
  }
  const tick = setInterval(() => {
    const s = v.state;
    if (!s || !s.clocks || !s.clocks.running) return;
    const el = side.querySelector(`[data-clock="${s.clocks.running}"]`);
    if (el) el.textContent = fmtClock(s.clocks[s.clocks.running] - (performance.now() - v.receivedAt));
  }, 250);
  conn.onOpen.add(join);
  onLeave(() => { off(); clearInterval(tick); conn.onOpen.delete(join); conn.send({ type: 'unwatch', table: id }); });
  join();
}
