// features.test.mjs - what issue 22 added to the page: levels, hints,
// analysis, reasons for refused moves, saved and opened games, stepping
// through the moves, setting up a position, clocks, and the smaller
// mendings (a bad ?fen=, an unknown ?variant=, Salto's goals and moons,
// move numbers, Solomon's point labels, the banner beside the board).
// Everything through the data- attributes gui/README.md documents.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, startBrowser, openPage, idle, runEngine, runProgram, matchPath, enginePath } from './harness.mjs';

let server;
let browser;
let scratch;

before(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'sigil-gui-features-'));
  server = await startServer();
  browser = await startBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const data = (page) => page.evaluate(() => ({ ...document.documentElement.dataset }));
const cells = (page, attribute, value = 'true') =>
  page.$$eval(`[data-cell][${attribute}="${value}"]`, (nodes) => nodes.map((n) => n.dataset.cell));
const movesText = async (page) => (await page.textContent('[data-role="moves"]')).trim();
const text = (page, role) => page.textContent(`[data-role="${role}"]`);

async function engine(lines) {
  const out = await runEngine(lines);
  return { out, responses: out.filter((l) => l.startsWith('response ')).map((l) => l.slice(9)) };
}

// Enters a legal move by clicks (gui/README.md, "Entering a given legal move").
async function enter(page, move) {
  const ply = Number((await data(page)).ply);
  for (let i = 0; i < 6; i++) {
    const node = await page.$(`[data-role="pass"][data-move="${move}"]:not([disabled]), [data-role="choice"][data-move="${move}"]`) ||
      await page.$(`[data-cell][data-target="true"][data-moves~="${move}"]`) ||
      await page.$(`[data-cell][data-movable="true"][data-moves~="${move}"]:not([data-selected="true"])`);
    assert.ok(node, `something to click for ${move}`);
    await node.click();
    await idle(page);
    if (Number((await data(page)).ply) > ply) return;
  }
  assert.fail(`${move} was not played`);
}

