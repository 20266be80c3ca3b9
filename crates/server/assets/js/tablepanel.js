// The panel beside a table's board: seats and clocks, whose turn or the result, the game's
// signals in words (check, pieces left, stones this turn), offers, buttons, invitation
// links, the computer's thinking and the moves.
import { h, fill } from './dom.js';
import { t, sideLabel, playerName } from './i18n.js';
import { countStones, parseGrid } from './position.js';
import { moveList, resultText, scoreText, lineText, other, seatName, downloadRecord } from './widgets.js';

export function fmtClock(ms) {
  const sec = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(sec / 60);
  return `${m}:${String(sec % 60).padStart(2, '0')}`;
}

function seatBox(s, x, mine) {
  const dot = s.game === 'xiangqi' && x.side === 'white' ? 'red' : x.side;
  const bits = [sideLabel(s.game, x.side)];
  if (x.kind === 'computer') bits.push(x.level ? t('seat.level') : playerName(x.player));
  if (x.open) bits.push(t('seat.waiting'));
  else if (x.invited) bits.push(t('seat.invited'));
  if (mine) bits.push(t('seat.you'));
  return h('div', { class: `seat ${x.side}${s.to_move === x.side && s.status === 'playing' ? ' to-move' : ''}`, 'data-side': x.side },
    h('span', { class: `dot ${dot}` }),
    h('span', { class: 'name' }, seatName(x)), h('span', { class: 'muted' }, bits.join(' · ')),
    s.clocks ? h('span', { class: 'clock', 'data-clock': x.side }, fmtClock(s.clocks[x.side])) : null);
}

// What the position says beyond whose turn it is.
function gameInfo(s, picker) {
  const out = [];
  if (s.check && s.status === 'playing') out.push(h('p', { class: 'check-signal', role: 'status' }, t('signal.check', { side: sideLabel(s.game, s.to_move) })));
  if (s.game === 'jiu') {
    const f = parseGrid(s.position).fields;
    const n = countStones(s.position);
    out.push(h('p', { class: 'jiu-count' }, t('jiu.count', { black: n.black, white: n.white })));
    out.push(h('p', { class: 'muted' }, f[2] === 'place' ? t('jiu.placement', { n: f[3] }) : t('jiu.battle', { n: f[4] })));
  }
  if (s.game === 'connect6' && s.hints && s.status === 'playing') {
    const left = picker && picker.sel.length ? s.hints.stones - picker.sel.length : s.hints.stones;
    out.push(h('p', { class: 'muted stones-left' }, t('c6.stones', { n: s.hints.stones, left })));
  }
  if (s.hints && s.hints.forbidden && s.hints.forbidden.length && s.to_move === 'black' && s.status === 'playing') {
    out.push(h('p', { class: 'muted forbidden-note' }, t('signal.forbiddenMarked', { n: s.hints.forbidden.length })));
  }
  return out;
}

function offersBox(s, ctl) {
  const out = [];
  for (const kind of ['draw', 'undo']) {
    const asker = s.offers[kind];
    if (!asker) continue;
    const text = t(`offer.${kind}`, { side: sideLabel(s.game, asker) });
    if (ctl.tokenFor(other(asker))) {
      out.push(h('div', { class: 'offer' }, text, ' ',
        h('button', { onclick: () => ctl.answer(`answer_${kind}`, true, asker) }, t('offer.accept')),
        h('button', { onclick: () => ctl.answer(`answer_${kind}`, false, asker) }, t('offer.decline'))));
    } else out.push(h('div', { class: 'offer' }, text));
  }
  return out;
}

