// A photo of a real board: uploaded, read by the server's vision reader, shown, and opened
// on the analysis board or played from.
import { h, fill, view } from './dom.js';
import { t, gameName } from './i18n.js';
import { handOff } from './router.js';
import { drawBoard } from './board.js';
import { select } from './widgets.js';

export function photoView(meta) {
  const games = meta.games.filter((g) => g.name !== 'xiangqi');
  const gameSel = select({ name: 'photo-game' }, games.map((g) => [g.name, gameName(g.name)]), 'gomoku');
  const sizeSel = select({ name: 'photo-size' }, [['', t('photo.findSize')], ...[9, 13, 15, 19].map((n) => [String(n), `${n}×${n}`])], '');
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
    if (!f) { err.textContent = t('photo.choose'); return; }
    if (f.size > 8 * 1024 * 1024) { err.textContent = t('photo.tooLarge'); return; }
    const q = new URLSearchParams({ game: gameSel.value });
    if (sizeSel.value) q.set('size', sizeSel.value);
    out.replaceChildren(h('p', { class: 'muted' }, t('photo.reading')));
    let res, body;
    try {
      res = await fetch(`/api/photo?${q}`, { method: 'POST', body: f, headers: { 'Content-Type': f.type || 'application/octet-stream' } });
      body = await res.json();
    } catch (e) { out.replaceChildren(); err.textContent = t('photo.failed', { e: String(e) }); return; }
    out.replaceChildren();
    if (!res.ok) { err.textContent = body.error || `error ${res.status}`; return; }
    drawBoard(box, { game: body.game, position: body.position, last: null }, null);
    const doubt = body.doubtful.length ? h('p', { class: 'muted' }, t('photo.doubtful'), ' ', body.doubtful.map((d) => `${d.point} (${d.confidence})`).join(', ')) : null;
    const open = (target) => { handOff({ for: target, game: body.game, position: body.position }); location.hash = target === 'analysis' ? '#/analysis' : '#/new'; };
    fill(out,
      h('p', { class: 'read-ok' }, t('photo.read', { size: body.size, game: gameName(body.game), black: body.stones.black, white: body.stones.white })),
      h('p', {}, t('an.position'), ' ', h('code', { class: 'postext', id: 'photo-position' }, body.position)), doubt,
      h('div', { class: 'buttons' },
        h('button', { class: 'primary', id: 'photo-analyse', onclick: () => open('analysis') }, t('photo.analyse')),
        h('button', { id: 'photo-play', onclick: () => open('new') }, t('photo.play'))));
  };
  view().replaceChildren(h('section', { class: 'table' }, box, h('aside', { class: 'panel' },
    h('h2', {}, t('photo.title')),
    h('p', { class: 'muted' }, t('photo.help')),
    h('form', { onsubmit: read, class: 'photo-form' },
      h('label', {}, t('new.game'), ' ', gameSel), h('label', {}, t('photo.lines'), ' ', sizeSel), h('label', {}, file),
      h('button', { type: 'submit', class: 'primary', id: 'photo-read' }, t('photo.readButton'))),
    err, out)));
}
