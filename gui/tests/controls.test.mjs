// controls.test.mjs - the page's controls and the moves that take more than
// two clicks, through the data- attributes gui/README.md documents.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, startBrowser, openPage, idle, runEngine } from './harness.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await startBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

const data = (page) => page.evaluate(() => ({ ...document.documentElement.dataset }));
const cells = (page, attribute) => page.$$eval(`[data-cell][${attribute}="true"]`, (nodes) => nodes.map((n) => n.dataset.cell));
const movesText = async (page) => (await page.textContent('[data-role="moves"]')).trim();

async function engineFen(variant, start, moves) {
  const lines = await runEngine([`variant ${variant}`, `position ${start}${moves ? ' moves ' + moves : ''}`, 'query fen']);
  assert.deepEqual(lines.filter((l) => l.includes('error')), []);
  return lines.find((l) => l.startsWith('response ')).slice(9);
}

// Enters one given legal move the documented way: click the target, else
// the piece, whose data-moves names it, until the ply count grows.  With
// reply false it returns as soon as the move is played, while Sigil thinks.
async function enter(page, text, reply = true) {
  const ply = Number((await data(page)).ply);
  for (let i = 0; i < 6; i++) {
    const target = await page.$(`[data-cell][data-target="true"][data-moves~="${text}"]`);
    const piece = await page.$(`[data-cell][data-movable="true"][data-moves~="${text}"]:not([data-selected="true"])`);
    const button = await page.$(`[data-role="choice"][data-move="${text}"], [data-role="pass"][data-move="${text}"]:not([disabled])`);
    const node = target || button || piece;
    assert.ok(node, `something to click for ${text}`);
    await node.click();
    if (!reply) {
      const played = await page.waitForFunction((n) => Number(document.documentElement.dataset.ply) > n ||
        document.documentElement.dataset.busy === 'false', ply);
      await played.dispose();
    } else {
      await idle(page);
    }
    if (Number((await data(page)).ply) > ply) return;
  }
  assert.fail(`${text} was not played`);
}

async function centreY(page, cell) {
  const box = await page.locator(`[data-cell="${cell}"]`).boundingBox();
  return box.y + box.height / 2;
}

test('a move, Sigil\'s reply, undo, flip and new game', async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?variant=solomon&side=white&think=20&animate=1`);
  let d = await data(page);
  assert.equal(d.state, 'human');
  assert.equal(d.ply, '0');
  const start = d.fen;
  const movable = await cells(page, 'data-movable');
  assert.deepEqual(movable.sort(), (await page.getAttribute('html', 'data-legal')).split(' ').map((m) => m.split(/[-x]/)[0]).filter((v, i, a) => a.indexOf(v) === i).sort());
  await page.click(`[data-cell="${movable[0]}"]`);
  assert.deepEqual(await cells(page, 'data-selected'), [movable[0]]);
  const targets = await cells(page, 'data-target');
  assert.ok(targets.length > 0);
  await page.click(`[data-cell="${targets[0]}"]`);
  await idle(page);
  d = await data(page);
  assert.equal(d.ply, '2', 'the person moved and Sigil replied');
  assert.equal(d.turn, 'white');
  const moves = await movesText(page);
  assert.equal(moves.split(' ').length, 2);
  assert.equal(d.fen, await engineFen('solomon', 'startpos', moves));
  assert.match(await page.textContent('[data-role="analysis"]'), /Depth/);

  await page.click('[data-role="undo"]');
  await idle(page);
  d = await data(page);
  assert.equal(d.ply, '0');
  assert.equal(d.fen, start);
  assert.equal(await movesText(page), '');

  const top = await centreY(page, '1');
  assert.ok(top < (await centreY(page, '19')), 'White at the bottom');
  await page.click('[data-role="flip"]');
  assert.ok((await centreY(page, '1')) > (await centreY(page, '19')), 'flipped: White at the top');

  await enter(page, (await page.getAttribute('html', 'data-legal')).split(' ')[0]);
  assert.equal((await data(page)).ply, '2');
  await page.click('[data-role="new-game"]');
  await idle(page);
  d = await data(page);
  assert.equal(d.ply, '0');
  assert.equal(d.fen, start);
  assert.deepEqual(problems, []);
  await page.close();
});

test('playing Black: Sigil opens, the board is turned, the analysis is shown while it thinks', async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?variant=salto&side=black&think=50`);
  const d = await data(page);
  assert.equal(d.ply, '1');
  assert.equal(d.turn, 'black');
  assert.ok((await centreY(page, 'a1')) < (await centreY(page, 'b10')), 'Black at the bottom');
  // A long think, cut short with "Move now".
  await page.selectOption('[data-role="think-time"]', '10000');
  await enter(page, (await page.getAttribute('html', 'data-legal')).split(' ')[0], false);
  await page.waitForSelector('html[data-state="engine"]', { state: 'attached' });
  await page.waitForFunction(() => /Depth/.test(document.querySelector('[data-role="analysis"]').textContent));
  assert.match(await page.textContent('[data-role="analysis"]'), /Thinking/);
  assert.match(await page.textContent('[data-role="status"]'), /thinking/);
  const started = Date.now();
  await page.click('[data-role="move-now"]');
  await idle(page);
  assert.ok(Date.now() - started < 5000, 'Move now ends the search');
  assert.equal((await data(page)).ply, '3');
  assert.deepEqual(problems, []);
  await page.close();
});

