// Position and move text of every game (rules/positions.md), read for drawing and picking.

// Grid points: column letter and row number from 1 (`h8`).
export function parsePoint(text) {
  const m = /^([a-z])(\d{1,2})$/.exec(text);
  return m ? { c: m[1].charCodeAt(0) - 97, r: parseInt(m[2], 10) - 1 } : null;
}

export function pointName(c, r) {
  return String.fromCharCode(97 + c) + (r + 1);
}

// Xiangqi squares: file letter and rank 0-9 (ICCS).
export function parseSquare(text) {
  const m = /^([a-i])(\d)$/.exec(text);
  return m ? { c: m[1].charCodeAt(0) - 97, r: parseInt(m[2], 10) } : null;
}

export function squareName(c, r) {
  return String.fromCharCode(97 + c) + r;
}

// The canonical order of points in a move text (column first, then row).
export function pointOrder(a, b) {
  const p = parsePoint(a), q = parsePoint(b);
  return p.c - q.c || p.r - q.r;
}

// Grid position text: rows from the top, `x` black, `o` white, numbers for empty runs.
// `cells[r][c]` is 'black', 'white' or null, row 0 at the bottom.
export function parseGrid(text) {
  const fields = text.trim().split(/\s+/);
  const rows = fields[0].split('/');
  const size = rows.length;
  const cells = [];
  for (let i = 0; i < size; i++) {
    const row = [];
    const re = /(\d+)|([xo])/g;
    let m;
    while ((m = re.exec(rows[i]))) {
      if (m[1]) for (let k = 0; k < parseInt(m[1], 10); k++) row.push(null);
      else row.push(m[2] === 'x' ? 'black' : 'white');
    }
    cells[size - 1 - i] = row;
  }
  return { size, cells, side: fields[1] === 'w' ? 'white' : 'black', fields };
}

// Stones of each colour on a grid position.
export function countStones(text) {
  const g = parseGrid(text);
  const n = { black: 0, white: 0 };
  for (const row of g.cells) for (const c of row) if (c) n[c] += 1;
  return n;
}

// Xiangqi FEN: board[rank][file], rank 0 on red's side; upper case is red. The side to
// move is named as the protocol names it: red is 'white'.
export function parseFen(text) {
  const fields = text.trim().split(/\s+/);
  const rows = fields[0].split('/');
  const board = [];
  for (let i = 0; i < 10; i++) {
    const row = [];
    for (const ch of rows[i] || '') {
      if (/\d/.test(ch)) for (let k = 0; k < parseInt(ch, 10); k++) row.push(null);
      else row.push(ch);
    }
    board[9 - i] = row;
  }
  return { board, side: fields[1] === 'b' ? 'black' : 'white' };
}

// The square of a side's king ('white' is red) in a FEN, or null.
export function kingSquare(fen, side) {
  const { board } = parseFen(fen);
  const k = side === 'white' ? 'K' : 'k';
  for (let r = 0; r < 10; r++) for (let c = 0; c < 9; c++) if (board[r][c] === k) return squareName(c, r);
  return null;
}

// The points a move text touches: xiangqi {from, to}; jiu {path, flying, jumped, captures};
// gomoku and connect6 {stones}.
export function moveMarks(game, text) {
  if (!text) return null;
  if (game === 'xiangqi') {
    const from = parseSquare(text.slice(0, 2)), to = parseSquare(text.slice(2, 4));
    return from && to ? { from, to } : null;
  }
  if (game === 'jiu') {
    const [path, ...caps] = text.split(' x ');
    const flying = path.includes('*');
    const pts = path.split(/[-*]/).map(parsePoint);
    if (pts.some((p) => !p)) return null;
    const jumped = [];
    if (!flying) {
      for (let i = 1; i < pts.length; i++) {
        const a = pts[i - 1], b = pts[i];
        if (Math.abs(a.c - b.c) + Math.abs(a.r - b.r) === 2) jumped.push({ c: (a.c + b.c) / 2, r: (a.r + b.r) / 2 });
      }
    }
    return { path: pts, flying, jumped, captures: caps.map(parsePoint).filter(Boolean) };
  }
  if (text === 'pass') return { stones: [] };
  const stones = text.split(' ').map(parsePoint);
  return stones.every(Boolean) ? { stones } : null;
}

// The winning run of a finished grid game: the longest line of the winner's stones through
// the last move's stones, if it is at least `need` long.
export function winningLine(position, lastMove, winner, need) {
  const g = parseGrid(position);
  const marks = moveMarks('gomoku', lastMove);
  if (!marks || !winner) return [];
  let best = [];
  for (const p of marks.stones) {
    for (const [dc, dr] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
      const run = [p];
      for (const k of [1, -1]) {
        let c = p.c + k * dc, r = p.r + k * dr;
        while (g.cells[r] && g.cells[r][c] === winner) { run.push({ c, r }); c += k * dc; r += k * dr; }
      }
      if (run.length >= need && run.length > best.length) best = run;
    }
  }
  return best.map((q) => pointName(q.c, q.r));
}
