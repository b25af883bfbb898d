// app.js - the page: a game against engine/sigil in the browser.
//
// This file contains no rule of any game.  Everything it shows comes from
// the engine: the list of games from `uci`, the board from `query board`, the
// position from `query position`, the legal moves (and what each one does)
// from `query legal` (the `query move` object of every move `query moves`
// lists), the end of the game from `query position`'s result.  The page only
// turns clicks into one of the moves the engine offered.

import { Engine } from './engine.js';
import { drawBoard, animateMove, drawHover } from './board.js';
import { offerFor, pliesToUndo } from './choose.js';

const $ = (role) => document.querySelector(`[data-role="${role}"]`);
const root = document.documentElement;
const params = new URLSearchParams(location.search);

const ui = {
  engine: null,
  variants: [],           // names, as the engine's UCI_Variant combo lists them
  boards: new Map(),      // name -> `query board` object
  variant: null,
  board: null,
  position: null,         // `query position` of the current position
  legal: [],              // `query legal`: one `query move` object per legal move
  history: [],            // per ply: {text, move, before} (before: the position before it)
  sides: new Set(['white']),  // the sides the person plays
  think: 1000,            // Sigil's time per move, ms
  animate: params.get('animate') !== '0',
  flipped: false,
  selected: null,         // the cell of the piece the person has picked
  candidates: null,       // moves still in question after from and to were clicked
  busy: true,
  generation: 0,          // bumped by new game/undo/variant: stale engine work stops
  engineThinking: false,
  lastMove: null,
  offer: null,            // what can be clicked now (see computeOffer)
  geometry: null,
  analysis: null,
};

const STEP_MS = 180;      // animation time per step of a path

// ------------------------------------------------------------------ engine

function log(direction, line) {
  const pre = $('log');
  const text = (direction === 'out' ? '> ' : '< ') + line + '\n';
  pre.textContent = (pre.textContent + text).split('\n').slice(-400).join('\n');
}

