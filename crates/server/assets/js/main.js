// Boyi's web page: the header, the views by address, and the start. Everything speaks
// docs/protocol.md over one WebSocket (conn.js) and a few HTTP routes.
import { h, s, fill } from './dom.js';
import { t, lang, setLang, onLangChange } from './i18n.js';
import { conn } from './conn.js';
import { route, setViews } from './router.js';
import { armSound, muted, setMuted } from './sound.js';
import { lobbyView } from './lobby.js';
import { newGameView } from './newgame.js';
import { tableView } from './table.js';
import { replayView } from './replay.js';
import { analysisView } from './analysis.js';
import { photoView } from './photo.js';
import { cameraView } from './camera.js';
import { rulesView } from './rules.js';
import { knowFormats } from './widgets.js';

// A speaker, with sound waves or a cross when muted.
function speaker(off) {
  const icon = s('svg', { viewBox: '0 0 24 24', width: 18, height: 18, class: 'speaker', 'aria-hidden': 'true' });
  icon.appendChild(s('path', { d: 'M3 9h4l5-4v14l-5-4H3z', class: 'speaker-body' }));
  icon.appendChild(s('path', { d: off ? 'M16 9l6 6M22 9l-6 6' : 'M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12', class: 'speaker-waves' }));
  return icon;
}

function header() {
  const nav = document.getElementById('nav');
  const links = [['#/', 'nav.lobby'], ['#/new', 'nav.new'], ['#/analysis', 'nav.analysis'], ['#/photo', 'nav.photo'], ['#/camera', 'nav.camera'], ['#/rules/jiu', 'nav.rules']];
  const langSel = h('select', { id: 'lang', 'aria-label': t('nav.language'), onchange: (e) => setLang(e.target.value) },
    h('option', { value: 'en', selected: lang() === 'en' }, 'English'), h('option', { value: 'zh', selected: lang() === 'zh' }, '中文'));
  const mute = h('button', { id: 'mute', class: 'icon', 'aria-pressed': String(muted()), 'aria-label': muted() ? t('nav.unmute') : t('nav.mute'),
    title: muted() ? t('nav.unmute') : t('nav.mute'), onclick: () => { setMuted(!muted()); header(); } }, speaker(muted()));
  fill(nav, ...links.map(([href, key]) => h('a', { href }, t(key))));
  fill(document.getElementById('tools'), langSel, mute);
  document.documentElement.lang = lang() === 'zh' ? 'zh-CN' : 'en';
}

async function main() {
  const meta = await (await fetch('/api/meta')).json();
  knowFormats(meta);
  setViews({
    '': lobbyView,
    new: () => newGameView(meta),
    t: (id, token) => tableView(id, token),
    r: (id, mode) => replayView(id, mode),
    analysis: () => analysisView(meta),
    photo: () => photoView(meta),
    camera: () => cameraView(meta),
    rules: (game) => rulesView(game),
  });
  header();
  armSound();
  onLangChange(() => { header(); route(); });
  conn.open();
  window.addEventListener('hashchange', route);
  route();
}

main();
