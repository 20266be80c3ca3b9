// Playing at tables by clicking: Gomoku against a level, Xiangqi pick and place with check,
// flipping the board and resigning, a Connect6 turn of two stones and a winning six, renju's
// forbidden points, a Jiu square capture, two browsers over a single-use invitation link (a
// third is refused, an older client is told to reload, a lost seat comes back through a new
// link), a table that does not exist, and tables nobody moves at leaving the lobby.
import assert from 'node:assert/strict';
import { BASE, LOBBY_IDLE, shot, ask, playMoves, moveCount, waitMoves, newGame, createOverProtocol, clickMove, lastMoveText } from './lib.mjs';

export async function gomokuAgainstALevel(page) {
  await page.goto(`${BASE}/#/new`);
  // The levels come first, the middle one chosen; the papers' players have their own group.
  const groups = await page.$$eval('select[name=player1] optgroup', (gs) => gs.map((g) => g.label));
  assert.deepEqual(groups.slice(0, 2), ['Levels', 'The papers’ players']);
  assert.equal(await page.inputValue('select[name=player1]'), 'level:club');
  assert.ok(await page.locator('select[name=player1] option[value="boyi:seed000"]').count());
  await newGame(page, { game: 'gomoku', opponent: 'computer', player: 'level:beginner', name: 'Clicker' });
  assert.match(await page.locator('.seat[data-side=white]').textContent(), /Beginner/);
  const order = [];
  for (let d = 0; d < 8; d++) for (let c = 7 - d; c <= 7 + d; c++) for (let r = 7 - d; r <= 7 + d; r++) {
    if (Math.max(Math.abs(c - 7), Math.abs(r - 7)) === d && c >= 0 && r >= 0 && c < 15 && r < 15) order.push(String.fromCharCode(97 + c) + (r + 1));
  }
  let clicks = 0;
  while (!(await page.locator('.result-banner').count())) {
    const n = await moveCount(page);
    const taken = new Set(await page.$$eval('[data-stone]', (xs) => xs.map((x) => x.getAttribute('data-stone'))));
    const free = order.filter((p) => !taken.has(p));
    const p = clicks % 3 === 0 ? free[0] : free[Math.min(free.length - 1, 2 + (clicks % 5))];
    await page.click(`rect.hit[data-p="${p}"]`);
    clicks += 1;
    await waitMoves(page, n + 2);
    if (clicks === 3) await shot(page, 'gomoku-vs-level-midgame');
    assert.ok(clicks < 120, 'the game ends');
  }
  const banner = await page.locator('.result-banner').textContent();
  console.log(`  gomoku vs beginner: ${clicks} clicks, ${banner}`);
  assert.match(banner, /wins — five in a row/);
  assert.ok(await page.locator('.last-mark').count() >= 1, 'last move marked');
  assert.ok(await page.locator('.win-ring').count() >= 5, 'the five is ringed');
  assert.equal(await page.locator('.hint').count(), 0, 'no click hint after the end');
  await shot(page, 'gomoku-vs-level-end');
  return page.evaluate(() => location.hash.split('/')[2]);
}