function engineUrl() {
  if (params.get('engine')) return params.get('engine');
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/`;
}

async function start() {
  if (location.protocol === 'file:') {
    fail('This page talks to the engine through websocketd. Start it with ' +
      '"websocketd --port 8080 --staticdir gui engine/sigil" and open http://localhost:8080/.');
    return;
  }
  const engine = new Engine(engineUrl());
  ui.engine = engine;
  engine.onLine = log;
  engine.onInfo = onInfo;
  engine.onClose = () => {
    if (root.dataset.state !== 'error')
      fail('The connection to the engine was lost. Reload the page to start again.');
  };
  try {
    await engine.connect();
  } catch (error) {
    fail(`Cannot reach the engine (${error.message}). Is websocketd running?`);
    return;
  }
  const uci = await engine.uci();
  const combo = uci.lines.find((line) => /^option name UCI_Variant type combo/.test(line));
  ui.variants = combo ? [...combo.matchAll(/ var (\S+)/g)].map((m) => m[1]) : [];
  if (ui.variants.length === 0) {
    const answer = await engine.query('variant');
    ui.variants = [answer.text];
  }
  if (params.get('seed')) await engine.command(`setoption name Seed value ${params.get('seed')}`);
  for (const name of ui.variants) {
    await engine.command(`variant ${name}`);
    ui.boards.set(name, await engine.queryJson('board'));
  }
  const select = $('variant');
  for (const name of ui.variants) {
    const option = document.createElement('option');
    option.value = name;
    option.textContent = `${name} — ${ui.boards.get(name).title}`;
    select.appendChild(option);
  }
  applyParams();
  wireControls();
  await newGame();
}

function applyParams() {
  const variant = params.get('variant');
  $('variant').value = ui.variants.includes(variant) ? variant : ui.variants[0];
  const side = params.get('side');
  if (side && [...$('side').options].some((o) => o.value === side)) $('side').value = side;
  const think = params.get('think');
  if (think && /^\d+$/.test(think) && Number(think) > 0) {
    const select = $('think-time');
    if (![...select.options].some((o) => o.value === think)) {
      const option = document.createElement('option');
      option.value = think;
      option.textContent = `${Number(think) / 1000} s`;
      select.appendChild(option);
    }
    select.value = think;
  }
  readSides();
  ui.think = Number($('think-time').value);
}

function readSides() {
  const value = $('side').value;
  ui.sides = new Set(value === 'both' ? ['white', 'black'] : value === 'none' ? [] : [value]);
}

function fail(message) {
  root.dataset.state = 'error';
  root.dataset.busy = 'false';
  $('status').textContent = message;
}

function reportError(error) {
  // Shown to the person (the status line); never a console error.
  $('status').textContent = `Something went wrong: ${error.message}`;
  setBusy(false);
  render();
}

// ------------------------------------------------------------------ game flow

function sideName(side) {
  const entry = ui.board && ui.board.sides.find((s) => s.side === side);
  return entry ? entry.name : side;
}

function gameOver() {
  return ui.position && ui.position.result !== 'none';
}

function personToAct() {
  return ui.position && !gameOver() && ui.sides.has(ui.position.turn);
}

function setBusy(busy) {
  ui.busy = busy;
  root.dataset.busy = busy ? 'true' : 'false';
}

async function refresh() {
  const engine = ui.engine;
  ui.position = await engine.queryJson('position');
  ui.legal = ui.position.result === 'none' ? await engine.queryJson('legal') : [];
  ui.selected = null;
  ui.candidates = null;
}

// Every change of the game runs as one task at a time.  A new task first
// makes the running one give up (its search is stopped and its bestmove
// thrown away) and waits until it has, so two never talk to the engine at
// once.  Each task gets its generation; work of an older one stops.
let currentTask = Promise.resolve();

function runTask(work) {
  ui.generation++;
  const generation = ui.generation;
  if (ui.engineThinking) ui.engine.stop();
  const previous = currentTask;
  setBusy(true);
  currentTask = (async () => {
    await previous;
    if (generation !== ui.generation) return;
    if (ui.stale) {
      // The task before gave up after a ply reached the engine.
      await refresh();
      ui.stale = false;
    }
    await work(generation);
  })().catch(reportError);
  return currentTask;
}

function newGame() {
  return runTask(async (generation) => {
    ui.variant = $('variant').value;
    ui.board = ui.boards.get(ui.variant);
    readSides();
    ui.flipped = ui.sides.size === 1 && ui.sides.has('black');
    await ui.engine.command(`variant ${ui.variant}`);
    await ui.engine.command('ucinewgame');
    const fen = params.get('fen');
    if (fen && ui.variant === params.get('variant')) {
      // A position to start from (?fen=...), for the game it was given for.
      const answer = await ui.engine.command(`position fen ${fen}`);
      if (answer.errors.length) throw new Error(`the FEN was refused: ${answer.errors.join('; ')}`);
    }
    ui.history = [];
    ui.lastMove = null;
    ui.analysis = null;
    $('title').textContent = ui.board.title;
    renderLegend();
    renderAnalysis();
    await refresh();
    await advance(generation);
  });
}

// Plays the engine's turns until the person is to act or the game is over.
async function advance(generation) {
  while (generation === ui.generation) {
    render();
    if (gameOver() || personToAct()) break;
    const mover = ui.position.turn;
    if (ui.position.chance) {
      await engineRoll(generation);
    } else {
      ui.engineThinking = true;
      ui.analysis = { side: mover };
      render();
      renderAnalysis();
      let reply;
      try {
        reply = await ui.engine.go(`movetime ${ui.think}`);
      } finally {
        ui.engineThinking = false;
      }
      renderAnalysis();
      if (generation !== ui.generation) return;
      const move = await ui.engine.queryJson(`move ${reply.best}`);
      if (generation !== ui.generation) return;
      await play(move, mover, generation);
    }
    if (ui.sides.size === 0 && ui.animate && generation === ui.generation)
      await new Promise((resolve) => setTimeout(resolve, 300));
  }
  if (generation === ui.generation) {
    setBusy(false);
    render();
  }
}

// The dice of the engine: `roll` draws one, plays it and names the cell.
async function engineRoll(generation) {
  const before = ui.position;
  const answer = await ui.engine.command('roll');
  if (answer.errors.length) throw new Error(answer.errors.join('; '));
  const line = answer.lines.find((l) => l.startsWith('roll '));
  const cell = line ? line.split(/\s+/)[1] : null;
  ui.history.push({ text: cell, move: { kind: 'roll', roll: cell, path: [], captures: [] }, before });
  if (generation !== ui.generation) {
    ui.stale = true;
    return;
  }
  await showRoll(cell);
  await refresh();
}

// Plays a legal move (a `query move` object) on the engine's game.
async function play(move, mover, generation) {
  const before = ui.position;
  const answer = await ui.engine.command(`move ${move.move}`);
  if (answer.errors.length) throw new Error(answer.errors.join('; '));
  ui.history.push({ text: move.move, move, before });
  ui.lastMove = move;
  if (generation !== ui.generation) {
    ui.stale = true;
    return;
  }
  if (ui.animate && ui.geometry) {
    drawHover($('board'), ui.geometry, []);
    await animateMove($('board'), ui.board, ui.geometry, move, mover, STEP_MS);
  }
  await refresh();
}

function personPlays(move) {
  ui.selected = null;
  ui.candidates = null;
  return runTask(async (generation) => {
    await play(move, ui.position.turn, generation);
    await advance(generation);
  });
}

function personRolls() {
  if (!personToAct() || !ui.position.chance || ui.busy) return;
  runTask(async (generation) => {
    await engineRoll(generation);
    await advance(generation);
  });
}

function undoCount() {
  return pliesToUndo([...ui.history.map((h) => h.before), ui.position], ui.sides);
}

function undo() {
  if (undoCount() === 0) return;
  runTask(async (generation) => {
    const count = undoCount();
    if (count === 0) return advance(generation);
    const answer = await ui.engine.command(`undo ${count}`);
    if (answer.errors.length) throw new Error(answer.errors.join('; '));
    ui.history.splice(ui.history.length - count, count);
    const last = [...ui.history].reverse().find((h) => h.move.kind !== 'roll');
    ui.lastMove = last ? last.move : null;
    await refresh();
    await advance(generation);
  });
}

// ------------------------------------------------------------------ clicks

// What the person can click now (see choose.js), with the words that say so.
function computeOffer() {
  const none = { movable: new Set(), targets: new Map(), roll: false, pass: null, others: [], prompt: '' };
  if (!personToAct() || ui.busy) return none;
  const position = ui.position;
  if (position.chance) return { ...none, roll: true, prompt: 'Roll the dice: click "Roll the dice".' };
  const offer = offerFor(ui.legal, ui.selected, ui.candidates);
  ui.selected = offer.selected;
  ui.candidates = offer.candidates;
  offer.roll = false;
  if (offer.candidates) {
    const cells = [...offer.targets.keys()];
    const to = offer.candidates[0].to;
    const takes = (cell) => offer.candidates.some((m) => (m.captures || []).includes(cell));
    if (cells.length === 0) offer.prompt = `Several moves go to ${to}: choose one beside the board.`;
    else if (cells.every((c) => offer.candidates.some((m) => m.from === c)))
      offer.prompt = `Click the piece that goes to ${to}.`;
    else if (cells.every(takes))
      offer.prompt = `That move to ${to} takes a piece of your choice: click the highlighted piece to take.`;
    else offer.prompt = `Several moves end on ${to}: click a highlighted cell on the way you want to go.`;
  } else if (offer.selected) {
    offer.prompt = `Click a highlighted cell to move the piece on ${offer.selected} there` +
      (offer.movable.size > 1 ? ', or pick another piece.' : '.');
  } else {
    const parts = [];
    if (offer.placements) parts.push('click a highlighted empty cell to place a piece');
    if (offer.movable.size) parts.push(offer.destinationFirst
      ? `click the piece that goes to ${[...offer.targets.keys()][0]} (or that cell first)`
      : 'click one of your highlighted pieces');
    if (offer.pass) parts.push('click "Pass": you have no other move');
    if (offer.others.length) parts.push('click one of the moves beside the board');
    offer.prompt = parts.length ? parts.join('; ').replace(/^./, (c) => c.toUpperCase()) + '.' : '';
  }
  if (position.roll && !offer.candidates) offer.prompt = `Rolled ${position.roll}. ` + offer.prompt;
  return offer;
}

function onCellClick(cell) {
  if (ui.busy || !personToAct() || !ui.offer) return;
  const moves = ui.offer.targets.get(cell);
  if (moves && moves.length === 1) {
    personPlays(moves[0]);
    return;
  }
  if (moves && moves.length > 1) {
    ui.candidates = moves;
  } else if (ui.offer.movable.has(cell) && cell !== ui.selected) {
    ui.selected = cell;
    ui.candidates = null;
  } else {
    ui.selected = null;
    ui.candidates = null;
  }
  render();
}

function onCellHover(cell) {
  if (!ui.geometry) return;
  const moves = (cell && ui.offer && ui.offer.targets.get(cell)) || [];
  drawHover($('board'), ui.geometry, moves);
}

function wireControls() {
  const board = $('board');
  board.addEventListener('click', (event) => {
    const cell = event.target.closest('[data-cell]');
    if (cell) onCellClick(cell.dataset.cell);
  });
  board.addEventListener('mouseover', (event) => {
    const cell = event.target.closest('[data-cell]');
    onCellHover(cell ? cell.dataset.cell : null);
  });
  board.addEventListener('mouseleave', () => onCellHover(null));
  $('variant').addEventListener('change', () => newGame());
  $('new-game').addEventListener('click', () => newGame());
  $('undo').addEventListener('click', () => undo());
  $('flip').addEventListener('click', () => {
    ui.flipped = !ui.flipped;
    render();
  });
  $('side').addEventListener('change', async () => {
    readSides();
    ui.flipped = ui.sides.size === 1 && ui.sides.has('black');
    ui.selected = null;
    ui.candidates = null;
    runTask((generation) => advance(generation));
  });
  $('think-time').addEventListener('change', () => {
    ui.think = Number($('think-time').value);
  });
  $('roll').addEventListener('click', () => personRolls());
  $('pass').addEventListener('click', () => {
    if (ui.offer && ui.offer.pass && !ui.busy) personPlays(ui.offer.pass);
  });
  $('move-now').addEventListener('click', () => {
    if (ui.engineThinking) ui.engine.stop();
  });
  $('choices').addEventListener('click', (event) => {
    const button = event.target.closest('[data-role="choice"]');
    if (!button || ui.busy || !ui.offer) return;
    const move = ui.offer.others.find((m) => m.move === button.dataset.move);
    if (move) personPlays(move);
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && (ui.selected || ui.candidates)) {
      ui.selected = null;
      ui.candidates = null;
      render();
    }
  });
}

// ------------------------------------------------------------------ showing

function render() {
  if (!ui.board || !ui.position) return;
  const position = ui.position;
  ui.offer = computeOffer();
  const offer = ui.offer;

  const pieces = new Map(position.pieces.map((p) => [p.cell, p]));
  // While the person chooses among moves with one start and one target,
  // the piece is shown where it is going.
  const c = offer.candidates;
  const pending = c && c[0].from && c.every((m) => m.from === c[0].from && m.to === c[0].to)
    ? { from: c[0].from, to: c[0].to } : null;
  // Each clickable cell names the legal moves a click on it keeps open.
  const moveText = new Map();
  for (const cell of offer.movable)
    moveText.set(cell, ui.legal.filter((m) => m.from === cell).map((m) => m.move));
  for (const [cell, moves] of offer.targets)
    moveText.set(cell, moves.map((m) => m.move));
  ui.geometry = drawBoard($('board'), ui.board, {
    flipped: ui.flipped, pieces, movable: offer.movable, targets: new Set(offer.targets.keys()),
    moveText, selected: ui.selected, lastMove: ui.lastMove, roll: position.roll, hover: [], pending,
  });

  const over = gameOver();
  root.dataset.variant = ui.variant;
  root.dataset.turn = position.turn;
  root.dataset.chance = position.chance ? 'true' : 'false';
  root.dataset.ply = String(ui.history.length);
  root.dataset.fen = position.fen;
  root.dataset.legal = ui.legal.map((m) => m.move).join(' ');
  root.dataset.state = over ? 'over' : personToAct() ? 'human' : 'engine';
  if (over) root.dataset.result = position.result;
  else delete root.dataset.result;

  $('roll').disabled = !offer.roll;
  $('roll').hidden = ui.board.dice.length === 0;
  $('pass').disabled = !offer.pass;
  $('pass').hidden = !offer.pass;
  if (offer.pass) $('pass').dataset.move = offer.pass.move;
  $('move-now').disabled = !ui.engineThinking;
  $('move-now').style.visibility = ui.engineThinking ? 'visible' : 'hidden';
  $('undo').disabled = undoCount() === 0 || ui.sides.size === 0;
  $('dice').hidden = ui.board.dice.length === 0;
  if (ui.board.dice.length && !ui.rolling) {
    // The pending roll, else the last one (dimmed), else blank faces.
    const last = [...ui.history].reverse().find((h) => h.move.kind === 'roll');
    showDiceFaces(position.roll || (last ? last.text : null), !position.roll);
  }

  const choices = $('choices');
  choices.replaceChildren(...offer.others.map((move) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.role = 'choice';
    button.dataset.move = move.move;
    button.textContent = move.move;
    button.title = `${move.kind}${move.captures && move.captures.length ? ', takes ' + move.captures.join(' ') : ''}`;
    return button;
  }));

  $('prompt').textContent = offer.prompt;
  $('status').textContent = statusText();
  renderBanner();
  renderFacts();
  renderMoves();
}

function resultText() {
  const p = ui.position;
  const margin = p.margin !== null && p.margin !== undefined ? `, margin ${p.margin}` : '';
  const reason = p.reason ? ` (${p.reason}${margin})` : margin ? ` (${margin.slice(2)})` : '';
  if (p.result === 'draw') return `Game over: a draw${reason}.`;
  return `Game over: ${sideName(p.winner)} wins${reason}.`;
}

function statusText() {
  const p = ui.position;
  if (gameOver()) return resultText();
  const who = sideName(p.turn);
  const you = ui.sides.has(p.turn);
  const act = p.chance ? 'to roll' : 'to move';
  if (you) return `${who} ${act}: your turn.`;
  if (ui.engineThinking) return `${who} to move: Sigil is thinking (${ui.think / 1000} s)…`;
  return `${who} ${act}: Sigil's turn.`;
}

