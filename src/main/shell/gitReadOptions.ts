/**
 * The options git 2.39 documents for the subcommands classifyGit lets read unasked, by name: each
 * subcommand's OPTIONS in its manual page (git-log(1), git-blame(1) ...), the revision options of
 * git-rev-list(1) and the diff options of git-diff(1) that log, show, rev-list, stash list and reflog
 * share, and what `git <subcommand> --git-completion-helper` lists. Values are not described: every
 * value git is given counts as a path it may read (customReadings.ts), so only the names decide
 * whether an option is known. An option not here makes the line not read-only.
 */

const DIFF =
  'abbrev anchored binary break-rewrites check color color-moved color-moved-ws color-words compact-summary cumulative diff-algorithm diff-filter dirstat dirstat-by-file dst-prefix exit-code ext-diff find-copies find-copies-harder find-object find-renames follow full-index function-context histogram ignore-all-space ignore-blank-lines ignore-cr-at-eol ignore-matching-lines ignore-space-at-eol ignore-space-change ignore-submodules indent-heuristic inter-hunk-context irreversible-delete ita-invisible-in-index ita-visible-in-index line-prefix minimal name-only name-status no-abbrev no-color no-color-moved no-color-moved-ws no-compact-summary no-exit-code no-ext-diff no-find-copies-harder no-follow no-full-index no-function-context no-ignore-matching-lines no-indent-heuristic no-minimal no-patch no-prefix no-quiet no-relative no-rename-empty no-renames no-text no-textconv numstat output output-indicator-context output-indicator-new output-indicator-old patch patch-with-raw patch-with-stat patience pickaxe-all pickaxe-regex quiet raw relative rename-empty rotate-to shortstat skip-to src-prefix stat stat-count stat-graph-width stat-name-width stat-width submodule summary text textconv unified word-diff word-diff-regex ws-error-highlight';
const REVISIONS =
  'abbrev-commit after all all-match alternate-refs ancestry-path author author-date-order basic-regexp before bisect bisect-all bisect-vars boundary branches cherry cherry-mark cherry-pick children commit-header committer count date date-order dense disk-usage do-walk encoding exclude exclude-first-parent-only exclude-hidden exclude-promisor-objects expand-tabs extended-regexp filter filter-print-omitted filter-provided-objects first-parent fixed-strings format full-history glob graph grep grep-reflog header ignore-missing in-commit-order indexed-objects invert-grep left-only left-right max-age max-count max-parents merge merges min-age min-parents missing no-abbrev-commit no-commit-header no-expand-tabs no-filter no-max-parents no-merges no-min-parents no-object-names no-walk not object-names objects objects-edge objects-edge-aggressive oneline parents perl-regexp pretty progress reflog regexp-ignore-case relative-date remotes remove-empty reverse right-only show-linear-break show-pulls show-signature simplify-by-decoration simplify-merges since since-as-filter single-worktree skip sparse stdin tags timestamp topo-order unpacked until use-bitmap-index walk-reflogs';

/** git log's short options, which stash list, reflog show and rev-list take too (git-stash(1): "options applicable to git log"). */
const LOG_SHORT = 'BCDEFGILMOPRSUWXabcgilmnpqstuwz';

interface SubcommandOptions {
  /** Long options, space-separated, without dashes. */
  long?: string;
  /** Option groups it takes too. */
  uses?: readonly string[];
  /** Short option letters. */
  short: string;
}

