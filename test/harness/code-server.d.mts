// Types for code-server.mjs, so the TypeScript screenshot driver can use it.
import type { BrowserContext } from 'playwright-core';

export interface RunningCodeServer {
  url: string;
  port: number;
  root: string;
  home: string;
  userData: string;
  extensions: string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number>;
export function startCodeServer(options?: {
  extraSettings?: Record<string, unknown>;
  env?: Record<string, string>;
  smokeTestDriver?: boolean;
  vsix?: string;
  log?: (line: string) => void;
}): Promise<RunningCodeServer>;
export function launchBrowser(profileRoot: string): Promise<BrowserContext>;
