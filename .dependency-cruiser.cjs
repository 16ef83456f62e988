/**
 * Tether's boundaries, checked by `npm run lint` (scripts: lint:layers). Every import counts, by
 * value or by type (tsPreCompilationDeps), so a type-only import up the layers fails as well: a type
 * carries its module's vocabulary with it, and the next change turns it into a value import.
 *
 * A rule's name says what was crossed (`main-layers: base imports tools-mcp`), so a failure reads as the
 * fix: move the file to the room it belongs in, or pass what it needs down from above.
 * docs/ARCHITECTURE.md ("The layers") describes each room. test/layers.test.ts proves the check fails.
 * Cycles between the folders of one layer are refused by .dependency-cruiser.folders.cjs, run beside it.
 */

/**
 * src/main, low to high: a file may import its own layer or a lower one, never a higher one.
 * Why this order (and where it differs from the first sketch of it):
 * - shared is the contract and the fold, for main and renderer alike; the one error a request
 *   fails with (`RequestError`) lives there too, because the renderer throws the same thing.
 * - base is what everything stands on and knows nothing of tools or sessions: the store (with
 *   `sessionLog.ts`: a session's events appended and folded, which tools, the loop, checkpoints and
 *   the app all write to), the terminal (the PTY), process (what a command
 *   may take of the machine, its capped output, its timeout hold, the shutdown reason), the workspace (the path guard, git, snapshots, what makes a
 *   file binary) and settings (the files' shapes; permissions reads its rules out of them).
 * - shell is the bash analysis (what a command line runs, reads and writes, in facts and in words):
 *   the rules, the hooks, the tools and the checkpoints all read it, and it knows none of them.
 * - permissions, sandbox, model are the policies and the outside services a tool call goes through;
 *   hooks (the person's and the project's commands run around a call, as in Claude Code) are policy too.
 * - tools run under permissions and the fence; mcp tools are tools from elsewhere.
 * - agent is the loop: it calls tools and the model, and says to the model what happened (the notes
 *   about reverts and rewinds are part of what the model sees, so they live in agent, not in review).
 * - checkpoints and review act on what the agent did (snapshots, rewinds, reverts).
 * - core.ts composes everything below into one core for the three hosts.
 * - app is what a UI host serves over the contract: the handlers, sessions, worktree moves, rewinds,
 *   updates, the MCP and sandbox request handlers (they answer requests, so they are app, not mcp or
 *   sandbox).
 * - host (tether serve) and cli are one layer: serve is a CLI command and shares its errors.
 * - Electron (index.ts, ipc.ts, window.ts) hosts the app in a window and is the only user of electron.
 */
const mainLayers = [
  { name: 'shared', path: '^src/shared/' },
  { name: 'base', path: '^src/main/(store|terminal|process|workspace|settings)/' },
  { name: 'shell', path: '^src/main/shell/' },
  // hooks sit with permissions: the approval gate weighs a hook's answer, and hooks read only settings and the command environment.
  { name: 'permissions-sandbox-model', path: '^src/main/(permissions|sandbox|model|hooks)/' },
  { name: 'tools-mcp', path: '^src/main/(tools|mcp)/' },
  { name: 'agent', path: '^src/main/agent/' },
  { name: 'checkpoints-review', path: '^src/main/(checkpoints|review)/' },
  { name: 'core', path: '^src/main/core\\.ts$' },
  { name: 'app', path: '^src/main/app/' },
  { name: 'host-cli', path: '^src/main/(host|cli)/' },
  { name: 'electron', path: '^src/main/(index|ipc|window)\\.ts$' },
];

function layerRules() {
  return mainLayers.flatMap((lower, index) =>
    mainLayers.slice(index + 1).map((higher) => ({
      name: `main-layers: ${lower.name} imports ${higher.name}`,
      comment: `${lower.name} sits below ${higher.name}: move the file to the layer it belongs in, or pass what it needs down from above (.dependency-cruiser.cjs, docs/ARCHITECTURE.md "The layers").`,
      severity: 'error',
      from: { path: lower.path },
      to: { path: higher.path },
    })),
  );
}

/**
 * Inside the renderer, low to high: lib (the host client, formatting) < ui (drawing pieces every
 * part uses: Icon, Splitter, pane sizes) and stores (zustand slices) < features < app (the shell).
 * A store holds state and never draws, so it imports no feature, no ui and no shell; a feature may
 * use another feature's pieces, but never the shell that arranges features (the shell's own
 * pieces that features draw with live in ui/, so that arrow never has to point up).
 */
const renderer = '^src/renderer/src/';
const rendererRules = [
  {
    name: 'renderer: lib imports stores, ui, features or app',
    comment: 'lib is the bottom of the renderer (the host client, formatting): it imports only lib and src/shared.',
    from: { path: `${renderer}lib/` },
    to: { path: `${renderer}(stores|ui|features|app)/|${renderer}main\\.tsx$` },
  },
  {
    name: 'renderer: stores import features, ui or app',
    comment: 'A store holds state and never draws: it imports lib and src/shared, and the UI reads it through selectors.',
    from: { path: `${renderer}stores/` },
    to: { path: `${renderer}(features|ui|app)/|${renderer}main\\.tsx$` },
  },
  {
    name: 'renderer: ui imports stores, features or app',
    comment: 'ui/ holds drawing pieces that take what they show as props: they import lib and src/shared only.',
    from: { path: `${renderer}ui/` },
    to: { path: `${renderer}(stores|features|app)/|${renderer}main\\.tsx$` },
  },
  {
    name: 'renderer: features import app',
    comment: 'A feature never imports the shell that arranges it; a piece both use belongs in ui/.',
    from: { path: `${renderer}features/` },
    to: { path: `${renderer}app/|${renderer}main\\.tsx$` },
  },
].map((rule) => ({ severity: 'error', ...rule }));

