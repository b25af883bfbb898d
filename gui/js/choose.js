// choose.js - turning clicks into one of the legal moves, from nothing but
// the `query move` objects the engine gave (from, to, path, captures).  No
// DOM here, so the node tests can run it directly.

// Every cell a move passes through or takes.
export function cellsOf(move) {
  return new Set([...(move.path || []), ...(move.captures || [])]);
}

// The cells that tell moves apart: in some of them but not in all.  Moves
// that share their start and their target (Lupta's removals, a chain that
// can go two ways) differ in what they take or where they pass.
export function distinguishing(moves) {
  const sets = moves.map(cellsOf);
  const all = new Set(sets.flatMap((s) => [...s]));
  return new Set([...all].filter((cell) => !sets.every((s) => s.has(cell))));
}

// The moves that clicking `cell` keeps in question.
export function narrow(moves, cell) {
  return moves.filter((move) => cellsOf(move).has(cell));
}

// How a person picks a move, given the legal moves and what was clicked so
// far ({selected, candidates}): which cells can be clicked now.
//   movable: starts of moves (pieces that can move)
//   targets: cells that complete or narrow the move
//   destinationFirst: every on-board move goes to one cell, which may be
//     clicked before the piece
//   pass, others: moves with neither start nor target
export function offerFor(legal, selected, candidates) {
  const onBoard = legal.filter((m) => m.from !== null || m.to !== null);
  const offCells = legal.filter((m) => m.from === null && m.to === null);
  const placements = onBoard.filter((m) => m.from === null);
  const froms = [...new Set(onBoard.filter((m) => m.from !== null).map((m) => m.from))];
  const destinations = [...new Set(onBoard.filter((m) => m.from !== null).map((m) => m.to))];
  const offer = {
    movable: new Set(froms),
    targets: new Map(),          // cell -> the moves clicking it keeps
    selected: null,
    candidates: null,
    destinationFirst: destinations.length === 1 && froms.length > 1,
    placements: placements.length,
    pass: offCells.find((m) => m.kind === 'pass') || null,
    others: offCells.filter((m) => m.kind !== 'pass'),
  };
  if (candidates && candidates.length > 1) {
    offer.candidates = candidates;
    offer.selected = selected;
    const cells = distinguishing(candidates);
    for (const cell of cells) offer.targets.set(cell, narrow(candidates, cell));
    if (cells.size === 0) offer.others = offer.others.concat(candidates);
    return offer;
  }
  // A lone piece that can move is picked already.
  if (!selected && placements.length === 0 && froms.length === 1 && !offer.pass) selected = froms[0];
  if (selected && froms.includes(selected)) {
    offer.selected = selected;
    for (const move of onBoard)
      if (move.from === selected) offer.targets.set(move.to, (offer.targets.get(move.to) || []).concat([move]));
    return offer;
  }
  for (const move of onBoard)
    if (move.from === null || offer.destinationFirst)
      offer.targets.set(move.to, (offer.targets.get(move.to) || []).concat([move]));
  return offer;
}

// Plies to take back so that the person is at the start of their previous
// turn.  positions[i] is the position before ply i, the last one the
// current position; each has `turn` and `result`.  A turn starts where the
// person is to act and the ply before was not the same side's.  With both
// sides (or neither) played by the person, one ply.
export function pliesToUndo(positions, sides) {
  const n = positions.length - 1;
  if (sides.size !== 1) return n > 0 ? 1 : 0;
  const mine = (i) => sides.has(positions[i].turn) && positions[i].result === 'none';
  const turnStart = (i) => mine(i) && (i === 0 || positions[i - 1].turn !== positions[i].turn);
  let end = n;
  if (mine(n)) while (end > 0 && !turnStart(end)) end--;
  for (let k = end - 1; k >= 0; k--) if (turnStart(k)) return n - k;
  return 0;
}
