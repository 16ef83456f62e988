import type { CommandAnalysis, SimpleCommand } from './commandAnalysis';

/**
 * FOR TESTS ONLY: a small, naive stand-in for the real shell analysis (shell/analyzeCommand.ts,
 * tree-sitter-bash), so the engine's tests do not depend on the parser's details. It splits on the
 * common operators, reads quotes, $( ) and backticks, strips a few wrappers, and calls anything
 * odd a parse error. Production code never uses it.
 */

const READ_ONLY = new Set(['ls', 'cat', 'head', 'tail', 'wc', 'grep', 'rg', 'pwd', 'echo', 'true', 'false', 'which', 'date', 'sort', 'uniq', 'stat', 'file', 'tree']);
const READ_ONLY_GIT = new Set(['status', 'log', 'diff', 'show', 'branch']);
const NETWORK = new Set(['curl', 'wget', 'ssh', 'scp', 'nc', 'rsync', 'ping', 'ftp', 'telnet']);
const NETWORK_SUB: Record<string, Set<string>> = {
  git: new Set(['push', 'pull', 'fetch', 'clone', 'ls-remote']),
  npm: new Set(['install', 'i', 'ci', 'publish', 'update']),
  pip: new Set(['install', 'download']),
  pnpm: new Set(['install', 'add', 'publish']),
};
const WRAPPERS = new Set(['sudo', 'doas', 'nice', 'nohup', 'time', 'command', 'xargs']);
const UNPINNABLE = new Set(['eval', 'exec', 'source', '.']);

type Token = { kind: 'word'; text: string; literal: boolean } | { kind: 'op'; text: string };

class FakeParseError extends Error {}

export function fakeAnalyze(command: string): CommandAnalysis {
  const commands: SimpleCommand[] = [];
  let unpinnable: string | undefined;
  try {
    parseList(command, commands, (why) => {
      unpinnable ??= why;
    });
  } catch (error) {
    if (!(error instanceof FakeParseError)) throw error;
    return { commands, unpinnable: `parse error: ${error.message}` };
  }
  return unpinnable ? { commands, unpinnable } : { commands };
}

function parseList(source: string, out: SimpleCommand[], flag: (why: string) => void): void {
  const tokens = tokenize(source, out, flag);
  let words: Token[] = [];
  let previousOp: string | undefined = 'start';
  const flush = () => {
    if (words.length > 0) out.push(simple(words, flag));
    words = [];
  };
  for (const token of tokens) {
    if (token.kind === 'op' && ['&&', '||', ';', '|', '&', '\n'].includes(token.text)) {
      if (words.length === 0 && previousOp !== undefined && token.text !== '\n' && token.text !== ';') {
        throw new FakeParseError(`unexpected ${token.text}`);
      }
      flush();
      previousOp = token.text;
      continue;
    }
    if (token.kind === 'op' && (token.text === '(' || token.text === ')')) {
      flush();
      previousOp = token.text;
      continue;
    }
    previousOp = undefined;
    words.push(token);
  }
  if (words.length === 0 && (previousOp === '&&' || previousOp === '||' || previousOp === '|')) throw new FakeParseError(`nothing after ${previousOp}`);
  flush();
}