/** Where each side of the process boundary may reach, and the libraries that have one door each. */
const boundaryRules = [
  {
    name: 'shared imports renderer or preload',
    comment: 'src/shared is used by main and renderer alike: it imports only itself and zod (main is above it: see main-layers).',
    from: { path: '^src/shared/' },
    to: { path: '^src/(renderer|preload)/' },
  },
  {
    name: 'shared module cycle',
    comment:
      'Two files of src/shared import each other (session.ts and rewinds.ts did): the fold and its parts are read by main and renderer alike, so each part stands on its own; move what both need into a file below them (conversationState.ts is one).',
    from: { path: '^src/shared/', pathNot: '\\.test\\.ts$' },
    to: { path: '^src/shared/', circular: true },
  },
  {
    name: 'shared imports Node or a library',
    comment: 'src/shared runs in the renderer too: no Node modules, no library but zod.',
    from: { path: '^src/shared/', pathNot: '\\.test\\.ts$' },
    to: {
      dependencyTypes: ['core', 'npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'],
      pathNot: '(^|/)node_modules/zod/',
    },
  },
  {
    name: 'renderer imports main or preload',
    comment: 'The renderer knows the core only through the contract (src/shared) and window.tether.',
    from: { path: '^src/renderer/' },
    to: { path: '^src/(main|preload)/' },
  },
  {
    name: 'preload imports main or renderer',
    comment: 'The preload bridges the contract and nothing else: it imports only src/shared.',
    from: { path: '^src/preload/' },
    to: { path: '^src/(main|renderer)/' },
  },
  {
    name: 'main imports renderer or preload',
    comment: 'Main and the UI meet only in the contract (src/shared).',
    from: { path: '^src/main/' },
    to: { path: '^src/(renderer|preload)/' },
  },
  {
    name: 'main file outside every layer',
    comment:
      'Every file of src/main sits in a layer: add its folder to mainLayers in .dependency-cruiser.cjs (and to docs/ARCHITECTURE.md).',
    from: { path: '^src/main/', pathNot: mainLayers.map((layer) => layer.path) },
    to: { path: '^src/' },
  },
  {
    name: 'main file outside every layer',
    comment:
      'Every file of src/main sits in a layer: add its folder to mainLayers in .dependency-cruiser.cjs (and to docs/ARCHITECTURE.md).',
    from: { path: '^src/' },
    to: { path: '^src/main/', pathNot: mainLayers.map((layer) => layer.path) },
  },
  {
    name: 'source imports test code',
    comment: 'Test helpers live in test/; the app never ships them.',
    from: { path: '^src/', pathNot: '\\.test\\.tsx?$' },
    to: { path: '^(test|e2e|bench)/' },
  },
  {
    name: 'electron outside the Electron layer',
    comment: 'Only src/main/index.ts, ipc.ts, window.ts and the preload import Electron: the core runs in plain Node too.',
    from: { pathNot: ['^src/main/(index|ipc|window)\\.ts$', '^src/preload/'] },
    to: { path: '(^|/)node_modules/(electron|electron-updater)/' },
  },
  {
    name: 'better-sqlite3 outside store/sqlite/',
    comment: 'store/sqlite/ is the one door to SQLite: the rest of the store asks it, through the Database it opens.',
    from: { pathNot: '^src/main/store/sqlite/' },
    to: { path: '(^|/)node_modules/better-sqlite3/' },
  },
  {
    name: 'web-tree-sitter outside shell/',
    comment: 'shell/ is the one door to the bash parser: everything else asks analyzeCommand what a line runs.',
    from: { path: '^src/', pathNot: '^src/main/shell/' },
    to: { path: '(^|/)node_modules/web-tree-sitter/' },
  },
  {
    name: 'node-pty outside terminal/pty.ts',
    comment: 'terminal/pty.ts is the one door to node-pty; everything else uses the Terminal interface.',
    from: { pathNot: '^src/main/terminal/pty(\\.test)?\\.ts$' },
    to: { path: '(^|/)node_modules/node-pty/' },
  },
  {
    name: 'ws outside its three doors',
    comment:
      "host/serve.ts is the UI's WebSocket server; app/desk/deskListener.ts the one remote runs connect to; cli/desk/deskLink.ts the runner's end of that (docs/DESK_PROTOCOL.md).",
    from: {
      path: '^src/',
      pathNot: ['^src/main/host/serve\\.ts$', '^src/main/app/desk/deskListener\\.ts$', '^src/main/cli/desk/deskLink\\.ts$'],
    },
    to: { path: '(^|/)node_modules/ws/' },
  },
].map((rule) => ({ severity: 'error', ...rule }));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [...layerRules(), ...rendererRules, ...boundaryRules],
  options: {
    // Type-only imports count: they run up the layers as much as value imports do.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
  },
};
