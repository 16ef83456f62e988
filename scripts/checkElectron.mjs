#!/usr/bin/env node
// `npm run lint:electron`: Electronegativity (Doyensec's static checker for Electron misconfigurations)
// over the code that runs in Electron (src/main, src/preload, and the page's index.html for its CSP),
// failing on any HIGH finding and on any finding that says a protection of the window is off.
// Every finding is printed, with the review note of the ones already looked at.
//
// Offline it still runs: the tool's attempt to fetch fresh translations times out after a second
// and its built-in ones are used. Before the real scan it scans a window made with the protections
// switched off and stops if that would pass: a tool that silently stopped understanding our
// TypeScript would otherwise pass everything.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** Scanned together: the tool's global checks (navigation limits, permission handler, CSP) look across files. */
const INPUTS = ['src/main', 'src/preload', 'src/renderer/index.html'];

/** Tests import the code under plain Node with vitest; they never run in Electron. */
const NOT_SHIPPED = /\.(test|bench)\.tsx?$/;

/** Checks left out, each with why. A HIGH finding is fixed in window.ts or index.ts unless it is shown wrong here. */
const EXCLUDED_CHECKS = {
  // Compares the Electron version in a package.json with the releases it downloads from GitHub at run
  // time: the inputs hold no package.json, and a CI lint must not change its verdict when someone
  // publishes a release. Electron upgrades are tracked with the other dependencies.
  AvailableSecurityFixesGlobalCheck: 'needs the network and a package.json',
};

/**
 * Findings that fail the lint whatever severity the tool gives them: each means a protection the
 * window relies on is off. For today's Electron the tool rates several of them MEDIUM or lower
 * (sandbox: false, webSecurity: false, no permission handler), which a HIGH-only gate would let by.
 */
const PROTECTION_CHECKS = new Set([
  'CONTEXT_ISOLATION_JS_CHECK',
  'NODE_INTEGRATION_JS_CHECK',
  'NODE_INTEGRATION_ATTACH_EVENT_JS_CHECK',
  'NODE_INTEGRATION_HTML_CHECK',
  'SANDBOX_JS_CHECK',
  'WEB_SECURITY_JS_CHECK',
  'WEB_SECURITY_HTML_CHECK',
  'INSECURE_CONTENT_JS_CHECK',
  'INSECURE_CONTENT_HTML_CHECK',
  'EXPERIMENTAL_FEATURES_JS_CHECK',
  'BLINK_FEATURES_JS_CHECK',
  'REMOTE_MODULE_JS_CHECK',
  'CERTIFICATE_ERROR_EVENT_JS_CHECK',
  'CERTIFICATE_VERIFY_PROC_JS_CHECK',
  'SECURITY_WARNINGS_DISABLED_JS_CHECK',
  'PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK',
  'LIMIT_NAVIGATION_GLOBAL_CHECK',
  'HTTP_RESOURCES_WITH_NODE_INTEGRATION_GLOBAL_CHECK',
]);

/** Findings a person has looked at, by check and file, with what they found. Printed beside the finding. */
const REVIEWED = {
  'AUXCLICK_JS_CHECK src/main/window.ts':
    'a middle-click can only ask for a new window, and setWindowOpenHandler denies every one (an http(s) link is offered to the browser instead)',
  'PRELOAD_JS_CHECK src/main/window.ts':
    'the preload is sandboxed and context-isolated and exposes only the typed contract bridge (window.tether); ipc.ts checks the sender frame on every call',
  'OPEN_EXTERNAL_JS_CHECK src/main/window.ts':
    'only http(s) URLs without credentials (host/externalLink.ts), and only after the person confirms in a dialog',
  'CSP_GLOBAL_CHECK src/main/window.ts':
    'the policy is built by host/contentSecurityPolicy.ts, which the tool cannot evaluate; the same policy is in index.html',
  'CSP_GLOBAL_CHECK src/renderer/index.html':
    "style-src 'unsafe-inline' is needed by React style props and Monaco; scripts are 'self' only, default-src 'none'",
};

const electronVersion = installedElectronVersion();
const run = loadElectronegativity();

await provesItCanFail();

const { findings, unparsed } = await scan(INPUTS.map((input) => ({ from: path.join(root, input), to: input })));
console.log(
  `Electronegativity over ${INPUTS.join(', ')} (Electron ${electronVersion}); checks left out: ${Object.keys(EXCLUDED_CHECKS).join(', ')}.`,
);
if (findings.length === 0) console.log('No findings.');
for (const finding of findings) {
  const note = REVIEWED[`${finding.check} ${finding.file}`];
  const where = finding.file === 'N/A' ? '(across the scanned files)' : `${finding.file}:${finding.line}`;
  console.log(`${finding.severity.padEnd(8)} ${finding.confidence.padEnd(9)} ${finding.check.padEnd(40)} ${where}`);
  console.log(`         ${finding.description}${note ? `\n         reviewed: ${note}` : ''}`);
}

