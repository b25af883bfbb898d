// phone.test.mjs - the page on a phone: Chromium with a phone's viewport
// (390 x 844 CSS pixels, touch, mobile).  No sideways scrolling, the board
// as wide as the screen, the status on the first screen, moves by taps.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, startBrowser, openPage, idle, runEngine } from './harness.mjs';

const shots = process.env.GUI_SCREENSHOTS || join(tmpdir(), 'sigil-gui-screenshots');
const WIDTH = 390;
const HEIGHT = 844;
let server;
let browser;

before(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startServer();
  browser = await startBrowser({ viewport: { width: WIDTH, height: HEIGHT }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

const data = (page) => page.evaluate(() => ({ ...document.documentElement.dataset }));

// Taps a legal move in (gui/README.md, "Entering a given legal move", with
// taps for clicks).
async function tapIn(page, move) {
  const ply = Number((await data(page)).ply);
  for (let i = 0; i < 6; i++) {
    const node = await page.$(`[data-role="pass"][data-move="${move}"]:not([disabled])`) ||
      await page.$(`[data-cell][data-target="true"][data-moves~="${move}"]`) ||
      await page.$(`[data-cell][data-movable="true"][data-moves~="${move}"]:not([data-selected="true"])`);
    assert.ok(node, `something to tap for ${move}`);
    await node.tap();
    await idle(page);
    if (Number((await data(page)).ply) > ply) return;
  }
  assert.fail(`${move} was not played`);
}

async function layout(page) {
  return page.evaluate(() => {
    const box = (role) => {
      const r = document.querySelector(`[data-role="${role}"]`).getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height, bottom: r.bottom, right: r.right };
    };
    return {
      scrollWidth: document.documentElement.scrollWidth,
      bodyWidth: document.body.scrollWidth,
      board: box('board'),
      status: box('status'),
      variant: box('variant'),
      side: box('side'),
      level: box('level'),
      thinkTime: box('think-time'),
    };
  });
}

for (const variant of ['solomon', 'salto', 'alexander']) {
  test(`a phone: ${variant} fits, the status is on the first screen, moves by taps`, async () => {
    const { page, problems } = await openPage(browser.context, `${server.url}?variant=${variant}&side=white&think=20&animate=0&seed=5`);
    const l = await layout(page);
    assert.ok(l.scrollWidth <= WIDTH, `no sideways scrolling: the page is ${l.scrollWidth} px wide`);
    assert.ok(l.bodyWidth <= WIDTH, `the body is ${l.bodyWidth} px wide`);
    assert.ok(l.board.width >= WIDTH * 0.9 && l.board.right <= WIDTH, `the board spans the width: ${JSON.stringify(l.board)}`);
    assert.ok(l.status.bottom <= HEIGHT && l.status.y >= 0, `the status is on the first screen: ${JSON.stringify(l.status)}`);
    assert.ok(l.status.y < l.board.y, 'the status is above the board');
    for (const control of ['variant', 'side', 'level', 'thinkTime'])
      assert.ok(l[control].right <= WIDTH && l[control].x >= 0, `${control} is on the screen: ${JSON.stringify(l[control])}`);
    assert.match(await page.textContent('[data-role="status"]'), /White to (move|roll): your turn/);

    // Two moves by taps (Sigil replies to each).
    for (let i = 0; i < 2; i++) {
      const d = await data(page);
      if (d.chance === 'true') {
        await page.tap('[data-role="roll"]');
        await idle(page);
      }
      await tapIn(page, (await data(page)).legal.split(' ')[0]);
    }
    const d = await data(page);
    const moves = (await page.textContent('[data-role="moves"]')).trim();
    const check = await runEngine([`variant ${variant}`, `position startpos moves ${moves}`, 'query fen']);
    assert.deepEqual(check.filter((x) => x.includes('error')), []);
    assert.equal(d.fen, check.find((x) => x.startsWith('response ')).slice(9));
    if (variant !== 'alexander') assert.equal(d.ply, '4');
    // Sigil thinking is shown in the status, also on the first screen.
    if (variant === 'solomon') await page.screenshot({ path: join(shots, 'phone-solomon.png') });
    if (variant === 'salto') await page.screenshot({ path: join(shots, 'phone-salto.png') });
    assert.equal((await layout(page)).scrollWidth <= WIDTH, true);
    assert.deepEqual(problems, []);
    await page.close();
  });
}
