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
import { moveNumbers, writePgn, readPgn, composeFen, parseTimeControl, pgnTimeControl, formatClock, isProvenDraw, resultToken } from './record.js';

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
  analysis: null,         // Sigil's last search while it plays (one line)
  options: new Set(),     // the engine's option names (from `uci`)
  startFen: null,         // the FEN the game started from (ply 0)
  initialFen: params.get('fen'),  // ?fen=, applied to the first game only
  view: null,             // the ply shown when stepping back, null: the position now
  hint: null,             // the move a hint shows (a `query move` object)
  level: 20,              // Skill Level Sigil plays at
  engineLevel: 20,        // Skill Level the engine has now
  analysing: false,       // analysis mode is on
  analysisThinking: false,
  analysisLines: new Map(),   // multipv -> {score, depth, pv}
  multipv: 3,
  reason: '',             // why the clicked piece may not move
  notice: '',             // a message of the page (a refused FEN, a record that does not replay)
  proven: false,          // `query value` says the draw is proven
  whySupported: true,     // the engine answers `query why`
  tc: null,               // time controls {white: {base, inc}, black: {...}} or null
  clock: null,            // {white: ms, black: ms, side: running side or null, since}
  timeout: null,          // {winner, loser}: a flag fell
  editing: null,          // the position editor: {pieces: Map, brush}
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
  for (const line of uci.lines) {
    const m = line.match(/^option name (.+?) type /);
    if (m) ui.options.add(m[1]);
    const limit = line.match(/^option name MoveLimit type spin default (\d+)/);
    if (limit) ui.moveLimitDefault = limit[1];
  }
  const combo = uci.lines.find((line) => /^option name UCI_Variant type combo/.test(line));
  ui.variants = combo ? [...combo.matchAll(/ var (\S+)/g)].map((m) => m[1]) : [];
  if (ui.variants.length === 0) {
    const answer = await engine.query('variant');
    ui.variants = [answer.text];
  }
  if (params.get('seed')) await engine.command(`setoption name Seed value ${params.get('seed')}`);
  // The games' titles from `query variants` (one line); each board is asked
  // for when its game is first played.
  const titles = new Map();
  const listed = await engine.query('variants');
  if (listed.text.startsWith('[')) for (const v of JSON.parse(listed.text)) titles.set(v.name, v.title);
  const select = $('variant');
  for (const name of ui.variants) {
    if (!titles.has(name)) {
      await engine.command(`variant ${name}`);
      ui.boards.set(name, await engine.queryJson('board'));
      titles.set(name, ui.boards.get(name).title);
    }
    const option = document.createElement('option');
    option.value = name;
    option.textContent = `${name} — ${titles.get(name)}`;
    select.appendChild(option);
  }
  applyParams();
  wireControls();
  setInterval(tickClock, 100);
  await newGame();
}

function addOption(select, value, text) {
  if ([...select.options].some((o) => o.value === value)) return;
  const option = document.createElement('option');
  option.value = value;
  option.textContent = text;
  select.appendChild(option);
}

function applyParams() {
  const variant = params.get('variant');
  if (variant && !ui.variants.includes(variant)) {
    ui.notice = `There is no game "${variant}" in this engine (it plays ${ui.variants.join(', ')}): ` +
      `showing ${ui.variants[0]} instead.`;
    ui.initialFen = null;
  }
  $('variant').value = ui.variants.includes(variant) ? variant : ui.variants[0];
  const side = params.get('side');
  if (side && [...$('side').options].some((o) => o.value === side)) $('side').value = side;
  const think = params.get('think');
  if (think && /^\d+$/.test(think) && Number(think) > 0) {
    addOption($('think-time'), think, `${Number(think) / 1000} s`);
    $('think-time').value = think;
  }
  const level = params.get('level');
  if (level && /^\d+$/.test(level) && Number(level) <= 20) {
    addOption($('level'), level, `Skill Level ${level}`);
    $('level').value = level;
  }
  ui.level = Number($('level').value);
  if (!ui.options.has('Skill Level')) {
    $('level').disabled = true;
    $('level').title = 'this engine has no Skill Level option: it plays at full strength';
  }
  for (const [param, role] of [['clock', 'clock'], ['clock-black', 'clock-black']]) {
    const text = params.get(param);
    if (text && parseTimeControl(text)) {
      addOption($(role), text, text);
      $(role).value = text;
    }
  }
  readSides();
  readTimeControls();
  ui.think = Number($('think-time').value);
}

function readSides() {
  const value = $('side').value;
  ui.sides = new Set(value === 'both' ? ['white', 'black'] : value === 'none' ? [] : [value]);
}

