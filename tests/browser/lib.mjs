// What the browser tests share: the server, browsers for people, and steps on the page.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';

export const here = dirname(fileURLToPath(import.meta.url));
export const BOYI = process.env.BOYI_BIN || join(here, '../../target/debug/boyi');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const ART = join(here, 'artifacts');
mkdirSync(ART, { recursive: true });
export const work = mkdtempSync(join(tmpdir(), 'boyi-browser-'));
const PORT = 18000 + Math.floor(Math.random() * 2000);
export const BASE = `http://127.0.0.1:${PORT}`;
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };
// How long a table nobody has moved at stays in the lobby on the test server, in seconds.
export const LOBBY_IDLE = 5;

// Starts `boyi serve` and resolves once it says it is listening. The server's stderr comes in
// chunks of any size, so the line is looked for in everything read so far.
export function startServer() {
  const proc = spawn(BOYI, ['serve', '--addr', `127.0.0.1:${PORT}`, '--db', join(work, 'boyi.sqlite'), '--lobby-idle-seconds', String(LOBBY_IDLE)], { stdio: ['ignore', 'inherit', 'pipe'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => { proc.kill(); reject(new Error('boyi serve did not say it was listening within 60 s')); }, 60000);
    proc.stderr.on('data', (d) => {
      process.stderr.write(d);
      if (seen === null) return;
      seen += String(d);
      if (seen.includes('boyi serve: http://')) { seen = null; clearTimeout(timer); resolve(proc); }
    });
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`boyi serve exited with ${code}`)); });
  });
}

// A person: a browser of their own (its own storage), English unless `locale` says;
// `args`: more Chromium switches (a fake camera).
export async function launchPerson(name, opts = {}) {
  const dir = mkdtempSync(join(work, `profile-${name}-`));
  const ctx = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    timeout: 60000,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync', ...(opts.args || [])],
    viewport: opts.viewport || DESKTOP,
    locale: opts.locale || 'en-US',
    colorScheme: opts.colorScheme || 'light',
  });
  const page = ctx.pages()[0] || await ctx.newPage();
  page.on('pageerror', (e) => { console.error(`[${name}] page error:`, e); process.exitCode = 1; });
  page.on('console', (m) => { if (m.type() === 'error') console.error(`[${name}] console:`, m.text()); });
  return { ctx, page, name };
}

export const shot = (page, name) => page.screenshot({ path: join(ART, `${name}.png`), fullPage: true });
export const moveCount = (page) => page.locator('ol.moves li:not(.later)').count();

export async function waitMoves(page, n) {
  await page.waitForFunction((k) => document.querySelectorAll('ol.moves li:not(.later)').length >= k || document.querySelector('.result-banner'), n, { timeout: 60000 });
}

// The page is no wider than its window: nothing scrolls sideways.
export async function noSidewaysScroll(page, what) {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(scroll <= width, `${what}: ${scroll} px wide in a ${width} px window`);
}

export async function newGame(page, opts) {
  await page.goto(`${BASE}/#/new`);
  await page.selectOption('select[name=game]', opts.game);
  if (opts.variant) await page.selectOption('select[name=variant]', opts.variant);
  if (opts.size) await page.selectOption('select[name=size]', String(opts.size));
  await page.selectOption('select[name=opponent]', opts.opponent);
  if (opts.player) await page.selectOption('select[name=player1]', opts.player);
  if (opts.think) await page.fill('input[name=player1-ms]', String(opts.think));
  if (opts.colour) await page.selectOption('select[name=colour]', opts.colour);
  if (opts.name) await page.fill('input[name=name]', opts.name);
  await page.click('#create');
  await page.waitForFunction(() => location.hash.startsWith('#/t/'));
  await page.waitForSelector('svg.board');
  return page.evaluate(() => location.hash.split('/')[2]);
}

// How long a request over the protocol may wait for its answer, in milliseconds: past it the
// step fails instead of hanging.
const ANSWER_MS = 60000;

// Sends one request over a WebSocket of its own from the page and returns the answer of
// type `want`.
export async function ask(page, req, want) {
  return page.evaluate(([r, w, limit]) => new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${location.host}/ws`);
    setTimeout(() => { ws.close(); reject(new Error(`no ${w} answer to ${r.type} within ${limit} ms`)); }, limit);
    ws.onopen = () => ws.send(JSON.stringify({ v: 3, ...r }));
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      if (m.type === w) { ws.close(); resolve(m); } else if (m.type === 'error') { ws.close(); reject(Object.assign(new Error(m.message), { code: m.code })); }
    };
  }), [req, want, ANSWER_MS]);
}

// Plays `moves` at `table` over the protocol with the seat tokens `tokens`.
export async function playMoves(page, table, tokens, moves) {
  await page.evaluate(([t, tok, ms, limit]) => new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${location.host}/ws`);
    let i = 0;
    setTimeout(() => { ws.close(); reject(new Error(`${ms.length} moves not played at ${t} within ${limit} ms (at move ${i})`)); }, limit);
    ws.onopen = () => ws.send(JSON.stringify({ v: 3, type: 'watch', table: t }));
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      if (m.type === 'error') { ws.close(); reject(new Error(m.message)); return; }
      const plies = m.type === 'state' ? m.moves.length : m.type === 'update' ? m.plies : null;
      if (plies === null) return;
      if (plies >= ms.length) { ws.close(); resolve(); return; }
      if (plies !== i) return;
      ws.send(JSON.stringify({ v: 3, type: 'move', table: t, token: tok[m.to_move], move: ms[i] }));
      i += 1;
    };
  }), [table, tokens, moves, ANSWER_MS]);
}

// Creates a table straight over the protocol (for a set-up position), keeps its seats in
// this browser and opens it.
export async function createOverProtocol(page, req) {
  if (!page.url().startsWith(BASE)) await page.goto(`${BASE}/#/`);
  const created = await ask(page, { type: 'create', ...req }, 'created');
  await page.evaluate((c) => localStorage.setItem('boyi.t.' + c.table, JSON.stringify({ held: c.tokens, creator: c.creator })), created);
  await page.goto(`${BASE}/#/t/${created.table}`);
  await page.waitForSelector('svg.board');
  return created.table;
}

// Clicks the points of a move on the board (`points` in order) and waits for the move list.
export async function clickMove(page, points, plies) {
  for (const p of points) await page.click(`rect.hit[data-p="${p}"]`);
  if (plies !== undefined) await page.waitForFunction((k) => document.querySelectorAll('ol.moves li:not(.later)').length === k, plies, { timeout: 30000 });
}

export async function lastMoveText(page) {
  return (await page.locator('ol.moves li:not(.later) .mv').last().textContent()).trim();
}