function tokenize(source: string, out: SimpleCommand[], flag: (why: string) => void): Token[] {
  const tokens: Token[] = [];
  let word = '';
  let inWord = false;
  let literal = true;
  let depth = 0;
  const end = () => {
    if (inWord) tokens.push({ kind: 'word', text: word, literal });
    word = '';
    inWord = false;
    literal = true;
  };
  for (let i = 0; i < source.length; i++) {
    const ch = source[i] as string;
    const two = source.slice(i, i + 2);
    if (ch === ' ' || ch === '\t') {
      end();
    } else if (two === '$(') {
      const close = matching(source, i + 1);
      parseList(source.slice(i + 2, close), out, flag);
      inWord = true;
      literal = false;
      word += source.slice(i, close + 1);
      i = close;
    } else if (ch === '`') {
      const close = source.indexOf('`', i + 1);
      if (close < 0) throw new FakeParseError('unclosed backtick');
      parseList(source.slice(i + 1, close), out, flag);
      inWord = true;
      literal = false;
      word += source.slice(i, close + 1);
      i = close;
    } else if (['&&', '||', '>>', '&>', '2>'].includes(two)) {
      if (two === '2>' && source[i + 2] === '&') {
        end();
        i += 3;
        continue;
      }
      end();
      tokens.push({ kind: 'op', text: two === '>>' || two === '&>' || two === '2>' ? '>' : two });
      i++;
    } else if ('|;&<>\n'.includes(ch)) {
      end();
      tokens.push({ kind: 'op', text: ch });
    } else if (ch === '(' || ch === ')') {
      end();
      depth += ch === '(' ? 1 : -1;
      if (depth < 0) throw new FakeParseError('unbalanced )');
      tokens.push({ kind: 'op', text: ch });
    } else if (ch === "'") {
      const close = source.indexOf("'", i + 1);
      if (close < 0) throw new FakeParseError('unclosed quote');
      word += source.slice(i + 1, close);
      inWord = true;
      i = close;
    } else if (ch === '"') {
      let j = i + 1;
      for (; j < source.length && source[j] !== '"'; j++) {
        if (source[j] === '\\') j++;
        else if (source.slice(j, j + 2) === '$(') {
          const close = matching(source, j + 1);
          parseList(source.slice(j + 2, close), out, flag);
          literal = false;
          word += source.slice(j, close + 1);
          j = close;
          continue;
        }
        if (source[j] === '$') literal = false;
        word += source[j];
      }
      if (j >= source.length) throw new FakeParseError('unclosed double quote');
      inWord = true;
      i = j;
    } else if (ch === '\\') {
      word += source[i + 1] ?? '';
      inWord = true;
      i++;
    } else {
      if (ch === '$') literal = false;
      word += ch;
      inWord = true;
    }
  }
  end();
  if (depth !== 0) throw new FakeParseError('unbalanced (');
  return tokens;
}

function matching(source: string, open: number): number {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    if (source[i] === '(') depth++;
    else if (source[i] === ')' && --depth === 0) return i;
  }
  throw new FakeParseError('unclosed $(');
}

function simple(tokens: Token[], flag: (why: string) => void): SimpleCommand {
  const writesTo: string[] = [];
  const words: Array<{ text: string; literal: boolean }> = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (token.kind === 'op') {
      const target = tokens[i + 1];
      if (!target || target.kind !== 'word') throw new FakeParseError(`no target after ${token.text}`);
      if (token.text === '>') writesTo.push(target.text);
      i++;
      continue;
    }
    words.push(token);
  }
  const assignments: string[] = [];
  while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test((words[0] as { text: string }).text)) {
    assignments.push((words.shift() as { text: string }).text.split('=')[0] as string);
  }
  const wrappers: string[] = [];
  for (;;) {
    const first = words[0];
    if (!first) break;
    if (WRAPPERS.has(first.text)) {
      wrappers.push(first.text);
      words.shift();
    } else if (first.text === 'timeout') {
      wrappers.push('timeout');
      words.splice(0, 2);
    } else if (first.text === 'env') {
      wrappers.push('env');
      words.shift();
      while (words[0] && words[0].text.includes('=')) words.shift();
    } else {
      break;
    }
  }
  const argv = words.map((w) => w.text);
  const program = words[0];
  if (program && !program.literal) flag('the program name is not a literal word');
  if (program && UNPINNABLE.has(program.text)) flag(`${program.text} runs code the analysis cannot see`);
  const [name = '', sub = ''] = argv;
  const readOnly = READ_ONLY.has(name) || (name === 'git' && READ_ONLY_GIT.has(sub));
  const mayReachNetwork = NETWORK.has(name) || (NETWORK_SUB[name]?.has(sub) ?? false);
  return { argv, wrappers, assignments, readOnly, mayReachNetwork, writesTo };
}