export async function xiangqiPickPlaceAndCheck(page) {
  await newGame(page, { game: 'xiangqi', opponent: 'computer', player: 'level:beginner' });
  // File numbers on both sides: red's 一..九 at the bottom (一 on red's right), black's 1..9 at the top.
  const files = await page.evaluate(() => ['red-1', 'red-9', 'black-1', 'black-9'].map((k) => {
    const t = document.querySelector(`text[data-file="${k}"]`);
    return [t.textContent, Number(t.getAttribute('x')), Number(t.getAttribute('y'))];
  }));
  assert.deepEqual(files.map((f) => f[0]), ['一', '九', '1', '9']);
  assert.ok(files[0][1] > files[1][1] && files[2][1] < files[3][1], 'red counts from the right, black from its own right');
  assert.match(await page.locator('p.turn').textContent(), /Red/, 'red, not white, moves first');
  await page.click('rect.hit[data-p="h2"]');
  await page.waitForSelector('.piece.picked');
  // The picked piece is ringed; its character keeps its own colour and no outline.
  const glyph = await page.$eval('.piece.picked text', (t) => [getComputedStyle(t).stroke, getComputedStyle(t).fill]);
  assert.equal(glyph[0], 'none', 'no outline on the character');
  assert.equal(glyph[1], 'rgb(179, 38, 30)', 'red character');
  const targets = await page.locator('circle.target, circle.target-ring').count();
  assert.ok(targets >= 10, `the cannon on h2 shows its destinations (${targets})`);
  await shot(page, 'xiangqi-picked');
  await clickMove(page, ['e2']);
  await waitMoves(page, 2);
  const first = await page.locator('ol.moves li').first().textContent();
  assert.match(first, /h2e2/);
  assert.match(first, /炮二平五/);
  assert.match(first, /C2\.5/);
  // Check: a red chariot move gives check; the king glows and the panel says so.
  await createOverProtocol(page, { game: 'xiangqi', position: '4k4/9/9/9/9/9/9/9/3R5/3K5 w - - 0 1', black: { kind: 'human' }, white: { kind: 'human' }, local: true });
  await clickMove(page, ['d1', 'e1'], 1);
  await page.waitForSelector('[data-check="e9"]');
  assert.match(await page.locator('.check-signal').textContent(), /Black is in check/);
  await shot(page, 'xiangqi-check');
}

// The board turns round on request; resigning ends the game and leaves no click hint.
export async function flipAndResign(page) {
  await newGame(page, { game: 'xiangqi', opponent: 'computer', player: 'level:beginner' });
  const x = () => page.$eval('rect.hit[data-p="a0"]', (r) => Number(r.getAttribute('x')));
  const before = await x();
  await page.click('button.flip');
  await page.waitForFunction((b) => Number(document.querySelector('rect.hit[data-p="a0"]').getAttribute('x')) !== b, before);
  await page.click('button.flip');
  await page.waitForFunction((b) => Number(document.querySelector('rect.hit[data-p="a0"]').getAttribute('x')) === b, before);
  await page.click('rect.hit[data-p="h2"]');
  await page.waitForSelector('.hint');
  assert.match(await page.locator('.hint').textContent(), /Click a highlighted point/);
  page.once('dialog', (d) => d.accept());
  await page.click('button.danger');
  await page.waitForSelector('.result-banner');
  assert.match(await page.locator('.result-banner').textContent(), /Black wins — Red resigned/);
  assert.equal(await page.locator('.hint').count(), 0, 'no click hint after resigning');
  assert.equal(await page.locator('svg.board.interactive').count(), 0, 'no more moves');
  assert.equal(await page.locator('.piece.picked').count(), 0, 'nothing left picked');
}

// Renju at a table: black's forbidden points are marked; a click on one says why and plays
// nothing. A Connect6 six is ringed.
export async function renjuForbiddenAndConnect6Six(page) {
  await createOverProtocol(page, { game: 'gomoku', variant: 'renju', black: { kind: 'human' }, white: { kind: 'human' }, local: true });
  const stones = ['f7', 'a1', 'g7', 'a2', 'h9', 'a3', 'h8', 'b1'];
  for (let i = 0; i < stones.length; i++) await clickMove(page, [stones[i]], i + 1);
  await page.waitForSelector(".forbidden-mark", { state: "attached" });
  assert.match(await page.locator('.forbidden-note').textContent(), /Forbidden points for black are marked/);
  await page.click('rect.hit[data-p="h7"]');
  await page.waitForSelector('.note');
  assert.match(await page.locator('.note').textContent(), /h7 is forbidden for black: a double three/);
  assert.equal(await page.locator('ol.moves li').count(), 8, 'nothing was played');
  await shot(page, 'renju-forbidden-at-a-table');
  await createOverProtocol(page, { game: 'connect6', black: { kind: 'human' }, white: { kind: 'human' }, local: true });
  const turns = [['j10'], ['a1', 'a2'], ['k10', 'l10'], ['a4', 'a5'], ['m10', 'n10'], ['a7', 'a8'], ['o10', 'c3']];
  for (let i = 0; i < turns.length; i++) await clickMove(page, turns[i], i + 1);
  await page.waitForSelector('.result-banner');
  assert.match(await page.locator('.result-banner').textContent(), /Black wins — six in a row/);
  assert.equal(await page.locator('.win-ring').count(), 6, 'the six is ringed');
}

