// A photo of a board: read on the Photo page, opened on the analysis board, a bad photo
// refused with its reason, and a game started from the read position.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { BASE, BOYI, work, shot, waitMoves } from './lib.mjs';

export async function photoUpload(page) {
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
}