function buttons(s, ctl) {
  const me = Object.keys(ctl.seats().held);
  const out = [];
  if (me.length && s.status === 'playing') {
    if (s.game === 'gomoku' && ctl.canMove() && s.hints && s.hints.pass) out.push(h('button', { onclick: () => ctl.act('move', { move: 'pass' }) }, t('btn.pass')));
    if (s.options.undo) out.push(h('button', { onclick: () => ctl.act('request_undo') }, t('btn.undo')));
    out.push(h('button', { onclick: () => ctl.act('offer_draw') }, t('btn.draw')));
    out.push(h('button', { class: 'danger', onclick: () => { if (confirm(t('btn.resignConfirm'))) ctl.act('resign'); } }, t('btn.resign')));
  }
  out.push(h('button', { class: 'flip', onclick: ctl.flip, title: t('btn.flipTitle') }, t('btn.flip')));
  if (s.status !== 'playing') {
    out.push(h('a', { class: 'button primary', href: `#/r/${ctl.v.id}/review`, id: 'review-game' }, t('btn.review')));
    out.push(h('button', { onclick: () => ctl.analyse(), id: 'analyse-game' }, t('btn.analyse')));
  }
  return h('div', { class: 'buttons' }, ...out);
}

// The link of an open or re-invited seat, for whoever made it; and, for a seat holder (or
// the table's creator), a way to make a new link for a human seat someone lost.
function invites(s, ctl) {
  const seats = ctl.seats();
  const out = [];
  const waiting = s.seats.find((x) => x.side === seats.inviteSide && (x.open || x.invited));
  if (seats.invite && waiting && s.status === 'playing') {
    out.push(h('div', { class: 'invite' }, t('invite.send', { side: sideLabel(s.game, waiting.side) }),
      h('input', { readonly: true, value: `${location.origin}/#/t/${ctl.v.id}/${seats.invite}`, class: 'invite-link', onclick: (e) => e.target.select() })));
  }
  if (s.status !== 'playing') return out;
  const may = s.seats.filter((x) => x.kind === 'human' && !seats.held[x.side] && (seats.held[other(x.side)] || seats.creator));
  if (may.length && !(seats.invite && waiting)) {
    out.push(h('details', { class: 'reinvite' }, h('summary', {}, t('invite.lost')),
      h('p', { class: 'muted' }, t('invite.lostHelp')),
      ...may.map((x) => h('button', { onclick: () => ctl.reinvite(x.side), 'data-reinvite': x.side }, t('invite.newLink', { side: sideLabel(s.game, x.side) })))));
  }
  return out;
}

function thinkingBox(s, th) {
  if (!th || s.status !== 'playing') return null;
  return h('div', { class: 'thinking' }, h('b', {}, t('think.computer')), ' ',
    `${t('think.depth', { n: th.depth ?? '–' })} · ${scoreText(s.game, th.score, th.side)} · `,
    h('span', { class: 'pv' }, lineText(s.game, th.pv, th.pv_chinese)));
}

export function renderPanel(side, ctl) {
  const { v } = ctl;
  const s = v.state;
  if (!s) return;
  const held = ctl.seats().held;
  const status = s.status === 'playing'
    ? h('p', { class: 'turn' }, ctl.canMove() ? t('turn.yours', { side: sideLabel(s.game, s.to_move) }) : t('toMove', { side: sideLabel(s.game, s.to_move) }))
    : h('p', { class: 'result-banner', role: 'status' }, resultText(s.game, s.result));
  const hint = v.picker && ctl.canMove() && v.picker.status();
  fill(side, ...s.seats.map((x) => seatBox(s, x, !!held[x.side])), status,
    v.notice ? h('p', { class: 'notice', role: 'status' }, v.notice) : null,
    ...gameInfo(s, v.picker),
    hint ? h('p', { class: 'hint' }, hint) : null,
    v.note ? h('p', { class: 'note', role: 'status' }, v.note) : null,
    ...offersBox(s, ctl), buttons(s, ctl), ...invites(s, ctl), thinkingBox(s, v.thinking),
    v.error ? h('p', { class: 'error', role: 'alert' }, v.error) : null,
    h('h3', {}, t('moves.title')), moveList(s.game, s.moves, s.status === 'playing' ? null : (k) => ctl.analyse(k)),
    h('p', { class: 'links' }, downloadRecord(v.id, s.game),
      s.status === 'finished' ? h('a', { href: `#/r/${v.id}`, class: 'sp' }, t('lobby.replay')) : null));
  const list = side.querySelector('.moves');
  if (list) list.scrollTop = list.scrollHeight;
}
