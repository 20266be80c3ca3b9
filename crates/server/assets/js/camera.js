// The Camera page: the phone's or computer's camera pointed at a real Gomoku or Connect6
// board. A few frames a second go to the server (`/api/camera/<session>`), which follows the
// game on the board with the watch loop of `boyi watch`; the page shows the board read in the
// latest frame beside the video, the suggested move drawn over the video, and the moves
// played. Browsers give a page the camera only over HTTPS or on localhost.
import { h, s, fill, view } from './dom.js';
import { t, gameName, sideLabel, levelName } from './i18n.js';
import { onLeave } from './router.js';
import { drawBoard } from './board.js';
import { select } from './widgets.js';

// Longest side of the frames sent, in pixels: enough to read a 19×19 board.
const FRAME_SIDE = 1280;

const side = (x) => sideLabel('gomoku', x);

export function cameraView(meta) {
  const games = meta.games.filter((g) => g.name === 'gomoku' || g.name === 'connect6');
  const gameSel = select({ name: 'camera-game' }, games.map((g) => [g.name, gameName(g.name)]), 'gomoku');
  const sideSel = select({ name: 'camera-as' }, [['black', side('black')], ['white', side('white')]], 'white');
  const modeSel = select({ name: 'camera-mode' }, [['suggest', t('cam.suggest')], ['play', t('cam.play')]], 'suggest');
  const levelSel = h('select', { name: 'camera-level' });
  const sizeSel = select({ name: 'camera-size' }, [['', t('photo.findSize')], ...[9, 13, 15, 19].map((n) => [String(n), `${n}×${n}`])], '');
  const levels = () => {
    const g = games.find((x) => x.name === gameSel.value);
    fill(levelSel, ...g.levels.map((l) => h('option', { value: l.id, selected: l.id === g.default_level }, levelName(l.id))));
  };
  gameSel.addEventListener('change', levels);
  levels();
  const video = h('video', { class: 'camera-video', autoplay: true, muted: true, playsinline: true });
  const overlay = s('svg', { class: 'camera-overlay', preserveAspectRatio: 'xMidYMid meet' });
  const box = h('div', { class: 'board-box camera-read' });
  const startBtn = h('button', { type: 'submit', class: 'primary', id: 'camera-start' }, t('cam.start'));
  const stopBtn = h('button', { type: 'button', id: 'camera-stop', disabled: true }, t('cam.stop'));
  const err = h('p', { class: 'error', role: 'alert', id: 'camera-error' });
  const status = h('p', { class: 'muted', id: 'camera-state', 'aria-live': 'polite' });
  const moves = h('ol', { class: 'camera-moves', id: 'camera-moves' });
  const position = h('code', { class: 'postext', id: 'camera-position' });
  const log = h('ul', { class: 'camera-log', id: 'camera-log' });
  const form = h('form', { class: 'photo-form camera-form', onsubmit: (ev) => { ev.preventDefault(); start(); } },
    h('label', {}, t('new.game'), ' ', gameSel), h('label', {}, t('photo.lines'), ' ', sizeSel),
    h('label', {}, t('cam.as'), ' ', sideSel), h('label', {}, t('cam.mode'), ' ', modeSel), h('label', {}, t('cam.level'), ' ', levelSel),
    h('div', { class: 'buttons' }, startBtn, stopBtn));

  let session = null, stream = null, running = false, game = 'gomoku';
  let scale = 1;
  const stop = async () => {
    running = false;
    if (stream) for (const tr of stream.getTracks()) tr.stop();
    stream = null;
    video.srcObject = null;
    if (session) fetch(`/api/camera/${session}`, { method: 'DELETE', keepalive: true }).catch(() => {});
    session = null;
    startBtn.disabled = false;
    stopBtn.disabled = true;
    for (const el of form.querySelectorAll('select')) el.disabled = false;
  };
  stopBtn.addEventListener('click', () => { stop(); status.textContent = t('cam.stopped'); });
  onLeave(stop);

  async function start() {
    err.textContent = '';
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) { err.textContent = t('cam.insecure'); return; }
    startBtn.disabled = true;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: false, video: { facingMode: 'environment', width: { ideal: 1920 }, height: { ideal: 1080 } } });
    } catch (e) {
      startBtn.disabled = false;
      err.textContent = t('cam.noCamera', { e: e.name === 'NotAllowedError' ? t('cam.denied') : String(e.message || e) });
      return;
    }
    video.srcObject = stream;
    const q = new URLSearchParams({ game: gameSel.value, as: sideSel.value, mode: modeSel.value, level: levelSel.value });
    if (sizeSel.value) q.set('size', sizeSel.value);
    let res, body;
    try {
      res = await fetch(`/api/camera?${q}`, { method: 'POST' });
      body = await res.json();
    } catch (e) { body = { error: String(e) }; res = { ok: false }; }
    if (!res.ok) { await stop(); err.textContent = body.error; return; }
    session = body.session;
    game = gameSel.value;
    running = true;
    stopBtn.disabled = false;
    for (const el of form.querySelectorAll('select')) el.disabled = true;
    fill(moves);
    fill(log);
    position.textContent = '';
    status.textContent = t('cam.settling');
    loop(1000 / Math.max(0.5, Math.min(body.frames_per_second, 5)));
  }

  // One frame as a JPEG no larger than FRAME_SIDE, and the scale it was taken at.
  const canvas = document.createElement('canvas');
  function grab() {
    const w = video.videoWidth, hgt = video.videoHeight;
    scale = Math.min(1, FRAME_SIDE / Math.max(w, hgt));
    canvas.width = Math.round(w * scale);
    canvas.height = Math.round(hgt * scale);
    canvas.getContext('2d').drawImage(video, 0, 0, canvas.width, canvas.height);
    return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.85));
  }

  // Sends a frame, waits for its answer and at least `interval` ms, and again while running.
  async function loop(interval) {
    const mine = session;
    while (running && session === mine) {
      const began = performance.now();
      let pause = 0;
      if (video.readyState >= 2 && video.videoWidth) {
        const frameScale = scale;
        const blob = await grab();
        try {
          const res = await fetch(`/api/camera/${mine}`, { method: 'POST', body: blob, headers: { 'Content-Type': 'image/jpeg' } });
          const body = await res.json();
          if (!running || session !== mine) return;
          if (res.ok) show(body, frameScale);
          else if (res.status === 404) { await stop(); err.textContent = body.error; return; }
          else if (res.status === 429 || res.status === 503) pause = 1000;
          else err.textContent = body.error;
        } catch (e) { err.textContent = t('photo.failed', { e: String(e) }); pause = 2000; }
      }
      const wait = Math.max(pause, interval - (performance.now() - began));
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  // The answer to one frame: the read board, the suggestion over the video, the game.
  function show(a, frameScale) {
    const toMove = a.to_move === 'white' ? 'w' : 'b';
    if (a.read) {
      err.textContent = '';
      drawBoard(box, { game, position: `${a.read.position} ${toMove}`, last: null, best: a.reply ? a.reply.move : null }, null);
    }
    drawOverlay(a, frameScale);
    for (const e of a.events) {
      if (e.event === 'warning') log.prepend(h('li', { class: 'warning' }, e.message));
      if (e.event === 'result') log.prepend(h('li', { class: 'result' }, e.result));
    }
    while (log.children.length > 6) log.lastChild.remove();
    fill(moves, ...a.moves.map((m) => h('li', { 'data-side': m.side }, `${side(m.side)} `, h('span', { class: 'mv' }, m.move))));
    position.textContent = a.position || '';
    const state = a.state === 'placing'
      ? t(modeSel.value === 'play' ? 'cam.place' : 'cam.suggestion', { side: side(a.to_move), move: a.reply.move })
      : a.state === 'opponent' ? t('cam.waiting', { side: side(a.to_move) })
        : a.state === 'over' ? t('cam.over', { result: a.result || '' }) : t('cam.settling');
    status.textContent = a.unread && a.state === 'settling' ? `${state} ${t('cam.noBoard')}` : state;
  }

  // The read grid's outline and the suggested stones, in the video's pixels.
  function drawOverlay(a, frameScale) {
    overlay.setAttribute('viewBox', `0 0 ${video.videoWidth} ${video.videoHeight}`);
    const kids = [];
    const px = ([x, y]) => [x / frameScale, y / frameScale];
    let step = 20;
    if (a.read) {
      const c = a.read.corners.map(px);
      step = Math.hypot(c[1][0] - c[0][0], c[1][1] - c[0][1]) / (a.read.size - 1);
      kids.push(s('polygon', { points: c.map((p) => p.join(',')).join(' '), class: 'camera-grid' }));
    }
    if (a.reply) {
      a.reply.pixel.map(px).forEach(([x, y], i) => {
        const name = a.reply.points[i];
        kids.push(s('circle', { cx: x, cy: y, r: step * 0.45, class: `camera-suggest ${a.to_move}`, 'data-suggest': name }));
        kids.push(s('text', { x, y: y - step * 0.6, 'font-size': Math.max(12, step * 0.7), class: 'camera-suggest-name' }, name));
      });
    }
    overlay.replaceChildren(...kids);
  }

  view().replaceChildren(h('section', { class: 'table camera' },
    h('div', { class: 'camera-frame' }, video, overlay), box,
    h('aside', { class: 'panel' },
      h('h2', {}, t('cam.title')), h('p', { class: 'muted' }, t('cam.help')),
      form, err, status,
      h('p', {}, t('an.position'), ' ', position), moves, log)));
}
