import { describe, expect, it } from 'vitest';
import { matchTokens, parseCommandPattern, quoteWord } from './ruleMatchCommand';
import { matchDomain, parseDomainPattern } from './ruleMatchDomain';
import { compilePathPattern, escapeGlob, parsePathPattern } from './ruleMatchPath';
import { parseRule, RuleSyntaxError } from './ruleSyntax';

function commandMatches(spec: string, argv: string[]): boolean {
  return matchTokens(parseCommandPattern(spec).tokens, argv);
}

function problemOf(rule: string): string {
  try {
    parseRule(rule);
  } catch (error) {
    expect(error).toBeInstanceOf(RuleSyntaxError);
    return (error as RuleSyntaxError).message;
  }
  throw new Error(`${rule} parsed, but it should not have`);
}

describe('parseRule', () => {
  it('reads a bare tool name as every call of that tool', () => {
    expect(parseRule('run_command')).toMatchObject({ tool: 'run_command', target: { kind: 'command' } });
    expect(parseRule('run_command').target).not.toHaveProperty('pattern');
    expect(parseRule('  read_file ')).toMatchObject({ text: 'read_file', target: { kind: 'path', family: 'read' } });
  });

  it('gives edit_file and write_file the same family, and read_file the reading one', () => {
    expect(parseRule('edit_file(src/**)').target).toMatchObject({ kind: 'path', family: 'write' });
    expect(parseRule('write_file(src/**)').target).toMatchObject({ kind: 'path', family: 'write' });
    expect(parseRule('list_files(src)').target).toMatchObject({ kind: 'path', family: 'list_files' });
    expect(parseRule('search_code(src)').target).toMatchObject({ kind: 'path', family: 'search_code' });
  });

  it('keeps parentheses inside a command specifier when they balance or are quoted', () => {
    expect(parseRule('run_command(echo $(date))').specifier).toBe('echo $(date)');
    expect(parseRule('run_command(echo ")")').specifier).toBe('echo ")"');
    expect(parseRule('run_command(echo \\))').specifier).toBe('echo \\)');
  });

  it.each([
    ['run_command(npm test', 'never closed'],
    ['run_command(npm test))', 'unbalanced'],
    ['run_command(a) b', 'text after'],
    ['run_command npm)', 'without a "("'],
    ['(npm test)', 'no tool name'],
    ['run_command()', 'parentheses are empty'],
    ['', 'empty'],
    ['Bash(ls)', 'did you mean run_command'],
    ['frobnicate(x)', 'unknown'],
    ['fetch_url(docs.example.com)', 'no prefix'],
    ['fetch_url(host:docs.example.com)', 'the prefix "host:"'],
    ['fetch_url(domain:*)', 'names no host'],
    ['fetch_url(domain:docs.*.com)', 'may only stand first'],
    ['fetch_url(domain:https://x.com/a)', 'not a host name'],
    ['read_file(~root/.ssh)', 'unknown'],
    ['read_file(../secrets)', '".." cannot appear'],
    ['mcp__github__create(x)', 'takes no specifier'],
    ['run_*', 'only for MCP tools'],
    ['update_plan(x)', 'takes no specifier'],
    ['run_command(echo "unclosed)', 'never closed'],
    ["run_command(echo 'unclosed)", 'never closed'],
  ])('refuses %j with a clear error', (rule, fragment) => {
    const message = problemOf(rule);
    expect(message).toContain('cannot be read');
    expect(message).toContain(fragment);
  });

  it('names the rule in the error', () => {
    expect(problemOf('run_command(npm test')).toContain('"run_command(npm test"');
  });
});

describe('command patterns', () => {
  it('treats a trailing * as a prefix on word boundaries', () => {
    expect(commandMatches('npm test *', ['npm', 'test'])).toBe(true);
    expect(commandMatches('npm test *', ['npm', 'test', '--watch'])).toBe(true);
    expect(commandMatches('npm test *', ['npm', 'testify'])).toBe(false);
    expect(commandMatches('npm test *', ['npm'])).toBe(false);
  });

  it('matches the exact command when there is no *', () => {
    expect(commandMatches('git status', ['git', 'status'])).toBe(true);
    expect(commandMatches('git status', ['git', 'status', '--short'])).toBe(false);
    expect(parseCommandPattern('git status').exact).toBe(true);
  });

  it('lets a * elsewhere take any run of words, none included', () => {
    expect(commandMatches('git * main', ['git', 'push', 'origin', 'main'])).toBe(true);
    expect(commandMatches('git * main', ['git', 'main'])).toBe(true);
    expect(commandMatches('git * main', ['git', 'push', 'main', 'x'])).toBe(false);
    expect(commandMatches('* --version', ['node', '--version'])).toBe(true);
    expect(commandMatches('*', [])).toBe(true);
  });

  it('globs within one word when the * is part of it', () => {
    expect(commandMatches('npm run build:*', ['npm', 'run', 'build:prod'])).toBe(true);
    expect(commandMatches('npm run build:*', ['npm', 'run', 'build:prod', 'x'])).toBe(false);
  });

  it('reads quotes like the shell, so a quoted * is a literal star', () => {
    expect(commandMatches('git commit -m "a b"', ['git', 'commit', '-m', 'a b'])).toBe(true);
    expect(commandMatches("rm '*'", ['rm', '*'])).toBe(true);
    expect(commandMatches("rm '*'", ['rm', '-rf', '/'])).toBe(false);
    expect(commandMatches('rm \\*', ['rm', 'x'])).toBe(false);
  });

  it('marks a specifier holding shell operators as a whole command line', () => {
    for (const spec of ['git log && rm -rf /', 'ls | wc', 'a; b', 'echo $(x)', 'ls > out', 'echo `x`']) {
      expect(parseCommandPattern(spec).wholeLine, spec).toBe(true);
    }
    expect(parseCommandPattern('echo "a && b"').wholeLine).toBe(false);
  });

  it('quotes words so they read back unchanged', () => {
    for (const word of ['*', 'a b', "it's", '', '$(x)', 'plain-word.txt']) {
      const pattern = parseCommandPattern(`echo ${quoteWord(word)}`);
      expect(pattern.tokens[1]).toEqual({ kind: 'literal', text: word });
    }
  });
});