const SUBCOMMANDS: Readonly<Record<string, SubcommandOptions>> = {
  status: {
    long: 'ahead-behind branch column find-renames ignore-submodules ignored long no-ahead-behind no-branch no-column no-ignore-submodules no-ignored no-long no-null no-porcelain no-renames no-short no-show-stash no-untracked-files no-verbose null porcelain renames short show-stash untracked-files verbose',
    short: 'bsuvz',
  },
  diff: { long: 'base cached merge-base no-index ours staged theirs', uses: [DIFF], short: '0123BCDGIMORSUWXablpsuwz' },
  log: {
    long: 'cc clear-decorations combined-all-paths decorate decorate-refs decorate-refs-exclude diff-merges full-diff log-size mailmap no-decorate no-decorate-refs no-decorate-refs-exclude no-diff-merges no-mailmap no-notes no-source no-standard-notes no-use-mailmap notes remerge-diff show-notes source standard-notes use-mailmap',
    uses: [REVISIONS, DIFF],
    short: LOG_SHORT,
  },
  show: {
    long: 'cc clear-decorations combined-all-paths decorate decorate-refs decorate-refs-exclude diff-merges no-decorate no-decorate-refs no-decorate-refs-exclude no-diff-merges no-mailmap no-notes no-source no-standard-notes no-use-mailmap notes remerge-diff show-notes source standard-notes use-mailmap',
    uses: [REVISIONS, DIFF],
    short: 'BCDGIMORSUWXabclmpqstuwz',
  },
  'rev-parse': {
    long: 'abbrev-ref absolute-git-dir after all before branches default disambiguate exclude exclude-hidden flags git-common-dir git-completion-helper git-dir git-path glob is-bare-repository is-inside-git-dir is-inside-work-tree is-shallow-repository keep-dashdash local-env-vars no-flags no-revs not parseopt path-format prefix quiet remotes resolve-git-dir revs-only shared-index-path short show-cdup show-object-format show-prefix show-superproject-working-tree show-toplevel since sq sq-quote stop-at-non-option stuck-long symbolic symbolic-full-name tags until verify',
    short: 'q',
  },
  'ls-files': {
    long: 'abbrev cached debug deduplicate deleted directory empty-directory eol error-unmatch exclude exclude-from exclude-per-directory exclude-standard format full-name ignored killed modified no-abbrev no-cached no-debug no-deduplicate no-deleted no-directory no-empty-directory no-eol no-error-unmatch no-exclude-per-directory no-ignored no-killed no-modified no-others no-recurse-submodules no-resolve-undo no-sparse no-stage no-unmerged no-with-tree others recurse-submodules resolve-undo sparse stage unmerged with-tree',
    short: 'Xcdfikmostuvxz',
  },
  'ls-tree': {
    long: 'abbrev format full-name full-tree long name-only name-status no-abbrev no-full-name no-full-tree object-only',
    short: 'dlrtz',
  },
  blame: {
    long: 'abbrev color-by-age color-lines contents date encoding first-parent ignore-rev ignore-revs-file incremental line-porcelain minimal no-abbrev no-color-by-age no-color-lines no-contents no-ignore-rev no-ignore-revs-file no-incremental no-line-porcelain no-minimal no-porcelain no-progress no-root no-score-debug no-show-email no-show-name no-show-number no-show-stats porcelain progress reverse root score-debug show-email show-name show-number show-stats',
    short: 'CLMSbcefhlnpstw',
  },
  grep: {
    long: 'after-context all-match and basic-regexp before-context break cached color column context count exclude-standard extended-regexp files-with-matches files-without-match fixed-strings full-name function-context heading ignore-case index invert-match line-number max-count max-depth name-only no-after-context no-all-match no-basic-regexp no-before-context no-break no-cached no-color no-column no-context no-count no-exclude-standard no-extended-regexp no-files-with-matches no-files-without-match no-fixed-strings no-full-name no-function-context no-heading no-ignore-case no-index no-invert-match no-line-number no-max-count no-name-only no-only-matching no-or no-perl-regexp no-quiet no-recurse-submodules no-recursive no-show-function no-text no-textconv no-threads no-untracked no-word-regexp not null only-matching open-files-in-pager or perl-regexp quiet recurse-submodules recursive show-function text textconv threads untracked word-regexp',
    short: 'ABCEFGHILOPWacefhilmnopqrvwz',
  },
  describe: {
    long: 'abbrev all always broken candidates contains debug dirty exact-match exclude first-parent long match no-abbrev no-all no-always no-broken no-candidates no-contains no-debug no-dirty no-exact-match no-exclude no-first-parent no-long no-match no-tags tags',
    short: '',
  },
  'rev-list': { uses: [REVISIONS, DIFF], short: `EFPgin${LOG_SHORT}` },
  'merge-base': { long: 'all fork-point independent is-ancestor no-all octopus', short: 'a' },
  shortlog: {
    long: 'email group no-committer no-email no-group no-numbered no-summary numbered summary',
    uses: [REVISIONS],
    short: 'EFPceginsw',
  },
  'show-ref': {
    long: 'abbrev dereference exclude-existing hash head heads no-abbrev no-dereference no-hash no-head no-heads no-quiet no-tags no-verify quiet tags verify',
    short: 'dqs',
  },
  'for-each-ref': {
    long: 'color contains count format ignore-case merged no-color no-contains no-count no-format no-ignore-case no-merged no-perl no-points-at no-python no-shell no-sort no-tcl perl points-at python shell sort tcl',
    short: '',
  },
  'count-objects': { long: 'human-readable no-human-readable no-verbose verbose', short: 'Hv' },
  'check-ignore': { long: 'index no-index no-non-matching no-quiet no-stdin no-verbose non-matching quiet stdin verbose', short: 'nqvz' },
  'name-rev': {
    long: 'all always annotate-stdin exclude name-only no-all no-always no-annotate-stdin no-exclude no-name-only no-refs no-stdin no-tags no-undefined refs stdin tags undefined',
    short: '',
  },
  'cat-file': {
    long: 'allow-unknown-type batch batch-all-objects batch-check batch-command buffer filters follow-symlinks mailmap no-allow-unknown-type no-buffer no-follow-symlinks no-mailmap no-path no-unordered no-use-mailmap path textconv unordered use-mailmap',
    short: 'epstz',
  },
  stash: {
    long: 'include-untracked index keep-index no-include-untracked no-keep-index only-untracked pathspec-file-nul pathspec-from-file staged',
    uses: [REVISIONS, DIFF],
    short: `Sakpqu${LOG_SHORT}`,
  },
  worktree: {
    long: 'checkout detach dry-run expire force guess-remote lock no-checkout no-guess-remote no-track porcelain quiet reason track verbose',
    short: 'Bbdfnqvz',
  },
  reflog: { long: 'dry-run expire expire-unreachable rewrite stale-fix updateref verbose', uses: [REVISIONS, DIFF], short: LOG_SHORT },
};

