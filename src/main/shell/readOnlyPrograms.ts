import type { ReadTarget } from './commandAnalysis';
import type { InvocationContext } from './classifyInvocation';
import { cdReading, commandReading, envReading, gitReading, printfReading } from './customReadings';
import { findReading } from './findReading';
import { LOCAL, READS, UNKNOWN, type InvocationClass } from './invocationClass';
import { literalWord, type Word } from './readWord';
import { sedScriptEffect } from './sedScriptEffect';

/**
 * The programs that may run without asking because they only read, and, for each, every option and
 * operand it takes: which options take a value, which values are files it reads, what its operands
 * are, and which options make it write (then it is not read-only but stays on this machine) or run
 * another program (then nothing is known of where it reaches). The shell analysis judges a command
 * (classifyInvocation) and finds the files it reads (readTargets) from the same reading of its words
 * against this table (readArguments), so the two can never disagree.
 *
 * A command is read-only only when each of its words is known here: an option the table does not
 * know, a word only known when it runs that could be an option with a file or a program in it, or
 * an option whose file names further files (`wc --files0-from`, `md5sum -c`, `file -f`) make it not
 * read-only, and it asks. Each entry names where its facts come from: the GNU manual or `--help` of
 * the version given (coreutils 9.1, grep 3.8, diffutils 3.8, sed 4.9, findutils 4.9, file 5.44,
 * ripgrep 13/14, jq 1.6/1.7, tree 2.1). Where a BSD (macOS) program reads a letter differently, the
 * reading that reads more is taken (`base64 -i FILE`); an option only BSD has is unknown here, and asks.
 *
 * Option names are written as one string, space-separated: short letters are one character, long
 * options their name without dashes. Long options may be abbreviated, as getopt_long allows.
 */
export interface ReadOnlyProgram {
  /** Where the facts come from. */
  doc: string;
  /** Short options that take no value (letters run together: 'abc'). */
  flags?: string;
  /** Short options that take a value, attached (-n5) or the next word (-n 5). */
  withValue?: string;
  /** Short options whose value is optional and only attached (sed -i.bak). */
  optionalValue?: string;
  /** Long options that take no value. */
  long?: string;
  /** Long options that take a value (--key=2, --key 2). */
  longWithValue?: string;
  /** Long options whose value is optional and only attached (--color=auto). */
  longOptionalValue?: string;
  /** Long options that take two values, the second one the value (jq --rawfile NAME FILE). */
  longWithTwoValues?: string;
  /** `-NUM` is an option (head -5, diff -3). */
  numeric?: boolean;
  /** A word that reads as a negative number is an operand, not an option (seq -5 5). */
  negativeNumbers?: boolean;
  /** It reads no options: every word is an operand (echo, test). */
  noOptions?: boolean;
  /** What its operands are: files it reads, text (names, numbers, formats), or a pattern followed by files. */
  operands: 'files' | 'text' | 'pattern, then files';
  /** Options that give the pattern instead of the first operand (grep -e, -f). */
  patternFrom?: string;
  /** Options whose value is a file or folder it reads. */
  reads?: string;
  /** Options whose value is a colon-separated list of files it reads (file -m). */
  readsList?: string;
  /** Options whose value is a file naming more files, or a program, that it reads: not read-only. */
  readsNamedInside?: string;
  /** Options that make it write files: not read-only, still local. */
  writes?: string;
  /** Options that make it run another program: not read-only, and not known to stay local. */
  runs?: string;
  /** Options that make it follow symbolic links out of the folders it walks. */
  followsLinks?: string;
  /** Options that stop it from following links it would otherwise follow. */
  followsLinksUnless?: string;
  /** What the table cannot say as data: date's operand sets the clock, uniq's second operand is written. */
  judge?: (line: ScannedLine) => Judgement | undefined;
}

/** A program whose words are read by a function of its own (git's subcommands, find's expression, cd's folder). */
export interface CustomProgram {
  doc: string;
  read(args: readonly Word[], context: InvocationContext): Reading;
}

/** What the table says a command does with its words. */
export interface Reading {
  class: InvocationClass;
  /** The words that name files or folders it reads, in order. */
  reads: ArgumentRead[];
  /** Why it is not read-only, when that is news to the person (an option the table does not know). */
  why?: string;
}

