/**
 * The second half of lint:layers: no cycle between folders. The layer rules (.dependency-cruiser.cjs)
 * let a folder import another of its own layer; two that import each other (terminal ↔ workspace,
 * host ↔ cli, once) are one room drawn as two, and the next change lets a low file pull a high one in
 * through its neighbour. Tests are left out: a test beside its code imports test/support, which
 * imports many rooms at once, and that is not a cycle of the app. test/layers.test.ts proves it fails.
 */
const { options } = require('./.dependency-cruiser.cjs');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'folder cycle',
      comment:
        'Two folders import each other: move the file that closes the cycle to the folder below both, or to a new folder under them (docs/ARCHITECTURE.md "The layers").',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: { ...options, exclude: { path: '\\.test\\.tsx?$' } },
};
