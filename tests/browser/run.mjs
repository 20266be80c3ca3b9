// Boyi's page in real headless Chromium: a person plays Gomoku against the computer by
// clicking, makes a Xiangqi move by picking and placing a piece, makes a Jiu square capture,
// two browsers play each other over an invitation link, and a photo of a board is read and
// played from. Screenshots go to artifacts/.
//
// Needs: `boyi` built (BOYI_BIN, default ../../target/debug/boyi) and Chromium
// (CHROMIUM, default /usr/bin/chromium). Run through run.sh on a clean machine.
import { chromium } from 'playwright-core';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';

const here = dirname(fileURLToPath(import.meta.url));
const BOYI = process.env.BOYI_BIN || join(here, '../../target/debug/boyi');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ART = join(here, 'artifacts');
mkdirSync(ART, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'boyi-browser-'));
const PORT = 18000 + Math.floor(Math.random() * 2000);
const BASE = `http://127.0.0.1:${PORT}`;

function startServer() {
  const proc = spawn(BOYI, ['serve', '--addr', `127.0.0.1:${PORT}`, '--db', join(work, 'boyi.sqlite')], { stdio: ['ignore', 'inherit', 'pipe'] });
  return new Promise((resolve, reject) => {
    proc.stderr.on('data', (d) => {
      process.stderr.write(d);
      if (String(d).includes('boyi serve: http://')) resolve(proc);
    });
    proc.on('exit', (code) => reject(new Error(`boyi serve exited with ${code}`)));
  });
}

async function launchPerson(name) {
  const dir = mkdtempSync(join(work, `profile-${name}-`));
  const ctx = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],  // the fresh profile `dir` is passed as --user-data-dir by launchPersistentContext
    viewport: { width: 1280, height: 900 },
  });
  const page = ctx.pages()[0] || await ctx.newPage();
  page.on('pageerror', (e) => { console.error(`[${name}] page error:`, e); process.exitCode = 1; });
  page.on('console', (m) => { if (m.type() === 'error') console.error(`[${name}] console:`, m.text()); });
  return { ctx, page };
}

const shot = (page, name) => page.screenshot({ path: join(ART, `${name}.png`), fullPage: true });
const moveCount = (page) => page.locator('ol.moves li').count();

async function waitMoves(page, n) {
  await page.waitForFunction((k) => document.querySelectorAll('ol.moves li').length >= k || document.querySelector('.result-banner'), n, { timeout: 60000 });
}

async function newGame(page, opts) {
  await page.goto(`${BASE}/#/new`);
  await page.selectOption('select[name=game]', opts.game);
  if (opts.size) await page.selectOption('select[name=size]', String(opts.size));
  await page.selectOption('select[name=opponent]', opts.opponent);
  if (opts.player) await page.selectOption('select[name=player1]', opts.player);
  if (opts.think) await page.locator('select[name=player1] + input').fill(String(opts.think));
  if (opts.name) await page.fill('input[name=name]', opts.name);
  await page.click('#create');
  await page.waitForFunction(() => location.hash.startsWith('#/t/'));
  await page.waitForSelector('svg.board');
}

