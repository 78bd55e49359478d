// DOM helpers for the panel. Every piece of text goes in through textContent and every link
// through data attributes the host validates: page data never becomes markup.
import type { PanelCommand } from '../protocol';

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function add<T extends Node>(parent: Node, child: T): T {
  parent.appendChild(child);
  return child;
}

/** A link that asks the host to run one whitelisted command with one argument. */
export function commandLink(label: string, command: PanelCommand, arg: string): HTMLAnchorElement {
  const a = el('a', 'command-link', label);
  a.href = '#';
  a.dataset.command = command;
  a.dataset.arg = arg;
  a.title = `${label}`;
  return a;
}

/** A link the host opens in the browser (it accepts http and https only). */
export function externalLink(label: string, url: string): HTMLAnchorElement {
  const a = el('a', 'external-link', label);
  a.href = '#';
  a.dataset.url = url;
  a.title = url;
  return a;
}

export function button(label: string, action: string, className = 'button'): HTMLButtonElement {
  const b = el('button', className, label);
  b.type = 'button';
  b.dataset.action = action;
  return b;
}

/**
 * A view's header: its title, a muted subtitle when there is one, and the actions row, which
 * always ends with "Copy JSON". Returns the header and the actions row, for more.
 */
export function viewHeader(
  root: HTMLElement,
  title: string,
  subtitle?: string,
): { header: HTMLElement; actions: HTMLElement } {
  const header = add(root, el('header', 'view-header'));
  add(header, el('h1', undefined, title));
  if (subtitle !== undefined) add(header, el('div', 'subtitle muted', subtitle));
  const actions = add(header, el('div', 'actions'));
  add(actions, button('Copy JSON', 'copy-json', 'button secondary'));
  return { header, actions };
}

export function section(parent: Node, title: string): HTMLElement {
  const s = add(parent, el('section', 'section'));
  add(s, el('h2', undefined, title));
  return s;
}

/** A two-column definition list row. */
export function row(list: HTMLElement, term: string, value: Node | string): HTMLElement {
  add(list, el('dt', undefined, term));
  const dd = add(list, el('dd'));
  if (typeof value === 'string') dd.textContent = value;
  else dd.appendChild(value);
  return dd;
}

export function chip(text: string, className: string): HTMLElement {
  return el('span', `chip ${className}`, text);
}

export function isHttpUrl(text: string | undefined): text is string {
  if (!text) return false;
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}