function overlap(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

test('a bad ?fen= shows the engine\'s error and starts from the start; New game does not reapply a FEN', async () => {
  const start = (await engine(['variant salto', 'query fen'])).responses[0];
  const { page, problems } = await openPage(browser.context, `${server.url}?variant=salto&side=white&think=20&fen=nonsense`);
  let d = await data(page);
  assert.equal(d.state, 'human');
  assert.equal(d.fen, start);
  const refused = (await engine(['variant salto', 'position fen nonsense'])).out.find((l) => l.startsWith('info string error:'));
  assert.ok(refused);
  assert.ok((await text(page, 'notice')).includes(refused.slice('info string error: '.length)), 'the engine\'s words');
  await page.close();

  const good = 'W:WK10:B3,4';
  const second = await openPage(browser.context, `${server.url}?variant=solomon&side=white&think=20&fen=${encodeURIComponent(good)}`);
  assert.equal((await data(second.page)).fen, good);
  await second.page.click('[data-role="new-game"]');
  await idle(second.page);
  d = await data(second.page);
  assert.equal(d.fen, (await engine(['variant solomon', 'query fen'])).responses[0], 'New game: the start position');
  assert.deepEqual(problems, []);
  assert.deepEqual(second.problems, []);
  await second.page.close();
});

test('an unknown ?variant= says so', async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?variant=salot&think=20`);
  const notice = await text(page, 'notice');
  assert.match(notice, /no game "salot"/);
  assert.equal(await page.isVisible('[data-role="notice"]'), true);
  assert.deepEqual(problems, []);
  await page.close();
});

test('Salto: a picked piece shows its goal; moons have a symbol', async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?variant=salto&side=white&think=20`);
  const board = JSON.parse((await engine(['variant salto', 'query board'])).responses[0]);
  const movable = await cells(page, 'data-movable');
  const from = movable[0];
  await page.click(`[data-cell="${from}"]`);
  const kind = await page.getAttribute(`[data-cell="${from}"]`, 'data-kind');
  const goals = board.regions.filter((r) => r.side === 'white' && (r.kind === null || r.kind === kind)).flatMap((r) => r.cells);
  assert.ok(goals.length > 0);
  assert.deepEqual((await cells(page, 'data-goal')).sort(), goals.sort());
  // Every moon is drawn with a symbol of some area.
  const moons = await page.$$eval('[data-cell][data-kind^="moon"] .symbol', (nodes) => nodes.map((n) => {
    const box = n.getBBox();
    return box.width * box.height;
  }));
  assert.equal(moons.length, 10);
  for (const area of moons) assert.ok(area > 20, `a moon's symbol has area ${area}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('Solomon: each point label sits nearest its own point; the move list counts moves', async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?variant=solomon&side=both&think=20&animate=0`);
  const far = await page.evaluate(() => {
    const centre = (node) => {
      const box = node.getBoundingClientRect();
      return [box.x + box.width / 2, box.y + box.height / 2];
    };
    const points = [...document.querySelectorAll('[data-cell] .point')].map((n) => [n.closest('[data-cell]').dataset.cell, centre(n)]);
    const wrong = [];
    for (const label of document.querySelectorAll('[data-label]')) {
      const [x, y] = centre(label);
      let best = null;
      for (const [name, [px, py]] of points) {
        const dist = Math.hypot(px - x, py - y);
        if (!best || dist < best.dist) best = { name, dist };
      }
      if (best.name !== label.dataset.label) wrong.push(`${label.dataset.label} nearest ${best.name}`);
    }
    return { wrong, count: points.length };
  });
  assert.equal(far.count, 19);
  assert.deepEqual(far.wrong, []);
  for (let i = 0; i < 3; i++) await enter(page, (await data(page)).legal.split(' ')[0]);
  const numbers = await page.$$eval('[data-role="moves"] [data-ply]', (nodes) => nodes.map((n) => n.dataset.number || ''));
  assert.deepEqual(numbers, ['1.', '', '2.']);
  assert.equal((await movesText(page)).split(/\s+/).length, 3, 'the list\'s text is the plies alone');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the game-over banner is beside the board, not on it', async () => {
  const fen = 'B:WK10:B';
  const { page, problems } = await openPage(browser.context, `${server.url}?variant=solomon&fen=${encodeURIComponent(fen)}`);
  assert.equal((await data(page)).state, 'over');
  const banner = await page.locator('[data-role="banner"]').boundingBox();
  const board = await page.locator('[data-role="board"]').boundingBox();
  assert.ok(banner && board);
  assert.equal(overlap(banner, board), false);
  assert.match(await text(page, 'banner'), /White wins/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a piece that may not move: the engine\'s reason is shown', async () => {
  // Solomon after 14-9: Black must take (2x12); its other pieces may not move.
  const fen = (await engine(['variant solomon', 'position startpos moves 14-9', 'query fen'])).responses[0];
  const { page, problems } = await openPage(browser.context, `${server.url}?variant=solomon&side=black&think=20&fen=${encodeURIComponent(fen)}`);
  assert.equal((await data(page)).state, 'human');
  assert.deepEqual(await cells(page, 'data-movable'), ['2']);
  assert.equal(await page.isVisible('[data-role="reason"]'), false);
  await page.click('[data-cell="5"]');
  await page.waitForSelector('[data-role="reason"]:not([hidden])');
  const why = (await engine(['variant solomon', `position fen ${fen}`, 'query why 5'])).responses[0];
  assert.equal((await text(page, 'reason')).trim(), why);
  assert.notEqual(why, 'movable');
  // A move clears it.
  await enter(page, '2x12');
  assert.equal(await page.isVisible('[data-role="reason"]'), false);
  assert.deepEqual(problems, []);
  await page.close();

  // Salto's forced jump: a piece that may not move, and a refused target of
  // the one piece that may (picked already, as the lone movable piece).
  const salto = (await engine(['variant salto', 'position startpos moves c3d4 h8g7 d4e5 g7f6', 'query fen'])).responses[0];
  const second = await openPage(browser.context, `${server.url}?variant=salto&side=white&think=20&fen=${encodeURIComponent(salto)}`);
  assert.deepEqual(await cells(second.page, 'data-selected'), ['e5']);
  const ask = async (what) => (await engine(['variant salto', `position fen ${salto}`, `query why ${what}`])).responses[0];
  await second.page.click('[data-cell="a3"]');
  await second.page.waitForSelector('[data-role="reason"]:not([hidden])');
  assert.equal((await text(second.page, 'reason')).trim(), await ask('a3'));
  await second.page.click('[data-cell="d6"]');
  await second.page.waitForFunction((t) => document.querySelector('[data-role="reason"]').textContent.trim() === t, await ask('e5d6'));
  assert.deepEqual(second.problems, []);
  await second.page.close();
});

test('hint: the move is marked on the board', async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?variant=pyramid&side=white&think=200`);
  assert.equal(await page.isDisabled('[data-role="hint"]'), false);
  await page.click('[data-role="hint"]');
  await idle(page);
  const d = await data(page);
  assert.equal(d.ply, '0', 'a hint plays nothing');
  const from = await cells(page, 'data-hint', 'from');
  const to = await cells(page, 'data-hint', 'to');
  assert.equal(from.length, 1);
  assert.equal(to.length, 1);
  const shown = (await text(page, 'prompt')).match(/Sigil would play (\S+)/)[1];
  assert.ok(d.legal.split(' ').includes(shown), `${shown} is legal`);
  const move = JSON.parse((await engine(['variant pyramid', `query move ${shown}`])).responses[0]);
  assert.deepEqual([from[0], to[0]], [move.from, move.to]);
  assert.equal(await page.locator('.hint-path').count(), 1);
  // Playing the hinted move by clicks works, and clears the hint.
  await enter(page, shown);
  assert.deepEqual(await cells(page, 'data-hint', 'to'), []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('analysis: three lines on the position shown, Stop, and on after a move', async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?variant=solomon&side=white&think=50`);
  await page.click('[data-role="analyse"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-role="analysis-lines"] li').length === 3);
  let d = await data(page);
  assert.equal(d.analysing, 'true');
  assert.equal(d.busy, 'false', 'the page takes clicks while Sigil analyses');
  const first = await page.$$eval('[data-role="analysis-lines"] li', (nodes) => nodes.map((n) => [n.dataset.multipv, n.dataset.move]));
  assert.deepEqual(first.map((l) => l[0]), ['1', '2', '3']);
  for (const [, move] of first) assert.ok(d.legal.split(' ').includes(move), `${move} is legal`);
  assert.equal(new Set(first.map((l) => l[1])).size, 3, 'three different moves');
  assert.equal(await page.isDisabled('[data-role="analysis-stop"]'), false);
  await page.click('[data-role="analysis-stop"]');
  await page.waitForSelector('[data-role="analysis-stop"][disabled]', { state: 'attached' });
  // A move (for White; in analysis the person moves for both sides): the
  // analysis goes on for Black, and Sigil does not reply.
  await enter(page, first[0][1]);
  d = await data(page);
  assert.equal(d.ply, '1');
  assert.equal(d.turn, 'black');
  await page.waitForFunction(() => document.querySelectorAll('[data-role="analysis-lines"] li').length > 0 &&
    !document.querySelector('[data-role="analysis-stop"]').disabled);
  const black = d.legal.split(' ');
  await page.waitForFunction((legal) => [...document.querySelectorAll('[data-role="analysis-lines"] li')]
    .every((n) => legal.includes(n.dataset.move)), black);
  // Step back: the analysis is of the start position again.
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.documentElement.dataset.view === '0');
  const start = (await engine(['variant solomon', 'query moves'])).responses[0].split(' ');
  await page.waitForFunction((legal) => {
    const lines = [...document.querySelectorAll('[data-role="analysis-lines"] li')];
    return lines.length === 3 && lines.every((n) => legal.includes(n.dataset.move));
  }, start);
  await page.click('[data-role="analyse"]');
  await idle(page);
  d = await data(page);
  assert.equal(d.analysing, 'false');
  // Out of analysis, Sigil plays Black again: it replies to the move.
  assert.equal(d.ply, '2');
  assert.equal(d.state, 'human');
  assert.equal(d.view, '2');
  assert.equal(d.fen, (await engine(['variant solomon', `position startpos moves ${await movesText(page)}`, 'query fen'])).responses[0]);
  assert.deepEqual(problems, []);
  await page.close();
});

