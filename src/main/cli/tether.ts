import path from 'node:path';
import { CliError } from './cliError';
import { auditUsage, deskUsage, permissionsUsage, runUsage, serveUsage, sessionsUsage } from './usage';
import { keepWebAssemblyOnBaseline } from '../shell/webAssemblyTier';
import { leanHeapForHeadlessRun } from './leanHeap';
import { guardProgramSearchPath } from '../workspace/programSearchPath';

const usage = `tether: a coding agent on a tether

Commands:
  tether run "<task>"         run the agent headless (see tether run --help)
  tether sessions [show <id>] list sessions, or print one's log
  tether permissions ...      explain a decision; list or revoke remembered rules
  tether audit                every permission decision: what, when, where, and who decided
  tether serve                the app in a browser, on 127.0.0.1 with a one-time token
  tether desk tokens ...      the tokens of runners that report to this desk (tether run --desk)

${runUsage}

${sessionsUsage}

${permissionsUsage}

${auditUsage}

${serveUsage}

${deskUsage}`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  // Before anything is spawned: no program Tether starts itself is looked up where a command could plant one.
  guardProgramSearchPath();
  // Before any WebAssembly compiles (the model client's HTTP parser, the bash parser).
  keepWebAssemblyOnBaseline();
  // Each command is loaded when it runs: --help loads none of them, `sessions` no model, sandbox or MCP.
  switch (command) {
    case 'run':
      leanHeapForHeadlessRun();
      return (await import('./headlessRun')).headlessRun(rest);
    case 'sessions':
      return (await import('./sessionsCommand')).sessionsCommand(rest);
    case 'permissions':
      return (await import('./permissionsCommand')).permissionsCommand(rest);
    case 'audit':
      return (await import('./auditCommand')).auditCommand(rest);
    case 'desk':
      return (await import('./deskCommand')).deskCommand(rest);
    case 'serve':
      // The renderer is built beside this entry (out/main/cli.js -> out/renderer); the command's own module is a chunk deeper.
      return (await import('./serveCommand')).serveCommand(rest, { rendererDir: path.join(import.meta.dirname, '..', 'renderer') });
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(`${usage}\n`);
      return command === undefined ? 1 : 0;
    default:
      throw new CliError(`Unknown command "${command}". Commands: run, sessions, permissions, audit, serve, desk. See tether --help.`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Bad flags, a locked or newer database, a missing folder: one clear line, no stack.
    const known =
      error instanceof CliError || (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'));
    process.stderr.write(`tether: ${error instanceof Error ? error.message : String(error)}\n`);
    if (!known && error instanceof Error && process.env.TETHER_DEBUG) process.stderr.write(`${error.stack}\n`);
    process.exitCode = error instanceof CliError ? error.exitCode : 1;
  },
);
