import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';

/**
 * Commits read and written as git's loose object files, without a git process: a snapshot's commit
 * is a few hundred bytes, and spawning `git commit-tree` for it cost more than the rest of a step's
 * snapshot. The format is git's own (gitformat-loose): the zlib of "<type> <size>\0<body>", in
 * objects/<first two hex digits>/<the rest> of the hash of those bytes.
 */

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

export interface CommitToWrite {
  tree: string;
  /** The previous snapshot; none for the first. */
  parent?: string;
  message: string;
  /** Author and committer, as `Name <email>`. */
  identity: string;
  when?: Date;
}

/**
 * Writes a commit object and returns its id. The hash is the repository's: SHA-256 when its ids are
 * 64 hex digits long (a repository made with --object-format=sha256), SHA-1 otherwise.
 */
export function writeLooseCommit(gitDir: string, commit: CommitToWrite): string {
  for (const id of [commit.tree, ...(commit.parent ? [commit.parent] : [])]) {
    if (!OBJECT_ID.test(id)) throw new Error(`Cannot write a commit of ${JSON.stringify(id)}: not an object id.`);
  }
  if (!/^[^<>\n\0]+ <[^<>\n\0]*>$/.test(commit.identity) || commit.message.includes('\0')) {
    throw new Error('Cannot write a commit whose identity is not `Name <email>` on one line, or whose message holds a NUL byte.');
  }
  const signature = `${commit.identity} ${gitTime(commit.when ?? new Date())}`;
  const body = Buffer.from(
    [
      `tree ${commit.tree}`,
      ...(commit.parent ? [`parent ${commit.parent}`] : []),
      `author ${signature}`,
      `committer ${signature}`,
      '',
      commit.message.replace(/\n*$/, '\n'),
    ].join('\n'),
    'utf8',
  );
  const stored = Buffer.concat([Buffer.from(`commit ${body.length}\0`, 'latin1'), body]);
  const id = createHash(commit.tree.length === 64 ? 'sha256' : 'sha1')
    .update(stored)
    .digest('hex');
  const folder = path.join(gitDir, 'objects', id.slice(0, 2));
  const file = path.join(folder, id.slice(2));
  if (fs.existsSync(file)) return id;
  fs.mkdirSync(folder, { recursive: true });
  // Written aside and renamed, as git does, so no reader ever finds half an object. Level 1 is git's
  // own for loose objects (core.looseCompression).
  const aside = path.join(folder, `tmp_obj_${randomBytes(6).toString('hex')}`);
  try {
    fs.writeFileSync(aside, deflateSync(stored, { level: 1 }), { mode: 0o444 });
    fs.renameSync(aside, file);
  } catch (error) {
    fs.rmSync(aside, { force: true });
    // Another writer put the same object there first; its bytes are the same.
    if (!fs.existsSync(file)) throw error;
  }
  return id;
}

/**
 * The tree of commit `commit` when it is a loose object; undefined when it is packed, unreadable or
 * not a commit, and git is asked instead.
 */
export function treeOfLooseCommit(gitDir: string, commit: string): string | undefined {
  if (!OBJECT_ID.test(commit)) return undefined;
  try {
    const object = inflateSync(fs.readFileSync(path.join(gitDir, 'objects', commit.slice(0, 2), commit.slice(2))));
    const header = object.subarray(0, Math.min(object.length, 128)).toString('latin1');
    return /^commit \d+\0tree ([0-9a-f]{40}|[0-9a-f]{64})\n/.exec(header)?.[1];
  } catch {
    return undefined;
  }
}

/** git's "<seconds since the epoch> <+hhmm>", in the machine's time zone, as commit-tree writes it. */
function gitTime(when: Date): string {
  const offset = -when.getTimezoneOffset();
  const magnitude = Math.abs(offset);
  const zone = `${offset < 0 ? '-' : '+'}${String(Math.floor(magnitude / 60)).padStart(2, '0')}${String(magnitude % 60).padStart(2, '0')}`;
  return `${Math.floor(when.getTime() / 1000)} ${zone}`;
}
