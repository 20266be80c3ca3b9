// The analysis board: every game's moves entered by clicking (Gomoku, Connect6's two
// stones, Xiangqi pick then place, Jiu placements and a battle move with a square
// capture), renju's forbidden points, set-up errors that clear, and the engine's evaluation
// bar and best move drawn on the board. Then the review of a finished game.
import assert from 'node:assert/strict';
import { BASE, shot, clickMove, lastMoveText } from './lib.mjs';

async function setUp(page, game, variant, position) {
  await page.selectOption('select[name=analysis-game]', game);
  if (variant) await page.selectOption('select[name=analysis-variant]', variant);
  await page.fill('input[name=analysis-position]', position || '');
  await page.click('#setup');
  await page.waitForFunction(() => document.querySelectorAll('ol.moves li').length === 0);
  await page.waitForSelector('svg.board.interactive');
}

export async function everyGameOnTheAnalysisBoard(page) {
  await page.goto(`${BASE}/#/analysis`);
  await page.waitForSelector('svg.board.interactive');
  // Gomoku: one click, one stone.
  await clickMove(page, ['h8'], 1);
  assert.equal(await lastMoveText(page), 'h8');
  // Connect6: black's single stone, then two clicks make white's turn.
  await setUp(page, 'connect6');
  await clickMove(page, ['j10'], 1);
  await page.click('rect.hit[data-p="k11"]');
  await page.waitForFunction(() => /1 stone/.test(document.querySelector('.hint')?.textContent || ''));
  await clickMove(page, ['l12'], 2);
  assert.equal(await lastMoveText(page), 'k11 l12');
  // Xiangqi: pick, then place; the side to move is named as the game names it.
  await setUp(page, 'xiangqi');
  assert.match(await page.locator('p.turn').textContent(), /Red to move/);
  await page.click('rect.hit[data-p="h2"]');
  await page.waitForSelector('.piece.picked');
  await clickMove(page, ['e2'], 1);
  assert.equal(await lastMoveText(page), 'h2e2');
  assert.match(await page.locator('p.turn').textContent(), /Black to move/);
  await clickMove(page, ['h9', 'g7'], 2);
  assert.equal(await lastMoveText(page), 'h9g7');
  // Jiu placement: the centre pair, then any point.
  await setUp(page, 'jiu');
  assert.match(await page.locator('p.turn').textContent(), /White to move/);
  await clickMove(page, ['g7'], 1);
  await clickMove(page, ['h8'], 2);
  await clickMove(page, ['d4'], 3);
  // A Jiu battle move with its square capture, from a set-up position.
  await setUp(page, 'jiu', null, '12oo/13o/14/14/11o2/14/14/14/14/10o3/14/1x12/x13/xx12 b battle 196 0');
  await page.click('rect.hit[data-p="b3"]');
  await page.click('rect.hit[data-p="b2"]');
  await page.waitForFunction(() => /Square!/.test(document.querySelector('.hint')?.textContent || ''));
  await clickMove(page, ['l10'], 1);
  assert.equal(await lastMoveText(page), 'b3-b2 x l10');
  // A bad position says what is wrong; a good one afterwards clears it.
  await page.fill('input[name=analysis-position]', 'not a position');
  await page.click('#setup');
  await page.waitForFunction(() => /position/.test(document.querySelector('.analysis-panel .error')?.textContent || ''));
  await setUp(page, 'jiu', null, '');
  assert.equal(await page.locator('.analysis-panel .error').textContent(), '', 'the old error is gone');
  // Renju: black's forbidden points are marked, and a click on one says why.
  await setUp(page, 'gomoku', 'renju');
  const stones = ['f7', 'a1', 'g7', 'a2', 'h9', 'a3', 'h8', 'b1'];
  for (let i = 0; i < stones.length; i++) await clickMove(page, [stones[i]], i + 1);
  await page.waitForSelector('.forbidden-mark');
  await page.click('rect.hit[data-p="h7"]');
  await page.waitForSelector('.note');
  assert.match(await page.locator('.note').textContent(), /h7 is forbidden for black: a double three/);
  await shot(page, 'analysis-renju-forbidden');
}

