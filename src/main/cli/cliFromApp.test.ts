import { describe, expect, it } from 'vitest';
import { cliArgumentsOf, nodeModeEnv } from './cliFromApp';

describe('the app binary started as the command line', () => {
  it('hands everything after --cli to the CLI in a packaged app', () => {
    expect(cliArgumentsOf(['/opt/Tether/tether-app', '--cli', 'run', 'fix the test', '--cwd', '/src'], true)).toEqual([
      'run',
      'fix the test',
      '--cwd',
      '/src',
    ]);
    expect(cliArgumentsOf(['/tmp/.mount_Tether/tether-app', '--cli'], true)).toEqual([]);
  });

  it('skips the script path electron takes in development', () => {
    expect(cliArgumentsOf(['/x/electron', 'out/main/index.js', '--cli', 'sessions'], false)).toEqual(['sessions']);
  });

  it('opens the window otherwise, also when --cli comes later (it is then an argument of something else)', () => {
    expect(cliArgumentsOf(['/opt/Tether/tether-app'], true)).toBeUndefined();
    expect(cliArgumentsOf(['/opt/Tether/tether-app', '--no-sandbox', '--cli'], true)).toBeUndefined();
    expect(cliArgumentsOf(['/x/electron', '--cli', 'out/main/index.js'], false)).toBeUndefined();
  });

  it('runs the child in Node mode without dropping the environment', () => {
    expect(nodeModeEnv({ PATH: '/bin', ELECTRON_RUN_AS_NODE: '' })).toEqual({ PATH: '/bin', ELECTRON_RUN_AS_NODE: '1' });
  });
});
