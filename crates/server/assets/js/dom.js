// DOM helpers. Every text from the server or a person is added as a text node (never as
// markup), so names and messages cannot become markup.

export const SVG_NS = 'http://www.w3.org/2000/svg';

// An HTML element: `attrs` may hold `on<event>` handlers, `class`, and plain attributes
// (false, null and undefined leave an attribute out; true sets it empty).
export function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  setAttrs(e, attrs);
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
  return e;
}

function setAttrs(e, attrs) {
  for (const k in attrs || {}) {
    const v = attrs[k];
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'class') e.setAttribute('class', v);
    else e.setAttribute(k, v === true ? '' : v);
  }
}

// An SVG element with attributes and an optional text.
export function s(tag, attrs, text) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

// Replaces the children of `el`, leaving out empty (null/false) ones.
export function fill(el, ...kids) {
  el.replaceChildren(...kids.flat().filter((k) => k !== null && k !== undefined && k !== false));
}

export const view = () => document.getElementById('view');
