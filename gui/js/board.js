// board.js - draws whatever `query board` and `query position` describe, as
// SVG.  It knows no game: cells, lines, edge labels, special regions and dice
// faces all come from the board object; pieces from the position object; the
// look of a piece from its kind's `symbol` and `number`.

const SVG_NS = 'http://www.w3.org/2000/svg';
const UNIT = 60;          // pixels (SVG units) for the room of one piece
const MARGIN = 34;        // room around the board for edge labels

function element(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes))
    if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

function round(value) {
  return Math.round(value * 100) / 100;
}

// The drawing geometry of a board: maps board coordinates to SVG ones,
// turned by 180 degrees when the board is flipped.
export class Geometry {
  constructor(board, flipped) {
    this.board = board;
    this.flipped = flipped;
    this.square = board.layout === 'squares';
    // A square is UNIT wide; on a points board the closest two points are.
    this.scale = this.square ? UNIT : UNIT / (board.spacing > 0 ? board.spacing : 1);
    this.width = board.width * this.scale + 2 * MARGIN;
    this.height = board.height * this.scale + 2 * MARGIN;
    this.cells = new Map(board.cells.map((cell) => [cell.name, cell]));
    this.radius = UNIT * (this.square ? 0.4 : 0.42);
  }

  point(x, y) {
    const bx = this.flipped ? this.board.width - x : x;
    const by = this.flipped ? this.board.height - y : y;
    return [round(MARGIN + bx * this.scale), round(MARGIN + by * this.scale)];
  }

  cell(name) {
    const cell = this.cells.get(name);
    return cell ? this.point(cell.x, cell.y) : null;
  }
}

// Drawing of one piece kind: a disc in the side's colour with the kind's
// symbol and number on it.
export function drawPiece(parent, kind, side, radius, extraClass = '') {
  const group = element('g', { class: `piece side-${side} ${extraClass}`.trim() }, parent);
  element('circle', { class: 'disc', r: round(radius) }, group);
  element('circle', { class: 'rim', r: round(radius * 0.78) }, group);
  const symbol = kind ? kind.symbol : 'piece';
  const hasNumber = kind && kind.number !== null && kind.number !== undefined;
  const size = hasNumber ? radius * 0.42 : radius * 0.55;
  const cy = hasNumber ? -radius * 0.28 : 0;
  drawSymbol(group, symbol, size, cy, kind);
  if (hasNumber) {
    const text = element('text', {
      class: 'number', x: 0, y: round(radius * 0.5), 'font-size': round(radius * 0.62),
      'text-anchor': 'middle', 'dominant-baseline': 'middle',
    }, group);
    text.textContent = String(kind.number);
  }
  const title = element('title', {}, group);
  title.textContent = `${side} ${kind ? kind.label : 'piece'}`;
  return group;
}

function starPoints(size, cy, points) {
  const list = [];
  for (let i = 0; i < points * 2; i++) {
    const r = i % 2 === 0 ? size : size * 0.45;
    const angle = -Math.PI / 2 + (i * Math.PI) / points;
    list.push(`${round(Math.cos(angle) * r)},${round(cy + Math.sin(angle) * r)}`);
  }
  return list.join(' ');
}

