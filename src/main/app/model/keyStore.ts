/**
 * Where the API key lives. Never SQLite, never the renderer: Electron keeps it encrypted with
 * safeStorage; `tether serve` and `tether run` read it from the environment and keep a key typed into
 * the UI in memory for that process only.
 */
export interface KeyStore {
  get(): string | undefined;
  set(key: string | null): void;
  /** Said in settings, so the person knows what happens to a key they type. */
  readonly persistence: 'os-keychain' | 'this-process';
}

export function memoryKeyStore(initial: string | undefined): KeyStore {
  let key = initial;
  return {
    persistence: 'this-process',
    get: () => key,
    set(next) {
      key = next ?? undefined;
    },
  };
}
