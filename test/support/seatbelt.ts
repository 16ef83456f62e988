/**
 * Reads a Seatbelt profile the way sandbox-exec decides with it, for the operations the fence is
 * about, so a test on Linux can ask "may a command write here?" of the profile macOS would be given.
 * Seatbelt takes the last rule that matches an operation; `default` and `file-write*` match every
 * operation they name. Only the filters the runtime and Tether write are read: any other filter in a
 * rule that applies throws, so a profile the reader does not understand fails the test instead of
 * passing it.
 */
type Form = string | Form[];

export type FileOperation = 'file-read-data' | 'file-read-metadata' | 'file-write-data' | 'file-write-create' | 'file-write-unlink';

export interface SeatbeltDecider {
  allows(operation: FileOperation, target: string): boolean;
  readable(target: string): boolean;
  /** A file there can be made and written (file-write-create and file-write-data). */
  writable(target: string): boolean;
  /** A connection to `host:port` is allowed by the profile itself (not through the proxy). */
  reaches(hostPort: string): boolean;
}

export function seatbeltDecider(profile: string): SeatbeltDecider {
  const rules = parse(profile).flatMap((form) => {
    if (!Array.isArray(form) || (form[0] !== 'allow' && form[0] !== 'deny')) return [];
    const operations = form.slice(1).filter((part): part is string => typeof part === 'string');
    const filters = form.slice(1).filter((part): part is Form[] => Array.isArray(part) && part[0] !== 'with');
    return [{ allow: form[0] === 'allow', operations, filters }];
  });
  const decide = (operation: string, subject: { path?: string; remote?: string }): boolean => {
    let allowed = false;
    for (const rule of rules) {
      if (!rule.operations.some((named) => covers(named, operation))) continue;
      if (rule.filters.length === 0 || rule.filters.some((filter) => matches(filter, subject))) allowed = rule.allow;
    }
    return allowed;
  };
  return {
    allows: (operation, target) => decide(operation, { path: target }),
    readable: (target) => decide('file-read-data', { path: target }),
    writable: (target) => decide('file-write-create', { path: target }) && decide('file-write-data', { path: target }),
    reaches: (hostPort) => decide('network-outbound', { remote: hostPort }),
  };
}

function covers(named: string, operation: string): boolean {
  if (named === 'default' || named === operation) return true;
  return named.endsWith('*') && operation.startsWith(named.slice(0, -1));
}

function matches(filter: Form, subject: { path?: string; remote?: string }): boolean {
  if (!Array.isArray(filter)) throw new Error(`a filter Seatbelt's reader does not know: ${filter}`);
  const [kind, ...args] = filter;
  const text = typeof args[0] === 'string' ? args[0] : '';
  switch (kind) {
    case 'literal':
      return subject.path === text;
    case 'subpath':
      return subject.path !== undefined && (subject.path === text || subject.path.startsWith(text.endsWith('/') ? text : `${text}/`));
    case 'regex':
      return subject.path !== undefined && new RegExp(text).test(subject.path);
    case 'require-all':
      return args.every((inner) => matches(inner, subject));
    case 'require-any':
      return args.some((inner) => matches(inner, subject));
    case 'require-not':
      return !matches(args[0]!, subject);
    case 'vnode-type':
      // Files and folders the tests ask about are neither devices nor a question of type.
      return false;
    case 'remote':
      return args[0] === 'ip' && subject.remote !== undefined && ipMatches(String(args[1]), subject.remote);
    case 'local':
      return false;
    default:
      throw new Error(`a filter Seatbelt's reader does not know: (${String(kind)} …)`);
  }
}

function ipMatches(pattern: string, remote: string): boolean {
  const [host, port] = pattern.split(':');
  const [remoteHost, remotePort] = remote.split(':');
  return (host === '*' || host === remoteHost) && (port === '*' || port === remotePort);
}

/** S-expressions: lists, strings ("…" with backslash escapes) and bare words; `;` comments to the end of the line. */
function parse(text: string): Form[] {
  const stack: Form[][] = [[]];
  let at = 0;
  while (at < text.length) {
    const char = text[at]!;
    if (char === ';') {
      const end = text.indexOf('\n', at);
      at = end < 0 ? text.length : end;
    } else if (char === '(') {
      const list: Form[] = [];
      stack.at(-1)!.push(list);
      stack.push(list);
      at++;
    } else if (char === ')') {
      if (stack.length === 1) throw new Error(`an unbalanced ")" at ${at}`);
      stack.pop();
      at++;
    } else if (char === '"') {
      let value = '';
      at++;
      while (text[at] !== '"') {
        if (at >= text.length) throw new Error('an unclosed string');
        if (text[at] === '\\') at++;
        value += text[at];
        at++;
      }
      stack.at(-1)!.push(value);
      at++;
    } else if (/\s/.test(char)) {
      at++;
    } else {
      const word = /^[^\s()";]+/.exec(text.slice(at))![0];
      stack.at(-1)!.push(word);
      at += word.length;
    }
  }
  if (stack.length !== 1) throw new Error('an unclosed "("');
  return stack[0]!;
}
