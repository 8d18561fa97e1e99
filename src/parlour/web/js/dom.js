// Small helpers to build HTML and SVG elements without a framework.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: h("button", {class: "x", onclick: f}, "text"). */
export function h(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** "1 coin", "3 coins": a count with its noun, singular for exactly one (`many` for an irregular plural). */
export function plural(count, one, many = `${one}s`) {
  return `${count} ${Number(count) === 1 ? one : many}`;
}

/** An SVG element: s("rect", {x: 0, y: 0, width: 10, height: 10}). */
export function s(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** A whole <svg> with a viewBox and an accessible title. */
export function svg(width, height, title, ...children) {
  return s("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "board", "aria-label": title },
    s("title", { text: title }), ...children);
}

/** A clickable target of the board: an SVG group carrying the key the move picker knows it by. */
export function target(key, label, ...children) {
  return s("g", { class: "target", "data-key": key, "aria-label": label }, s("title", { text: label }), ...children);
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

export function cap(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}