function drawSymbol(group, symbol, size, cy, kind) {
  switch (symbol) {
    case 'man':
    case 'piece':
      return;
    case 'king': {
      const s = size;
      const d = [
        `M ${round(-s)} ${round(cy + s * 0.6)}`, `L ${round(-s)} ${round(cy - s * 0.5)}`,
        `L ${round(-s * 0.5)} ${round(cy + s * 0.05)}`, `L 0 ${round(cy - s * 0.8)}`,
        `L ${round(s * 0.5)} ${round(cy + s * 0.05)}`, `L ${round(s)} ${round(cy - s * 0.5)}`,
        `L ${round(s)} ${round(cy + s * 0.6)}`, 'Z',
      ].join(' ');
      element('path', { class: 'symbol', d }, group);
      return;
    }
    case 'star':
      element('polygon', { class: 'symbol', points: starPoints(size, cy, 5) }, group);
      return;
    case 'moon': {
      // A crescent: the left half of a circle of radius s, less a wider
      // arc (radius 1.3 s) through the same two ends, shifted to the middle.
      const s = size;
      const dx = s * 0.25;
      const d = `M ${round(dx)} ${round(cy - s)} A ${round(s)} ${round(s)} 0 0 0 ${round(dx)} ${round(cy + s)}` +
        ` A ${round(s * 1.3)} ${round(s * 1.3)} 0 0 1 ${round(dx)} ${round(cy - s)} Z`;
      element('path', { class: 'symbol', d }, group);
      return;
    }
    case 'sun': {
      element('circle', { class: 'symbol', cx: 0, cy: round(cy), r: round(size * 0.55) }, group);
      for (let i = 0; i < 8; i++) {
        const angle = (i * Math.PI) / 4;
        element('line', {
          class: 'symbol-ray',
          x1: round(Math.cos(angle) * size * 0.72), y1: round(cy + Math.sin(angle) * size * 0.72),
          x2: round(Math.cos(angle) * size * 1.05), y2: round(cy + Math.sin(angle) * size * 1.05),
          'stroke-width': round(size * 0.16),
        }, group);
      }
      return;
    }
    default: {
      // A symbol this page does not know: the first letter of its label.
      const text = element('text', {
        class: 'number', x: 0, y: round(cy), 'font-size': round(size * 1.4),
        'text-anchor': 'middle', 'dominant-baseline': 'middle',
      }, group);
      text.textContent = (kind && kind.label ? kind.label : '?').charAt(0).toUpperCase();
    }
  }
}

