import { defaultDataDir } from '../store/dataDir';

/** A mistake in how the CLI was called, or a state it cannot work in; printed without a stack. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export function dataDirFrom(flag: string | undefined): string {
  return flag ?? defaultDataDir(process.env);
}
