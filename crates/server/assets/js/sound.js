// Move sounds, made by the page itself (Web Audio: a short knock of filtered noise), with
// a mute switch kept in this browser. Browsers allow sound only after a click or a key,
// so the audio starts on the first one.
import { pref, setPref } from './local.js';

let ctx = null;

export function muted() { return pref('mute', '0') === '1'; }
export function setMuted(on) { setPref('mute', on ? '1' : '0'); }

function audio() {
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
  }
  return ctx;
}

// Prepares the audio on the first gesture, as browsers require.
export function armSound() {
  const arm = () => { const a = audio(); if (a && a.state === 'suspended') a.resume(); };
  window.addEventListener('pointerdown', arm, { once: true, capture: true });
  window.addEventListener('keydown', arm, { once: true, capture: true });
}

// A knock: 'move' (a stone or piece set down), 'capture' (louder, lower), 'end' (two knocks).
export function play(kind) {
  if (muted() || !ctx || ctx.state !== 'running') return;
  const knock = (at, freq, gain) => {
    const len = Math.floor(ctx.sampleRate * 0.09);
    const buf = ctx.createBuffer(1, len, ctx.sampleRate);
    const data = buf.getChannelData(0);
    for (let i = 0; i < len; i++) data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / len, 4);
    const src = ctx.createBufferSource();
    src.buffer = buf;
    const filter = ctx.createBiquadFilter();
    filter.type = 'bandpass';
    filter.frequency.value = freq;
    filter.Q.value = 1.2;
    const g = ctx.createGain();
    g.gain.value = gain;
    src.connect(filter).connect(g).connect(ctx.destination);
    src.start(ctx.currentTime + at);
  };
  if (kind === 'capture') { knock(0, 900, 1.4); knock(0.06, 600, 0.9); }
  else if (kind === 'end') { knock(0, 1400, 0.9); knock(0.18, 1000, 0.9); }
  else knock(0, 1600, 1.0);
}
