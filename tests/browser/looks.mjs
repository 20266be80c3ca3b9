// How the page looks: phone widths without sideways scrolling, Chinese and English, the
// dark theme, the mute switch, the rules pages, and the screenshots of every game in both
// languages, both themes and both widths (docs/screens/ with `run.sh --screens`).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BASE, ART, DESKTOP, PHONE, here, ask, playMoves, noSidewaysScroll, createOverProtocol, clickMove } from './lib.mjs';

const SCREENS = process.env.BOYI_SCREENS ? join(here, '../../docs/screens') : join(ART, 'screens');

// A table of each game in the middle of play, watched from `page`'s browser.
async function tables(page) {
  const out = {};
  const make = async (game, req, moves) => {
    await page.goto(`${BASE}/#/`);
    const c = await ask(page, { type: 'create', game, black: { kind: 'human', name: 'Ann' }, white: { kind: 'human', name: 'Bo' }, local: true, ...req }, 'created');
    await playMoves(page, c.table, c.tokens, moves);
    out[game] = c.table;
  };
  await make('gomoku', {}, ['h8', 'h9', 'i9', 'g7', 'j10', 'k11', 'i8', 'i10', 'g8', 'j8', 'f8']);
  await make('connect6', {}, ['j10', 'k11 k9', 'i9 i11', 'h12 l8', 'j9 j11', 'h10 l10']);
  await make('jiu', { position: 'oxx1xxoxxxoo1x/1x1x2o3oooo/5o2oo1o1x/o4o1ooo2xx/4o8o/ooo7x1xx/o1o3xxo4x/2x3xxx4x/1o2o3o2o2/3x3oox1o2/x1o4ooooo2/x3oo2ooo1xx/x8x2o1/x2x1ooo1x1oo1 b battle 196 0' }, ['d13-c13 x b6', 'a8-b8 x h7']);
  await make('xiangqi', {}, ['h2e2', 'h9g7', 'h0g2', 'i9h9', 'i0h0', 'b9c7', 'b2b6', 'c6c5']);
  return out;
}

async function setLook(page, { lang, theme, width }) {
  await page.emulateMedia({ colorScheme: theme });
  await page.setViewportSize(width === 'phone' ? PHONE : { width: 1100, height: 760 });
  await page.evaluate((l) => localStorage.setItem('boyi.pref.lang', l), lang);
}

export async function screenshotsOfEveryGame(page) {
  mkdirSync(SCREENS, { recursive: true });
  const ids = await tables(page);
  let n = 0;
  for (const lang of ['en', 'zh']) for (const theme of ['light', 'dark']) for (const width of ['desktop', 'phone']) {
    await setLook(page, { lang, theme, width });
    for (const game of ['gomoku', 'connect6', 'jiu', 'xiangqi']) {
      await page.goto(`${BASE}/#/t/${ids[game]}`);
      await page.reload();
      await page.waitForSelector('svg.board');
      await page.waitForSelector('ol.moves', { state: 'attached' });
      await noSidewaysScroll(page, `${game} ${lang} ${theme} ${width}`);
      await page.screenshot({ path: join(SCREENS, `${game}-${lang}-${theme}-${width}.png`) });
      n += 1;
    }
  }
  await setLook(page, { lang: 'en', theme: 'light', width: 'desktop' });
  await page.setViewportSize(DESKTOP);
  console.log(`  ${n} screenshots in ${SCREENS}`);
}

