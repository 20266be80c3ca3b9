// The page's views by address (`#/t/<table>`, `#/analysis`, …): each view registers what to
// undo when the page moves on; a hand-off carries a position from one view to the next.
let cleanup = [];
let views = {};
let handoff = null;

// What to do when the page leaves the current view.
export function onLeave(f) { cleanup.push(f); }

// Leaves a position for the next view (`for`: 'analysis' or 'new').
export function handOff(value) { handoff = value; }

// The hand-off meant for view `name`, taken once.
export function takeHandOff(name) {
  if (!handoff || handoff.for !== name) return null;
  const v = handoff;
  handoff = null;
  return v;
}

export function setViews(v) { views = v; }

// Draws the view of the current address.
export function route() {
  for (const f of cleanup.splice(0)) f();
  const parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  window.scrollTo(0, 0);
  const v = views[parts[0]] || views[''];
  v(...parts.slice(1));
}