function renderBanner() {
  const banner = $('banner');
  if (!gameOver()) {
    banner.hidden = true;
    return;
  }
  banner.hidden = false;
  banner.textContent = resultText();
}

function addFact(list, term, value) {
  const dt = document.createElement('dt');
  dt.textContent = term;
  const dd = document.createElement('dd');
  dd.textContent = value;
  list.append(dt, dd);
}

function perSide(object) {
  return ui.board.sides.map((s) => `${s.name} ${object[s.side]}`).join(', ');
}

function renderFacts() {
  const p = ui.position;
  const list = $('facts');
  list.replaceChildren();
  addFact(list, 'To act', gameOver() ? 'nobody: the game is over' :
    `${sideName(p.turn)}${p.chance ? ' (to roll the dice)' : ''}${ui.sides.has(p.turn) ? ' — you' : ' — Sigil'}`);
  if (p.roll) {
    const cell = ui.board.cells.find((c) => c.name === p.roll);
    addFact(list, 'Rolled', p.roll + (cell && cell.dice ? ` (${cell.dice.join(', ')})` : ''));
  }
  if (p.phase) addFact(list, 'Phase', p.phase);
  if (p.hands) addFact(list, 'In hand', perSide(p.hands));
  if (p.captures) addFact(list, 'Captured', perSide(p.captures));
  if (p.count) addFact(list, 'Counting sums', perSide(p.count));
  if (p.move_limit) addFact(list, 'Move limit', `ply ${p.move_limit.plies} of ${p.move_limit.limit}`);
  if (p.passed) addFact(list, 'Last ply', 'a pass');
  if (p.repetitions && p.repetitions > 1) addFact(list, 'Repetitions', `this position has occurred ${p.repetitions} times`);
  addFact(list, 'Plies played', String(p.ply));
  if (gameOver()) addFact(list, 'Result', resultText().replace(/^Game over: /, ''));
  addFact(list, 'FEN', p.fen);
}