// Draws the whole board into `svg`.  `view` says what to mark:
//   pieces: Map cell -> {side, kind}
//   movable, targets: Sets of cell names; selected: a cell name or null
//   lastMove: a `query move` object or null; hover: list of move objects
//   roll: the rolled cell or null
//   pending: {from, to} of a move being chosen: its piece is shown at `to`
//   hint: a `query move` object to show as a hint (an arrow), or null
//   goals: Set of the cells that are the picked piece's goal
//   editing: true while a position is set up (every cell can be clicked)
export function drawBoard(svg, board, view) {
  const g = new Geometry(board, view.flipped);
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  svg.setAttribute('viewBox', `0 0 ${round(g.width)} ${round(g.height)}`);
  svg.setAttribute('data-layout', board.layout);
  const kinds = new Map(board.pieces.map((kind) => [kind.kind, kind]));

  const ground = element('g', { class: 'ground' }, svg);
  element('rect', { class: 'frame', x: 0, y: 0, width: round(g.width), height: round(g.height), rx: 10 }, ground);
  const layers = {
    grid: element('g', { class: 'grid' }, svg),
    regions: element('g', { class: 'regions' }, svg),
    last: element('g', { class: 'last-move' }, svg),
    cells: element('g', { class: 'cells' }, svg),
    labels: element('g', { class: 'labels' }, svg),
    hover: element('g', { class: 'hover' }, svg),
  };

  if (g.square) drawGrid(layers.grid, board, g);
  else drawLines(layers.grid, board, g);
  drawRegions(layers.regions, board, g, kinds, view.pieces);
  if (view.lastMove) drawPath(layers.last, view.lastMove, g, 'last-path');
  const hintCells = new Set();
  if (view.hint) {
    for (const name of [view.hint.from, view.hint.to]) if (name) hintCells.add(name);
  }

  for (const cell of board.cells) {
    const [cx, cy] = g.point(cell.x, cell.y);
    const group = element('g', { class: 'cell', 'data-cell': cell.name, transform: `translate(${cx},${cy})` }, layers.cells);
    if (g.square) {
      element('rect', { class: 'cell-face', x: -UNIT / 2, y: -UNIT / 2, width: UNIT, height: UNIT }, group);
    } else {
      element('circle', { class: 'cell-face', r: round(UNIT * 0.5) }, group);
      element('circle', { class: 'point', r: 4 }, group);
    }
    if (cell.dice && cell.dice.length) {
      const text = element('text', { class: 'dice-label', x: round(UNIT * 0.46), y: round(UNIT * 0.44), 'text-anchor': 'end' }, group);
      text.textContent = cell.dice.join('·');
    }
    if (view.lastMove && (view.lastMove.from === cell.name || view.lastMove.to === cell.name))
      group.setAttribute('data-last', 'true');
    if (view.roll === cell.name) group.setAttribute('data-rolled', 'true');
    const piece = view.pieces.get(cell.name);
    if (piece) {
      group.setAttribute('data-side', piece.side);
      group.setAttribute('data-kind', piece.kind);
      drawPiece(group, kinds.get(piece.kind), piece.side, g.radius, view.pending && view.pending.from === cell.name ? 'leaving' : '');
    }
    if (view.pending && view.pending.to === cell.name && view.pieces.has(view.pending.from)) {
      const moving = view.pieces.get(view.pending.from);
      drawPiece(group, kinds.get(moving.kind), moving.side, g.radius, 'pending');
    }
    if (!g.square) {
      // A point's name, above every piece: the notation needs it.  It sits
      // on the rim of its point's piece, nearer its own point than any
      // other (points are at least UNIT apart; the label 0.37 UNIT away).
      const label = element('text', { class: 'point-label', x: round(cx + UNIT * 0.26), y: round(cy - UNIT * 0.26), 'text-anchor': 'middle', 'dominant-baseline': 'middle', 'data-label': cell.name }, layers.labels);
      label.textContent = cell.name;
    }
    if (view.movable.has(cell.name)) group.setAttribute('data-movable', 'true');
    if (view.moveText && view.moveText.has(cell.name)) group.setAttribute('data-moves', view.moveText.get(cell.name).join(' '));
    if (view.selected === cell.name) group.setAttribute('data-selected', 'true');
    if (view.goals && view.goals.has(cell.name)) {
      group.setAttribute('data-goal', 'true');
      if (g.square) element('rect', { class: 'goal-mark', x: -UNIT / 2 + 4, y: -UNIT / 2 + 4, width: UNIT - 8, height: UNIT - 8, rx: 5 }, group);
      else element('circle', { class: 'goal-mark', r: round(g.radius + 8) }, group);
    }
    if (hintCells.has(cell.name)) group.setAttribute('data-hint', view.hint.to === cell.name ? 'to' : 'from');
    if (view.editing) group.setAttribute('data-editable', 'true');
    if (view.targets.has(cell.name)) {
      group.setAttribute('data-target', 'true');
      element('circle', { class: piece ? 'target-ring' : 'target-dot', r: piece ? round(g.radius + 3) : round(UNIT * 0.14) }, group);
    }
    const title = element('title', {}, group);
    title.textContent = cell.name + (piece ? ` — ${piece.side} ${kinds.get(piece.kind)?.label ?? piece.kind}` : '');
  }
  if (view.hint) drawHint(layers.hover, view.hint, g);
  drawHover(svg, g, view.hover || []);
  return g;
}

// Shows where the moves under the pointer go and what they take.
export function drawHover(svg, g, moves) {
  const layer = svg.querySelector('.hover');
  if (!layer) return;
  while (layer.firstChild) layer.removeChild(layer.firstChild);
  for (const move of moves) {
    drawPath(layer, move, g, 'hover-path');
    for (const cell of move.captures || []) drawCross(layer, g, cell);
  }
}

