import type { SettingsView } from '../../../../shared/contract';

/** Where a typed key goes and is kept, said where it is typed. */
export function keyKeptText(kept: SettingsView['keyKept']): string {
  return kept === 'os-keychain'
    ? 'Keys are kept by the OS keychain, outside the database, and sent only to the address they were saved with.'
    : 'A key typed here is kept in memory until this tether serve stops (never in the database) and sent only to the address it was saved with; put it in the environment to keep it.';
}