/**
 * A word naming a file it reads; `mayBeOption` when it is a glob whose matches the program would read
 * as options if one starts with a dash. Or a read that is not a word (cd's home, the links grep follows).
 */
export type ArgumentRead = { word: Word; mayBeOption?: boolean } | { target: ReadTarget };

/** A command's words as its entry reads them, for a judge. */
export interface ScannedLine {
  options: readonly { name: string; value?: string; word?: Word }[];
  operands: readonly Word[];
}

export interface Judgement {
  class: InvocationClass;
  reads?: ArgumentRead[];
  why?: string;
}

const GNU = 'help version';
const CHECKSUMS = {
  doc: 'GNU coreutils 9.1, md5sum(1), sha1sum(1), sha256sum(1), sha512sum(1): -c/--check reads checksums and the files named in them',
  flags: 'bctzw',
  long: `binary check tag text zero ignore-missing quiet status strict warn ${GNU}`,
  operands: 'files',
  readsNamedInside: 'c check',
} as const satisfies ReadOnlyProgram;
const GREP = {
  doc: 'GNU grep 3.8, grep --help and grep(1): -f/--file and --exclude-from read patterns from a file; -R follows every link',
  flags: 'EFGPiywxzsvVbnHhoqaIrRLlcTZUu0123456789',
  withValue: 'efmABCdD',
  long: `extended-regexp fixed-strings basic-regexp perl-regexp ignore-case no-ignore-case word-regexp line-regexp null-data no-messages invert-match byte-offset line-number line-buffered with-filename no-filename only-matching quiet silent text recursive dereference-recursive files-without-match files-with-matches count initial-tab null no-group-separator binary unix-byte-offsets ${GNU}`,
  longWithValue:
    'regexp file max-count label binary-files directories devices include exclude exclude-from exclude-dir before-context after-context context group-separator',
  longOptionalValue: 'color colour',
  numeric: true,
  operands: 'pattern, then files',
  patternFrom: 'e f regexp file',
  reads: 'f file exclude-from',
  followsLinks: 'R dereference-recursive',
} as const satisfies ReadOnlyProgram;

/** Echo and its kin: every word is text, none an option that does anything but change how it prints. */
const TEXT_ONLY = (doc: string): ReadOnlyProgram => ({ doc, noOptions: true, operands: 'text' });