function drawGrid(layer, board, g) {
  const occupied = new Set(board.cells.map((cell) => `${Math.floor(cell.x)},${Math.floor(cell.y)}`));
  const every = occupied.size === board.columns * board.rows;
  for (let column = 0; column < board.columns; column++) {
    for (let row = 0; row < board.rows; row++) {
      const [x, y] = g.point(column + 0.5, row + 0.5);
      const isCell = occupied.has(`${column},${row}`);
      const shade = every ? ((column + row) % 2 === 0 ? 'square-a' : 'square-b') : (isCell ? 'square-cell' : 'square-void');
      element('rect', { class: `square ${shade}`, x: round(x - UNIT / 2), y: round(y - UNIT / 2), width: UNIT, height: UNIT }, layer);
    }
  }
  const [left, top] = g.point(0, 0);
  const [right, bottom] = g.point(board.columns, board.rows);
  element('rect', {
    class: 'grid-border', x: Math.min(left, right), y: Math.min(top, bottom),
    width: Math.abs(right - left), height: Math.abs(bottom - top),
  }, layer);
  board.column_labels.forEach((label, column) => {
    const [x] = g.point(column + 0.5, 0);
    const y = g.height - MARGIN / 2;
    const text = element('text', { class: 'edge-label', x, y, 'text-anchor': 'middle', 'dominant-baseline': 'middle' }, layer);
    text.textContent = label;
  });
  board.row_labels.forEach((label, row) => {
    const [, y] = g.point(0, row + 0.5);
    const x = MARGIN / 2;
    const text = element('text', { class: 'edge-label', x, y, 'text-anchor': 'middle', 'dominant-baseline': 'middle' }, layer);
    text.textContent = label;
  });
}

function drawLines(layer, board, g) {
  for (const line of board.lines) {
    const points = line.map((name) => g.cell(name)).filter(Boolean).map((p) => p.join(',')).join(' ');
    element('polyline', { class: 'board-line', points }, layer);
  }
  // Steps that no drawn line covers still get a thin connector.
  const onLine = new Set();
  for (const line of board.lines)
    for (let i = 0; i + 1 < line.length; i++) onLine.add(`${line[i]}|${line[i + 1]}`).add(`${line[i + 1]}|${line[i]}`);
  for (const [a, b] of board.adjacent) {
    if (onLine.has(`${a}|${b}`)) continue;
    const p = g.cell(a), q = g.cell(b);
    if (p && q) element('line', { class: 'board-link', x1: p[0], y1: p[1], x2: q[0], y2: q[1] }, layer);
  }
}

function drawRegions(layer, board, g, kinds, pieces) {
  // A region shows the kind it is the goal of only where kinds tell regions
  // apart (several kinds have goals of their own): a faint piece on an empty
  // cell, a small one in the corner of an occupied one.
  const goalKinds = new Set(board.regions.map((region) => region.kind).filter(Boolean));
  const badges = goalKinds.size > 1;
  for (const region of board.regions) {
    const badge = badges && region.kind && kinds.has(region.kind) && region.side;
    for (const name of region.cells) {
      const p = g.cell(name);
      if (!p) continue;
      const group = element('g', { class: `region region-${region.role} side-${region.side ?? 'none'}${badge ? ' with-badge' : ''}`, transform: `translate(${p[0]},${p[1]})` }, layer);
      if (g.square) element('rect', { class: 'region-mark', x: -UNIT / 2 + 3, y: -UNIT / 2 + 3, width: UNIT - 6, height: UNIT - 6, rx: 4 }, group);
      else element('circle', { class: 'region-mark', r: round(g.radius + 6) }, group);
      if (badge) {
        const empty = !pieces.has(name);
        const at = empty ? 'translate(0,0)' : g.square ? `translate(${-UNIT * 0.36},${-UNIT * 0.36})` : `translate(${-UNIT * 0.5},${-UNIT * 0.5})`;
        const holder = element('g', { class: `region-badge${empty ? ' ghost' : ''}`, transform: at }, group);
        drawPiece(holder, kinds.get(region.kind), region.side, empty ? g.radius * 0.8 : UNIT * 0.12, 'badge');
      }
      const title = element('title', {}, group);
      title.textContent = region.label;
    }
  }
}

