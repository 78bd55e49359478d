// Pinned versions of the offline VS Code harness (see docs in README "Tests").
// code-server 4.139.1 is VS Code 1.139.1; it needs Node 24, which we take from the npm
// registry so nothing outside npm and Debian is downloaded.
export const CODE_SERVER_VERSION = '4.139.1';
export const HARNESS_NODE_VERSION = '24.21.0';
export const CHROMIUM_PATH = process.env.HOSTLENS_CHROMIUM ?? '/usr/bin/chromium';