function renderMoves() {
  const list = $('moves');
  const nodes = [];
  ui.history.forEach((entry, index) => {
    if (index > 0) nodes.push(document.createTextNode(' '));
    const span = document.createElement('span');
    span.className = `ply side-${entry.before.turn}${entry.move.kind === 'roll' ? ' roll' : ''}`;
    span.dataset.ply = String(index + 1);
    span.title = `ply ${index + 1}: ${sideName(entry.before.turn)} ${entry.move.kind}`;
    span.textContent = entry.text;
    nodes.push(span);
  });
  list.replaceChildren(...nodes);
  list.scrollTop = list.scrollHeight;
}

function renderLegend() {
  const legend = $('legend');
  legend.replaceChildren();
  const kinds = document.createElement('p');
  kinds.textContent = 'Pieces: ' + ui.board.pieces.map((k) => k.label).join(', ') + '.';
  legend.appendChild(kinds);
  const seen = new Map();
  for (const region of ui.board.regions) {
    const key = region.role + '|' + region.side;
    if (!seen.has(key)) seen.set(key, { region, count: 0 });
    seen.get(key).count++;
  }
  for (const { region, count } of seen.values()) {
    const p = document.createElement('p');
    const swatch = document.createElement('span');
    swatch.className = `swatch region-${region.role} side-${region.side ?? 'none'}`;
    p.appendChild(swatch);
    p.append(count > 1 ? `${count} cells like “${region.label}” (hover a cell to read its own)` : region.label);
    legend.appendChild(p);
  }
  if (ui.board.dice.length) {
    const p = document.createElement('p');
    p.textContent = 'Dice: ' + ui.board.dice.map((d) => `${d.name} (${d.faces.join(' ')})`).join(' and ') +
      '. Each cell shows the faces that roll it.';
    legend.appendChild(p);
  }
}