test('levels: Sigil plays at the chosen Skill Level', async (t) => {
  const uci = await runEngine(['uci']);
  if (!uci.some((l) => l.startsWith('option name Skill Level'))) {
    t.skip('this engine has no Skill Level option');
    return;
  }
  const { page, problems } = await openPage(browser.context, `${server.url}?variant=pyramid&side=white&think=20&level=0`);
  assert.equal(await page.inputValue('[data-role="level"]'), '0');
  await enter(page, (await data(page)).legal.split(' ')[0]);
  assert.match(await text(page, 'log'), /setoption name Skill Level value 0/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('saving a game writes the record sigil-match writes; -replay accepts it', async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?variant=salto&side=white&think=10&animate=0`);
  for (let i = 0; i < 3; i++) await enter(page, (await data(page)).legal.split(' ')[0]);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-role="save"]')]);
  const file = join(scratch, 'saved.pgn');
  await download.saveAs(file);
  const pgn = readFileSync(file, 'utf8');
  const d = await data(page);
  const moves = (await movesText(page)).split(/\s+/);
  assert.match(pgn, /^\[Event "[^"]*"\]\n\[Site "\?"\]\n\[Date "\d{4}\.\d\d\.\d\d"\]\n/);
  for (const tag of ['Result "*"', 'SetUp "1"', `FEN "${(await engine(['variant salto', 'query fen'])).responses[0]}"`,
    'Variant "salto"', 'MoveLimit "120"', `PlyCount "${moves.length}"`])
    assert.ok(pgn.includes(`[${tag}]`), `the record has [${tag}]`);
  const body = pgn.split('\n\n')[1].trim();
  assert.equal(body, `1. ${moves[0]} ${moves[1]} 2. ${moves[2]} ${moves[3]} 3. ${moves[4]} ${moves[5]} *`);
  const replay = await runProgram(matchPath(), ['-replay', file]);
  assert.match(replay.out, /^#1 salto plies=6 board=\* recorded=\* ok fen=(\S+)/m, replay.out);
  assert.equal(replay.out.match(/fen=(.*)$/m)[1].trim(), d.fen);
  assert.deepEqual(problems, []);
  await page.close();
});

test('opening a record sigil-match wrote; stepping with clicks and arrow keys; playing on from a past position', async () => {
  const file = join(scratch, 'match.pgn');
  const made = await runProgram(matchPath(), ['-variant', 'alexander', '-engine', 'cmd=random', '-engine', 'cmd=random',
    '-games', '1', '-seed', '7', '-pgnout', file]);
  assert.equal(made.code, 0, made.out);
  const replay = await runProgram(matchPath(), ['-replay', file]);
  const line = replay.out.match(/^#1 alexander plies=(\d+) board=(\S+) recorded=\S+ ok fen=(.*)$/m);
  assert.ok(line, replay.out);
  const [, plies, board, finalFen] = line;
  const { page, problems } = await openPage(browser.context, `${server.url}?variant=solomon&side=white&think=20&animate=0`);
  await page.setInputFiles('[data-role="open"]', file);
  await page.waitForFunction((n) => document.documentElement.dataset.ply === n && document.documentElement.dataset.busy === 'false', plies);
  let d = await data(page);
  assert.equal(d.variant, 'alexander');
  assert.equal(d.fen, finalFen.trim());
  assert.equal(d.state, 'over');
  assert.equal({ p1win: '1-0', p2win: '0-1', draw: '1/2-1/2' }[d.result], board);
  const recorded = readFileSync(file, 'utf8').split('\n\n')[1].replace(/\{[^}]*\}/g, ' ').split(/\s+/)
    .filter((t) => t && !/^\d+\.+$/.test(t) && !['1-0', '0-1', '1/2-1/2', '*'].includes(t));
  assert.deepEqual((await movesText(page)).split(/\s+/), recorded);
  // The move numbers are the record's: `N.` before each White turn.
  const numbers = await page.$$eval('[data-role="moves"] [data-number]', (nodes) => nodes.map((n) => [Number(n.dataset.ply), n.dataset.number]));
  assert.deepEqual(numbers.slice(0, 3), [[1, '1.'], [5, '2.'], [9, '3.']]);

  // Click ply 4 in the list: the position after it is shown.
  await page.click('[data-role="moves"] [data-ply="4"]');
  d = await data(page);
  assert.equal(d.view, '4');
  assert.equal(d.ply, plies);
  const after = async (n) => (await engine(['variant alexander', `position startpos moves ${recorded.slice(0, n).join(' ')}`, 'query fen'])).responses[0];
  assert.equal(d.fen, await after(4));
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowRight');
  d = await data(page);
  assert.equal(d.view, '3');
  assert.equal(d.fen, await after(3));
  assert.equal(await page.isVisible('[data-role="continue"]'), true);
  await page.keyboard.press('ArrowRight');
  // Play on from here: the plies after 4 are taken back; White (the
  // person) is to roll.
  await page.click('[data-role="continue"]');
  await idle(page);
  d = await data(page);
  assert.equal(d.ply, '4');
  assert.equal(d.view, '4');
  assert.equal(d.state, 'human');
  assert.equal(d.chance, 'true');
  assert.equal(d.fen, await after(4));
  assert.deepEqual(problems, []);
  await page.close();
});

test('opening a FEN (file and field); a refused FEN keeps the game and shows why', async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?variant=lupta&side=both&think=20`);
  const fen = '....../....../..WB../....../...... w 11 11';
  const file = join(scratch, 'position.fen');
  writeFileSync(file, fen + '\n');
  await page.setInputFiles('[data-role="open"]', file);
  await page.waitForFunction((f) => document.documentElement.dataset.fen === f && document.documentElement.dataset.busy === 'false', fen);
  assert.equal((await data(page)).ply, '0');
  await page.fill('[data-role="fen"]', 'WWWWWW/WWWWWW/....../....../...... w 12 12');
  await page.click('[data-role="load-fen"]');
  await idle(page);
  assert.equal((await data(page)).fen, fen, 'the game stays');
  const refused = (await engine(['variant lupta', 'position fen WWWWWW/WWWWWW/....../....../...... w 12 12'])).out
    .find((l) => l.startsWith('info string error:'));
  assert.ok((await text(page, 'notice')).includes(refused.slice('info string error: '.length)));
  assert.deepEqual(problems, []);
  await page.close();
});

test('setting up a position by piece kinds; an illegal one is refused with the engine\'s reason', async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?variant=solomon&side=white&think=20`);
  await page.click('[data-role="setup"]');
  await idle(page);
  assert.equal((await data(page)).state, 'setup');
  const palette = await page.$$eval('[data-role="setup-piece"]', (nodes) => nodes.map((n) => `${n.dataset.side || ''}:${n.dataset.kind}`));
  assert.deepEqual(palette, ['white:man', 'white:king', 'black:man', 'black:king', ':']);
  await page.click('[data-role="setup-clear"]');
  await page.click('[data-role="setup-piece"][data-side="white"][data-kind="king"]');
  await page.click('[data-cell="10"]');
  await page.click('[data-role="setup-piece"][data-side="white"][data-kind="man"]');
  await page.click('[data-cell="1"]');             // a White man on 1 cannot exist
  await page.click('[data-role="setup-piece"][data-side="black"][data-kind="man"]');
  await page.click('[data-cell="3"]');
  await page.click('[data-cell="4"]');
  assert.equal(await page.inputValue('[data-role="setup-fen"]'), 'W:W1,K10:B3,4');
  await page.click('[data-role="setup-done"]');
  await idle(page);
  assert.equal((await data(page)).state, 'setup', 'refused: still setting up');
  const refused = (await engine(['variant solomon', 'position fen W:W1,K10:B3,4'])).out.find((l) => l.startsWith('info string error:'));
  assert.ok(refused);
  assert.ok((await text(page, 'notice')).includes(refused.slice('info string error: '.length)));
  // Remove the man on 1, Black to move: accepted.
  await page.click('[data-role="setup-piece"][data-kind=""]');
  await page.click('[data-cell="1"]');
  await page.selectOption('[data-role="setup-turn"]', 'black');
  assert.equal(await page.inputValue('[data-role="setup-fen"]'), 'B:WK10:B3,4');
  await page.selectOption('[data-role="side"]', 'black');
  await idle(page);
  await page.click('[data-role="setup-done"]');
  await idle(page);
  const d = await data(page);
  assert.equal(d.state, 'human');
  assert.equal(d.fen, 'B:WK10:B3,4');
  assert.equal(d.ply, '0');
  assert.deepEqual(problems, []);
  await page.close();
});

test('clocks: Sigil plays on its clock; a flag fall ends the game with the reason', async () => {
  // Sigil (White) on a clock of 1 min + 1 s: it gets wtime/btime/winc/binc.
  const { page, problems } = await openPage(browser.context, `${server.url}?variant=pyramid&side=black&clock=1%2B1`);
  let d = await data(page);
  assert.equal(d.ply, '1');
  assert.match(await text(page, 'log'), /> go wtime (\d+) btime (\d+) winc 1000 binc 1000\n/);
  assert.equal(await page.isVisible('[data-role="clocks"]'), true);
  const white = Number(await page.getAttribute('[data-role="time"][data-side="white"]', 'data-ms'));
  assert.ok(white > 55000 && white <= 61000, `White's clock ${white}`);
  assert.equal(await page.getAttribute('[data-role="time"][data-side="black"]', 'data-running'), 'true');
  // The person's move: Black's clock gets its second back (it ran at most
  // the time the move took), and Sigil gets the go with the times left.
  const ms = async (side) => Number(await page.getAttribute(`[data-role="time"][data-side="${side}"]`, 'data-ms'));
  const before = await ms('black');
  const t0 = Date.now();
  await enter(page, (await data(page)).legal.split(' ')[0]);
  const took = Date.now() - t0;
  const blackAfter = await ms('black');
  assert.ok(blackAfter >= before + 1000 - took - 150, `Black's clock ${before} -> ${blackAfter} in ${took} ms: the increment`);
  const gos = [...(await text(page, 'log')).matchAll(/> go wtime (\d+) btime (\d+) winc 1000 binc 1000\n/g)];
  assert.equal(gos.length, 2);
  assert.ok(Number(gos[1][2]) <= before + 1000 && Number(gos[1][2]) >= before + 1000 - took - 150,
    `Sigil is told Black's time: ${gos[1][2]}`);
  await page.close();

  // The person's flag: 0.02 min = 1.2 s, and nobody moves.
  const second = await openPage(browser.context, `${server.url}?variant=solomon&side=white&think=20&clock=0.02%2B0`);
  await second.page.waitForSelector('html[data-state="over"]', { state: 'attached', timeout: 10000 });
  await idle(second.page);
  d = await data(second.page);
  assert.equal(d.result, 'p2win');
  assert.match(await text(second.page, 'status'), /Black wins \(White's time ran out\)/);
  assert.equal(await second.page.getAttribute('[data-role="time"][data-side="white"]', 'data-ms'), '0');
  assert.deepEqual(problems, []);
  assert.deepEqual(second.problems, []);
  await second.page.close();
});

test('"proven draw" is shown when query value says so', async () => {
  // An engine whose `query value` answers as one with Solomon's proof books
  // does in a proven position (issue 21): the real engine behind a filter
  // that answers that one query itself.
  const script = join(scratch, 'proven.sh');
  writeFileSync(script, [
    '#!/bin/sh',
    'exec 3>&1',
    'while IFS= read -r line; do',
    '  if [ "$line" = "query value" ]; then printf \'response draw proven\\n\' >&3; else printf \'%s\\n\' "$line"; fi',
    `done | '${enginePath()}'`,
    '',
  ].join('\n'), { mode: 0o755 });
  const proven = await startServer(['/bin/sh', script]);
  try {
    const { page, problems } = await openPage(browser.context, `${proven.url}?variant=solomon&side=white&think=20`);
    assert.equal(await page.isVisible('[data-role="proven"]'), true);
    assert.equal((await text(page, 'proven')).trim(), 'proven draw');
    assert.match(await text(page, 'facts'), /proven draw/);
    await page.close();
    assert.deepEqual(problems, []);
  } finally {
    await proven.stop();
  }
  // The real engine without books: no mark.
  const { page, problems } = await openPage(browser.context, `${server.url}?variant=solomon&side=white&think=20`);
  assert.equal(await page.isVisible('[data-role="proven"]'), false);
  assert.deepEqual(problems, []);
  await page.close();
});