export async function connect6TwoStones(page) {
  await newGame(page, { game: 'connect6', opponent: 'computer', player: 'boyi:random', think: 100 });
  await clickMove(page, ['j10']);
  await waitMoves(page, 2);
  await page.click('rect.hit[data-p="k11"]');
  await page.waitForFunction(() => /1 left/.test(document.querySelector('.stones-left')?.textContent || ''));
  assert.equal(await page.locator('.stone.pending').count(), 1, 'the first stone waits for the second');
  await page.click('rect.hit[data-p="l12"]');
  await waitMoves(page, 4);
  assert.equal((await page.locator('ol.moves li').nth(2).textContent()).trim(), 'k11 l12');
  await shot(page, 'connect6-after-turn');
}

export async function jiuSquareCapture(page) {
  // Battle: black steps b3-b2 to complete the square a1 b1 a2 b2 and removes l10.
  const position = '12oo/13o/14/14/11o2/14/14/14/14/10o3/14/1x12/x13/xx12 b battle 196 0';
  await createOverProtocol(page, { game: 'jiu', position, black: { kind: 'human', name: 'Square' }, white: { kind: 'computer', player: 'boyi:random', think_ms: 100 } });
  assert.match(await page.locator('.jiu-count').textContent(), /black 4, white 5/);
  await page.click('rect.hit[data-p="b3"]');
  await page.click('rect.hit[data-p="b2"]');
  await page.waitForSelector('.hint');
  assert.match(await page.locator('.hint').textContent(), /Square! Click 1 enemy piece/);
  await shot(page, 'jiu-square-choose-capture');
  await page.click('rect.hit[data-p="l10"]');
  await waitMoves(page, 1);
  assert.equal((await page.locator('ol.moves li').first().textContent()).trim(), 'b3-b2 x l10');
  assert.equal(await page.locator('[data-stone="l10"]').count(), 0, 'l10 removed');
  await waitMoves(page, 2);
  assert.match(await page.locator('.jiu-count').textContent(), /white 4/);
}