describe('path patterns', () => {
  const places = { workspaceRoot: '/w', home: '/home/me' };
  const matches = (spec: string, absolute: string) => compilePathPattern(parsePathPattern(spec), places)(absolute);

  it('matches a name without a slash at any depth, like .gitignore', () => {
    expect(matches('.env', '/w/.env')).toBe(true);
    expect(matches('.env', '/w/a/b/.env')).toBe(true);
    expect(matches('*.pem', '/w/keys/a.pem')).toBe(true);
    expect(matches('.env', '/w/.envrc')).toBe(false);
  });

  it('anchors a pattern with a slash at the workspace root', () => {
    expect(matches('src/**', '/w/src/a/b.ts')).toBe(true);
    expect(matches('src/**', '/w/lib/src/b.ts')).toBe(false);
    expect(matches('/README.md', '/w/README.md')).toBe(true);
    expect(matches('/README.md', '/w/docs/README.md')).toBe(false);
    expect(matches('./.env', '/w/.env')).toBe(true);
    expect(matches('./.env', '/w/sub/.env')).toBe(false);
    expect(matches('src/*.env', '/w/src/a/.env')).toBe(false);
  });

  it('covers everything inside a folder it matches', () => {
    expect(matches('.git', '/w/.git/hooks/pre-commit')).toBe(true);
    expect(matches('build/', '/w/build/out/x.js')).toBe(true);
  });

  it('never matches a workspace pattern outside the workspace', () => {
    expect(matches('**', '/etc/passwd')).toBe(false);
    expect(matches('.env', '/other/.env')).toBe(false);
  });

  it('reads //abs as an absolute path and ~/ as the home folder', () => {
    expect(matches('//etc/hosts', '/etc/hosts')).toBe(true);
    expect(matches('//etc/**', '/etc/ssh/sshd_config')).toBe(true);
    expect(matches('//etc/hosts', '/w/etc/hosts')).toBe(false);
    expect(matches('~/.ssh/**', '/home/me/.ssh/id_ed25519')).toBe(true);
    expect(matches('~/.ssh', '/home/me/.ssh/id_ed25519')).toBe(true);
    expect(matches('~/.ssh/**', '/home/other/.ssh/id_ed25519')).toBe(false);
  });

  it('escapes a literal path so brackets mean themselves', () => {
    expect(matches(`/${escapeGlob('app/[id].tsx')}`, '/w/app/[id].tsx')).toBe(true);
    expect(matches(`/${escapeGlob('app/[id].tsx')}`, '/w/app/i.tsx')).toBe(false);
  });
});

describe('domain patterns', () => {
  it('matches that host only, without case, trailing dot or port', () => {
    const exact = parseDomainPattern('domain:Docs.Example.com');
    expect(matchDomain(exact, 'docs.example.com')).toBe(true);
    expect(matchDomain(exact, 'DOCS.example.com.')).toBe(true);
    expect(matchDomain(exact, 'example.com')).toBe(false);
    expect(matchDomain(exact, 'a.docs.example.com')).toBe(false);
    expect(matchDomain(exact, 'docs.example.com.evil.io')).toBe(false);
  });

  it('matches subdomains at any depth for *., but not the apex', () => {
    const wild = parseDomainPattern('domain:*.example.com');
    expect(matchDomain(wild, 'a.example.com')).toBe(true);
    expect(matchDomain(wild, 'a.b.example.com')).toBe(true);
    expect(matchDomain(wild, 'example.com')).toBe(false);
    expect(matchDomain(wild, 'notexample.com')).toBe(false);
  });
});

describe('MCP and tool-name wildcards', () => {
  const names = (rule: string) => {
    const target = parseRule(rule).target;
    if (target.kind !== 'tool') throw new Error(`${rule} is not a tool-name rule`);
    return target.names;
  };

  it('matches one server, every server, or one tool', () => {
    expect(names('mcp__github__*').test('mcp__github__create_issue')).toBe(true);
    expect(names('mcp__github__*').test('mcp__gitlab__create_issue')).toBe(false);
    expect(names('mcp__*').test('mcp__gitlab__x')).toBe(true);
    expect(names('mcp__*').test('run_command')).toBe(false);
    expect(names('mcp__github__create_issue').test('mcp__github__create_issue_x')).toBe(false);
    expect(names('mcp__*__delete_*').test('mcp__s3__delete_bucket')).toBe(true);
  });

  it('reads a bare server name as every tool of that server', () => {
    expect(names('mcp__github').test('mcp__github__list')).toBe(true);
    expect(names('mcp__github').test('mcp__githubx__list')).toBe(false);
  });

  it('reads * alone as every tool', () => {
    expect(names('*').test('run_command')).toBe(true);
  });
});