// Creates a table straight over the protocol (for a set-up position) and holds its seats.
async function createOverProtocol(page, req) {
  await page.goto(`${BASE}/#/`);
  const created = await page.evaluate((r) => new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${location.host}/ws`);
    ws.onopen = () => ws.send(JSON.stringify({ v: 1, type: 'create', ...r }));
    ws.onmessage = (ev) => { const m = JSON.parse(ev.data); ws.close(); m.type === 'created' ? resolve(m) : reject(new Error(m.message)); };
  }), req);
  await page.evaluate((c) => localStorage.setItem('boyi.t.' + c.table, JSON.stringify({ held: c.tokens })), created);
  await page.goto(`${BASE}/#/t/${created.table}`);
  await page.waitForSelector('svg.board.interactive');
  return created.table;
}

async function gomokuAgainstTheComputer(page) {
  await newGame(page, { game: 'gomoku', opponent: 'computer', player: 'boyi:alphabeta?depth=2', think: 300, name: 'Clicker' });
  const order = [];
  for (let d = 0; d < 8; d++) for (let c = 7 - d; c <= 7 + d; c++) for (let r = 7 - d; r <= 7 + d; r++) {
    if (Math.max(Math.abs(c - 7), Math.abs(r - 7)) === d && c >= 0 && r >= 0 && c < 15 && r < 15) order.push(String.fromCharCode(97 + c) + (r + 1));
  }
  let clicks = 0;
  while (!(await page.locator('.result-banner').count())) {
    const n = await moveCount(page);
    const free = [];
    for (const p of order) if (!(await page.locator(`[data-stone="${p}"]`).count())) free.push(p);
    // Alternate between the two ends of the free list so the person's stones spread out.
    const p = clicks % 3 === 0 ? free[0] : free[Math.min(free.length - 1, 2 + (clicks % 5))];
    await page.click(`rect.hit[data-p="${p}"]`);
    clicks += 1;
    await waitMoves(page, n + 2);
    if (clicks === 3) await shot(page, 'gomoku-vs-computer-midgame');
    assert.ok(clicks < 120, 'the game ends');
  }
  const banner = await page.locator('.result-banner').textContent();
  console.log(`gomoku vs computer: ${clicks} clicks, result: ${banner}`);
  assert.match(banner, /wins|Draw/);
  assert.ok(await page.locator('.last-mark').count() >= 1, 'last move marked');
  await shot(page, 'gomoku-vs-computer-end');
}

async function xiangqiPickAndPlace(page) {
  await newGame(page, { game: 'xiangqi', opponent: 'computer', player: 'boyi:alphabeta?depth=2', think: 300 });
  // File numbers on both sides: red's 一..九 at the bottom (一 on red's right), black's 1..9 at the top.
  const files = await page.evaluate(() => ['red-1', 'red-9', 'black-1', 'black-9'].map((k) => {
    const t = document.querySelector(`text[data-file="${k}"]`);
    return [t.textContent, Number(t.getAttribute('x')), Number(t.getAttribute('y'))];
  }));
  assert.deepEqual(files.map((f) => f[0]), ['一', '九', '1', '9']);
  assert.ok(files[0][1] > files[1][1] && files[2][1] < files[3][1], 'red counts from the right, black from its own right');
  assert.ok(files[0][2] > 500 && files[2][2] < 60, 'red numbers at the bottom, black at the top');
  await page.click('rect.hit[data-p="h2"]');
  await page.waitForSelector('.piece.chosen');
  const targets = await page.locator('circle.target, circle.target-ring').count();
  assert.ok(targets >= 10, `the cannon on h2 shows its destinations (${targets})`);
  await shot(page, 'xiangqi-picked');
  await page.click('rect.hit[data-p="e2"]');
  await waitMoves(page, 2);
  const first = await page.locator('ol.moves li').first().textContent();
  assert.match(first, /炮二平五/);
  assert.match(first, /C2\.5/);
  await shot(page, 'xiangqi-after-move');
}

async function jiuSquareCapture(page) {
  // Battle phase: black steps b3-b2 to complete the square a1 b1 a2 b2 and removes l10.
  const position = '12oo/13o/14/14/11o2/14/14/14/14/10o3/14/1x12/x13/xx12 b battle 196 0';
  await createOverProtocol(page, { game: 'jiu', position, black: { kind: 'human', name: 'Square' }, white: { kind: 'computer', player: 'boyi:random', think_ms: 100 } });
  await shot(page, 'jiu-before');
  await page.click('rect.hit[data-p="b3"]');
  await page.click('rect.hit[data-p="b2"]');
  await page.waitForSelector('.hint');
  assert.match(await page.locator('.hint').textContent(), /Square! Click 1 enemy piece/);
  await shot(page, 'jiu-square-choose-capture');
  await page.click('rect.hit[data-p="l10"]');
  await waitMoves(page, 1);
  const first = await page.locator('ol.moves li').first().textContent();
  assert.equal(first, 'b3-b2 x l10');
  assert.equal(await page.locator('[data-stone="l10"]').count(), 0, 'l10 removed');
  await waitMoves(page, 2);
  await shot(page, 'jiu-after-capture');
}

async function twoPeopleOverAnInvitation(a, b) {
  await newGame(a, { game: 'gomoku', opponent: 'invite', name: 'Ann' });
  const link = await a.locator('input.invite-link').inputValue();
  assert.match(link, /#\/t\/\w+\/[0-9a-f]{32}$/);
  await b.goto(`${BASE}/#/`);
  await b.evaluate(() => localStorage.setItem('boyi.name', 'Bob'));
  await b.goto(link);
  await b.waitForSelector('svg.board');
  await a.waitForFunction(() => !document.querySelector('input.invite-link'));
  const aMoves = ['h8', 'h9', 'h10', 'h11', 'h12'];
  const bMoves = ['a1', 'a2', 'a3', 'a4'];
  for (let i = 0; i < aMoves.length; i++) {
    await a.waitForSelector('svg.board.interactive');
    await a.click(`rect.hit[data-p="${aMoves[i]}"]`);
    await waitMoves(b, 2 * i + 1);
    if (i === 2) { await shot(a, 'invite-ann'); await shot(b, 'invite-bob'); }
    if (i < bMoves.length) {
      await b.waitForSelector('svg.board.interactive');
      await b.click(`rect.hit[data-p="${bMoves[i]}"]`);
      await waitMoves(a, 2 * i + 2);
    }
  }
  await a.waitForSelector('.result-banner');
  await b.waitForSelector('.result-banner');
  const text = await b.locator('.result-banner').textContent();
  assert.match(text, /Black \(Ann\) wins — five in a row/);
  assert.match(await a.locator('.panel').textContent(), /Bob/);
  await shot(b, 'invite-bob-end');
}

async function moreBoards(page) {
  // Connect6 vs computer: one click is one stone of the pair.
  await newGame(page, { game: 'connect6', opponent: 'computer', player: 'boyi:random', think: 100 });
  await page.click('rect.hit[data-p="j10"]');
  await waitMoves(page, 2);
  await page.click('rect.hit[data-p="k11"]');
  await page.waitForFunction(() => /1 left/.test(document.querySelector('.stones-left')?.textContent || ''));
  await shot(page, 'connect6-one-stone-placed');
  await page.click('rect.hit[data-p="l12"]');
  await waitMoves(page, 4);
  await shot(page, 'connect6-after-turn');
  // Engines playing each other, watched.
  await page.goto(`${BASE}/#/new`);
  await page.selectOption('select[name=game]', 'jiu');
  await page.selectOption('select[name=opponent]', 'engines');
  await page.selectOption('select[name=player1]', 'boyi:random');
  await page.selectOption('select[name=player2]', 'boyi:random');
  // 200 ms a move: the page is not redrawing all the time while the screenshot is taken.
  await page.locator('select[name=player1] + input').fill('200');
  await page.locator('select[name=player2] + input').fill('200');
  await page.click('#create');
  await waitMoves(page, 30);
  await shot(page, 'jiu-engines-watching');
  // The analysis board.
  await page.goto(`${BASE}/#/analysis`);
  await page.waitForSelector('svg.board.interactive');
  await page.click('rect.hit[data-p="h8"]');
  await page.waitForFunction(() => document.querySelectorAll('ol.moves li').length === 1);
  await page.click('text=Analyse');
  await page.waitForSelector('text=Best move:', { timeout: 30000 });
  await shot(page, 'analysis-board');
  await page.goto(`${BASE}/#/`);
  await page.waitForSelector('.list .row');
  await shot(page, 'lobby');
}

async function photoUpload(page) {
  // A synthetic photo of a 15×15 board: black h8, i9; white h9.
  const photo = join(work, 'board.jpg');
  execFileSync(BOYI, ['vision', 'synth', '--out', photo, '--seed', '3', '--size', '15',
    '--position', '15/15/15/15/15/15/7ox6/7x7/15/15/15/15/15/15/15']);
  await page.goto(`${BASE}/#/photo`);
  await page.selectOption('select[name=photo-game]', 'gomoku');
  await page.setInputFiles('#photo-file', photo);
  await page.click('#photo-read');
  await page.waitForSelector('#photo-position', { timeout: 60000 });
  assert.equal(await page.locator('svg.board [data-stone]').count(), 3, 'the read stones are drawn');
  await shot(page, 'photo-read');
  await page.click('#photo-analyse');
  await page.waitForSelector('svg.board.interactive');
  const pos = await page.locator('code.postext').textContent();
  assert.match(pos, / w$/, 'white to move after two black and one white stone');
  await shot(page, 'photo-analysis');
  // A bad photo: the page says what is wrong.
  const junk = join(work, 'junk.png');
  execFileSync('sh', ['-c', `head -c 2000 /dev/urandom > ${junk}`]);
  await page.goto(`${BASE}/#/photo`);
  await page.setInputFiles('#photo-file', junk);
  await page.click('#photo-read');
  await page.waitForFunction(() => /not a JPEG or PNG|cannot/.test(document.querySelector('p.error')?.textContent || ''));
  // The good photo again, and a game from it against a person on this screen.
  await page.setInputFiles('#photo-file', photo);
  await page.click('#photo-read');
  await page.waitForSelector('#photo-play');
  await page.click('#photo-play');
  await page.waitForSelector('.from-photo');
  await page.selectOption('select[name=opponent]', 'local');
  await page.click('#create');
  await page.waitForFunction(() => location.hash.startsWith('#/t/'));
  await page.waitForSelector('svg.board.interactive');
  await page.click('rect.hit[data-p="a1"]');
  await waitMoves(page, 1);
  await shot(page, 'photo-game');
}

const server = await startServer();
const browsers = [];
const total = 6;
let passed = 0;
try {
  const one = await launchPerson('one');
  browsers.push(one);
  await gomokuAgainstTheComputer(one.page);
  console.log('ok: gomoku against the computer by clicking');
  passed++;
  await xiangqiPickAndPlace(one.page);
  console.log('ok: xiangqi pick and place');
  passed++;
  await jiuSquareCapture(one.page);
  console.log('ok: jiu square capture');
  passed++;
  const two = await launchPerson('two');
  browsers.push(two);
  await twoPeopleOverAnInvitation(one.page, two.page);
  console.log('ok: two browsers over an invitation link');
  passed++;
  await moreBoards(one.page);
  console.log('ok: connect6, engines, analysis, lobby');
  passed++;
  await photoUpload(one.page);
  console.log('ok: photo upload, analysis and a game from it');
  passed++;
} catch (e) {
  console.error(e);
  for (const [i, b] of browsers.entries()) await shot(b.page, `failure-${i}`).catch(() => {});
  process.exitCode = 1;
} finally {
  for (const b of browsers) await b.ctx.close().catch(() => {});
  server.kill();
  rmSync(work, { recursive: true, force: true });
  console.log(`${passed} passed, ${total - passed} failed`);
}