test('Lupta: a step that makes a line, then the piece to take', async () => {
  const fen = 'BWBB.B/WWBW.W/WBWBWW/B.B..B/W.BBWW w 0 0';
  const url = `${server.url}?variant=lupta&side=white&think=20&fen=${encodeURIComponent(fen)}`;
  const { page, problems } = await openPage(browser.context, url);
  assert.equal((await data(page)).fen, fen);
  await page.click('[data-cell="e3"]');
  await page.click('[data-cell="e4"]');
  const choices = await cells(page, 'data-target');
  const legal = (await page.getAttribute('html', 'data-legal')).split(' ');
  assert.deepEqual(choices.sort(), legal.filter((m) => m.startsWith('e3e4x')).map((m) => m.slice(5)).sort());
  assert.ok(choices.length > 1);
  assert.match(await page.textContent('[data-role="prompt"]'), /take/);
  await page.click('[data-cell="c1"]');
  await idle(page);
  const moves = await movesText(page);
  assert.ok(moves.startsWith('e3e4xc1 '), moves);
  assert.equal((await data(page)).fen, await engineFen('lupta', `fen ${fen}`, moves));
  assert.deepEqual(problems, []);
  await page.close();
});

test('Pyramid: a side without a move clicks Pass', async () => {
  const fen = '3W1W1W/4W1W1/3W1W1W/W3W3/8/2B3B1/1B1B1B1B/B1B1B1B1 b -';
  const url = `${server.url}?variant=pyramid&side=black&think=20&fen=${encodeURIComponent(fen)}`;
  const { page, problems } = await openPage(browser.context, url);
  assert.equal(await page.getAttribute('html', 'data-legal'), '0000');
  assert.deepEqual(await cells(page, 'data-target'), []);
  assert.equal(await page.getAttribute('[data-role="pass"]', 'data-move'), '0000');
  await page.click('[data-role="pass"]');
  await idle(page);
  const moves = await movesText(page);
  assert.ok(moves.startsWith('0000 '), moves);
  assert.equal((await data(page)).fen, await engineFen('pyramid', `fen ${fen}`, moves));
  assert.deepEqual(problems, []);
  await page.close();
});

test('Alexander: the roll is shown on the dice and on the board', async () => {
  const { page, problems } = await openPage(browser.context, `${server.url}?variant=alexander&side=white&think=20`);
  assert.equal((await data(page)).chance, 'true');
  assert.equal(await page.isDisabled('[data-role="roll"]'), false);
  await page.click('[data-role="roll"]');
  await idle(page);
  const d = await data(page);
  assert.equal(d.chance, 'false');
  const rolled = (await movesText(page)).split(' ')[0];
  assert.equal(await page.getAttribute('[data-role="dice"]', 'data-rolled'), rolled);
  assert.deepEqual(await cells(page, 'data-rolled'), [rolled]);
  const board = JSON.parse((await runEngine(['variant alexander', 'query board'])).find((l) => l.startsWith('response ')).slice(9));
  const faces = await page.$$eval('[data-role="dice"] .die', (nodes) => nodes.map((n) => n.textContent));
  assert.deepEqual(faces, board.cells.find((c) => c.name === rolled).dice);
  assert.match(await page.textContent('[data-role="prompt"]'), new RegExp(`Rolled ${rolled}`));
  assert.deepEqual(problems, []);
  await page.close();
});

test('a change of side while Sigil thinks stops the search and throws its move away', async () => {
  const page = await browser.context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${server.url}?variant=pyramid&side=black&think=10000`);
  await page.waitForSelector('html[data-state="engine"]', { state: 'attached' });
  await page.waitForFunction(() => /Depth/.test(document.querySelector('[data-role="analysis"]').textContent));
  const started = Date.now();
  await page.selectOption('[data-role="side"]', 'both');
  await idle(page);
  assert.ok(Date.now() - started < 5000, 'the search was stopped');
  const d = await data(page);
  assert.equal(d.ply, '0');
  assert.equal(d.state, 'human');
  assert.equal(d.turn, 'white');
  assert.equal(d.fen, await engineFen('pyramid', 'startpos', ''));
  // The engine's game is still the page's: a move by clicks is accepted.
  await enter(page, d.legal.split(' ')[0]);
  assert.equal((await data(page)).ply, '1');
  assert.deepEqual(problems, []);
  await page.close();
});
