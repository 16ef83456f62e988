import type { Node } from 'web-tree-sitter';
import type { Frame, Stdin } from './invocation';
import { redirectRead } from './readTargets';
import { readWord, touchingGroups } from './readWord';
import type { ShellWalk } from './shellWalk';
import { named } from './treeNodes';

/** The names bash turns into a socket when a redirection opens them. */
const NETWORK_DEVICE = /^\/dev\/(tcp|udp)\//;

/** Devices a redirection may write to without writing a file. */
const NOT_FILES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/fd/1', '/dev/fd/2']);

/** What a statement's redirections do. */
export interface Redirections {
  /** The files they write, as written. */
  writes: string[];
  /** What they feed to standard input, if they do. */
  stdin: Stdin | null;
  /** The text of a literal here-document or here-string. */
  document?: string;
  /** The file `< file` feeds, as written. */
  stdinFile?: string;
  /** Words the parser hung on a redirection that bash gives to the command (`find . >/dev/null -delete`). */
  strays: Node[];
}

/**
 * Reads redirections: the files they write, what they feed to standard input, and any command in
 * them (a substitution in a target, a here-document body). tree-sitter hangs the rest of a line
 * that follows a here-document operator inside the redirect node; those statements are walked too.
 * It also hangs the words after a target there (`find . >/dev/null -delete`): bash gives those to
 * the command, so they come back as strays for the caller to put into the command's arguments.
 * A file one reads (`< file`) is recorded as a read of the line.
 */
export function readRedirections(walk: ShellWalk, nodes: readonly Node[], frame: Frame): Redirections {
  const writes: string[] = [];
  const strays: Node[] = [];
  let stdin: Stdin | null = null;
  let document: string | undefined;
  let stdinFile: string | undefined;
  for (const node of nodes) {
    if (node.type === 'file_redirect') {
      const descriptorNode = node.childForFieldName('descriptor');
      const descriptor = descriptorNode?.text ?? null;
      const [target, ...rest] = touchingGroups(node.childrenForFieldName('destination').filter((child): child is Node => child !== null));
      // The operator as written between descriptor and target: the parser splits `<>` into "<" and an error.
      const operator = target
        ? node.text
            .slice((descriptorNode?.endIndex ?? node.startIndex) - node.startIndex, target[0]!.startIndex - node.startIndex)
            .replace(/\s+/g, '')
        : (node.children.find((child) => child !== null && !child.isNamed)?.type ?? '');
      for (const group of rest) strays.push(...group);
      if (!target) continue;
      const isProcess = target.length === 1 && target[0]!.type === 'process_substitution';
      for (const part of target) walk.expressions(part, frame, isProcess && operator.startsWith('>') ? 'pipe' : undefined);
      const word = readWord(target);
      if (operator === '<' && (descriptor === null || descriptor === '0')) {
        stdin = isProcess ? 'pipe' : 'file';
        stdinFile = isProcess ? undefined : word.text;
      }
      if ((operator === '<' || operator === '<>') && !isProcess && !NETWORK_DEVICE.test(word.text))
        walk.reads.push(...redirectRead(word, walk.place.current));
      if (operator === '<&' || operator === '>&-' || operator === '<&-') continue;
      if (operator === '>&' && (/^\d+-?$/.test(word.text) || word.text === '-')) continue;
      // bash opens a connection for these names itself (no such files exist): the network, not a file.
      if (NETWORK_DEVICE.test(word.text)) walk.reason(`a redirection to ${word.text}, which opens a network connection`);
      if (/^(>|>>|>\||&>|&>>|>&|<>)$/.test(operator) && !isProcess && !NOT_FILES.has(word.text)) writes.push(word.text);
    } else if (node.type === 'heredoc_redirect') {
      const start = node.children.find((child) => child?.type === 'heredoc_start');
      const body = node.children.find((child) => child?.type === 'heredoc_body');
      const quoted = start ? /['"\\]/.test(start.text) : false;
      if (body && !quoted) walk.expressions(body, frame);
      stdin = quoted || !body || body.namedChildCount === 0 ? 'literal-document' : 'expanding-document';
      // Unquoted, bash still removes backslashes before $, ` and \ in the body.
      document = stdin === 'literal-document' ? (quoted ? (body?.text ?? '') : (body?.text ?? '').replace(/\\([$`\\])/g, '$1')) : undefined;
      let piped = false;
      for (const child of node.children) {
        if (!child) continue;
        if (child.type === '|' || child.type === '|&') piped = true;
        if (child.type === 'pipeline') walk.pipeline(child, frame, true);
        else if (child.type === 'file_redirect' || child.type === 'heredoc_redirect' || child.type === 'herestring_redirect') {
          const nested = readRedirections(walk, [child], frame);
          writes.push(...nested.writes);
          strays.push(...nested.strays);
        } else if (child.isNamed && !['heredoc_start', 'heredoc_body', 'heredoc_end'].includes(child.type)) {
          walk.statement(child, piped ? { ...frame, stdin: 'pipe' } : frame);
        }
      }
    } else if (node.type === 'herestring_redirect') {
      const [value, ...rest] = touchingGroups(named(node));
      for (const group of rest) strays.push(...group);
      for (const part of value ?? []) walk.expressions(part, frame);
      const word = value ? readWord(value) : undefined;
      stdin = word?.kind === 'literal' ? 'literal-document' : 'expanding-document';
      document = word?.kind === 'literal' ? `${word.text}\n` : undefined;
    } else if (node.isNamed) {
      walk.statement(node, frame);
    }
  }
  return {
    writes,
    stdin,
    ...(document !== undefined ? { document } : {}),
    ...(stdin === 'file' && stdinFile !== undefined ? { stdinFile } : {}),
    strays,
  };
}