let failed = false;
for (const error of unparsed) {
  console.error(
    `lint:electron: Electronegativity could not parse ${error.file}: ${error.message}. A file it cannot parse is not checked: make it parseable.`,
  );
  failed = true;
}
const blocking = findings.filter(isBlocking);
if (blocking.length > 0) {
  console.error(
    `lint:electron: ${blocking.length} blocking finding${blocking.length === 1 ? '' : 's'}: ${blocking.map((f) => `${f.check} at ${f.file === 'N/A' ? 'the app' : `${f.file}:${f.line}`}`).join(', ')}. ` +
      'Fix them in src/main/window.ts or src/main/index.ts; if one is wrong, leave its check out in scripts/checkElectron.mjs and say why.',
  );
  failed = true;
}
if (failed) process.exit(1);
console.log(
  `lint:electron: passed: no HIGH finding and no protection switched off (${findings.length} finding${findings.length === 1 ? '' : 's'} listed for review).`,
);

function isBlocking(finding) {
  return finding.severity === 'HIGH' || PROTECTION_CHECKS.has(finding.check);
}

/** Copies the inputs (tests left out) into one tree, scans it, and returns the findings sorted. */
async function scan(inputs) {
  const tree = mkdtempSync(path.join(tmpdir(), 'tether-electronegativity-'));
  try {
    for (const { from, to, text } of inputs) {
      const target = path.join(tree, to);
      mkdirSync(path.dirname(target), { recursive: true });
      if (text !== undefined) writeFileSync(target, text);
      else cpSync(from, target, { recursive: true, filter: (source) => !NOT_SHIPPED.test(source) });
    }
    const result = await quietly(() =>
      run({
        input: tree,
        isRelative: true,
        electronVersionOverride: electronVersion,
        excludeFromScan: Object.keys(EXCLUDED_CHECKS).map((name) => name.toLowerCase()),
      }),
    );
    const order = { HIGH: 0, MEDIUM: 1, LOW: 2, INFORMATIONAL: 3 };
    const findings = result.issues
      .map((issue) => ({
        severity: issue.severity.name,
        confidence: issue.confidence.name,
        check: issue.id,
        file: issue.file,
        line: issue.location.line,
        description: issue.description,
      }))
      .sort((a, b) => order[a.severity] - order[b.severity] || a.file.localeCompare(b.file) || a.line - b.line);
    const unparsed = result.errors
      .filter((error) => !error.tolerable)
      .map((error) => ({ file: path.relative(tree, path.resolve(tree, error.file)), message: error.message }));
    return { findings, unparsed };
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

/** Runs `task` without the tool's notes about the network it could not reach (offline is expected). */
async function quietly(task) {
  const log = console.log;
  console.log = (...args) => {
    const text = args.map(String).join(' ');
    if (/Could not retrieve updated translations|fetching Electron's releases/.test(text)) return;
    log(...args);
  };
  try {
    return await task();
  } finally {
    console.log = log;
  }
}

async function provesItCanFail() {
  const unsafeWindow = `import { BrowserWindow } from 'electron';
export function open(url: string): BrowserWindow {
  const window: BrowserWindow = new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false, webSecurity: false } });
  void window.loadURL(url);
  return window;
}
`;
  const { findings, unparsed } = await scan([{ to: 'src/main/window.ts', text: unsafeWindow }]);
  const caught = new Set(findings.filter(isBlocking).map((finding) => finding.check));
  const expected = ['CONTEXT_ISOLATION_JS_CHECK', 'SANDBOX_JS_CHECK', 'WEB_SECURITY_JS_CHECK', 'LIMIT_NAVIGATION_GLOBAL_CHECK'];
  const missing = expected.filter((check) => !caught.has(check));
  if (missing.length > 0 || unparsed.length > 0) {
    const why = unparsed.map((error) => error.message).join('; ');
    console.error(
      `lint:electron: Electronegativity let an unsafe window through (not caught: ${missing.join(', ') || 'none'}${why ? `; parse errors: ${why}` : ''}). ` +
        'The checker broke or changed (a new version?): fix this script before trusting a clean result.',
    );
    process.exit(2);
  }
}

function loadElectronegativity() {
  try {
    return require('@doyensec/electronegativity');
  } catch (error) {
    console.error(
      `lint:electron: @doyensec/electronegativity is not installed (${error.message}). It is a devDependency: run \`npm install\`, then try again.`,
    );
    process.exit(2);
  }
}

function installedElectronVersion() {
  // Without it the tool guesses from a package.json in the scanned folder (there is none), falls back
  // to Electron 0.1.0 and judges by that version's defaults.
  try {
    return JSON.parse(readFileSync(path.join(root, 'node_modules/electron/package.json'), 'utf8')).version;
  } catch {
    const declared = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).devDependencies?.electron ?? '';
    return String(declared).replace(/^[^\d]*/, '');
  }
}