// The engine thinks: a bar beside the board, a score that names a side, the best move drawn.
export async function engineOnTheAnalysisBoard(page) {
  await page.goto(`${BASE}/#/analysis`);
  await setUp(page, 'xiangqi');
  await page.selectOption('select[name=analysis-think]', '1000');
  await page.click('#analyse');
  await page.waitForSelector('.eval-bar');
  await page.waitForSelector('line.best-arrow', { state: 'attached', timeout: 30000 });
  assert.match(await page.locator('.thinking').textContent(), /(Red|Black) \+|even/);
  const [panel, button] = await page.evaluate(() => [document.querySelector('.analysis-panel').getBoundingClientRect().right,
    document.querySelector('#analyse-stop, #analyse').getBoundingClientRect().right]);
  assert.ok(button <= panel, 'the Analyse button stays inside the panel');
  await shot(page, 'analysis-xiangqi-thinking');
  await page.waitForSelector('.best-line', { timeout: 30000 });
  await setUp(page, 'connect6');
  await clickMove(page, ['j10'], 1);
  await page.click('#analyse');
  await page.waitForSelector('.best-stone', { timeout: 30000 });
  await page.waitForFunction(() => document.querySelectorAll('.best-stone').length === 2, null, { timeout: 30000 });
  await page.waitForSelector('#analyse', { timeout: 30000 });
  await setUp(page, 'jiu', null, '12oo/13o/14/14/11o2/14/14/14/14/10o3/14/1x12/x13/xx12 b battle 196 0');
  await page.click('#analyse');
  await page.waitForSelector('polyline.best-path', { state: 'attached', timeout: 30000 });
  await shot(page, 'analysis-jiu-best-path');
  await page.waitForSelector('#analyse', { timeout: 30000 });
}

// A finished game reviewed: the graph, judged moves with the better move and its line, the
// arrow keys, and the analysis board at a chosen move.
export async function reviewAFinishedGame(page, table) {
  await page.goto(`${BASE}/#/r/${table}`);
  await page.waitForSelector('#start-review');
  const n = await page.locator('ol.moves li').count();
  await page.keyboard.press('Home');
  await page.waitForFunction(() => /^\s*0 \//.test(document.querySelector('.ply').textContent));
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => /^\s*2 \//.test(document.querySelector('.ply').textContent));
  await page.keyboard.press('End');
  await page.click('#start-review');
  await page.waitForSelector('svg.review-graph');
  await page.waitForSelector('.review-summary', { timeout: 120000 });
  const judged = await page.locator('ol.moves li.judged').count();
  console.log(`  review: ${n} moves, ${judged} judged`);
  assert.ok(judged >= 1, 'the loser made at least one marked move');
  assert.ok(await page.locator('.graph-dot').count() >= judged);
  await page.locator('ol.moves li.judged').first().click();
  await page.waitForSelector('.verdict');
  assert.match(await page.locator('.verdict').textContent(), /(Inaccuracy|Mistake|Blunder).*Better was/s);
  await shot(page, 'review');
  const ply = await page.evaluate(() => parseInt(document.querySelector('.ply').textContent, 10));
  await page.click('.verdict button');
  await page.waitForFunction(() => location.hash === '#/analysis');
  await page.waitForFunction((k) => document.querySelector('ol.moves li.current')?.getAttribute('data-ply') === String(k - 1), ply);
  // "Analyse from here" opens the same game at the move shown.
  await page.goto(`${BASE}/#/r/${table}`);
  await page.waitForSelector('#analyse-here');
  await page.keyboard.press('Home');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await page.click('#analyse-here');
  // The replay's own list shows move 3 as current too: wait for the analysis board itself.
  await page.waitForSelector('#setup');
  await page.waitForFunction(() => document.querySelector('ol.moves li.current')?.getAttribute('data-ply') === '3');
  assert.equal(await page.locator('ol.moves li').count(), n, 'the whole game is there to step through');
}
