// record.test.mjs - js/record.js without a browser: move numbers, PGN
// written and read as sigil-match does, the FEN composed from pieces (for
// every game, checked against the engine's own FEN), clock times.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { moveNumbers, writePgn, readPgn, pgnMoves, composeFen, parseTimeControl, pgnTimeControl, formatClock, isProvenDraw } from '../js/record.js';
import { runEngine, runProgram, matchPath } from './harness.mjs';

const uci = await runEngine(['uci']);
const combo = uci.find((line) => line.startsWith('option name UCI_Variant')) || '';
const variants = [...combo.matchAll(/ var (\S+)/g)].map((m) => m[1]);

test('move numbers: N. before each White turn, N... when Black begins', () => {
  assert.deepEqual(moveNumbers(['white', 'black', 'white', 'black', 'white']), ['1.', '', '2.', '', '3.']);
  assert.deepEqual(moveNumbers(['black', 'white', 'black']), ['1...', '2.', '']);
  // Alexander: a roll and an action by one side are one turn.
  assert.deepEqual(moveNumbers(['white', 'white', 'black', 'black', 'white', 'white']), ['1.', '', '', '', '2.', '']);
  // Two White plies in a row after a Black one (a pass): one turn.
  assert.deepEqual(moveNumbers([]), []);
});

test('reading a record skips comments, variations, numbers, NAGs and the result', () => {
  assert.deepEqual(pgnMoves('1. c3d4 {+0.35/7 0.051s} h8g7 (1... a7b6) $1 2. d4e5 ; a comment\n g7f6 {end} 1-0'),
    ['c3d4', 'h8g7', 'd4e5', 'g7f6']);
  assert.deepEqual(pgnMoves('1...14-9 2. 5-8 *'), ['14-9', '5-8']);
  assert.equal(readPgn('W:W14:B1'), null, 'a FEN is no record');
  const two = readPgn('[Variant "salto"]\n[FEN "a \\"b\\""]\n\n1. c3d4 *\n\n[Variant "lupta"]\n\n1. c3 *\n');
  assert.deepEqual(two.tags, { Variant: 'salto', FEN: 'a "b"' });
  assert.deepEqual(two.moves, ['c3d4']);
});