// At 390 px: the lobby, a game, the analysis board, a review, the forms and the rules fit
// the width.
export async function phoneWidths(phone, finished) {
  await phone.goto(`${BASE}/#/`);
  await phone.waitForSelector('#live-tables .row, #live-tables p');
  await noSidewaysScroll(phone, 'the lobby');
  const headerHeight = await phone.evaluate(() => document.querySelector('header').getBoundingClientRect().height);
  assert.ok(headerHeight < 110, `the header stays compact (${headerHeight} px)`);
  await createOverProtocol(phone, { game: 'xiangqi', black: { kind: 'human' }, white: { kind: 'human' }, local: true });
  await clickMove(phone, ['h2', 'e2'], 1);
  await noSidewaysScroll(phone, 'a Xiangqi table');
  await createOverProtocol(phone, { game: 'connect6', black: { kind: 'human' }, white: { kind: 'human' }, local: true });
  await clickMove(phone, ['j10'], 1);
  await noSidewaysScroll(phone, 'a Connect6 table');
  await phone.goto(`${BASE}/#/analysis`);
  await phone.waitForSelector('svg.board.interactive');
  // Stones no opening book knows, so the engine searches and the bar shows its evaluation.
  await clickMove(phone, ['h8'], 1);
  await clickMove(phone, ['a1'], 2);
  await clickMove(phone, ['b15'], 3);
  await phone.click('#analyse');
  await phone.waitForSelector('.eval-bar');
  await noSidewaysScroll(phone, 'the analysis board');
  await phone.goto(`${BASE}/#/new`);
  await noSidewaysScroll(phone, 'the new-game form');
  if (finished) {
    await phone.goto(`${BASE}/#/r/${finished}/review`);
    await phone.waitForSelector('.review-summary', { timeout: 120000 });
    await noSidewaysScroll(phone, 'a review');
  }
  await phone.goto(`${BASE}/#/rules/jiu`);
  await phone.waitForSelector('.diagram svg');
  await noSidewaysScroll(phone, 'the rules');
}

// Chinese from the browser's language, switchable; Xiangqi moves in Chinese notation; the
// dark theme from the system; the mute switch kept.
export async function languagesThemesAndSound(zh) {
  await zh.goto(`${BASE}/#/`);
  await zh.waitForSelector('#nav a');
  assert.equal(await zh.locator('#nav a').first().textContent(), '大厅');
  assert.equal(await zh.inputValue('#lang'), 'zh');
  await createOverProtocol(zh, { game: 'xiangqi', black: { kind: 'human' }, white: { kind: 'human' }, local: true });
  assert.match(await zh.locator('p.turn').textContent(), /红方/);
  await clickMove(zh, ['h2', 'e2'], 1);
  assert.equal((await zh.locator('ol.moves li .mv').first().textContent()).trim(), '炮二平五');
  await zh.selectOption('#lang', 'en');
  await zh.waitForFunction(() => document.querySelector('#nav a').textContent === 'Lobby');
  assert.equal((await zh.locator('ol.moves li .mv').first().textContent()).trim(), 'h2e2');
  await zh.selectOption('#lang', 'zh');
  // Check in Chinese: 将军.
  await createOverProtocol(zh, { game: 'xiangqi', position: '4k4/9/9/9/9/9/9/9/3R5/3K5 w - - 0 1', black: { kind: 'human' }, white: { kind: 'human' }, local: true });
  await clickMove(zh, ['d1', 'e1'], 1);
  await zh.waitForSelector('[data-check="e9"]');
  assert.match(await zh.locator('.check-signal').textContent(), /将军/);
  // Dark theme when the system asks for it.
  await zh.emulateMedia({ colorScheme: 'dark' });
  const bg = await zh.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, 'rgb(22, 19, 15)');
  await zh.emulateMedia({ colorScheme: 'light' });
  // Mute: kept in the browser.
  assert.equal(await zh.getAttribute('#mute', 'aria-pressed'), 'false');
  await zh.click('#mute');
  await zh.waitForFunction(() => document.querySelector('#mute').getAttribute('aria-pressed') === 'true');
  await zh.reload();
  await zh.waitForSelector('#mute[aria-pressed=true]');
  // The rules of Jiu, with diagrams drawn by the page's board.
  await zh.goto(`${BASE}/#/rules/jiu`);
  await zh.waitForSelector('.rules-part');
  assert.match(await zh.locator('.rules h2').textContent(), /久棋规则/);
  assert.ok(await zh.locator('.diagram svg.board').count() >= 4, 'placement, squares, jumps and flying drawn');
  assert.ok(await zh.locator('.diagram .square-block').count() >= 1);
  assert.ok(await zh.locator('.diagram .last-path.flying').count() === 1);
  for (const game of ['gomoku', 'connect6', 'xiangqi']) {
    await zh.goto(`${BASE}/#/rules/${game}`);
    await zh.waitForSelector('.diagram svg.board');
  }
}