// Ann invites Bob; Eve opens the same link later and only watches; Bob loses his storage
// and comes back through a new link Ann makes.
export async function invitations(ann, bob, eve) {
  await newGame(ann, { game: 'gomoku', opponent: 'invite', name: 'Ann', size: 15 });
  const link = await ann.locator('input.invite-link').inputValue();
  assert.match(link, /#\/t\/\w+\/[0-9a-f]{32}$/);
  const table = /#\/t\/(\w+)\//.exec(link)[1];
  await bob.goto(`${BASE}/#/`);
  await bob.evaluate(() => localStorage.setItem('boyi.name', 'Bob'));
  await bob.goto(link);
  await bob.waitForSelector('.seat[data-side=white] .name:text("Bob")');
  const bobToken = await bob.evaluate((t) => JSON.parse(localStorage.getItem('boyi.t.' + t)).held.white, table);
  assert.ok(bobToken && !link.endsWith(bobToken), 'Bob holds a token of his own');
  await ann.waitForFunction(() => !document.querySelector('input.invite-link'));
  // Eve opens the spent link: told the seat is taken, she watches.
  await eve.goto(link);
  await eve.waitForSelector('.notice');
  assert.match(await eve.locator('.notice').textContent(), /invitation link has been used/);
  assert.equal(await eve.locator('svg.board.interactive').count(), 0, 'Eve cannot move');
  assert.match(await eve.locator('.seat[data-side=white]').textContent(), /Bob/);
  await shot(eve, 'invite-used-link');
  await ann.click('rect.hit[data-p="h8"]');
  await waitMoves(bob, 1);
  await waitMoves(eve, 1);
  // Bob loses his browser's storage: his seat is gone from this browser.
  await bob.evaluate(() => localStorage.clear());
  await ann.click('.reinvite summary');
  await ann.click('[data-reinvite=white]');
  await ann.waitForSelector('input.invite-link');
  const second = await ann.locator('input.invite-link').inputValue();
  assert.notEqual(second, link);
  // A client older than protocol version 3 cannot join through a link: told to reload.
  const old = await eve.evaluate(([t, tok]) => new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${location.host}/ws`);
    setTimeout(() => { ws.close(); reject(new Error('no answer to a version 2 join within 60 s')); }, 60000);
    ws.onopen = () => ws.send(JSON.stringify({ v: 2, type: 'join', table: t, token: tok }));
    ws.onmessage = (ev) => { const m = JSON.parse(ev.data); if (m.type === 'error') { ws.close(); resolve(m); } };
  }), [table, second.split('/').pop()]);
  assert.equal(old.code, 'upgrade');
  assert.match(old.message, /reload|version/i);
  await bob.goto(`${BASE}/#/`);
  await bob.goto(second);
  await bob.waitForSelector('svg.board.interactive');
  await clickMove(bob, ['a1']);
  await waitMoves(ann, 2);
  const aMoves = ['h9', 'h10', 'h11', 'h12'];
  const bMoves = ['a2', 'a3', 'a4'];
  for (let i = 0; i < aMoves.length; i++) {
    await ann.waitForSelector('svg.board.interactive');
    await ann.click(`rect.hit[data-p="${aMoves[i]}"]`);
    await waitMoves(bob, 2 * i + 3);
    if (i < bMoves.length) {
      await bob.waitForSelector('svg.board.interactive');
      await bob.click(`rect.hit[data-p="${bMoves[i]}"]`);
      await waitMoves(ann, 2 * i + 4);
    }
  }
  await bob.waitForSelector('.result-banner');
  assert.match(await bob.locator('.result-banner').textContent(), /Black wins — five in a row/);
  await eve.waitForSelector('.result-banner');
  await shot(bob, 'invite-bob-end');
  return table;
}

export async function unknownTable(page) {
  await page.goto(`${BASE}/#/t/nosuchtable`);
  await page.waitForSelector('.not-found');
  assert.match(await page.locator('.not-found').textContent(), /No such table/);
  await page.click('.not-found a');
  await page.waitForSelector('#live-tables');
  assert.equal(await page.evaluate(() => location.hash), '#/');
  await page.goto(`${BASE}/#/r/nosuchgame`);
  await page.waitForSelector('.not-found');
  await page.goto(`${BASE}/#/`);
}

// A table nobody moves at leaves the lobby after the server's idle time; one being played
// stays. Its link still works.
export async function idleTablesLeaveTheLobby(page) {
  await page.goto(`${BASE}/#/`);
  const make = () => ask(page, { type: 'create', game: 'gomoku', black: { kind: 'human', name: 'Idle' }, white: { kind: 'human', name: 'Idler' }, local: true }, 'created');
  const idle = await make();
  const busy = await make();
  await playMoves(page, busy.table, busy.tokens, ['h8']);
  const listed = async () => (await (await page.request.get(`${BASE}/api/lobby`)).json()).live.map((x) => x.table);
  assert.ok((await listed()).includes(idle.table), 'a new table is listed');
  await page.waitForTimeout((LOBBY_IDLE + 1) * 1000);
  const now = await listed();
  assert.ok(!now.includes(idle.table), 'the idle table has left the lobby');
  assert.ok(now.includes(busy.table), 'the table being played stays');
  await page.reload();
  await page.waitForSelector(`#live-tables a[href="#/t/${busy.table}"]`);
  assert.equal(await page.locator(`#live-tables a[href="#/t/${idle.table}"]`).count(), 0);
  await page.goto(`${BASE}/#/t/${idle.table}`);
  await page.waitForSelector('svg.board');
}

export { lastMoveText };
