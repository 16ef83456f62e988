/**
 * The app's binary started as the command line: `Tether.AppImage --cli run "…"` (an AppImage has no
 * launcher script a person can link onto the PATH). The Electron host hands these arguments to the
 * CLI, run by the same binary in Node mode, before anything of the window starts.
 */

export const CLI_FLAG = '--cli';

/**
 * The CLI's arguments when the app was started with `--cli` as its first argument, else undefined.
 * A packaged app's first argument is argv[1]; `electron <script>` in development puts the script there.
 */
export function cliArgumentsOf(argv: readonly string[], packaged: boolean): string[] | undefined {
  const first = packaged ? 1 : 2;
  return argv[first] === CLI_FLAG ? argv.slice(first + 1) : undefined;
}

/** The environment for the CLI child: Node mode, whatever the parent had. */
export function nodeModeEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, ELECTRON_RUN_AS_NODE: '1' };
}