const known = new Map<string, { long: ReadonlySet<string>; short: string }>();
for (const [subcommand, options] of Object.entries(SUBCOMMANDS)) {
  const long = [options.long ?? '', ...(options.uses ?? [])].join(' ').split(' ').filter(Boolean);
  known.set(subcommand, { long: new Set(long), short: options.short });
}

/**
 * Whether `word` (an argument of `git <subcommand>` that starts with a dash) is an option git
 * documents for that subcommand: a long one as written, negated (`--no-x` for `--x` and back) or
 * abbreviated to a prefix of exactly one; a short one by its first letter (what follows may be its
 * value: `-n5`, `-Sfoo`); `-<number>` (log -5). Undefined for a subcommand not in the table.
 */
export function gitOptionKnown(subcommand: string, word: string): boolean | undefined {
  const options = known.get(subcommand);
  if (!options) return undefined;
  if (/^-\d+$/.test(word)) return true;
  if (!word.startsWith('--')) return options.short.includes(word[1] ?? '');
  const name = word.slice(2).split('=', 1)[0]!;
  if (options.long.has(name) || options.long.has(`no-${name}`) || (name.startsWith('no-') && options.long.has(name.slice(3)))) return true;
  let matches = 0;
  for (const long of options.long) if (long.startsWith(name)) matches++;
  return name.length > 0 && matches === 1;
}
