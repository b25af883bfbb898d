// record.js - games as text: the PGN records sigil-match writes (reading and
// writing them), move numbers, a FEN composed from pieces placed by hand,
// and clock times.  No DOM here, so the node tests can run it directly.

// ------------------------------------------------------------------ move numbers

// The number that goes before each ply, as sigil-match writes its records:
// `N.` before every White turn (a turn is the plies one side plays in a row:
// Alexander's roll and action), `N...` before the first ply when a game
// starts with Black; '' elsewhere.  `sides` lists the side of every ply.
export function moveNumbers(sides) {
  const out = [];
  let number = 0;
  sides.forEach((side, i) => {
    const newWhiteTurn = side === 'white' && (i === 0 || sides[i - 1] !== 'white');
    if (newWhiteTurn) out.push(`${++number}.`);
    else if (i === 0) out.push(`${++number}...`);
    else out.push('');
  });
  return out;
}

// ------------------------------------------------------------------ writing PGN

function tag(name, value) {
  return `[${name} "${String(value).replace(/[\\"]/g, (c) => '\\' + c)}"]`;
}

// Tokens joined with single spaces, lines broken before column 80 (as
// sigil-match's writer does).
function wrap(tokens) {
  const lines = [];
  let line = '';
  for (const token of tokens) {
    if (line && line.length + 1 + token.length > 79) {
      lines.push(line);
      line = '';
    }
    line = line ? `${line} ${token}` : token;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

export function resultToken(result) {
  return { p1win: '1-0', p2win: '0-1', draw: '1/2-1/2' }[result] || '*';
}

// A game as the PGN record sigil-match writes (protocol.md, "Records"):
//   game = {event, site, date (a Date), white, black, variant, fen (the
//   start), moveLimit (L, or 0), result ('p1win'|'p2win'|'draw'|'none'),
//   termination ('normal', 'time forfeit', ...), margin (number or null),
//   timeControl (string or null), detail (the words of the end, or ''),
//   plies: [{text, side}]}
export function writePgn(game) {
  const d = game.date || new Date();
  const date = `${d.getFullYear()}.${String(d.getMonth() + 1).padStart(2, '0')}.${String(d.getDate()).padStart(2, '0')}`;
  const result = resultToken(game.result);
  const tags = [
    tag('Event', game.event || 'Sigil in the browser'),
    tag('Site', game.site || '?'),
    tag('Date', date),
    tag('Round', '-'),
    tag('White', game.white || '?'),
    tag('Black', game.black || '?'),
    tag('Result', result),
    tag('SetUp', '1'),
    tag('FEN', game.fen),
    tag('Variant', game.variant),
  ];
  if (game.moveLimit > 0) tags.push(tag('MoveLimit', game.moveLimit));
  tags.push(tag('Termination', game.termination || (result === '*' ? 'unterminated' : 'normal')));
  if (game.timeControl) tags.push(tag('TimeControl', game.timeControl));
  if (game.margin !== null && game.margin !== undefined) tags.push(tag('Margin', game.margin));
  tags.push(tag('PlyCount', game.plies.length));
  const numbers = moveNumbers(game.plies.map((p) => p.side));
  const tokens = [];
  game.plies.forEach((ply, i) => {
    if (numbers[i]) tokens.push(numbers[i]);
    tokens.push(ply.text);
  });
  if (game.detail) tokens.push(`{${game.detail.replace(/}/g, ')')}}`);
  tokens.push(result);
  return `${tags.join('\n')}\n\n${wrap(tokens)}\n\n`;
}

// ------------------------------------------------------------------ reading PGN

// The first game of a PGN text, read as sigil-match -replay reads one: its
// tags, and its moves with comments ({...}, ;...), variations ((...)), move
// numbers, NAGs ($n) and the result token skipped.  null when the text has
// no tag (it is no PGN).
export function readPgn(text) {
  const lines = text.replace(/\r/g, '').split('\n');
  const tags = {};
  const movetext = [];
  let inMoves = false;
  let seenTag = false;
  for (const line of lines) {
    const m = line.match(/^\s*\[(\S+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$/);
    if (m) {
      if (inMoves) break;            // a second game starts: read the first only
      tags[m[1]] = m[2].replace(/\\(.)/g, '$1');
      seenTag = true;
      continue;
    }
    if (seenTag && line.trim() !== '') {
      inMoves = true;
      movetext.push(line);
    }
  }
  if (!seenTag) return null;
  return { tags, moves: pgnMoves(movetext.join('\n')) };
}

export function pgnMoves(text) {
  const moves = [];
  let depth = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '{') {
      const end = text.indexOf('}', i);
      i = end < 0 ? text.length : end + 1;
      continue;
    }
    if (c === ';') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
      continue;
    }
    if (c === '(' || c === ')') {
      depth += c === '(' ? 1 : depth > 0 ? -1 : 0;
      i++;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    let j = i;
    while (j < text.length && !/[\s{()]/.test(text[j])) j++;
    let token = text.slice(i, j);
    i = j;
    if (depth > 0 || token.startsWith('$') || ['1-0', '0-1', '1/2-1/2', '*'].includes(token)) continue;
    const number = token.match(/^\d+\.+(.*)$/);
    if (number) {
      token = number[1];
      if (!token) continue;
    }
    moves.push(token);
  }
  return moves;
}

// ------------------------------------------------------------------ composing a FEN

// Expands one rank of a FEN of ranks into its squares: each entry is the
// piece letters there, or '' for an empty square.  `letters` are the piece
// letters the board's kinds use (longest first).
function expandRank(rank, letters) {
  const squares = [];
  let i = 0;
  while (i < rank.length) {
    const c = rank[i];
    if (c === '.') {
      squares.push('');
      i++;
    } else if (/\d/.test(c)) {
      for (let k = 0; k < Number(c); k++) squares.push('');
      i++;
    } else {
      const letter = letters.find((l) => l && rank.startsWith(l, i));
      if (!letter) return null;
      squares.push(letter);
      i += letter.length;
    }
  }
  return squares;
}

// A FEN for the pieces placed by hand, written in the form of the game's
// current FEN (`template`, as `query fen` gives it): the page knows no
// game's FEN, so it copies the form the engine wrote.  Two forms exist:
//   lists  `W:W14,K15:B1,2`      side letter, then each side's letter and its
//                                pieces (the kind's FEN letters + the cell)
//   ranks  `<rank>/<rank>… w …`   rows top to bottom; a rank lists either
//                                every square or only the board's cells
//                                (as the template's ranks do); empty runs
//                                as digits or dots (as the template does);
//                                the side field second, the other fields
//                                kept as the template has them.
// pieces: Map cell -> {side, kind}; turn: 'white' | 'black'.  Returns null
// when the template has neither form.  The engine judges the result.
export function composeFen(board, template, pieces, turn) {
  const kinds = new Map(board.pieces.map((k) => [k.kind, k]));
  const letterOf = (piece) => {
    const kind = kinds.get(piece.kind);
    return kind && kind.fen ? kind.fen[piece.side] || '' : '';
  };
  const lists = template.match(/^\s*([A-Za-z]):([A-Za-z])[^:]*:([A-Za-z])/);
  if (lists) {
    const [, turnLetter, firstLetter, secondLetter] = lists;
    const upper = turnLetter === turnLetter.toUpperCase();
    const sideLetter = (side) => {
      const letter = side === 'white' ? 'W' : 'B';
      return upper ? letter : letter.toLowerCase();
    };
    const order = new Map(board.cells.map((c, i) => [c.name, i]));
    const list = (side) => [...pieces].filter(([, p]) => p.side === side)
      .sort((a, b) => order.get(a[0]) - order.get(b[0]))
      .map(([cell, p]) => letterOf(p) + cell).join(',');
    const parts = [sideLetter(turn)];
    for (const letter of [firstLetter, secondLetter]) {
      const side = letter.toUpperCase() === 'W' ? 'white' : 'black';
      parts.push(letter + list(side));
    }
    return parts.join(':');
  }
  if (board.layout !== 'squares' || !board.columns || !board.rows) return null;
  const fields = template.trim().split(/\s+/);
  const ranks = fields[0].split('/');
  if (ranks.length !== board.rows || fields.length < 2) return null;
  const letters = board.pieces.flatMap((k) => [k.fen.white, k.fen.black]).filter(Boolean)
    .sort((a, b) => b.length - a.length);
  const dots = fields[0].includes('.');
  const byRow = new Map();
  for (const cell of board.cells) {
    const row = Math.floor(cell.y);
    if (!byRow.has(row)) byRow.set(row, []);
    byRow.get(row).push(cell);
  }
  const out = [];
  for (let row = 0; row < board.rows; row++) {
    const cells = (byRow.get(row) || []).sort((a, b) => a.x - b.x);
    const squares = expandRank(ranks[row], letters);
    if (!squares) return null;
    const every = squares.length === board.columns && cells.length !== board.columns;
    const column = new Map(cells.map((c) => [Math.floor(c.x), c.name]));
    const names = every ? [...Array(board.columns).keys()].map((x) => column.get(x) || null)
      : cells.map((c) => c.name);
    let rank = '';
    let run = 0;
    const flush = () => {
      if (run) rank += dots ? '.'.repeat(run) : String(run);
      run = 0;
    };
    for (const name of names) {
      const piece = name ? pieces.get(name) : null;
      if (piece) {
        flush();
        rank += letterOf(piece);
      } else {
        run++;
        if (!dots && run === 9) flush();
      }
    }
    flush();
    out.push(rank);
  }
  const sideField = fields[1];
  const upper = sideField === sideField.toUpperCase();
  const side = turn === 'white' ? 'w' : 'b';
  fields[0] = out.join('/');
  fields[1] = upper ? side.toUpperCase() : side;
  return fields.join(' ');
}

// ------------------------------------------------------------------ clocks

// A time control "B+I" (minutes + seconds, decimals allowed): {base, inc} in
// ms, or null when the text is none.
export function parseTimeControl(text) {
  const m = String(text || '').trim().match(/^(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)$/);
  if (!m) return null;
  const base = Math.round(Number(m[1]) * 60000);
  if (base <= 0) return null;
  return { base, inc: Math.round(Number(m[2]) * 1000) };
}

// PGN's TimeControl of a base and increment in ms: "300+3" (seconds).
export function pgnTimeControl(tc) {
  const s = (ms) => String(Math.round(ms) / 1000);
  return `${s(tc.base)}+${s(tc.inc)}`;
}

// A clock's time for people: m:ss, with tenths below 10 s.
export function formatClock(ms) {
  const t = Math.max(0, ms);
  if (t < 10000) return `0:0${(Math.floor(t / 100) / 10).toFixed(1)}`;
  const total = Math.floor(t / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

// `query value`'s answer: true when it says the draw is proven.
export function isProvenDraw(answer) {
  return /^draw proven\b/.test(String(answer || '').trim());
}
