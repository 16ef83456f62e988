import { exactText } from './exactText';
import { ownTextChanges, type TextStep } from './lineOwnership';
import type { OwnStep } from './ownSteps';
import type { SnapshotEntry, SnapshotHistory } from './snapshotHistory';

/** A file as the session's review sees it: git's mode and the exact bytes. */
export interface OwnEntry {
  mode: string;
  bytes: Buffer;
}

/**
 * One file the session changed, as it stands: the file now (`current`), and as it would be had
 * the session made none of its changes that still stand (`origin`); null where there is no file.
 * `text` is set when every version of the file was UTF-8 text, so the change can be cut into hunks.
 */
export interface OwnFileChange {
  path: string;
  origin: OwnEntry | null;
  current: OwnEntry | null;
  text?: { origin: string; current: string };
}

type Version = SnapshotEntry | null;

/**
 * The session's own changes that still stand, per file, from its steps (see `ownSteps`) and the
 * folder now (`now`, a snapshot commit). Only files one of its steps changed are looked at; each is
 * followed through every version from the first such step to now, the steps being the session's
 * and the gaps between them someone else's. Text files are followed line by line (`lineOwnership`);
 * a file that is ever binary, a link or not exact UTF-8 is judged whole: the session's while the
 * last change to it was one of its steps, from the version before the first of its unbroken run.
 */
export async function ownChanges(
  history: SnapshotHistory,
  steps: readonly OwnStep[],
  now: string,
  only?: string,
): Promise<OwnFileChange[]> {
  if (steps.length === 0) return [];
  const transitions: { from: string; to: string; step?: OwnStep }[] = [];
  steps.forEach((step, index) => {
    transitions.push({ from: step.before, to: step.after, step });
    transitions.push({ from: step.after, to: steps[index + 1]?.before ?? now });
  });
  // A step is the session's, except for a file the person accepted since: its change is then the base, as anyone else's.
  const byFor = (path: string): TextStep['by'][] =>
    transitions.map(({ step }) => (step && !step.accepted?.has(path) ? 'session' : 'other'));
  const diffs = await Promise.all(transitions.map((transition) => history.changes(transition.from, transition.to)));

  const candidates = new Set<string>();
  transitions.forEach(({ step }, index) => {
    if (step) for (const change of diffs[index]!) if (!step.accepted?.has(change.path)) candidates.add(change.path);
  });
  if (only !== undefined) {
    if (!candidates.has(only)) return [];
    candidates.clear();
    candidates.add(only);
  }
  if (candidates.size === 0) return [];

  // Each candidate's version after every transition; before its first change it was as that change found it.
  const histories = new Map<string, { start: Version; after: Version[] }>();
  for (const path of candidates) histories.set(path, { start: null, after: [] });
  const known = new Set<string>();
  diffs.forEach((changes, index) => {
    const changed = new Map(changes.filter((change) => candidates.has(change.path)).map((change) => [change.path, change]));
    for (const [path, file] of histories) {
      const change = changed.get(path);
      if (change && !known.has(path)) {
        known.add(path);
        file.start = change.from;
        file.after = file.after.map(() => change.from);
      }
      file.after.push(change ? change.to : file.after.length > 0 ? file.after[file.after.length - 1]! : file.start);
    }
  });

  const oids = new Set<string>();
  for (const file of histories.values())
    for (const version of [file.start, ...file.after]) if (version && isBlob(version)) oids.add(version.oid);
  const blobs = await history.blobs(oids);
  const bytesOf = (version: SnapshotEntry) => blobs.get(version.oid) ?? Buffer.alloc(0);

  const result: OwnFileChange[] = [];
  for (const path of [...candidates].sort()) {
    const file = histories.get(path)!;
    const change = followFile(file.start, file.after, byFor(path), bytesOf);
    if (change) result.push({ path, ...change });
  }
  return result;
}

function followFile(
  start: Version,
  after: Version[],
  by: TextStep['by'][],
  bytesOf: (version: SnapshotEntry) => Buffer,
): Omit<OwnFileChange, 'path'> | null {
  const versions = [start, ...after];
  const entry = (version: Version): OwnEntry | null =>
    version ? { mode: version.mode, bytes: isBlob(version) ? bytesOf(version) : Buffer.alloc(0) } : null;
  const current = entry(after.length > 0 ? after[after.length - 1]! : start);
  const texts = versions.map((version) => (version ? (isFileBlob(version) ? textOf(bytesOf(version)) : null) : undefined));
  if (texts.every((text) => text !== null)) {
    const followed = ownTextChanges(
      texts[0] ?? null,
      by.map((who, index) => ({ by: who, text: texts[index + 1] ?? null })),
    );
    if (followed) {
      const mode = ownMode(versions, by);
      const originMode = mode ?? current?.mode ?? lastMode(versions) ?? '100644';
      const origin = followed.origin === null ? null : { mode: originMode, bytes: Buffer.from(followed.origin, 'utf8') };
      if (sameEntry(origin, current)) return null;
      return { origin, current, text: { origin: followed.origin ?? '', current: followed.current ?? '' } };
    }
  }
  // Judged whole: the session's while its step made the latest change, since before the first of that run.
  let origin: Version | undefined;
  versions.slice(1).forEach((version, index) => {
    const previous = versions[index]!;
    if (sameVersion(previous, version)) return;
    if (by[index] === 'other') origin = undefined;
    else {
      if (origin === undefined) origin = previous;
      if (sameVersion(origin, version)) origin = undefined;
    }
  });
  if (origin === undefined) return null;
  return { origin: entry(origin), current };
}

/** The mode the file had before the session changed it (a chmod in one of its commands), while no one changed it since. */
function ownMode(versions: Version[], by: TextStep['by'][]): string | null {
  let origin: string | null = null;
  versions.slice(1).forEach((version, index) => {
    const previous = versions[index]!;
    if (!version || !previous || version.mode === previous.mode) return;
    if (by[index] === 'other') origin = null;
    else {
      origin ??= previous.mode;
      if (origin === version.mode) origin = null;
    }
  });
  return origin;
}

function lastMode(versions: Version[]): string | null {
  for (let index = versions.length - 1; index >= 0; index--) if (versions[index]) return versions[index]!.mode;
  return null;
}

function isBlob(version: SnapshotEntry): boolean {
  return version.mode !== '160000';
}

function isFileBlob(version: SnapshotEntry): boolean {
  return version.mode === '100644' || version.mode === '100755';
}

function sameVersion(a: Version, b: Version): boolean {
  if (!a || !b) return a === b;
  return a.mode === b.mode && a.oid === b.oid;
}

/** Whether two entries hold the same thing: bytes, and for files whether they are executable. */
export function sameEntry(a: OwnEntry | null, b: OwnEntry | null): boolean {
  if (!a || !b) return a === b;
  return (
    a.bytes.equals(b.bytes) &&
    (a.mode === b.mode || (a.mode !== '120000' && b.mode !== '120000' && executable(a.mode) === executable(b.mode)))
  );
}

function executable(mode: string): boolean {
  return mode === '100755';
}

function textOf(bytes: Buffer): string | null {
  const read = exactText(bytes);
  return 'text' in read ? read.text : null;
}