function readTimeControls() {
  const white = parseTimeControl($('clock').value);
  const blackValue = $('clock-black').value;
  const black = blackValue === 'same' ? white : parseTimeControl(blackValue);
  ui.tc = white || black ? { white: white || black, black: black || white } : null;
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

function setNotice(text) {
  ui.notice = text || '';
  const node = $('notice');
  node.textContent = ui.notice;
  node.hidden = !ui.notice;
}

function setReason(text) {
  ui.reason = text || '';
  const node = $('reason');
  node.textContent = ui.reason;
  node.hidden = !ui.reason;
}

// ------------------------------------------------------------------ game flow

function sideName(side) {
  const entry = ui.board && ui.board.sides.find((s) => s.side === side);
  return entry ? entry.name : side;
}

function gameOver() {
  return Boolean(ui.timeout) || (ui.position && ui.position.result !== 'none');
}

// The sides the person moves for: all of them while analysing.
function personSides() {
  return ui.analysing ? new Set(['white', 'black']) : ui.sides;
}

function live() {
  return ui.view === null || ui.view === ui.history.length;
}

function personToAct() {
  return ui.position && !gameOver() && personSides().has(ui.position.turn) && !ui.editing;
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
  ui.hint = null;
  setReason('');
  const value = await engine.query('value');
  ui.proven = isProvenDraw(value.text);
  switchClock();
}

// Every change of the game runs as one task at a time.  A new task first
// makes the running one give up (its search is stopped and its bestmove
// thrown away) and waits until it has, so two never talk to the engine at
// once.  Each task gets its generation; work of an older one stops.
let currentTask = Promise.resolve();

function runTask(work) {
  ui.generation++;
  const generation = ui.generation;
  ui.engine.stop();
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

// Sigil plays at the chosen level, but hints and analysis are at full
// strength.
async function setLevel(level) {
  if (!ui.options.has('Skill Level') || ui.engineLevel === level) return;
  await ui.engine.command(`setoption name Skill Level value ${level}`);
  ui.engineLevel = level;
}

// The start of a game (from the start position or a FEN): history, clocks
// and marks cleared.
async function beginGame() {
  ui.history = [];
  ui.lastMove = null;
  ui.analysis = null;
  ui.analysisLines = new Map();
  ui.view = null;
  ui.timeout = null;
  ui.editing = null;
  resetClock();
  $('title').textContent = ui.board.title;
  renderLegend();
  renderAnalysis();
  ui.startFen = (await ui.engine.query('fen')).text;
  await refresh();
}

async function selectVariant(name) {
  await ui.engine.command(`variant ${name}`);
  if (!ui.boards.has(name)) ui.boards.set(name, await ui.engine.queryJson('board'));
  ui.variant = name;
  ui.board = ui.boards.get(name);
  $('variant').value = name;
  await ui.engine.command('ucinewgame');
}

function newGame() {
  return runTask(async (generation) => {
    readSides();
    readTimeControls();
    ui.flipped = ui.sides.size === 1 && ui.sides.has('black');
    await selectVariant($('variant').value);
    if (ui.moveLimitChanged && ui.moveLimitDefault) {
      // A record's MoveLimit held for that record only.
      await ui.engine.command(`setoption name MoveLimit value ${ui.moveLimitDefault}`);
      ui.moveLimitChanged = false;
    }
    const fen = ui.initialFen;
    ui.initialFen = null;            // New game starts from the start again
    if (fen) {
      // A position to start from (?fen=...), for the game it was given for.
      const answer = await ui.engine.command(`position fen ${fen}`);
      if (answer.errors.length)
        setNotice(`The FEN from the address was refused: ${answer.errors.join('; ')}. ` +
          'The game starts from the start position.');
      else setNotice('');
    } else if (!ui.notice.startsWith('There is no game')) {
      setNotice('');
    }
    await beginGame();
    await advance(generation);
  });
}

// Plays the engine's turns until the person is to act or the game is over.
async function advance(generation) {
  while (generation === ui.generation) {
    render();
    if (gameOver() || personToAct() || ui.editing) break;
    const mover = ui.position.turn;
    if (ui.position.chance) {
      await engineRoll(generation);
    } else {
      await setLevel(ui.level);
      if (generation !== ui.generation) return;
      ui.engineThinking = true;
      ui.analysis = { side: mover };
      render();
      renderAnalysis();
      let reply;
      const started = performance.now();
      try {
        reply = await ui.engine.go(goLimits());
      } finally {
        ui.engineThinking = false;
      }
      renderAnalysis();
      if (generation !== ui.generation) return;
      if (ui.clock && ui.clock.side === mover && clockLeft(mover) <= 0) {
        flag(mover);
        return;
      }
      void started;
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
    scheduleAnalysis();
  }
}

// Sigil's limits: its clock when there are clocks, else its think time.
function goLimits() {
  if (!ui.tc || !ui.clock) return `movetime ${ui.think}`;
  const ms = (side) => Math.max(1, Math.round(clockLeft(side)));
  return `wtime ${ms('white')} btime ${ms('black')} winc ${ui.tc.white.inc} binc ${ui.tc.black.inc}`;
}

// The dice of the engine: `roll` draws one, plays it and names the cell.
async function engineRoll(generation) {
  const before = ui.position;
  const answer = await ui.engine.command('roll');
  if (answer.errors.length) throw new Error(answer.errors.join('; '));
  const line = answer.lines.find((l) => l.startsWith('roll '));
  const cell = line ? line.split(/\s+/)[1] : null;
  ui.history.push({ text: cell, move: { kind: 'roll', roll: cell, path: [], captures: [] }, before });
  ui.view = null;
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
  ui.view = null;
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
  if (!personToAct() || !ui.position.chance || ui.busy || !live()) return;
  runTask(async (generation) => {
    await engineRoll(generation);
    await advance(generation);
  });
}

function undoCount() {
  return pliesToUndo([...ui.history.map((h) => h.before), ui.position], personSides());
}

// Takes back `count` plies on the engine and in the page.
async function takeBack(count) {
  if (count <= 0) return;
  const answer = await ui.engine.command(`undo ${count}`);
  if (answer.errors.length) throw new Error(answer.errors.join('; '));
  ui.takingBack = true;             // the clocks: no increment for this switch
  ui.history.splice(ui.history.length - count, count);
  const last = [...ui.history].reverse().find((h) => h.move.kind !== 'roll');
  ui.lastMove = last ? last.move : null;
  ui.timeout = null;
  ui.view = null;
  try {
    await refresh();
  } finally {
    ui.takingBack = false;
  }
}

function undo() {
  if (undoCount() === 0 || ui.timeout) return;
  runTask(async (generation) => {
    await takeBack(undoCount());
    await advance(generation);
  });
}

// "Play on from here": the plies after the position shown are taken back.
function continueFromView() {
  if (live()) return;
  const count = ui.history.length - ui.view;
  runTask(async (generation) => {
    await takeBack(count);
    await advance(generation);
  });
}

// ------------------------------------------------------------------ stepping through the moves

function showPly(ply) {
  const n = Math.max(0, Math.min(ui.history.length, ply));
  ui.view = n === ui.history.length ? null : n;
  ui.selected = null;
  ui.candidates = null;
  setReason('');
  if (ui.analysing) runTask((generation) => advance(generation));
  else render();
}

function step(kind) {
  const now = ui.view === null ? ui.history.length : ui.view;
  if (kind === 'first') showPly(0);
  else if (kind === 'back') showPly(now - 1);
  else if (kind === 'forward') showPly(now + 1);
  else showPly(ui.history.length);
}

// The position shown: the one now, or the one after ply `view`.
function shownPosition() {
  return live() ? ui.position : ui.history[ui.view].before;
}

function shownLastMove() {
  if (live()) return ui.lastMove;
  const last = ui.history.slice(0, ui.view).reverse().find((h) => h.move.kind !== 'roll');
  return last ? last.move : null;
}

// ------------------------------------------------------------------ hints and analysis

function hint() {
  if (!personToAct() || ui.busy || !live() || ui.position.chance) return;
  runTask(async (generation) => {
    await setLevel(20);
    ui.analysis = { side: ui.position.turn, hint: true };
    const reply = await ui.engine.go(`movetime ${Math.min(500, ui.think)}`);
    if (generation !== ui.generation) return;
    const move = await ui.engine.queryJson(`move ${reply.best}`);
    if (generation !== ui.generation) return;
    await advance(generation);
    ui.hint = move;
    render();
  });
}

// Analysis runs behind the page's tasks (the page is not busy): the next
// task stops it.  A position in the past is analysed by taking the later
// plies back and playing them again afterwards.
function scheduleAnalysis() {
  if (!ui.analysing || ui.editing) return;
  const generation = ui.generation;
  const position = shownPosition();
  if (!position || position.result !== 'none' || position.chance) return;
  const back = live() ? 0 : ui.history.length - ui.view;
  currentTask = currentTask.then(async () => {
    if (generation !== ui.generation) return;
    if (back) await ui.engine.command(`undo ${back}`);
    try {
      await setLevel(20);
      await ui.engine.command(`setoption name MultiPV value ${ui.multipv}`);
      ui.analysisLines = new Map();
      if (generation === ui.generation) {
        // No await between the check and the go: a task started later
        // finds the search queued and stops it.
        ui.analysisThinking = true;
        renderAnalysis();
        render();
        try {
          await ui.engine.go('infinite');
        } finally {
          ui.analysisThinking = false;
        }
      }
      await ui.engine.command('setoption name MultiPV value 1');
    } finally {
      for (const h of ui.history.slice(ui.history.length - back))
        await ui.engine.command(`move ${h.text}`);
    }
    renderAnalysis();
    render();
  }).catch(reportError);
}

function toggleAnalysis() {
  ui.analysing = !ui.analysing;
  ui.analysisLines = new Map();
  switchClock();
  runTask((generation) => advance(generation));
}

// ------------------------------------------------------------------ clocks

function resetClock() {
  ui.clock = ui.tc ? { white: ui.tc.white.base, black: ui.tc.black.base, side: null, since: performance.now() } : null;
  switchClock();
}

// The side whose clock runs: the side to act, while the game goes on and
// the person is not analysing or setting up a position.
function runningSide() {
  if (!ui.clock || !ui.position || gameOver() || ui.analysing || ui.editing) return null;
  return ui.position.turn;
}

function clockLeft(side) {
  const c = ui.clock;
  if (!c) return Infinity;
  return c[side] - (c.side === side ? performance.now() - c.since : 0);
}

// Charges the time used to the side whose clock ran and starts the other;
// a side that hands the turn over gets its increment.
function switchClock() {
  const c = ui.clock;
  if (!c) return;
  const next = runningSide();
  if (next === c.side) return;
  const now = performance.now();
  if (c.side) {
    c[c.side] -= now - c.since;
    if (next && c[c.side] > 0 && !ui.takingBack) c[c.side] += ui.tc[c.side].inc;
  }
  c.side = next;
  c.since = now;
  renderClocks();
}

function tickClock() {
  const c = ui.clock;
  if (!c || !c.side) return;
  renderClocks();
  if (clockLeft(c.side) <= 0 && !ui.timeout) flag(c.side);
}

// A flag fell: the side loses on time.
function flag(side) {
  if (ui.timeout || !ui.clock) return;
  const c = ui.clock;
  if (c.side) {
    c[c.side] -= performance.now() - c.since;
    c.side = null;
  }
  c[side] = Math.min(c[side], 0);
  ui.timeout = { loser: side, winner: side === 'white' ? 'black' : 'white' };
  runTask((generation) => advance(generation));
}

function renderClocks() {
  const box = $('clocks');
  box.hidden = !ui.clock;
  if (!ui.clock) return;
  for (const node of document.querySelectorAll('[data-role="time"]')) {
    const side = node.dataset.side;
    const left = clockLeft(side);
    node.textContent = `${sideName(side)} ${formatClock(left)}`;
    node.dataset.ms = String(Math.max(0, Math.round(left)));
    node.dataset.running = ui.clock.side === side ? 'true' : 'false';
    node.classList.toggle('low', left < 10000);
  }
}

// ------------------------------------------------------------------ clicks

// What the person can click now (see choose.js), with the words that say so.
function computeOffer() {
  const none = { movable: new Set(), targets: new Map(), roll: false, pass: null, others: [], prompt: '' };
  if (!personToAct() || ui.busy || !live()) return none;
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

// The text of a move from `from` to `to` in the notation, written the way
// the legal moves with a start and a target write theirs (`14-9`, `c3d4`);
// null when no legal move shows the way.
function moveTextFor(from, to) {
  const shaped = (m) => m.from && m.to && m.path && m.path.length === 2 && m.move.startsWith(m.from) &&
    m.move.endsWith(m.to) && m.move.length >= m.from.length + m.to.length;
  const model = ui.legal.find((m) => shaped(m) && m.kind === 'step') || ui.legal.find(shaped);
  return model ? from + model.move.slice(model.from.length, model.move.length - model.to.length) + to : null;
}

// Asks the engine why a piece may not move (or a move is refused) and shows
// its sentence.
async function explain(what) {
  if (!ui.whySupported || !what) return;
  const generation = ui.generation;
  const answer = await ui.engine.queryNow(`why ${what}`);
  if (answer.text === 'none' && answer.errors.some((e) => /unknown query/.test(e))) {
    ui.whySupported = false;
    return;
  }
  if (generation !== ui.generation || answer.text === 'none') return;
  if (answer.text === 'legal' || answer.text === 'movable') return;
  setReason(answer.text);
}

function onCellClick(cell) {
  if (ui.editing) {
    editCell(cell);
    return;
  }
  if (ui.busy || !personToAct() || !ui.offer || !live()) return;
  setReason('');
  const moves = ui.offer.targets.get(cell);
  if (moves && moves.length === 1) {
    personPlays(moves[0]);
    return;
  }
  const piece = ui.position.pieces.find((p) => p.cell === cell);
  const selected = ui.selected;
  if (moves && moves.length > 1) {
    ui.candidates = moves;
  } else if (ui.offer.movable.has(cell) && cell !== ui.selected) {
    ui.selected = cell;
    ui.candidates = null;
  } else {
    ui.selected = null;
    ui.candidates = null;
    if (piece && piece.side === ui.position.turn && !ui.offer.movable.has(cell)) {
      explain(cell).catch(reportError);
    } else if (selected && !piece && !ui.position.chance) {
      explain(moveTextFor(selected, cell)).catch(reportError);
    }
  }
  render();
}

function onCellHover(cell) {
  if (!ui.geometry) return;
  const moves = (cell && ui.offer && ui.offer.targets.get(cell)) || [];
  drawHover($('board'), ui.geometry, moves);
}

// ------------------------------------------------------------------ saving and opening

function gameRecord() {
  const p = ui.position;
  const name = (side) => ui.analysing || ui.sides.has(side) ? 'you' : 'sigil';
  let result = p.result;
  let termination = 'normal';
  let detail = p.reason || '';
  if (ui.timeout) {
    result = ui.timeout.winner === 'white' ? 'p1win' : 'p2win';
    termination = 'time forfeit';
    detail = `time forfeit: ${sideName(ui.timeout.loser)} ran out of time`;
  } else if (result === 'none') {
    termination = 'unterminated';
  }
  return writePgn({
    event: 'Sigil in the browser',
    date: new Date(),
    white: name('white'),
    black: name('black'),
    variant: ui.variant,
    fen: ui.startFen,
    moveLimit: p.move_limit ? p.move_limit.limit / 2 : 0,
    result,
    termination,
    margin: !ui.timeout && result !== 'none' ? p.margin : null,
    timeControl: ui.tc ? pgnTimeControl(ui.tc.white) : null,
    detail,
    plies: ui.history.map((h) => ({ text: h.text, side: h.before.turn })),
  });
}

function save() {
  const text = gameRecord();
  const blob = new Blob([text], { type: 'application/x-chess-pgn' });
  const link = document.createElement('a');
  const stamp = new Date().toISOString().slice(0, 19).replace(/[T:]/g, '-');
  link.href = URL.createObjectURL(blob);
  link.download = `sigil-${ui.variant}-${stamp}.pgn`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

// Opens a PGN record (the first game in it) or a FEN of the current game.
function openText(text) {
  const record = readPgn(text);
  if (!record) return openFen(text.trim());
  return runTask(async (generation) => {
    const variant = record.tags.Variant || ui.variant;
    if (!ui.variants.includes(variant)) {
      setNotice(`The record is of a game this engine does not play: "${variant}".`);
      return advance(generation);
    }
    await selectVariant(variant);
    if (record.tags.MoveLimit && ui.options.has('MoveLimit') && /^\d+$/.test(record.tags.MoveLimit)) {
      await ui.engine.command(`setoption name MoveLimit value ${record.tags.MoveLimit}`);
      ui.moveLimitChanged = true;
    }
    const problems = [];
    if (record.tags.FEN) {
      const answer = await ui.engine.command(`position fen ${record.tags.FEN}`);
      if (answer.errors.length) problems.push(`its FEN was refused: ${answer.errors.join('; ')}`);
    }
    readSides();
    await beginGame();
    if (!problems.length) {
      for (const [index, token] of record.moves.entries()) {
        const before = ui.position;
        let move = { kind: 'roll', roll: token, path: [], captures: [], move: token };
        if (!before.chance) {
          const asked = await ui.engine.query(`move ${token}`);
          move = asked.text !== 'none' ? JSON.parse(asked.text) : null;
        }
        const answer = await ui.engine.command(`move ${move ? move.move : token}`);
        if (!move || answer.errors.length) {
          problems.push(`ply ${index + 1} (${token}) was refused: ${answer.errors.join('; ') || 'illegal move'}`);
          break;
        }
        ui.history.push({ text: move.move, move, before });
        ui.position = await ui.engine.queryJson('position');
      }
      const last = [...ui.history].reverse().find((h) => h.move.kind !== 'roll');
      ui.lastMove = last ? last.move : null;
      await refresh();
    }
    setNotice(problems.length ? `The record was opened up to where it fails: ${problems.join('; ')}.` :
      `Opened a record of ${variant} with ${ui.history.length} plies` +
      (record.tags.Result ? `, result ${record.tags.Result}` : '') + '.');
    if (!gameOver() && !personToAct()) {
      // An unfinished record: the person plays on for the side to move.
      ui.sides = new Set([ui.position.turn]);
      $('side').value = ui.position.turn;
    }
    await advance(generation);
  });
}

function openFen(fen) {
  if (!fen) return Promise.resolve();
  return runTask(async (generation) => {
    const answer = await ui.engine.command(`position fen ${fen}`);
    if (answer.errors.length) {
      setNotice(`The FEN was refused: ${answer.errors.join('; ')}`);
      return advance(generation);
    }
    setNotice('');
    readSides();
    await beginGame();
    await advance(generation);
  });
}

// ------------------------------------------------------------------ setting up a position

function startEditing() {
  if (ui.editing) return;
  runTask(async (generation) => {
    const p = shownPosition();
    ui.editing = {
      pieces: new Map(p.pieces.map((piece) => [piece.cell, { side: piece.side, kind: piece.kind }])),
      brush: null,
      template: p.fen,
    };
    switchClock();
    $('setup-turn').value = p.turn;
    renderPalette();
    updateSetupFen();
    $('setup-panel').hidden = false;
    await advance(generation);
  });
}

function renderPalette() {
  const palette = $('palette');
  const buttons = [];
  for (const side of ['white', 'black']) {
    for (const kind of ui.board.pieces) {
      if (!kind.fen || kind.fen[side] === undefined) continue;
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.role = 'setup-piece';
      button.dataset.side = side;
      button.dataset.kind = kind.kind;
      button.textContent = `${sideName(side)} ${kind.label}`;
      buttons.push(button);
    }
  }
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.dataset.role = 'setup-piece';
  remove.dataset.kind = '';
  remove.textContent = 'Remove';
  buttons.push(remove);
  palette.replaceChildren(...buttons);
  selectBrush(buttons[0]);
}

function selectBrush(button) {
  for (const b of document.querySelectorAll('[data-role="setup-piece"]')) b.setAttribute('aria-pressed', b === button ? 'true' : 'false');
  ui.editing.brush = button.dataset.kind ? { side: button.dataset.side, kind: button.dataset.kind } : null;
}

function editCell(cell) {
  const e = ui.editing;
  const here = e.pieces.get(cell);
  if (!e.brush || (here && here.side === e.brush.side && here.kind === e.brush.kind)) e.pieces.delete(cell);
  else e.pieces.set(cell, { ...e.brush });
  updateSetupFen();
  render();
}

function updateSetupFen() {
  const fen = composeFen(ui.board, ui.editing.template, ui.editing.pieces, $('setup-turn').value);
  $('setup-fen').value = fen || ui.editing.template;
}

function finishEditing(apply) {
  const fen = $('setup-fen').value.trim();
  runTask(async (generation) => {
    if (apply) {
      const answer = await ui.engine.command(`position fen ${fen}`);
      if (answer.errors.length) {
        setNotice(`The engine refuses this position: ${answer.errors.join('; ')}`);
        return advance(generation);
      }
      setNotice('');
    }
    ui.editing = null;
    $('setup-panel').hidden = true;
    if (apply) {
      readSides();
      await beginGame();
    } else {
      switchClock();
    }
    await advance(generation);
  });
}

// ------------------------------------------------------------------ controls

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
  $('level').addEventListener('change', () => {
    ui.level = Number($('level').value);
  });
  for (const role of ['clock', 'clock-black']) {
    $(role).addEventListener('change', () => {
      setNotice('The new time control starts with the next new game (click New game).');
    });
  }
  $('roll').addEventListener('click', () => personRolls());
  $('pass').addEventListener('click', () => {
    if (ui.offer && ui.offer.pass && !ui.busy) personPlays(ui.offer.pass);
  });
  $('move-now').addEventListener('click', () => {
    if (ui.engineThinking) ui.engine.stop();
  });
  $('hint').addEventListener('click', () => hint());
  $('analyse').addEventListener('click', () => toggleAnalysis());
  $('analysis-stop').addEventListener('click', () => {
    if (ui.analysisThinking) ui.engine.stop();
  });
  $('multipv').addEventListener('change', () => {
    ui.multipv = Number($('multipv').value);
    if (ui.analysing) runTask((generation) => advance(generation));
  });
  $('save').addEventListener('click', () => save());
  $('open').addEventListener('change', async (event) => {
    const file = event.target.files && event.target.files[0];
    if (!file) return;
    const text = await file.text();
    event.target.value = '';
    openText(text);
  });
  $('load-fen').addEventListener('click', () => openFen($('fen').value.trim()));
  $('setup').addEventListener('click', () => startEditing());
  $('palette').addEventListener('click', (event) => {
    const button = event.target.closest('[data-role="setup-piece"]');
    if (button && ui.editing) selectBrush(button);
  });
  $('setup-turn').addEventListener('change', () => ui.editing && updateSetupFen());
  $('setup-clear').addEventListener('click', () => {
    if (!ui.editing) return;
    ui.editing.pieces.clear();
    updateSetupFen();
    render();
  });
  $('setup-done').addEventListener('click', () => ui.editing && finishEditing(true));
  $('setup-cancel').addEventListener('click', () => ui.editing && finishEditing(false));
  $('steps').addEventListener('click', (event) => {
    const button = event.target.closest('[data-role="step"]');
    if (button) step(button.dataset.step);
  });
  $('continue').addEventListener('click', () => continueFromView());
  $('moves').addEventListener('click', (event) => {
    const span = event.target.closest('[data-ply]');
    if (span) showPly(Number(span.dataset.ply));
  });
  $('choices').addEventListener('click', (event) => {
    const button = event.target.closest('[data-role="choice"]');
    if (!button || ui.busy || !ui.offer) return;
    const move = ui.offer.others.find((m) => m.move === button.dataset.move);
    if (move) personPlays(move);
  });
  document.addEventListener('keydown', (event) => {
    const tag = event.target && event.target.tagName;
    if (['INPUT', 'SELECT', 'TEXTAREA'].includes(tag)) return;
    if (event.key === 'Escape' && (ui.selected || ui.candidates)) {
      ui.selected = null;
      ui.candidates = null;
      render();
    } else if (event.key === 'ArrowLeft') {
      step('back');
      event.preventDefault();
    } else if (event.key === 'ArrowRight') {
      step('forward');
      event.preventDefault();
    } else if (event.key === 'Home') {
      step('first');
      event.preventDefault();
    } else if (event.key === 'End') {
      step('last');
      event.preventDefault();
    }
  });
}

// ------------------------------------------------------------------ showing

// The cells that are the goal of the picked piece (Salto's targets, a
// palace): the regions of its side made for its kind (or for every kind).
function goalCells(position, cell) {
  if (!cell) return new Set();
  const piece = position.pieces.find((p) => p.cell === cell);
  if (!piece) return new Set();
  const cells = new Set();
  for (const region of ui.board.regions)
    if (region.side === piece.side && (region.kind === null || region.kind === piece.kind))
      for (const name of region.cells) cells.add(name);
  return cells;
}

function render() {
  if (!ui.board || !ui.position) return;
  const position = ui.position;
  const shown = shownPosition();
  ui.offer = computeOffer();
  const offer = ui.offer;

  const pieces = ui.editing ? new Map(ui.editing.pieces) : new Map(shown.pieces.map((p) => [p.cell, p]));
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
    moveText, selected: ui.selected, lastMove: ui.editing ? null : shownLastMove(),
    roll: live() && !ui.editing ? position.roll : null, hover: [], pending,
    hint: live() ? ui.hint : null, goals: goalCells(shown, ui.selected), editing: Boolean(ui.editing),
  });

  const over = gameOver();
  root.dataset.variant = ui.variant;
  root.dataset.turn = position.turn;
  root.dataset.chance = position.chance ? 'true' : 'false';
  root.dataset.ply = String(ui.history.length);
  root.dataset.view = String(live() ? ui.history.length : ui.view);
  root.dataset.fen = shown.fen;
  root.dataset.legal = over ? '' : ui.legal.map((m) => m.move).join(' ');
  root.dataset.state = ui.editing ? 'setup' : over ? 'over' : personToAct() ? 'human' : 'engine';
  root.dataset.analysing = ui.analysing ? 'true' : 'false';
  if (over) root.dataset.result = resultOf();
  else delete root.dataset.result;

  const canAct = personToAct() && !ui.busy && live();
  $('roll').disabled = !offer.roll;
  $('roll').hidden = ui.board.dice.length === 0;
  $('pass').disabled = !offer.pass;
  $('pass').hidden = !offer.pass;
  if (offer.pass) $('pass').dataset.move = offer.pass.move;
  $('move-now').disabled = !ui.engineThinking;
  $('move-now').style.visibility = ui.engineThinking ? 'visible' : 'hidden';
  $('undo').disabled = undoCount() === 0 || personSides().size === 0 || Boolean(ui.timeout) || Boolean(ui.editing);
  $('hint').disabled = !canAct || position.chance || ui.analysing;
  $('analyse').setAttribute('aria-pressed', ui.analysing ? 'true' : 'false');
  $('analyse').textContent = ui.analysing ? 'Stop analysing' : 'Analyse';
  $('analysis-stop').disabled = !ui.analysisThinking;
  $('setup').disabled = Boolean(ui.editing);
  const now = live() ? ui.history.length : ui.view;
  for (const button of document.querySelectorAll('[data-role="step"]')) {
    const kind = button.dataset.step;
    button.disabled = ui.editing || ((kind === 'first' || kind === 'back') ? now === 0 : now === ui.history.length);
  }
  $('continue').hidden = live();
  $('continue').disabled = live() || Boolean(ui.editing);
  $('dice').hidden = ui.board.dice.length === 0;
  if (ui.board.dice.length && !ui.rolling) {
    // The pending roll, else the last one (dimmed), else blank faces.
    const upTo = live() ? ui.history : ui.history.slice(0, ui.view);
    const last = [...upTo].reverse().find((h) => h.move.kind === 'roll');
    showDiceFaces(shown.roll || (last ? last.text : null), !shown.roll);
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

  let prompt = offer.prompt;
  if (ui.editing) prompt = 'Setting up a position: pick a piece beside the board, then click cells.';
  else if (!live()) prompt = `Showing the position after ply ${ui.view} of ${ui.history.length}: ← and → step, "Play on from here" plays on from it.`;
  else if (ui.hint && live()) {
    const a = ui.analysis;
    const rating = a && a.hint && a.score ? ` It rates the position ${scoreText(a.score)} for you.` : '';
    prompt = `Hint: Sigil would play ${ui.hint.move} (marked on the board).${rating} ` + prompt;
  }
  $('prompt').textContent = prompt;
  $('status').textContent = statusText();
  $('proven').hidden = !ui.proven || over;
  $('notice').textContent = ui.notice;
  $('notice').hidden = !ui.notice;
  renderClocks();
  renderBanner();
  renderFacts();
  renderMoves();
}

// p1win, p2win or draw: the board's result, or the result of a flag fall.
function resultOf() {
  if (ui.timeout) return ui.timeout.winner === 'white' ? 'p1win' : 'p2win';
  return ui.position.result;
}

function resultText() {
  if (ui.timeout)
    return `Game over: ${sideName(ui.timeout.winner)} wins (${sideName(ui.timeout.loser)}'s time ran out).`;
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
  const you = personSides().has(p.turn);
  const act = p.chance ? 'to roll' : 'to move';
  if (ui.editing) return 'Setting up a position.';
  if (ui.analysing) return `Analysis: ${who} ${act}${ui.analysisThinking ? ', Sigil is thinking' : ''}.`;
  if (you) return `${who} ${act}: your turn.`;
  if (ui.engineThinking) return `${who} to move: Sigil is thinking${ui.clock ? '' : ` (${ui.think / 1000} s)`}…`;
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
  const p = shownPosition();
  const list = $('facts');
  list.replaceChildren();
  if (!live()) addFact(list, 'Shown', `the position after ply ${ui.view} of ${ui.history.length}`);
  addFact(list, 'To act', gameOver() && live() ? 'nobody: the game is over' :
    `${sideName(p.turn)}${p.chance ? ' (to roll the dice)' : ''}${personSides().has(p.turn) ? ' — you' : ' — Sigil'}`);
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
  if (live() && ui.proven) addFact(list, 'Value', 'proven draw (Sigil\'s proof books)');
  if (gameOver() && live()) addFact(list, 'Result', resultText().replace(/^Game over: /, ''));
  addFact(list, 'FEN', p.fen);
}

// The move list: one span per ply (its text is the ply in the notation),
// the move numbers as sigil-match writes them (`1.` before each White
// turn), shown by the style sheet from data-number so that the list's text
// stays the plies alone.
function renderMoves() {
  const list = $('moves');
  const nodes = [];
  const numbers = moveNumbers(ui.history.map((h) => h.before.turn));
  const current = live() ? ui.history.length : ui.view;
  ui.history.forEach((entry, index) => {
    if (index > 0) nodes.push(document.createTextNode(' '));
    const span = document.createElement('span');
    span.className = `ply side-${entry.before.turn}${entry.move.kind === 'roll' ? ' roll' : ''}`;
    span.dataset.ply = String(index + 1);
    if (numbers[index]) span.dataset.number = numbers[index];
    if (index + 1 === current) span.dataset.current = 'true';
    span.title = `ply ${index + 1}: ${sideName(entry.before.turn)} ${entry.move.kind} (click to show the position after it)`;
    span.textContent = entry.text;
    nodes.push(span);
  });
  list.replaceChildren(...nodes);
  const mark = list.querySelector('[data-current="true"]');
  if (mark && !live()) mark.scrollIntoView({ block: 'nearest' });
  else list.scrollTop = list.scrollHeight;
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
    p.append(count > 1 ? `${count} cells like “${region.label}” (pick a piece to see its own)` : region.label);
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
  const info = {};
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
  if (ui.analysisThinking) {
    if (info.pv && info.score) ui.analysisLines.set(info.multipv || 1, info);
    else if (info.note) ui.analysisNote = info.note;
  } else {
    const a = ui.analysis || (ui.analysis = {});
    if (!info.multipv || info.multipv === 1) Object.assign(a, info);
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


function scoreText(score) {
  if (score.type === 'mate')
    return score.value > 0 ? `wins in ${score.value}` : score.value < 0 ? `loses in ${-score.value}` : 'game decided';
  return `${score.value >= 0 ? '+' : ''}${score.value}`;
}

function renderAnalysis() {
  const box = $('analysis');
  const lines = $('analysis-lines');
  const shown = shownPosition();
  lines.replaceChildren(...[...ui.analysisLines.entries()].sort((x, y) => x[0] - y[0]).map(([k, info]) => {
    const li = document.createElement('li');
    li.dataset.multipv = String(k);
    li.dataset.move = info.pv[0] || '';
    li.textContent = `${scoreText(info.score)} (depth ${info.depth ?? '?'}): ${info.pv.join(' ')}`;
    return li;
  }));
  lines.title = shown ? `for ${sideName(shown.turn)}, the side to move` : '';
  $('analysis-stop').disabled = !ui.analysisThinking;
  const a = ui.analysis;
  if (!a) {
    box.innerHTML = ui.analysing ? '' : '<p class="quiet">Sigil has not thought yet.</p>';
    if (ui.analysing) {
      const p = document.createElement('p');
      p.className = 'quiet';
      p.textContent = ui.analysisThinking ? `Analysing (${sideName(shown.turn)} to move; scores for the side to move)…` :
        'Analysis stopped: its lines for the position shown are above.';
      box.appendChild(p);
    }
    return;
  }
  const rows = [];
  const who = a.hint ? `${sideName(a.side)}, your side: the hint's search` : a.side ? `Sigil playing ${sideName(a.side)}` : 'Sigil';
  if (a.score) rows.push(['Score', `${scoreText(a.score)} (for ${who})`]);
  if (a.depth !== undefined) rows.push(['Depth', `${a.depth}${a.seldepth ? ` (selective ${a.seldepth})` : ''}`]);
  if (a.nodes !== undefined) rows.push(['Nodes', `${a.nodes.toLocaleString('en')}${a.time !== undefined ? ` in ${a.time} ms` : ''}`]);
  if (a.pv && a.pv.length) rows.push(['Main line', a.pv.join(' ')]);
  if (a.note) rows.push(['Sigil says', formatNote(a.note)]);
  const dl = document.createElement('dl');
  dl.className = 'facts';
  for (const [term, value] of rows) addFact(dl, term, value);
  const title = document.createElement('p');
  title.className = 'quiet';
  title.textContent = ui.engineThinking ? 'Thinking…' : 'Sigil\'s last search in the game:';
  const parts = [title, dl];
  if (ui.analysing) {
    const p = document.createElement('p');
    p.className = 'quiet';
    p.textContent = ui.analysisThinking ? `Analysing (${sideName(shown.turn)} to move; scores for the side to move)…` :
      'Analysis stopped: its lines for the position shown are above.';
    parts.unshift(p);
  }
  box.replaceChildren(...parts);
}

window.addEventListener('error', (event) => reportError(event.error || new Error(event.message)));
window.addEventListener('unhandledrejection', (event) => reportError(event.reason || new Error('unknown')));
start().catch(reportError);
