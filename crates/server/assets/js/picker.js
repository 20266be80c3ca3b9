// Picking a move by clicking: a Picker turns clicks into one move text for the position it
// was made for. Xiangqi: pick a piece, then its destination. Connect6: two stones. Jiu:
// the piece, each landing of its path, then the enemy pieces its squares remove.
import { t, forbiddenReason } from './i18n.js';
import { parseGrid, parsePoint, pointName, pointOrder, moveMarks } from './position.js';

export class Picker {
  // `state`: {game, position, hints, toMove}; `send(text)` gets a complete move;
  // `onChange()` redraws; `onNote(text)` says why a click did nothing.
  constructor(state, send, onChange, onNote) {
    this.s = state;
    this.send = send;
    this.onChange = onChange;
    this.onNote = onNote || (() => {});
    this.sel = [];       // clicked points (origin and landings, or connect6 stones)
    this.path = null;    // jiu: the chosen path text awaiting captures
    this.need = 0;       // jiu: captures to choose
    this.caps = [];
  }

  // What the person should click next, or ''.
  status() {
    const h = this.s.hints || {};
    if (this.s.game === 'connect6' && h.stones === 2) return t('pick.stonesLeft', { n: 2 - this.sel.length });
    if (this.path) return t('pick.square', { n: this.need - this.caps.length });
    if (this.s.game === 'jiu' && this.sel.length) return t('pick.jiuLand');
    if (this.s.game === 'xiangqi' && this.sel.length) return t('pick.xqTarget');
    return '';
  }

  marks() {
    const h = this.s.hints || {};
    const side = this.s.toMove;
    if (this.s.game === 'connect6') return { pending: this.sel.map((name) => ({ name, side })) };
    if (this.s.game === 'xiangqi') {
      if (!this.sel.length) return {};
      const from = this.sel[0];
      return { chosen: [from], targets: (h.moves || []).filter((m) => m.startsWith(from)).map((m) => m.slice(2)) };
    }
    if (this.s.game === 'jiu' && h.paths) {
      const landing = this.sel.length > 1 ? [{ name: this.sel[this.sel.length - 1], side }] : [];
      if (this.path) {
        return { path: this.sel, pending: landing, chosen: this.caps, targets: this.captureTargets().filter((p) => !this.caps.includes(p)) };
      }
      if (!this.sel.length) return {};
      return { path: this.sel, pending: landing, chosen: [this.sel[0]], targets: this.nextPoints() };
    }
    return {};
  }

  jiuPaths() {
    return (this.s.hints.paths || []).map((p) => ({ text: p.path, pts: p.path.split(/[-*]/), captures: p.captures }));
  }

  extending() {
    const k = this.sel.length;
    return this.jiuPaths().filter((p) => p.pts.length >= k && this.sel.every((x, i) => p.pts[i] === x));
  }

  nextPoints() {
    const k = this.sel.length;
    return [...new Set(this.extending().filter((p) => p.pts.length > k).map((p) => p.pts[k]))];
  }

  captureTargets() {
    const g = parseGrid(this.s.position);
    const enemy = this.s.toMove === 'black' ? 'white' : 'black';
    const jumped = new Set(moveMarks('jiu', this.path).jumped.map((p) => pointName(p.c, p.r)));
    const out = [];
    for (let r = 0; r < g.size; r++) for (let c = 0; c < g.size; c++) {
      const name = pointName(c, r);
      if (g.cells[r][c] === enemy && !jumped.has(name)) out.push(name);
    }
    return out;
  }

  reset() {
    this.sel = [];
    this.path = null;
    this.caps = [];
    this.need = 0;
    this.onChange();
  }

  click(p) {
    const h = this.s.hints || {};
    const g = this.s.game;
    if (g === 'gomoku' || (g === 'jiu' && h.points)) {
      if ((h.points || []).includes(p)) return this.send(p);
      const forbidden = (h.forbidden || []).find((f) => f.point === p);
      if (forbidden) this.onNote(t('pick.forbidden', { point: p, reason: forbiddenReason(forbidden.reason) }));
      return;
    }
    if (g === 'connect6') return this.clickConnect6(p, h);
    if (g === 'xiangqi') return this.clickXiangqi(p, h);
    if (g === 'jiu') return this.clickJiu(p);
  }

  clickConnect6(p, h) {
    const q = parsePoint(p);
    const empty = !parseGrid(this.s.position).cells[q.r][q.c];
    if (this.sel.includes(p)) { this.sel = this.sel.filter((x) => x !== p); return this.onChange(); }
    if (!empty) return;
    if (h.stones === 1 || (this.sel.length === 0 && (h.single || []).includes(p))) return this.send(p);
    this.sel.push(p);
    if (this.sel.length === 2) {
      const text = this.sel.slice().sort(pointOrder).join(' ');
      this.sel = [];
      return this.send(text);
    }
    this.onChange();
  }

  clickXiangqi(p, h) {
    const moves = h.moves || [];
    if (this.sel.length && moves.includes(this.sel[0] + p)) {
      const text = this.sel[0] + p;
      this.sel = [];
      return this.send(text);
    }
    this.sel = moves.some((m) => m.startsWith(p)) ? [p] : [];
    this.onChange();
  }

  clickJiu(p) {
    if (this.path) {
      if (this.caps.includes(p)) this.caps = this.caps.filter((x) => x !== p);
      else if (this.captureTargets().includes(p)) this.caps.push(p);
      const avail = this.captureTargets().length;
      if (this.caps.length >= Math.min(this.need, avail)) {
        const text = [this.path].concat(this.caps.slice().sort(pointOrder)).join(' x ');
        this.sel = []; this.path = null; this.caps = []; this.need = 0;
        return this.send(text);
      }
      return this.onChange();
    }
    const paths = this.jiuPaths();
    if (!this.sel.length) {
      if (paths.some((x) => x.pts[0] === p)) this.sel = [p];
      return this.onChange();
    }
    const last = this.sel[this.sel.length - 1];
    const exact = () => paths.find((x) => x.pts.length === this.sel.length && x.pts.every((q, i) => q === this.sel[i]));
    if (p === last && this.sel.length > 1 && exact()) return this.finishJiu(exact());
    if (this.nextPoints().includes(p)) {
      this.sel.push(p);
      if (!this.nextPoints().length && exact()) return this.finishJiu(exact());
      return this.onChange();
    }
    this.sel = paths.some((x) => x.pts[0] === p) ? [p] : [];
    this.onChange();
  }

  finishJiu(path) {
    if (!path.captures) {
      this.sel = [];
      return this.send(path.text);
    }
    this.path = path.text;
    this.need = path.captures;
    this.caps = [];
    this.onChange();
  }
}
