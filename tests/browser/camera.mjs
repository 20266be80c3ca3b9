// The Camera page with Chromium's fake camera: the camera "films" a game being played (the
// frames of `boyi vision synth --sequence`, hands and all, as a Motion JPEG file), the page
// sends frames to the server, and the moves of the sequence are detected one by one, with
// the suggestion drawn over the video and the read board beside it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASE, BOYI, work, shot } from './lib.mjs';

// The fake camera plays the file at 30 frames a second and starts over at its end.
const FPS = 30;
// How long the board stays still after each turn, and how long each hand frame shows, in
// seconds: long enough for the page (a few frames a second, each read by a debug build of
// the server) to see each position settle.
const STILL_SECONDS = 10;
const HAND_SECONDS = 0.5;

export const MOVES = ['h8', 'j9', 'h9', 'k10'];

// Writes the Motion JPEG of the game `MOVES` and returns its path.
export function fakeCameraFile() {
  const dir = join(work, 'camera-frames');
  execFileSync(BOYI, ['vision', 'synth', '--sequence', MOVES.join(','), '--out-dir', dir,
    '--size', '15', '--seed', '11', '--width', '640', '--height', '480']);
  const listing = readFileSync(join(dir, 'frames.txt'), 'utf8').trim().split('\n').map((l) => l.split(' '));
  const stills = {};
  for (const [, kind, turns] of listing) if (kind === 'still') stills[turns] = (stills[turns] || 0) + 1;
  const parts = [];
  for (const [name, kind, turns] of listing) {
    const jpeg = readFileSync(join(dir, name));
    const seconds = kind === 'still' ? STILL_SECONDS / stills[turns] : HAND_SECONDS;
    for (let i = 0; i < Math.round(seconds * FPS); i++) parts.push(jpeg);
  }
  const file = join(work, 'camera.mjpeg');
  writeFileSync(file, Buffer.concat(parts));
  return file;
}

export const fakeCameraArgs = (file) => ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream',
  `--use-file-for-fake-video-capture=${file}`];

export async function cameraFollowsAGame(page) {
  await page.goto(`${BASE}/#/camera`);
  await page.selectOption('select[name=camera-game]', 'gomoku');
  await page.selectOption('select[name=camera-as]', 'white');
  await page.selectOption('select[name=camera-mode]', 'suggest');
  await page.selectOption('select[name=camera-size]', '15');
  await page.click('#camera-start');
  await page.waitForFunction(() => document.querySelector('video.camera-video').videoWidth > 0, null, { timeout: 30000 });
  // The board is read beside the video.
  await page.waitForSelector('.camera-read svg.board', { timeout: 60000 });
  // Black's first move is seen, and white's suggested move drawn over the video.
  await page.waitForFunction(() => document.querySelectorAll('#camera-moves li').length >= 1, null, { timeout: 120000 });
  await page.waitForSelector('svg.camera-overlay circle[data-suggest]', { timeout: 60000 });
  const suggested = await page.locator('svg.camera-overlay circle[data-suggest]').first().getAttribute('data-suggest');
  assert.match(suggested, /^[a-o]([1-9]|1[0-5])$/, 'a point of the 15×15 board');
  await shot(page, 'camera-suggestion');
  // Every move of the sequence, in order (white plays its own moves, not the suggestions).
  await page.waitForFunction((n) => document.querySelectorAll('#camera-moves li').length >= n, MOVES.length, { timeout: 240000 });
  const seen = await page.locator('#camera-moves li .mv').allTextContents();
  assert.deepEqual(seen.slice(0, MOVES.length), MOVES);
  const sides = await page.locator('#camera-moves li').evaluateAll((els) => els.map((e) => e.dataset.side));
  assert.deepEqual(sides.slice(0, MOVES.length), ['black', 'white', 'black', 'white']);
  assert.match(await page.locator('#camera-position').textContent(), / b$/, 'black to move after four moves');
  await shot(page, 'camera-followed');
  await page.click('#camera-stop');
  await page.waitForFunction(() => !document.querySelector('video.camera-video').srcObject);
}
