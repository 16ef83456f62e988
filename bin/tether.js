#!/usr/bin/env node
// The `tether` command. The CLI is built with the app (npm run build) so both share one core.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../out/main/cli.js', import.meta.url));
if (!existsSync(cli)) {
  process.stderr.write('tether: the CLI is not built yet. Run `npm run build` in the Tether folder first.\n');
  process.exit(1);
}
// The build is minified; under TETHER_DEBUG a stack names the source files and lines instead.
if (process.env.TETHER_DEBUG) process.setSourceMapsEnabled(true);
await import(cli);
