// games.test.mjs - in every game the engine offers, a whole game is played
// through the page by clicks only (the person plays White with random legal
// clicks, Sigil plays Black at a tiny think time), using nothing but the
// data- attributes gui/README.md documents.  The result the page shows must
// be what a separate engine process says for the same move list.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, startBrowser, openPage, idle, runEngine, random } from './harness.mjs';

const shots = process.env.GUI_SCREENSHOTS || join(tmpdir(), 'sigil-gui-screenshots');
const seed = Number(process.env.GUI_SEED || 20261201);
let server;
let browser;

// The games, as the engine lists them in its UCI_Variant combo.
const uci = await runEngine(['uci']);
const combo = uci.find((line) => line.startsWith('option name UCI_Variant')) || '';
const variants = [...combo.matchAll(/ var (\S+)/g)].map((m) => m[1]);

before(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startServer();
  browser = await startBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

// Everything a person could click now, read from the documented attributes.
async function clickables(page) {
  return page.evaluate(() => {
    const enabled = (role) => {
      const node = document.querySelector(`[data-role="${role}"]`);
      return node && !node.disabled && !node.hidden;
    };
    const cells = (attribute) => [...document.querySelectorAll(`[data-cell][${attribute}="true"]`)].map((n) => n.dataset.cell);
    return {
      state: document.documentElement.dataset.state,
      roll: enabled('roll'),
      pass: enabled('pass'),
      choices: [...document.querySelectorAll('[data-role="choice"]')].map((n) => n.dataset.move),
      targets: cells('data-target'),
      movable: cells('data-movable'),
      selected: cells('data-selected'),
    };
  });
}

function pick(rnd, list) {
  return list[Math.floor(rnd() * list.length)];
}

async function playOneClick(page, rnd) {
  const offer = await clickables(page);
  assert.equal(offer.state, 'human', 'the page waits for the person');
  if (offer.roll) return page.click('[data-role="roll"]');
  if (offer.pass) return page.click('[data-role="pass"]');
  if (offer.choices.length) return page.click(`[data-role="choice"][data-move="${pick(rnd, offer.choices)}"]`);
  // Now and then pick another piece first, as a person would.
  if (offer.targets.length && (offer.movable.length <= 1 || rnd() < 0.85))
    return page.click(`[data-cell="${pick(rnd, offer.targets)}"]`);
  const others = offer.movable.filter((c) => !offer.selected.includes(c));
  assert.ok(others.length || offer.targets.length, 'something to click');
  return page.click(`[data-cell="${others.length ? pick(rnd, others) : pick(rnd, offer.targets)}"]`);
}

async function rootData(page) {
  return page.evaluate(() => ({ ...document.documentElement.dataset }));
}

test('the page offers every game the engine lists', async () => {
  const { page, problems } = await openPage(browser.context, server.url);
  const options = await page.$$eval('[data-role="variant"] option', (nodes) => nodes.map((n) => n.value));
  assert.deepEqual(options, variants);
  assert.ok(variants.length > 0, 'the engine lists its games');
  assert.equal(new Set(variants).size, variants.length, 'each game once');
  assert.deepEqual(problems, []);
  await page.close();
});

for (const [index, variant] of variants.entries()) {
  test(`a whole game of ${variant} by clicks`, { timeout: 240000 }, async () => {
    const rnd = random(seed + index);
    const url = `${server.url}?variant=${variant}&side=white&think=10&animate=0&seed=${seed + index}`;
    const { page, problems } = await openPage(browser.context, url);

    // Every cell of the board is drawn, named as in the notation.
    const board = JSON.parse((await runEngine([`variant ${variant}`, 'query board']))
      .find((l) => l.startsWith('response ')).slice(9));
    const drawn = await page.$$eval('[data-cell]', (nodes) => nodes.map((n) => n.dataset.cell));
    assert.deepEqual([...drawn].sort(), board.cells.map((c) => c.name).sort());

    let shot = false;
    for (let clicks = 0; ; clicks++) {
      assert.ok(clicks < 5000, 'the game ends');
      const data = await rootData(page);
      if (data.state === 'over') break;
      if (!shot && Number(data.ply) >= 12) {
        const offer = await clickables(page);
        if (offer.targets.length && offer.state === 'human') {
          await page.screenshot({ path: join(shots, `${variant}.png`) });
          shot = true;
        }
      }
      await playOneClick(page, rnd);
      await idle(page);
    }

    const data = await rootData(page);
    const moves = (await page.textContent('[data-role="moves"]')).trim().split(/\s+/);
    assert.equal(moves.length, Number(data.ply));
    const status = await page.textContent('[data-role="status"]');
    const check = await runEngine([`variant ${variant}`, `position startpos moves ${moves.join(' ')}`, 'query result', 'query fen', 'query position']);
    const responses = check.filter((l) => l.startsWith('response '));
    assert.deepEqual(check.filter((l) => l.includes('error')), [], 'the move list replays');
    assert.equal(data.result, responses[0].slice(9), 'the result shown is the engine\'s');
    assert.equal(data.fen, responses[1].slice(9), 'the final position is the engine\'s');
    // The reason and margin, as the engine's `query position` gives them
    // (queries answer one line: the reason is no longer an info line).
    const end = JSON.parse(responses[2].slice(9));
    assert.ok(end.reason, 'the engine gives a reason');
    assert.ok(status.includes(end.reason), `status "${status}" gives the reason "${end.reason}"`);
    if (end.margin !== null) assert.ok(status.includes(`margin ${end.margin}`), `status "${status}" gives the margin`);
    if (!shot) await page.screenshot({ path: join(shots, `${variant}.png`) });
    assert.deepEqual(problems, []);
    await page.close();
  });
}