const TABLE: Record<string, ReadOnlyProgram | CustomProgram> = {
  cat: {
    doc: 'GNU coreutils 9.1, cat --help',
    flags: 'AbeEnstTuv',
    long: `show-all number-nonblank show-ends number squeeze-blank show-tabs show-nonprinting ${GNU}`,
    operands: 'files',
  },
  head: {
    doc: 'GNU coreutils 9.1, head --help',
    flags: 'qvz',
    withValue: 'cn',
    long: `quiet silent verbose zero-terminated ${GNU}`,
    longWithValue: 'bytes lines',
    numeric: true,
    operands: 'files',
  },
  tail: {
    doc: 'GNU coreutils 9.1, tail --help',
    flags: 'fFqvz',
    withValue: 'cns',
    long: `retry quiet silent verbose zero-terminated ${GNU}`,
    longWithValue: 'bytes lines max-unchanged-stats pid sleep-interval',
    longOptionalValue: 'follow',
    numeric: true,
    operands: 'files',
  },
  wc: {
    doc: 'GNU coreutils 9.1, wc --help: --files0-from=F reads the files named in F',
    flags: 'cmlLw',
    long: `bytes chars lines max-line-length words ${GNU}`,
    longWithValue: 'files0-from total',
    operands: 'files',
    readsNamedInside: 'files0-from',
  },
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  ls: {
    doc: 'GNU coreutils 9.1, ls --help: -L follows links, with -R into the folders they lead to',
    flags: 'aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1',
    withValue: 'ITw',
    long: `all almost-all author escape ignore-backups directory dired file-type full-time group-directories-first no-group human-readable si dereference-command-line dereference-command-line-symlink-to-dir inode kibibytes dereference numeric-uid-gid literal hide-control-chars show-control-chars quote-name reverse recursive size context zero ${GNU}`,
    longWithValue: 'block-size format hide ignore indicator-style quoting-style sort time time-style tabsize width',
    longOptionalValue: 'color classify hyperlink',
    operands: 'files',
    followsLinks: 'L dereference',
  },
  stat: {
    doc: 'GNU coreutils 9.1, stat --help',
    flags: 'Lft',
    withValue: 'c',
    long: `dereference file-system terse ${GNU}`,
    longWithValue: 'cached format printf',
    operands: 'files',
  },
  du: {
    doc: 'GNU coreutils 9.1, du --help: --files0-from=F reads the files named in F; -X FILE reads patterns; -L follows links',
    flags: '0abcDHhklmPSsLx',
    withValue: 'BdtX',
    long: `null all apparent-size bytes total dereference-args human-readable inodes count-links dereference no-dereference separate-dirs si summarize one-file-system ${GNU}`,
    longWithValue: 'block-size max-depth files0-from threshold time-style exclude-from exclude',
    longOptionalValue: 'time',
    operands: 'files',
    reads: 'X exclude-from',
    readsNamedInside: 'files0-from',
    followsLinks: 'L dereference',
  },
  df: {
    doc: 'GNU coreutils 9.1, df --help',
    flags: 'ahHiklPTv',
    withValue: 'Btx',
    long: `all human-readable si inodes local no-sync portability sync total print-type ${GNU}`,
    longWithValue: 'block-size type exclude-type',
    longOptionalValue: 'output',
    operands: 'files',
  },
  nl: {
    doc: 'GNU coreutils 9.1, nl --help',
    flags: 'p',
    withValue: 'bdfhilnsvw',
    long: `no-renumber ${GNU}`,
    longWithValue:
      'body-numbering section-delimiter footer-numbering header-numbering line-increment join-blank-lines number-format number-separator starting-line-number number-width',
    operands: 'files',
  },
  tac: {
    doc: 'GNU coreutils 9.1, tac --help',
    flags: 'br',
    withValue: 's',
    long: `before regex ${GNU}`,
    longWithValue: 'separator',
    operands: 'files',
  },
  cut: {
    doc: 'GNU coreutils 9.1, cut --help',
    flags: 'nsz',
    withValue: 'bcdf',
    long: `complement only-delimited zero-terminated ${GNU}`,
    longWithValue: 'bytes characters delimiter fields output-delimiter',
    operands: 'files',
  },
  paste: {
    doc: 'GNU coreutils 9.1, paste --help',
    flags: 'sz',
    withValue: 'd',
    long: `serial zero-terminated ${GNU}`,
    longWithValue: 'delimiters',
    operands: 'files',
  },
  rev: { doc: 'util-linux 2.38, rev --help', flags: 'hV0', long: 'help version zero', operands: 'files' },
  tr: {
    doc: 'GNU coreutils 9.1, tr --help: its operands are character sets; it reads standard input only',
    flags: 'cCdst',
    long: `complement delete squeeze-repeats truncate-set1 ${GNU}`,
    operands: 'text',
  },
  diff: {
    doc: 'GNU diffutils 3.8, diff --help: --from-file, --to-file and -X/--exclude-from read files; -l/--paginate runs pr; -r follows links unless --no-dereference',
    flags: 'qscuenyptTlrNiEZbwBadv',
    withValue: 'CUWFDxXSI',
    long: `normal brief report-identical-files ed rcs side-by-side left-column suppress-common-lines show-c-function expand-tabs initial-tab suppress-blank-empty paginate recursive no-dereference new-file unidirectional-new-file ignore-file-name-case no-ignore-file-name-case ignore-case ignore-tab-expansion ignore-trailing-space ignore-space-change ignore-all-space ignore-blank-lines text strip-trailing-cr minimal speed-large-files ${GNU}`,
    longWithValue:
      'width show-function-line label tabsize exclude exclude-from starting-file from-file to-file ignore-matching-lines ifdef old-group-format new-group-format changed-group-format unchanged-group-format line-format old-line-format new-line-format unchanged-line-format horizon-lines palette',
    longOptionalValue: 'context unified color',
    numeric: true,
    operands: 'files',
    reads: 'X exclude-from from-file to-file',
    runs: 'l paginate',
    followsLinks: 'r recursive',
    followsLinksUnless: 'no-dereference',
  },
  cmp: {
    doc: 'GNU diffutils 3.8, cmp --help: FILE1 FILE2 and two byte counts',
    flags: 'blsv',
    withValue: 'in',
    long: `print-bytes verbose quiet silent ${GNU}`,
    longWithValue: 'ignore-initial bytes',
    operands: 'files',
  },
  comm: {
    doc: 'GNU coreutils 9.1, comm --help',
    flags: '123z',
    long: `check-order nocheck-order total zero-terminated ${GNU}`,
    longWithValue: 'output-delimiter',
    operands: 'files',
  },
  basename: {
    doc: 'GNU coreutils 9.1, basename --help: its operands are names, not files it reads',
    flags: 'az',
    withValue: 's',
    long: `multiple zero ${GNU}`,
    longWithValue: 'suffix',
    operands: 'text',
  },
  dirname: { doc: 'GNU coreutils 9.1, dirname --help', flags: 'z', long: `zero ${GNU}`, operands: 'text' },
  realpath: {
    doc: 'GNU coreutils 9.1, realpath --help: --relative-to and --relative-base are folders it resolves',
    flags: 'emLPqsz',
    long: `canonicalize-existing canonicalize-missing logical physical quiet strip no-symlinks zero ${GNU}`,
    longWithValue: 'relative-to relative-base',
    operands: 'files',
    reads: 'relative-to relative-base',
  },
  readlink: {
    doc: 'GNU coreutils 9.1, readlink --help',
    flags: 'femnqsvz',
    long: `canonicalize canonicalize-existing canonicalize-missing no-newline quiet silent verbose zero ${GNU}`,
    operands: 'files',
  },
  uname: {
    doc: 'GNU coreutils 9.1, uname --help',
    flags: 'asnrvmpio',
    long: `all kernel-name nodename kernel-release kernel-version machine processor hardware-platform operating-system ${GNU}`,
    operands: 'text',
  },
  whoami: { doc: 'GNU coreutils 9.1, whoami --help', long: GNU, operands: 'text' },
  arch: { doc: 'GNU coreutils 9.1, arch --help', long: GNU, operands: 'text' },
  id: {
    doc: 'GNU coreutils 9.1, id --help: its operand is a user name',
    flags: 'aZgGnruz',
    long: `context group groups name real user zero ${GNU}`,
    operands: 'text',
  },
  nproc: { doc: 'GNU coreutils 9.1, nproc --help', long: `all ${GNU}`, longWithValue: 'ignore', operands: 'text' },
  printenv: { doc: 'GNU coreutils 9.1, printenv --help', flags: '0', long: `null ${GNU}`, operands: 'text' },
  sleep: { doc: 'GNU coreutils 9.1, sleep --help', long: GNU, operands: 'text' },
  seq: {
    doc: 'GNU coreutils 9.1, seq --help: a negative number is an operand',
    flags: 'w',
    withValue: 'fs',
    long: `equal-width ${GNU}`,
    longWithValue: 'format separator',
    negativeNumbers: true,
    operands: 'text',
  },
  numfmt: {
    doc: 'GNU coreutils 9.1, numfmt --help',
    flags: 'z',
    withValue: 'd',
    long: `debug grouping zero-terminated ${GNU}`,
    longWithValue: 'delimiter field format from from-unit invalid padding round suffix to to-unit',
    longOptionalValue: 'header',
    operands: 'text',
  },
  md5sum: CHECKSUMS,
  sha1sum: CHECKSUMS,
  sha256sum: CHECKSUMS,
  sha512sum: CHECKSUMS,
  cksum: {
    ...CHECKSUMS,
    doc: 'GNU coreutils 9.1, cksum --help: -c/--check reads checksums and the files named in them',
    flags: 'cwz',
    withValue: 'al',
    long: `check tag untagged zero ignore-missing quiet status strict warn debug base64 raw ${GNU}`,
    longWithValue: 'algorithm length',
  },
  sort: {
    doc: 'GNU coreutils 9.1, sort --help: --files0-from=F reads the files named in F; --random-source reads a file; -o and -T write; --compress-program runs a program',
    flags: 'bdfgiMhnRrVcCmsuz',
    withValue: 'koStT',
    long: `ignore-leading-blanks dictionary-order ignore-case general-numeric-sort ignore-nonprinting month-sort human-numeric-sort numeric-sort random-sort reverse version-sort debug merge stable unique zero-terminated ${GNU}`,
    longWithValue:
      'random-source sort batch-size compress-program files0-from key output buffer-size field-separator temporary-directory parallel',
    longOptionalValue: 'check',
    operands: 'files',
    reads: 'random-source',
    readsNamedInside: 'files0-from',
    writes: 'o output T temporary-directory',
    runs: 'compress-program',
  },
  uniq: {
    doc: 'GNU coreutils 9.1, uniq --help: INPUT [OUTPUT], the second operand is written',
    flags: 'cdDiuz',
    withValue: 'fsw',
    long: `count repeated ignore-case unique zero-terminated ${GNU}`,
    longWithValue: 'skip-fields skip-chars check-chars',
    longOptionalValue: 'all-repeated group',
    numeric: true,
    operands: 'files',
    judge: (line) => (line.operands.length > 1 || line.operands.some((word) => word.splits) ? { class: LOCAL } : undefined),
  },
  date: {
    doc: 'GNU coreutils 9.1, date --help: -f/--file reads a date from every line of a file (and prints the lines it cannot read), -r/--reference reads a file; -s and an operand that is not +FORMAT set the clock',
    flags: 'Ru',
    withValue: 'dfrs',
    optionalValue: 'I',
    long: `debug resolution rfc-email rfc-2822 utc universal ${GNU}`,
    longWithValue: 'date file reference set rfc-3339',
    longOptionalValue: 'iso-8601',
    operands: 'text',
    reads: 'f file r reference',
    writes: 's set',
    judge: (line) => (line.operands.some((word) => word.kind !== 'literal' || !word.text.startsWith('+')) ? { class: LOCAL } : undefined),
  },
  base64: {
    doc: 'GNU coreutils 9.1, base64 --help; macOS base64(1): -i/--input FILE reads, -o/--output FILE writes',
    flags: 'dD',
    withValue: 'wbio',
    long: `decode ignore-garbage ${GNU}`,
    longWithValue: 'wrap break input output',
    operands: 'files',
    reads: 'i input',
    writes: 'o output',
  },
  file: {
    doc: 'file 5.44, file --help: -m/--magic-file reads a list of magic files, -f/--files-from the files named in a file; -C writes a compiled magic file, -p resets access times; -z and -Z run decompressors',
    flags: 'vzZbcikLhnN0prsSCdlIE',
    withValue: 'mefFP',
    long: `help version uncompress uncompress-noreport brief checking-printout mime apple extension mime-type mime-encoding keep-going list dereference no-dereference no-buffer no-pad print0 preserve-date raw special-files no-sandbox compile debug`,
    longWithValue: 'magic-file exclude exclude-quiet files-from separator parameter',
    operands: 'files',
    readsList: 'm magic-file',
    readsNamedInside: 'f files-from',
    writes: 'C compile p preserve-date',
    runs: 'z Z uncompress uncompress-noreport',
  },
  tree: {
    doc: 'tree 2.1, tree(1): --gitfile, --infofile, --hintro and --houtro read files, --fromfile reads its operands as listings; -o writes, -R writes 00Tree.html in every folder; -l follows links',
    flags: 'acdfghilnpqrstuvxACDFJQNSUXR',
    withValue: 'LPIHTo',
    long: `gitignore matchdirs metafirst ignore-case nolinks inodes device dirsfirst filesfirst si du prune noreport fromfile fromtabfile fflinks info hyperlink opt-toggle acl selinux condense ${GNU}`,
    longWithValue: 'gitfile hintro houtro sort filelimit charset timefmt infofile scheme authority compress',
    operands: 'files',
    reads: 'gitfile hintro houtro infofile',
    writes: 'o R',
    followsLinks: 'l',
  },
  rg: {
    doc: 'ripgrep 13.0 and 14.1, rg --help: -f/--file and --ignore-file read files; --pre, --pre-glob, --hostname-bin and -z/--search-zip run programs; -L/--follow follows links',
    flags: 'sbcFLHIilNnopqSaUuvVwxz0.hP',
    withValue: 'ABCEefgjMmrtTd',
    long: `auto-hybrid-regex no-auto-hybrid-regex binary no-binary block-buffered no-block-buffered byte-offset case-sensitive column no-column count count-matches crlf no-crlf debug trace no-encoding files files-with-matches files-without-match fixed-strings no-fixed-strings follow no-follow glob-case-insensitive no-glob-case-insensitive heading no-heading hidden no-hidden ignore-case ignore-file-case-insensitive no-ignore-file-case-insensitive include-zero no-include-zero invert-match no-invert-match json no-json line-buffered no-line-buffered line-number no-line-number line-regexp max-columns-preview no-max-columns-preview mmap no-mmap multiline no-multiline multiline-dotall no-multiline-dotall no-config no-filename ignore no-ignore ignore-dot no-ignore-dot ignore-exclude no-ignore-exclude ignore-files no-ignore-files ignore-global no-ignore-global ignore-messages no-ignore-messages ignore-parent no-ignore-parent ignore-vcs no-ignore-vcs messages no-messages pcre2-unicode no-pcre2-unicode require-git no-require-git unicode no-unicode null null-data one-file-system no-one-file-system only-matching passthru passthrough pcre2 no-pcre2 pcre2-version no-pre pretty quiet search-zip no-search-zip smart-case sort-files no-sort-files stats no-stats stop-on-nonmatch text no-text trim no-trim type-list unrestricted vimgrep with-filename word-regexp no-context-separator ${GNU}`,
    longWithValue:
      'after-context before-context color colors context context-separator dfa-size-limit encoding engine field-context-separator field-match-separator file glob iglob ignore-file max-columns max-count max-depth maxdepth max-filesize path-separator pre pre-glob regex-size-limit regexp replace sort sortr threads type type-add type-clear type-not hostname-bin hyperlink-format generate',
    operands: 'pattern, then files',
    patternFrom: 'e f regexp file files type-list pcre2-version',
    reads: 'f file ignore-file',
    runs: 'pre pre-glob hostname-bin z search-zip',
    followsLinks: 'L follow',
    followsLinksUnless: 'no-follow',
  },
  sed: {
    doc: 'GNU sed 4.9, sed --help and info sed: -f/--file reads the script from a file, the r and R commands read files, w and -i write, e runs commands',
    flags: 'nrEsuzb',
    withValue: 'efl',
    optionalValue: 'i',
    long: `quiet silent debug follow-symlinks posix regexp-extended separate sandbox unbuffered null-data zero-terminated binary ${GNU}`,
    longWithValue: 'expression file line-length',
    longOptionalValue: 'in-place',
    operands: 'pattern, then files',
    patternFrom: 'e f expression file',
    readsNamedInside: 'f file',
    writes: 'i in-place',
    judge: (line) => sedJudge(line),
  },
  jq: {
    doc: 'jq 1.6 and 1.7 manual, "Invoking jq" and "Modules": -f/--from-file reads the filter from a file; --slurpfile and --rawfile read a file; -L is a folder of modules; import, include and modulemeta in a filter read modules and JSON files',
    flags: 'cnesrjaCMSRhV0b',
    withValue: 'fL',
    long: `compact-output null-input exit-status slurp raw-output raw-output0 join-output ascii-output color-output monochrome-output sort-keys raw-input tab seq stream stream-errors unbuffered args jsonargs binary debug-dump-disasm debug-trace run-tests build-configuration ${GNU}`,
    longWithValue: 'indent from-file library-path',
    longWithTwoValues: 'arg argjson slurpfile rawfile',
    operands: 'pattern, then files',
    patternFrom: 'f from-file',
    reads: 'L library-path slurpfile rawfile',
    readsNamedInside: 'f from-file run-tests',
    judge: (line) => jqJudge(line),
  },
  echo: TEXT_ONLY('bash(1), SHELL BUILTIN COMMANDS: echo [-neE] [arg ...] prints its words'),
  true: TEXT_ONLY('bash(1): true does nothing'),
  false: TEXT_ONLY('bash(1): false does nothing'),
  ':': TEXT_ONLY('bash(1): : does nothing beyond expanding its arguments'),
  test: TEXT_ONLY('bash(1), test expr: an expression of operators and strings; -f FILE only asks whether a file is there'),
  '[': TEXT_ONLY('bash(1), [ expr ]: the same as test'),
  expr: TEXT_ONLY('GNU coreutils 9.1, expr --help: its words are an expression'),
  pwd: { doc: 'bash(1), pwd [-LP]; GNU coreutils 9.1, pwd --help', flags: 'LP', long: `logical physical ${GNU}`, operands: 'text' },
  type: { doc: 'bash(1), type [-aftpP] name ...', flags: 'aftpP', operands: 'text' },
  which: {
    doc: 'debianutils which [-as]; GNU which 2.21 --help: its operands are program names',
    flags: 'asvVinp',
    long: `all skip-dot skip-tilde show-dot show-tilde tty-only read-alias skip-alias read-functions skip-functions ${GNU}`,
    operands: 'text',
  },
  printf: { doc: 'bash(1), printf [-v var] format [arguments]: -v assigns a variable instead of printing', read: printfReading },
  env: { doc: 'GNU coreutils 9.1, env --help: with no command it prints the environment', read: envReading },
  command: { doc: 'bash(1), command [-pVv] command [arg ...]: -v and -V only describe', read: commandReading },
  cd: { doc: 'bash(1), cd [-L|[-P [-e]] [-@]] [dir]', read: cdReading },
  find: { doc: 'GNU findutils 4.9, find --help and find(1); the expression, read as find reads it (findReading.ts)', read: findReading },
  git: {
    doc: 'git 2.39 manual pages: the reading subcommands classifyGit.ts allows and the options each takes (gitReadOptions.ts); every option value counts as a path (customReadings.ts)',
    read: gitReading,
  },
};