test('a record written by the page is read back and replayed by sigil-match', async () => {
  const moves = (await runEngine(['variant solomon', 'position startpos moves 14-9', 'query moves'])).find((l) => l.startsWith('response ')).slice(9);
  const plies = [{ text: '14-9', side: 'white' }, { text: moves.split(' ')[0], side: 'black' }];
  const pgn = writePgn({
    date: new Date(2026, 11, 6), white: 'you', black: 'sigil', variant: 'solomon',
    fen: 'W:W14,15,16,17,18,19:B1,2,3,4,5,6', moveLimit: 0, result: 'none', termination: 'unterminated',
    margin: null, timeControl: '300+3', detail: '', plies,
  });
  assert.equal(pgn, [
    '[Event "Sigil in the browser"]', '[Site "?"]', '[Date "2026.12.06"]', '[Round "-"]', '[White "you"]',
    '[Black "sigil"]', '[Result "*"]', '[SetUp "1"]', '[FEN "W:W14,15,16,17,18,19:B1,2,3,4,5,6"]',
    '[Variant "solomon"]', '[Termination "unterminated"]', '[TimeControl "300+3"]', '[PlyCount "2"]', '',
    `1. 14-9 ${plies[1].text} *`, '', ''].join('\n'));
  const back = readPgn(pgn);
  assert.deepEqual(back.moves, plies.map((p) => p.text));
  const dir = mkdtempSync(join(tmpdir(), 'sigil-record-'));
  try {
    const file = join(dir, 'game.pgn');
    writeFileSync(file, pgn);
    const replay = await runProgram(matchPath(), ['-replay', file]);
    assert.match(replay.out, /^#1 solomon plies=2 board=\* recorded=\* ok /m, replay.out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a long record wraps before column 80 and ends with the reason and result', () => {
  const plies = Array.from({ length: 60 }, (_, i) => ({ text: i % 2 ? 'h8g7' : 'c3d4', side: i % 2 ? 'black' : 'white' }));
  const pgn = writePgn({ variant: 'salto', fen: 'x', moveLimit: 120, result: 'p1win', margin: 3, detail: 'all pieces on targets', plies });
  const body = pgn.split('\n\n')[1];
  for (const line of body.split('\n')) assert.ok(line.length <= 79, line);
  assert.ok(body.endsWith('{all pieces on targets} 1-0'));
  assert.ok(pgn.includes('[MoveLimit "120"]\n[Termination "normal"]\n[Margin "3"]\n[PlyCount "60"]'));
  assert.deepEqual(readPgn(pgn).moves, plies.map((p) => p.text));
});

// The position editor writes a FEN in the form of the game's own: composed
// from the pieces of a position, it must be that position's FEN (for the
// start and for a position after some plies, in every game).
for (const variant of variants) {
  test(`composing a FEN from pieces: ${variant}`, async () => {
    const moves = (await runEngine([`variant ${variant}`, 'query moves'])).find((l) => l.startsWith('response ')).slice(9).split(' ');
    const lines = [`variant ${variant}`, 'query board', 'query position',
      `position startpos moves ${moves[moves.length - 1]}`, 'query position'];
    const responses = (await runEngine(lines)).filter((l) => l.startsWith('response ')).map((l) => JSON.parse(l.slice(9)));
    const [board, ...positions] = responses;
    for (const p of positions) {
      const pieces = new Map(p.pieces.map((x) => [x.cell, { side: x.side, kind: x.kind }]));
      assert.equal(composeFen(board, p.fen, pieces, p.turn), p.fen);
    }
    // The other side to move, and a piece removed: the engine reads it back
    // as the same pieces (or refuses it with a reason, never crashes).
    const p = positions[0].pieces.length ? positions[0] : positions[1];
    const pieces = new Map(p.pieces.map((x) => [x.cell, { side: x.side, kind: x.kind }]));
    pieces.delete(p.pieces[0].cell);
    const other = p.turn === 'white' ? 'black' : 'white';
    const fen = composeFen(board, p.fen, pieces, other);
    const check = await runEngine([`variant ${variant}`, `position fen ${fen}`, 'query position']);
    const errors = check.filter((l) => l.startsWith('info string error'));
    if (errors.length === 0) {
      const back = JSON.parse(check.find((l) => l.startsWith('response ')).slice(9));
      assert.equal(back.turn, other);
      assert.deepEqual(back.pieces.map((x) => `${x.cell}${x.side}${x.kind}`).sort(),
        [...pieces].map(([cell, x]) => `${cell}${x.side}${x.kind}`).sort());
    } else {
      assert.match(errors[0], /FEN/);
    }
  });
}

test('time controls and clocks', () => {
  assert.deepEqual(parseTimeControl('5+3'), { base: 300000, inc: 3000 });
  assert.deepEqual(parseTimeControl('0.02+0'), { base: 1200, inc: 0 });
  assert.equal(parseTimeControl('none'), null);
  assert.equal(parseTimeControl('0+5'), null);
  assert.equal(pgnTimeControl({ base: 300000, inc: 3000 }), '300+3');
  assert.equal(formatClock(300000), '5:00');
  assert.equal(formatClock(61000), '1:01');
  assert.equal(formatClock(9500), '0:09.5');
  assert.equal(formatClock(-5), '0:00.0');
  assert.equal(formatClock(3723000), '1:02:03');
  assert.equal(isProvenDraw('draw proven'), true);
  assert.equal(isProvenDraw('draw proven by book'), true);
  assert.equal(isProvenDraw('draw'), false);
  assert.equal(isProvenDraw('unknown'), false);
});

