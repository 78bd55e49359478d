// Validation of what the webview sends. The webview shows untrusted page text, so the host
// treats its messages as untrusted too: only known shapes, whitelisted commands with one
// bounded string argument, http(s) links, bounded copy text. No vscode import (unit-tested).
import {
  PANEL_COMMANDS,
  type PanelCommand,
  type RenderedSummary,
  type WebviewMessage,
} from '../../protocol';

const MAX_ARG = 2048;
const MAX_URL = 8192;
const MAX_COPY = 2 * 1024 * 1024;

export function parseWebviewMessage(raw: unknown): WebviewMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'rendered':
      return isSummary(m.summary) ? { type: 'rendered', summary: m.summary } : undefined;
    case 'runCommand':
      if (!isPanelCommand(m.command)) return undefined;
      if (typeof m.arg !== 'string' || m.arg.trim() === '' || m.arg.length > MAX_ARG) {
        return undefined;
      }
      return { type: 'runCommand', command: m.command, arg: m.arg.trim() };
    case 'openExternal':
      return typeof m.url === 'string' && safeExternalUrl(m.url) !== undefined
        ? { type: 'openExternal', url: m.url }
        : undefined;
    case 'toggleRaw':
      return typeof m.shown === 'boolean' ? { type: 'toggleRaw', shown: m.shown } : undefined;
    case 'copy':
      return typeof m.text === 'string' && m.text.length <= MAX_COPY
        ? { type: 'copy', text: m.text }
        : undefined;
    default:
      return undefined;
  }
}

export function isPanelCommand(value: unknown): value is PanelCommand {
  return typeof value === 'string' && (PANEL_COMMANDS as readonly string[]).includes(value);
}

/** The URL to open in the user's browser, or undefined unless it is plain http(s). */
export function safeExternalUrl(text: string): string | undefined {
  if (text.length > MAX_URL) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username !== '' || url.password !== '') return undefined;
  return url.href;
}

function isSummary(value: unknown): value is RenderedSummary {
  if (typeof value !== 'object' || value === null) return false;
  const s = value as Record<string, unknown>;
  return (
    typeof s.seq === 'number' &&
    typeof s.kind === 'string' &&
    typeof s.status === 'string' &&
    typeof s.text === 'string' &&
    Array.isArray(s.links) &&
    Array.isArray(s.images) &&
    Array.isArray(s.highlights) &&
    typeof s.scripts === 'number' &&
    typeof s.handlers === 'number'
  );
}
