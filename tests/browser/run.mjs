// Boyi's page in real headless Chromium, as people use it: games at tables by clicking,
// invitations, the analysis board for every game, reviews, photos, a camera, phone widths, both
// languages and themes. Screenshots go to artifacts/ (and docs/screens/ with BOYI_SCREENS).
//
// Needs: `boyi` built (BOYI_BIN, default ../../target/debug/boyi) and Chromium
// (CHROMIUM, default /usr/bin/chromium). Run through run.sh on a clean machine.
import { rmSync } from 'node:fs';
import { work, startServer, launchPerson, shot, PHONE } from './lib.mjs';
import { gomokuAgainstALevel, xiangqiPickPlaceAndCheck, flipAndResign, renjuForbiddenAndConnect6Six, connect6TwoStones, jiuSquareCapture, invitations, unknownTable, idleTablesLeaveTheLobby } from './play.mjs';
import { everyGameOnTheAnalysisBoard, engineOnTheAnalysisBoard, reviewAFinishedGame } from './analysis.mjs';
import { phoneWidths, languagesThemesAndSound, screenshotsOfEveryGame } from './looks.mjs';
import { photoUpload } from './photo.mjs';
import { fakeCameraFile, fakeCameraArgs, cameraFollowsAGame } from './camera.mjs';

// No step may hang CI: each test has a time limit, and the whole run another; past it the run
// says which test was running, stops the server and Chromium, and fails.
const TEST_LIMIT_S = 300;
const RUN_LIMIT_S = 1200;
const started = Date.now();
let current = 'starting the server';
let server = null;
const browsers = [];
const watchdog = setTimeout(() => {
  console.error(`FAILED: the browser tests ran over ${RUN_LIMIT_S} s, in: ${current}`);
  if (server) server.kill();
  for (const b of browsers) b.ctx.close().catch(() => {});
  process.exit(1);
}, RUN_LIMIT_S * 1000);
server = await startServer();
const person = async (name, opts) => {
  current = `starting Chromium for ${name}`;
  const p = await launchPerson(name, opts);
  browsers.push(p);
  return p.page;
};
let passed = 0, failed = 0;
async function test(name, f) {
  const t0 = Date.now();
  current = name;
  let timer;
  const limit = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`no result within ${TEST_LIMIT_S} s`)), TEST_LIMIT_S * 1000); });
  try {
    await Promise.race([f(), limit]);
    passed += 1;
    console.log(`ok: ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (e) {
    failed += 1;
    console.error(`FAILED: ${name}\n`, e);
    for (const b of browsers) await shot(b.page, `failure-${b.name}-${failed}`).catch(() => {});
  } finally {
    clearTimeout(timer);
  }
}
try {
  const one = await person('one');
  let gomokuGame = null, inviteGame = null;
  await test('a table that does not exist', () => unknownTable(one));
  await test('gomoku against a level by clicking', async () => { gomokuGame = await gomokuAgainstALevel(one); });
  await test('xiangqi pick and place, check', () => xiangqiPickPlaceAndCheck(one));
  await test('flip the board, resign', () => flipAndResign(one));
  await test('renju forbidden points and a connect6 six at tables', () => renjuForbiddenAndConnect6Six(one));
  await test('connect6 two stones a turn', () => connect6TwoStones(one));
  await test('jiu square capture and piece count', () => jiuSquareCapture(one));
  const bob = await person('bob');
  const eve = await person('eve');
  await test('single-use invitations', async () => { inviteGame = await invitations(one, bob, eve); });
  await test('idle tables leave the lobby', () => idleTablesLeaveTheLobby(one));
  await test('every game on the analysis board by clicking', () => everyGameOnTheAnalysisBoard(one));
  await test('the engine on the analysis board', () => engineOnTheAnalysisBoard(one));
  await test('review of a finished game', () => reviewAFinishedGame(one, inviteGame || gomokuGame));
  await test('a photo of a board', () => photoUpload(one));
  await test('a game followed through the camera', async () => cameraFollowsAGame(await person('camera', { args: fakeCameraArgs(fakeCameraFile()) })));
  await test('phone widths', async () => phoneWidths(await person('phone', { viewport: PHONE }), inviteGame || gomokuGame));
  await test('languages, themes and sound', async () => languagesThemesAndSound(await person('zh', { locale: 'zh-CN' })));
  await test('screenshots of every game', () => screenshotsOfEveryGame(one));
} catch (e) {
  console.error(e);
  failed += 1;
} finally {
  for (const b of browsers) await b.ctx.close().catch(() => {});
  clearTimeout(watchdog);
  server.kill();
  rmSync(work, { recursive: true, force: true });
  console.log(`${passed} passed, ${failed} failed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (failed) process.exitCode = 1;
}
