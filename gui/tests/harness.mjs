// harness.mjs - what the browser tests stand on: the real websocketd serving
// gui/ with one engine/sigil per connection, Debian's chromium driven by
// playwright-core (never a browser of Playwright's own), and a separate
// engine process to check the page's results against.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const guiDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(guiDir, '..');

// The engine under test: $SIGIL_BIN, else the usual build places.
export function enginePath() {
  const candidates = [process.env.SIGIL_BIN, join(repoDir, 'build/engine/sigil'), join(repoDir, 'engine/sigil')];
  for (const path of candidates) if (path && existsSync(path)) return resolve(path);
  throw new Error('no engine: build engine/sigil or set SIGIL_BIN');
}

export const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

async function waitForHttp(url, process, log) {
  const deadline = Date.now() + 15000;
  while (Date.now() < deadline) {
    if (process.exitCode !== null) throw new Error(`websocketd exited: ${log.join('')}`);
    try {
      const answer = await fetch(url);
      if (answer.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`websocketd did not answer at ${url}: ${log.join('')}`);
}

// websocketd --port P --staticdir gui engine/sigil, on the loopback only.
// `command`: the program websocketd runs per connection (default: the
// engine), with its arguments.
export async function startServer(command = [enginePath()]) {
  const port = await freePort();
  const log = [];
  const child = spawn('websocketd', ['--port', String(port), '--address', '127.0.0.1',
    '--loglevel', 'error', '--staticdir', guiDir, ...command], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d) => log.push(String(d)));
  child.stderr.on('data', (d) => log.push(String(d)));
  const url = `http://127.0.0.1:${port}/`;
  await waitForHttp(url, child, log);
  return {
    url,
    log,
    stop: () => new Promise((r) => {
      if (child.exitCode !== null) return r();
      child.once('exit', () => r());
      child.kill('SIGTERM');
    }),
  };
}

// Debian's chromium, headless, in a profile of its own that is removed after.
// `options` go to the context (a phone: viewport, isMobile, hasTouch).
export async function startBrowser(options = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'sigil-gui-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
    ...options,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    // The fresh --user-data-dir is the profile folder: Playwright passes it.
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

// A page that records every console error and uncaught exception.
export async function openPage(context, url) {
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.goto(url);
  await idle(page);
  return { page, problems };
}

// Waits until the page waits for the person or the game is over.
export async function idle(page, timeout = 60000) {
  await page.waitForSelector('html[data-busy="false"]', { timeout, state: 'attached' });
}

// Runs a program of the build (engine/sigil-match) with arguments; resolves
// with its exit code and output.
export function runProgram(path, args) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(path, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('error', reject);
    child.on('exit', (code) => resolveRun({ code, out }));
  });
}

// engine/sigil-match beside the engine under test.
export function matchPath() {
  return join(dirname(enginePath()), 'sigil-match');
}

// Runs one engine process on the given lines (ending with quit) and
// returns its output lines.
export function runEngine(lines) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(enginePath(), [], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.on('error', reject);
    child.on('exit', () => resolveRun(out.split('\n').filter((l) => l !== '')));
    child.stdin.end(lines.concat(['quit']).join('\n') + '\n');
  });
}

// A small seeded generator (mulberry32), so a failing game can be replayed.
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
