import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandAnalysis, SimpleCommand } from './commandAnalysis';
import { createShellTestbed, type ShellTestbed } from '../../../test/support/shellTestbed';

let bed: ShellTestbed;

beforeAll(async () => {
  bed = await createShellTestbed();
});

afterAll(() => {
  bed.dispose();
});

const analyze = (command: string): CommandAnalysis => bed.analyze(command);
const argvs = (command: string): string[][] => analyze(command).commands.map((c) => c.argv);
const roots = (command: string): string[] => analyze(command).commands.map((c) => c.argv[0] ?? '');
const only = (command: string): SimpleCommand => bed.only(command);

const expectUnpinnable = (command: string, why?: RegExp): CommandAnalysis => bed.expectUnpinnable(command, why);

function expectPinned(command: string): CommandAnalysis {
  const analysis = analyze(command);
  expect(analysis.unpinnable, `expected ${JSON.stringify(command)} to be pinned down`).toBeUndefined();
  return analysis;
}

const readsOnly = (command: string): boolean => {
  const analysis = analyze(command);
  return !analysis.unpinnable && analysis.commands.length > 0 && analysis.commands.every((c) => c.readOnly);
};

describe('finding every simple command', () => {
  it('splits lists and pipelines on every operator', () => {
    expect(roots('a;b|c&&d||e&f')).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(roots('a |& b\nc')).toEqual(['a', 'b', 'c']);
    expect(roots('! a')).toEqual(['a']);
  });

  it('lists a command first, then the commands nested in its words', () => {
    expect(argvs('diff <(git log) <(rm -rf /)')).toEqual([
      ['diff', '<(git log)', '<(rm -rf /)'],
      ['git', 'log'],
      ['rm', '-rf', '/'],
    ]);
    expect(argvs('git log --format=$(rm -rf /)')).toEqual([
      ['git', 'log', '--format=$(rm -rf /)'],
      ['rm', '-rf', '/'],
    ]);
  });

  it('finds commands in $( ), backticks, <( ), >( ) and inside double quotes', () => {
    expect(roots('echo $(a) `b` <(c) >(d) "$(e)" "`f`"')).toEqual(['echo', 'a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('finds commands in backticks nested in backticks, which bash parses a second time', () => {
    expect(roots('echo `ls \\`rm -rf /\\``')).toContain('rm');
  });

  it('finds commands in subshells, groups, conditions and bodies of if/for/while/until/case/select', () => {
    expect(roots('(a; b) && { c; }')).toEqual(['a', 'b', 'c']);
    expect(roots('if a; then b; elif c; then d; else e; fi')).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(roots('for i in $(a); do b; done; for ((i=0;i<2;i++)); do c; done')).toEqual(['a', 'b', 'c']);
    expect(roots('while a; do b; done; until c; do d; done')).toEqual(['a', 'b', 'c', 'd']);
    expect(roots('case $(a) in x) b;; *) c;; esac')).toEqual(['a', 'b', 'c']);
    expect(roots('select x in 1 2; do a; done')).toEqual(['a']);
  });

  it('finds commands in function bodies', () => {
    expect(roots('f() { a; b; }; function g { c; }; h() ( d )')).toEqual(['a', 'b', 'c', 'd']);
  });

  it('finds commands hidden in parameter expansions, assignments, arrays, redirection targets and here-documents', () => {
    expect(roots('echo ${U:-$(a)} ${U/x/$(b)}')).toEqual(['echo', 'a', 'b']);
    expect(roots('x=$(a) y=`b`; z=(1 $(c))')).toEqual(['a', 'b', 'c']);
    expect(roots('d > $(a)')).toEqual(['d', 'a']);
    expect(roots('cat <<EOF\n$(a)\nEOF')).toEqual(['cat', 'a']);
    expect(roots('read -r v <<< "$(a)"')).toEqual(['read', 'a']);
  });

  it('reads a quoted here-document as text', () => {
    const analysis = expectPinned("cat <<'EOF'\n$(rm -rf /)\nEOF");
    expect(analysis.commands.map((c) => c.argv)).toEqual([['cat']]);
  });

  it('finds the command after a here-document operator that tree-sitter hangs inside the redirect', () => {
    expect(roots('cat <<EOF && rm x\nbody\nEOF')).toEqual(['cat', 'rm']);
    expect(roots('cat <<EOF | wc -l\nbody\nEOF')).toEqual(['cat', 'wc']);
  });

  it('finds commands in [[ ]] operands and case patterns', () => {
    expect(roots('[[ $(a) == x ]] && [[ x =~ $(b) ]]')).toEqual(['a', 'b']);
  });

  it('treats [[ ]] and [ ] as tests, not commands', () => {
    expect(expectPinned('[[ -f x ]] && [ -d y ] && ls').commands.map((c) => c.argv)).toEqual([['ls']]);
  });

  it('analyses the script of bash -c, sh -c and zsh -c as a line of its own', () => {
    const analysis = expectPinned('bash -c \'a && b\' && sh -c "c | d" && zsh -c e');
    expect(analysis.commands.map((c) => [c.wrappers, c.argv[0]])).toEqual([
      [['bash'], 'a'],
      [['bash'], 'b'],
      [['sh'], 'c'],
      [['sh'], 'd'],
      [['zsh'], 'e'],
    ]);
  });

  it('reads bash -c as bash does: the word after the script is $0, not an argument', () => {
    expect(only('zsh -c ls -l').argv).toEqual(['ls']);
    expect(only('bash -lc git status').argv).toEqual(['git']);
  });

  it('reads shell options before -c, including -o with its value', () => {
    expect(only("bash -e -o pipefail -c 'ls'").argv).toEqual(['ls']);
  });

  it('joins words at a backslash-newline, as bash does (the parser splits them)', () => {
    expect(only('ec\\\nho hi').argv).toEqual(['echo', 'hi']);
    expect(only("echo 'a\\\nb'").argv).toEqual(['echo', 'a\\\nb']);
  });

  it('returns no commands for an empty line or a comment', () => {
    expect(expectPinned('').commands).toEqual([]);
    expect(expectPinned('# just a comment').commands).toEqual([]);
  });

  it('records a line that only redirects as a command without argv that writes', () => {
    expect(only('> out.txt')).toMatchObject({ argv: [], writesTo: ['out.txt'], readOnly: false });
  });
});

describe('quotes and escapes', () => {
  it('removes quotes and joins concatenated pieces', () => {
    expect(only('rg -n "foo" -g"*.py"').argv).toEqual(['rg', '-n', 'foo', '-g*.py']);
    expect(only('git commit -m "line1\nline2"').argv).toEqual(['git', 'commit', '-m', 'line1\nline2']);
    expect(only('echo a\\ b \'c d\' "e\\"f"').argv).toEqual(['echo', 'a b', 'c d', 'e"f']);
  });

  it('decodes ANSI-C quoting, so an option or a program spelled in escapes is what it is', () => {
    expect(only("rm $'-rf' x").argv).toEqual(['rm', '-rf', 'x']);
    expect(only("'-'rf").argv).toEqual(['-rf']);
    expect(only("$'\\x72m' -rf /").argv).toEqual(['rm', '-rf', '/']);
    expect(only("r''m x").argv).toEqual(['rm', 'x']);
    expect(only('\\r\\m x').argv).toEqual(['rm', 'x']);
  });

  it('ends an ANSI-C string at a NUL, as bash does', () => {
    expect(only("echo $'ab\\x00cd'").argv).toEqual(['echo', 'ab']);
  });

  it('gives words only known at run time as written', () => {
    expect(only('echo "$HOME" $x ~/y').argv).toEqual(['echo', '"$HOME"', '$x', '~/y']);
  });
});

describe('where tree-sitter and bash split words differently', () => {
  it('gives words after a redirection target to the command, as bash does', () => {
    expect(only('find . > /dev/null -delete')).toMatchObject({ argv: ['find', '.', '-delete'], readOnly: false });
    expect(only('ls -l >x -a')).toMatchObject({ argv: ['ls', '-l', '-a'], writesTo: ['x'] });
    expect(only('cat < f -n').argv).toEqual(['cat', 'f', '-n'].filter((word) => word !== 'f'));
  });

  it('joins pieces with no space between them, which the parser splits after a quote', () => {
    expect(only("$'r'\\m -rf x").argv).toEqual(['rm', '-rf', 'x']);
    expect(only('echo \'a\'\\b "c"\\d').argv).toEqual(['echo', 'ab', 'cd']);
    expect(only("ls > 'a'\\b c")).toMatchObject({ argv: ['ls', 'c'], writesTo: ['ab'] });
  });

  it('reads an assignment whose value the parser split as the assignment, not as the program', () => {
    expect(only("x='a'\\b ls")).toMatchObject({ argv: ['ls'], assignments: ['x'] });
    expectUnpinnable("P='x'\\y PATH='/tm'\\p ls", /PATH/);
    expectUnpinnable("export 'PA'\\TH=/tmp", /PATH/);
  });
});

describe('wrappers', () => {
  it.each([
    ['nohup git push', ['nohup'], ['git', 'push']],
    ['nice -n 5 make', ['nice'], ['make']],
    ['nice -10 make', ['nice'], ['make']],
    ['timeout --signal=KILL 5 sleep 10', ['timeout'], ['sleep', '10']],
    ['timeout -k 2 -s TERM 5s sleep 10', ['timeout'], ['sleep', '10']],
    ['env node server.js', ['env'], ['node', 'server.js']],
    ['env -i -u HOME FOO=1 node app.js', ['env'], ['node', 'app.js']],
    ['command ls -la', ['command'], ['ls', '-la']],
    ['time -p ls', ['time'], ['ls']],
    ['stdbuf -oL grep x f', ['stdbuf'], ['grep', 'x', 'f']],
    ['ionice -c 3 ls', ['ionice'], ['ls']],
    ['setsid -f ls', ['setsid'], ['ls']],
    ['sudo -u root -E ls /root', ['sudo'], ['ls', '/root']],
    ['doas -u root ls', ['doas'], ['ls']],
    ['watch -n 1 kubectl get pods', ['watch'], ['kubectl', 'get', 'pods']],
    ['watch -x ls -l', ['watch'], ['ls', '-l']],
    ['sudo env NODE_ENV=prod nice -n 1 timeout 5 node app.js', ['sudo', 'env', 'nice', 'timeout'], ['node', 'app.js']],
  ])('%s runs %j %j', (command, wrappers, argv) => {
    const c = only(command);
    expect(c.wrappers).toEqual(wrappers);
    expect(c.argv).toEqual(argv);
  });

  it('records assignments in front of a command, from env and from sudo', () => {
    expect(only('FOO=1 BAR=2 ls').assignments).toEqual(['FOO', 'BAR']);
    expect(only('sudo env NODE_ENV=prod node app.js').assignments).toEqual(['NODE_ENV']);
    expect(only('sudo LANG=C ls').assignments).toEqual(['LANG']);
  });

  it('treats command -v as a query, not a wrapper', () => {
    expect(only('command -v ls')).toMatchObject({ argv: ['command', '-v', 'ls'], wrappers: [], readOnly: true });
  });

  it('runs xargs commands with its options stripped, and echo when it names none', () => {
    expect(analyze('ls | xargs -0 -n 1 -P 2 grep x').commands[1]).toMatchObject({ wrappers: ['xargs'], argv: ['grep', 'x'] });
    expect(analyze('ls | xargs').commands[1]).toMatchObject({ wrappers: ['xargs'], argv: ['echo'] });
  });

  it('makes every find -exec/-execdir/-ok command a command of its own, after find itself', () => {
    const analysis = expectPinned("find . -exec echo {} ';' -execdir rm {} + -ok wc -l {} \\;");
    expect(analysis.commands.map((c) => [c.wrappers, c.argv])).toEqual([
      [[], ['find', '.', '-exec', 'echo', '{}', ';', '-execdir', 'rm', '{}', '+', '-ok', 'wc', '-l', '{}', ';']],
      [['find'], ['echo', '{}']],
      [['find'], ['rm', '{}']],
      [['find'], ['wc', '-l', '{}']],
    ]);
    expect(analysis.commands[0]!.readOnly).toBe(false);
  });

  it('strips wrappers named by a system path', () => {
    expect(only(`${bed.systemBin}/env ${bed.systemBin}/timeout 5 ls`)).toMatchObject({ wrappers: ['env', 'timeout'], argv: ['ls'] });
  });

  it('does not strip a "wrapper" that is a program in the workspace', () => {
    bed.addWorkspaceProgram('bin/timeout');
    expect(only('./bin/timeout 5 ls')).toMatchObject({ wrappers: [], argv: ['./bin/timeout', '5', 'ls'], readOnly: false });
  });

  it('runs the script watch hands to sh -c, and the action of trap, as lines of their own', () => {
    expect(analyze("watch 'ls | wc -l'").commands.map((c) => c.argv[0])).toEqual(['ls', 'wc']);
    expect(analyze("trap 'rm -f tmp' EXIT").commands.map((c) => [c.wrappers, c.argv[0]])).toEqual([
      [[], 'trap'],
      [['trap'], 'rm'],
    ]);
  });

  it('runs the script of su -c as another user', () => {
    expect(only("su -c 'cat /etc/shadow' root")).toMatchObject({ wrappers: ['su'], argv: ['cat', '/etc/shadow'], readOnly: false });
  });
});

describe('what cannot be pinned down', () => {
  it.each([
    ['$x', /program name \$x/],
    ['$(echo rm) -rf /', /program name/],
    ['`echo rm` -rf /', /program name/],
    ['"$cmd" args', /program name/],
    ['${x}', /program name/],
    ['$((1+1))', /program name/],
    ['~/bin/tool', /program name/],
    ['r*m x', /program name/],
    ['/usr/bin/r? x', /program name/],
    ['{rm,-rf,/}', /./],
    ['<(echo rm) x', /program name/],
  ])('a program name only known when it runs: %s', (command, why) => {
    expectUnpinnable(command, why);
  });

  it.each([
    ['eval "ls"', /eval/],
    ['eval $x', /eval/],
    ['source ./x.sh', /source/],
    ['. ./x.sh', /\. runs/],
    ['exec ls', /exec/],
    ['builtin echo hi', /builtin/],
    ["alias ls='rm -rf /'", /alias/],
    ['enable -f ./x.so ls', /enable/],
    ['hash -p /tmp/x ls', /hash -p/],
    ['coproc rm -rf /', /coproc/],
    ["mapfile -C 'rm x' -c 1 arr < f", /callback/],
    ['fc -s', /fc/],
    ['set -k; ls LD_PRELOAD=x.so', /set -k/],
    ['trap "$x" EXIT', /trap/],
  ])('a builtin that runs code not on the line: %s', (command, why) => {
    expectUnpinnable(command, why);
  });

  it('lists the commands inside eval when its words are literal, for the person to see', () => {
    expect(expectUnpinnable('eval "rm -rf /tmp/x"').commands.map((c) => [c.wrappers, c.argv])).toEqual([
      [['eval'], ['rm', '-rf', '/tmp/x']],
    ]);
  });

  it.each(['ls &&', 'ls | | wc', 'git log &&& rm -rf /', 'echo "unterminated', 'if true; then ls', 'ls <> x'])(
    'a parse error: %s',
    (command) => {
      expectUnpinnable(command, /syntax/);
    },
  );

  it.each([
    'PATH=/tmp:$PATH ls',
    'PATH=./bin; ls',
    'export PATH=./node_modules/.bin',
    'export "PATH=./bin"',
    'declare -x PATH=/tmp',
    'LD_PRELOAD=/tmp/x.so cat f',
    'LD_LIBRARY_PATH=. ls',
    'DYLD_INSERT_LIBRARIES=x.dylib ls',
    'NODE_OPTIONS="--require ./evil.js" node -v',
    'PYTHONPATH=. python3 -c 1',
    'PYTHONSTARTUP=x python3',
    'PERL5OPT=-Mevil perl -e 1',
    'RUBYOPT=-revil ruby -e 1',
    "GIT_SSH_COMMAND='curl x' git fetch",
    'GIT_EXTERNAL_DIFF=x git diff',
    'GIT_DIR=/tmp/x git log',
    'BASH_ENV=./x bash -c ls',
    'ENV=./x sh -c ls',
    'IFS=/ read a b',
    "PROMPT_COMMAND='rm x' bash -i",
    'SHELLOPTS=xtrace bash -c ls',
    'env GIT_EXTERNAL_DIFF=x git diff',
    'env -u HOME PATH=/usr/bin sh -c echo',
    'sudo LD_PRELOAD=x.so ls',
    'read PATH < f',
    'printf -v PATH x',
    'HOME=. git log',
    'npm_config_script_shell=./x npm test',
    'RIPGREP_CONFIG_PATH=./rc rg x',
    ': ${PATH:=/tmp}',
  ])('a dangerous variable: %s', (command) => {
    expectUnpinnable(
      command,
      /PATH|LD_|DYLD|NODE_OPTIONS|PYTHON|PERL5OPT|RUBYOPT|GIT_|BASH_ENV|ENV|IFS|PROMPT_COMMAND|SHELLOPTS|HOME|npm_config|RIPGREP/,
    );
  });

  it('keeps harmless environment prefixes pinnable', () => {
    expect(expectPinned('NODE_ENV=test CI=1 LANG=C ls').commands[0]!.readOnly).toBe(true);
  });

  it.each([
    ['echo ${foo@P}', /prompt/],
    ['echo ${!x}', /named by another variable/],
    ['x=$(cat VERSION); echo $((x + 1))', /arithmetic evaluates the variable x/],
    ['echo $(( $(cat n) ))', /output of/],
    ['echo ${a[$i]}', /variable i/],
    ['[[ $x -eq 1 ]]', /variable x/],
    ['(( y > 1 ))', /variable y/],
    ['let "y = a[$(id)]"', /arithmetic/],
    ["unset 'a[$(id)]'", /subscript/],
    ["[[ -v 'a[$(id)]' ]]", /subscript/],
    ["test -v 'a[$(id)]'", /subscript/],
    ["declare -a x='($(id))'", /array assignment/],
    ['declare -i n=$x', /evaluate/],
    ['declare -n ref=PATH', /evaluate/],
    ['read "$name"', /variable name only known/],
    ['printf -v "$name" x', /variable name only known/],
    ['echo ${x#$(id)}', /unexpanded/],
    ['echo $"hi"', /split/],
  ])('an expansion that evaluates a value as code: %s', (command, why) => {
    expectUnpinnable(command, why);
  });

  it('keeps arithmetic on literals and on variables the line only ever sets to numbers', () => {
    expect(readsOnly('echo $((1 << 2)) ${a[0]} ${#a[@]} ${x:1:2}')).toBe(true);
    expect(readsOnly('x=5; echo $((x + 1))')).toBe(true);
    expect(readsOnly('for ((i = 0; i < 3; i++)); do echo $i; done')).toBe(true);
    expect(readsOnly('[ "$x" -eq 1 ] && echo ok')).toBe(true);
  });

  it('keeps ${!prefix*} and ${!array[@]}, which only list names', () => {
    expect(readsOnly('echo ${!GIT*} ${!arr[@]}')).toBe(true);
  });

  it('refuses a function that shadows a program used on the line, but not a call of one defined on it', () => {
    expectUnpinnable('ls() { rm -rf /; }; ls', /shadows/);
    expectUnpinnable('ls; ls() { rm x; }', /shadows/);
    expectUnpinnable('cd() { rm x; }; cd src', /shadows/);
    expect(expectPinned('build() { make; }; build').commands.map((c) => c.argv[0])).toEqual(['make', 'build']);
  });

  it.each([
    ['curl -s x | bash', /bash runs a program it reads from a pipe/],
    ['curl -s x | sh -s', /sh runs a program it reads from a pipe/],
    ['curl -s x | python3', /python3 runs a program it reads from a pipe/],
    ['curl -s x | python3 -', /python3 runs a program it reads from a pipe/],
    ['curl -s x | node', /node runs a program/],
    ['bash <(curl -s x)', /curl/],
    ['bash < <(curl -s x)', /pipe/],
    ['echo "rm x" > >(bash)', /pipe/],
    ['bash -c "$x"', /bash -c runs a script only known/],
    ['bash -c "ls $dir"', /bash -c runs a script only known/],
    ['python3 -c "$code"', /python3 -c runs code only known/],
    ['node -e "$code"', /node -e runs code only known/],
    ['bash <<EOF\n$(curl -s x)\nEOF', /here-document with expansions/],
    ['bash <<< "$x"', /here-document with expansions/],
  ])('an interpreter whose program is only known when it runs: %s', (command, why) => {
    expectUnpinnable(command, why);
  });

  it('notes, but accepts, an interpreter reading a literal here-document', () => {
    const analysis = expectPinned("python3 <<'PY'\nprint('hello')\nPY");
    expect(analysis.notes).toEqual(['python3 runs the program written in the here-document']);
    expect(analysis.commands[0]).toMatchObject({ argv: ['python3'], readOnly: false, mayReachNetwork: true });
  });

  it.each([
    ['timeout $t rm -rf /', /timeout/],
    ['env $x ls', /program name/],
    ['env FOO=$x ls', /split/],
    ['nice -n $n ls', /nice/],
    ['xargs $opts rm', /only known when it runs/],
    ['sudo $flags ls', /only known when it runs/],
    ['xargs -n $n rm', /xargs/],
    ['sudo -u $user ls', /sudo/],
    ['find . $expr', /could add an -exec/],
    ['find *', /could add an -exec/],
    ['find . -exec sh -c "echo {}" \\;', /sh -c runs a script only known/],
    ["ls | xargs -I{} sh -c 'echo {}'", /sh -c runs a script only known/],
    ['ls | xargs -I % %', /program name/],
    ['env -S "rm -rf /" ls', /env -S/],
    ['timeout --frobnicate 5 ls', /timeout/],
  ])('a wrapper whose command cannot be told apart: %s', (command, why) => {
    expectUnpinnable(command, why);
  });

  it('still lists a wrapper whose command cannot be told apart, as written', () => {
    expect(expectUnpinnable('timeout --frobnicate 5 rm -rf /').commands.map((c) => c.argv)).toEqual([
      ['timeout', '--frobnicate', '5', 'rm', '-rf', '/'],
    ]);
    expect(expectUnpinnable('bash -c "$x"').commands.map((c) => c.argv)).toEqual([['bash', '-c', '"$x"']]);
    expect(expectUnpinnable('sudo env -S "rm -rf /" ls').commands.map((c) => [c.wrappers, c.argv])).toEqual([
      [['sudo'], ['env', '-S', 'rm -rf /', 'ls']],
    ]);
  });

  it('accepts find -exec sh -c with the file name passed as an argument', () => {
    expect(expectPinned("find . -name '*.log' -exec sh -c 'wc -l \"$1\"' _ {} \\;").commands.map((c) => c.argv[0])).toEqual(['find', 'wc']);
  });

  it('refuses a NUL, which bash and the parser would read differently', () => {
    expectUnpinnable('ls\0; rm -rf /', /NUL/);
  });

  it('refuses a carriage return, vertical tab or form feed outside quotes, which the parser reads as a space', () => {
    expectUnpinnable('ls\rrm x', /carriage return/);
    expectUnpinnable('cat f\v-n', /carriage return/);
    expect(expectPinned('echo \'a\rb\' "c\fd"').commands[0]!.argv).toEqual(['echo', 'a\rb', 'c\fd']);
  });

  it('refuses keywords the parser reads as commands', () => {
    expectUnpinnable('coproc { rm -rf /; }');
  });

  it('refuses scripts for shells whose syntax it does not read', () => {
    expectUnpinnable("fish -c 'echo (rm -rf ~)'", /language/);
    expectUnpinnable('zsh -c "ls *(e:\'rm -rf ~\':)"');
    expectUnpinnable("zsh -c 'ls =rm'", /zsh/);
  });
});