/** The entry for a program by its base name, if it is on the read-only list. */
export function readOnlyProgram(name: string): ReadOnlyProgram | CustomProgram | undefined {
  return Object.hasOwn(TABLE, name) ? TABLE[name] : undefined;
}

/** Every program on the read-only list, for tests and documentation. */
export const READ_ONLY_PROGRAM_NAMES: readonly string[] = Object.keys(TABLE);

/** sed's script, from -e or the first operand: what it does, and the files its r and R commands read. */
function sedJudge(line: ScannedLine): Judgement | undefined {
  // A script read from a file cannot be judged from here: it may run commands (e), not only read.
  if (line.options.some((option) => option.name === 'f' || option.name === 'file')) return { class: UNKNOWN };
  const given = line.options.filter((option) => option.name === 'e' || option.name === 'expression');
  const scripts = given.length > 0 ? given.map((option) => option.word) : [line.operands[0]];
  if (scripts.some((word) => word === undefined || word.kind !== 'literal')) return { class: UNKNOWN };
  const effect = sedScriptEffect(scripts.map((word) => word!.text).join('\n'));
  if (effect.effect === 'writes') return { class: LOCAL };
  if (effect.effect !== 'reads') return { class: UNKNOWN };
  return { class: READS, reads: effect.reads.map((file) => ({ word: literalWord(file) })) };
}

/** jq's filter is a program: import, include and modulemeta read modules and JSON files it names. */
function jqJudge(line: ScannedLine): Judgement | undefined {
  const filter = line.options.some((option) => option.name === 'f' || option.name === 'from-file') ? undefined : line.operands[0];
  if (filter === undefined) return undefined;
  if (filter.kind !== 'literal')
    return { class: LOCAL, why: `jq's filter ${filter.source} is only known when it runs, and a filter can read files` };
  if (/\b(import|include|modulemeta)\b/.test(filter.text)) {
    return { class: LOCAL, why: "jq's filter reads modules or data files (import, include, modulemeta) the line does not name" };
  }
  return undefined;
}
