// What this browser keeps: the seats it holds at each table (their secret tokens), the
// player's name and the page's settings (language, sound).

// {held: {side: token}, invite?: token of an open seat's link, creator?: token}
export function seatsOf(table) {
  try { return JSON.parse(localStorage.getItem('boyi.t.' + table)) || { held: {} }; } catch (_) { return { held: {} }; }
}

export function saveSeats(table, seats) {
  localStorage.setItem('boyi.t.' + table, JSON.stringify(seats));
}

export function myName() { return localStorage.getItem('boyi.name') || ''; }
export function setMyName(name) { localStorage.setItem('boyi.name', name); }

export function pref(key, fallback) {
  const v = localStorage.getItem('boyi.pref.' + key);
  return v === null ? fallback : v;
}

export function setPref(key, value) { localStorage.setItem('boyi.pref.' + key, value); }