function drawPath(layer, move, g, cls) {
  const points = (move.path || []).map((name) => g.cell(name)).filter(Boolean);
  if (points.length >= 2)
    element('polyline', { class: cls, points: points.map((p) => p.join(',')).join(' ') }, layer);
}

// A hint: the move's path as an arrow, and a ring on its target (a
// placement has only the ring).
function drawHint(parent, move, g) {
  const layer = element('g', { class: 'hint' }, parent.parentNode);
  const points = (move.path || []).map((name) => g.cell(name)).filter(Boolean);
  if (points.length >= 2) {
    const [x1, y1] = points[points.length - 2];
    const [x2, y2] = points[points.length - 1];
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const ux = (x2 - x1) / len, uy = (y2 - y1) / len;
    const tip = [x2 - ux * g.radius * 0.5, y2 - uy * g.radius * 0.5];
    const line = points.slice(0, -1).concat([tip]);
    element('polyline', { class: 'hint-path', points: line.map((p) => p.map(round).join(',')).join(' ') }, layer);
    const s = UNIT * 0.3;
    const head = [tip, [tip[0] - ux * s - uy * s * 0.6, tip[1] - uy * s + ux * s * 0.6], [tip[0] - ux * s + uy * s * 0.6, tip[1] - uy * s - ux * s * 0.6]];
    element('polygon', { class: 'hint-head', points: head.map((p) => p.map(round).join(',')).join(' ') }, layer);
  }
  const to = g.cell(move.to);
  if (to) element('circle', { class: 'hint-ring', cx: to[0], cy: to[1], r: round(g.radius + 4) }, layer);
}

function drawCross(layer, g, name) {
  const p = g.cell(name);
  if (!p) return;
  const s = UNIT * 0.22;
  element('path', { class: 'capture-cross', d: `M ${p[0] - s} ${p[1] - s} L ${p[0] + s} ${p[1] + s} M ${p[0] + s} ${p[1] - s} L ${p[0] - s} ${p[1] + s}` }, layer);
}

// Animates a move on the board as drawn now (before the new position is
// drawn): the piece travels along the path, captured pieces fade, a placed
// piece appears.  Resolves when done.
export async function animateMove(svg, board, geometry, move, side, duration) {
  if (!duration || !move) return;
  const kinds = new Map(board.pieces.map((kind) => [kind.kind, kind]));
  const cellNode = (name) => svg.querySelector(`[data-cell="${CSS.escape(name)}"]`);
  const animations = [];
  const path = (move.path || []).map((name) => geometry.cell(name)).filter(Boolean);
  const overlay = element('g', { class: 'animation' }, svg);
  if (move.from && path.length >= 2) {
    const from = cellNode(move.from);
    const piece = from && from.querySelector('.piece');
    if (piece) {
      const moving = piece.cloneNode(true);
      piece.style.opacity = '0';
      overlay.appendChild(moving);
      const frames = path.map(([x, y]) => ({ transform: `translate(${x}px, ${y}px)` }));
      animations.push(moving.animate(frames, { duration: duration * (path.length - 1), easing: 'ease-in-out', fill: 'forwards' }));
    }
  } else if (!move.from && move.to && path.length === 1) {
    const [x, y] = path[0];
    const placed = element('g', { transform: `translate(${x},${y})` }, overlay);
    const piece = drawPiece(placed, kinds.get(move.piece), side, geometry.radius);
    animations.push(piece.animate([{ transform: 'scale(0.2)', opacity: 0 }, { transform: 'scale(1)', opacity: 1 }], { duration, easing: 'ease-out', fill: 'forwards' }));
  }
  const total = duration * Math.max(1, path.length - 1);
  for (const name of move.captures || []) {
    const node = cellNode(name);
    const piece = node && node.querySelector('.piece');
    if (piece)
      animations.push(piece.animate([{ opacity: 1 }, { opacity: 1, offset: 0.6 }, { opacity: 0 }], { duration: total, fill: 'forwards' }));
  }
  await Promise.all(animations.map((animation) => animation.finished.catch(() => {})));
  overlay.remove();
}
