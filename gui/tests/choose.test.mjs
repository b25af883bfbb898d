// choose.test.mjs - how clicks pick a move (gui/js/choose.js), on move
// objects shaped like the engine's `query move` answers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { distinguishing, narrow, offerFor, pliesToUndo } from '../js/choose.js';

const move = (text, kind, from, to, path, captures = []) =>
  ({ move: text, kind, side: 'white', piece: 'x', from, to, path, captures, promotion: null, roll: null });

test('moves that share start and target differ in what they take', () => {
  const removals = [
    move('c3c4xe2', 'removal', 'c3', 'c4', ['c3', 'c4'], ['e2']),
    move('c3c4xb5', 'removal', 'c3', 'c4', ['c3', 'c4'], ['b5']),
  ];
  assert.deepEqual([...distinguishing(removals)].sort(), ['b5', 'e2']);
  assert.deepEqual(narrow(removals, 'b5').map((m) => m.move), ['c3c4xb5']);
  const offer = offerFor(removals, 'c3', null);
  assert.deepEqual([...offer.targets.keys()], ['c4']);
  assert.equal(offer.targets.get('c4').length, 2);
  const next = offerFor(removals, 'c3', offer.targets.get('c4'));
  assert.deepEqual([...next.targets.keys()].sort(), ['b5', 'e2']);
  assert.deepEqual(next.targets.get('e2').map((m) => m.move), ['c3c4xe2']);
});

test('two chains between the same points are told apart by the way they go', () => {
  const chains = [
    move('10x2x12', 'chain', '10', '12', ['10', '2', '12'], ['7', '9']),
    move('10x19x12', 'chain', '10', '12', ['10', '19', '12'], ['16', '15']),
    move('10x14', 'jump', '10', '14', ['10', '14'], ['12']),
  ];
  const offer = offerFor(chains, null, null);
  assert.equal(offer.selected, '10', 'the only piece that can move is picked');
  assert.deepEqual([...offer.targets.keys()].sort(), ['12', '14']);
  assert.equal(offer.targets.get('14').length, 1);
  const next = offerFor(chains, '10', offer.targets.get('12'));
  assert.deepEqual([...next.targets.keys()].sort(), ['15', '16', '19', '2', '7', '9']);
  for (const cell of ['2', '7', '9']) assert.deepEqual(next.targets.get(cell).map((m) => m.move), ['10x2x12']);
});

test('moves no click can tell apart are offered by name', () => {
  const same = [move('a', 'step', '1', '2', ['1', '2']), move('b', 'step', '1', '2', ['1', '2'])];
  const offer = offerFor(same, '1', same);
  assert.equal(offer.targets.size, 0);
  assert.deepEqual(offer.others.map((m) => m.move), ['a', 'b']);
});

test('placements, passes and a shared target', () => {
  const placements = [move('a1', 'placement', null, 'a1', ['a1']), move('b2', 'placement', null, 'b2', ['b2'])];
  const offer = offerFor(placements, null, null);
  assert.deepEqual([...offer.targets.keys()], ['a1', 'b2']);
  assert.equal(offer.movable.size, 0);
  const pass = offerFor([move('0000', 'pass', null, null, [])], null, null);
  assert.equal(pass.pass.move, '0000');
  assert.equal(pass.targets.size, 0);
  const entries = [move('a1c4', 'entry', 'a1', 'c4', ['a1', 'c4']), move('b1c4', 'entry', 'b1', 'c4', ['b1', 'c4'])];
  const first = offerFor(entries, null, null);
  assert.ok(first.destinationFirst);
  assert.deepEqual([...first.targets.keys()], ['c4']);
  const then = offerFor(entries, null, first.targets.get('c4'));
  assert.deepEqual([...then.targets.keys()].sort(), ['a1', 'b1']);
  const steps = [move('a1b2', 'step', 'a1', 'b2', ['a1', 'b2']), move('c1b2', 'step', 'c1', 'b2', ['c1', 'b2']), move('c1d2', 'step', 'c1', 'd2', ['c1', 'd2'])];
  assert.equal(offerFor(steps, null, null).targets.size, 0, 'no shared target: pick a piece first');
});

test('undo goes back to the start of the person\'s previous turn', () => {
  const at = (turn, result = 'none') => ({ turn, result });
  const white = new Set(['white']);
  // A game of single moves: W B W (now) -> back two plies.
  assert.equal(pliesToUndo([at('white'), at('black'), at('white')], white), 2);
  // Sigil is to move after the person's move: one ply.
  assert.equal(pliesToUndo([at('white'), at('black')], white), 1);
  // Dice: W rolls, W acts, B rolls, B acts, W rolls (now), W acts (now): four plies back
  // to before the person's previous roll, also in the middle of a turn.
  const dice = [at('white'), at('white'), at('black'), at('black'), at('white')];
  assert.equal(pliesToUndo(dice, white), 4);
  assert.equal(pliesToUndo([...dice, at('white')], white), 5);
  // The person plays Black and Sigil opened: nothing of theirs to take back.
  assert.equal(pliesToUndo([at('white'), at('black')], new Set(['black'])), 0);
  // Both sides or none: one ply.
  assert.equal(pliesToUndo([at('white'), at('black')], new Set(['white', 'black'])), 1);
  assert.equal(pliesToUndo([at('white')], new Set(['white', 'black'])), 0);
  // The person's move ended the game: that move goes back.
  assert.equal(pliesToUndo([at('white'), at('black'), at('white'), at('black', 'p1win')], white), 1);
});
