import { parseArgs } from 'node:util';
import { RunnerName } from '../../shared/remoteRuns';
import { makeRunnerToken } from '../app/desk/runnerTokens';
import { openStore } from '../store/store';
import { StoreError } from '../store/storeError';
import { CliError, dataDirFrom } from './cliError';
import { deskUsage } from './usage';

/**
 * `tether desk tokens create NAME | revoke NAME | list`: the runners' tokens of the desk kept in this
 * data folder. A token is printed once, when it is made; the desk keeps only its hash. A desk that
 * is running sees a revoke at its next heartbeat and cuts that runner's runs off.
 */
export async function deskCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [group, verb, name, ...extra] = positionals;
  if (values.help || group === undefined) {
    process.stdout.write(`${deskUsage}\n`);
    return values.help ? 0 : 1;
  }
  if (group !== 'tokens' || extra.length > 0)
    throw new CliError(`tether desk takes: tokens create NAME | tokens revoke NAME | tokens list.\n\n${deskUsage}`);
  const store = openStore(dataDirFrom(values['data-dir']));
  try {
    switch (verb) {
      case 'create': {
        const parsed = RunnerName.safeParse(name ?? '');
        if (!parsed.success) throw new CliError(parsed.error.issues[0]?.message ?? 'Give the runner a name.');
        let token: string;
        try {
          token = makeRunnerToken(store.remote, parsed.data);
        } catch (error) {
          if (error instanceof StoreError && error.code === 'conflict') throw new CliError(error.message);
          throw error;
        }
        process.stdout.write(`${token}\n`);
        process.stderr.write(
          `tether: the token of runner ${parsed.data}, shown this once (only its hash is kept). Give it to the runner as TETHER_DESK_TOKEN; revoke it with tether desk tokens revoke ${parsed.data}.\n`,
        );
        return 0;
      }
      case 'revoke': {
        if (!name) throw new CliError("tether desk tokens revoke takes the runner's name.");
        if (store.remote.revokeToken(name) === 0)
          throw new CliError(`There is no live token for a runner named ${name}. List them with: tether desk tokens list`);
        process.stderr.write(`tether: revoked the token of runner ${name}; its runs are cut off and it cannot connect with it again.\n`);
        return 0;
      }
      case 'list': {
        const tokens = store.remote
          .tokens()
          .map((token) => ({ name: token.name, createdAt: token.createdAt, lastUsedAt: token.lastUsedAt }));
        if (values.json) process.stdout.write(`${JSON.stringify(tokens)}\n`);
        else if (tokens.length === 0) process.stdout.write('No runner tokens. Make one with: tether desk tokens create NAME\n');
        else for (const token of tokens) process.stdout.write(`${token.name}\tmade ${new Date(token.createdAt).toISOString()}\n`);
        return 0;
      }
      default:
        throw new CliError(`tether desk tokens takes create NAME, revoke NAME or list; not "${verb ?? ''}".`);
    }
  } finally {
    store.close();
  }
}