// ------------------------------------------------------------------ dice

function showDiceFaces(cellName, old = false) {
  const dice = $('dice');
  dice.classList.toggle('old', Boolean(old && cellName));
  dice.title = cellName ? `${old ? 'last roll' : 'rolled'}: ${cellName}` : 'no roll yet';
  const cell = cellName ? ui.board.cells.find((c) => c.name === cellName) : null;
  dice.replaceChildren(...ui.board.dice.map((die, i) => {
    const face = document.createElement('span');
    face.className = 'die';
    face.title = die.name;
    face.textContent = cell && cell.dice ? cell.dice[i] : '?';
    return face;
  }));
  if (cell && !old) dice.dataset.rolled = cell.name;
  else delete dice.dataset.rolled;
}

async function showRoll(cellName) {
  const dice = $('dice');
  if (ui.animate) {
    ui.rolling = true;
    dice.classList.add('rolling');
    for (let i = 0; i < 8; i++) {
      dice.replaceChildren(...ui.board.dice.map((die) => {
        const face = document.createElement('span');
        face.className = 'die';
        face.textContent = die.faces[Math.floor(Math.random() * die.faces.length)];
        return face;
      }));
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    dice.classList.remove('rolling');
    ui.rolling = false;
  }
  showDiceFaces(cellName);
}

// ------------------------------------------------------------------ analysis

function onInfo(line) {
  const words = line.split(/\s+/);
  const info = ui.analysis || (ui.analysis = {});
  if (words[1] === 'string') {
    info.note = line.slice('info string '.length);
  } else {
    for (let i = 1; i < words.length; i++) {
      const key = words[i];
      if (key === 'pv') {
        info.pv = words.slice(i + 1);
        break;
      }
      if (key === 'score') {
        info.score = { type: words[i + 1], value: Number(words[i + 2]) };
        i += 2;
      } else if (['depth', 'seldepth', 'nodes', 'nps', 'time', 'multipv', 'hashfull'].includes(key)) {
        info[key] = Number(words[i + 1]);
        i++;
      }
    }
  }
  renderAnalysis();
}

// Words of the engine's `info string` after a search (the searched
// position's own summary, for the side to move), spelled out for people;
// any other word is shown as it is, a side's id as the side's name.
const NOTE_WORDS = {
  winprob: { label: 'win probability', value: (v) => `${(Number(v) * 100).toFixed(1)} %` },
  margin: { label: 'expected margin', value: (v) => `${Number(v) >= 0 ? '+' : ''}${Number(v).toFixed(2)}` },
  count: { label: 'counting sums:' },
};

function formatNote(note) {
  const words = note.split(/\s+/);
  const out = [];
  for (let i = 0; i < words.length; i++) {
    const known = NOTE_WORDS[words[i]];
    const next = words[i + 1];
    if (known && known.value && next !== undefined && /^-?[\d.]+$/.test(next)) {
      out.push(`${known.label} ${known.value(next)}${i + 2 < words.length ? ',' : ''}`);
      i++;
    } else if (known) {
      out.push(known.label);
    } else if (ui.board && ui.board.sides.some((s) => s.side === words[i])) {
      out.push(sideName(words[i]));
    } else {
      out.push(words[i]);
    }
  }
  return out.join(' ');
}

function renderAnalysis() {
  const box = $('analysis');
  const a = ui.analysis;
  if (!a) {
    box.innerHTML = '<p class="quiet">Sigil has not thought yet.</p>';
    return;
  }
  const rows = [];
  const who = a.side ? `Sigil playing ${sideName(a.side)}` : 'Sigil';
  if (a.score) {
    let score;
    if (a.score.type === 'mate')
      score = a.score.value > 0 ? `wins in ${a.score.value}` : a.score.value < 0 ? `loses in ${-a.score.value}` : 'game decided';
    else score = `${a.score.value >= 0 ? '+' : ''}${a.score.value}`;
    rows.push(['Score', `${score} (for ${who})`]);
  }
  if (a.depth !== undefined) rows.push(['Depth', `${a.depth}${a.seldepth ? ` (selective ${a.seldepth})` : ''}`]);
  if (a.nodes !== undefined) rows.push(['Nodes', `${a.nodes.toLocaleString('en')}${a.time !== undefined ? ` in ${a.time} ms` : ''}`]);
  if (a.pv && a.pv.length) rows.push(['Main line', a.pv.join(' ')]);
  if (a.note) rows.push(['Sigil says', formatNote(a.note)]);
  const dl = document.createElement('dl');
  dl.className = 'facts';
  for (const [term, value] of rows) addFact(dl, term, value);
  const title = document.createElement('p');
  title.className = 'quiet';
  title.textContent = ui.engineThinking ? 'Thinking…' : 'Last search:';
  box.replaceChildren(title, dl);
}

window.addEventListener('error', (event) => reportError(event.error || new Error(event.message)));
window.addEventListener('unhandledrejection', (event) => reportError(event.reason || new Error('unknown')));
start().catch(reportError);
