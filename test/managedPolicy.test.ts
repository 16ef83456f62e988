import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { explain } from '../src/main/cli/permissionsCommand';
import { headlessRun } from '../src/main/cli/headlessRun';
import { sessionHookConfig } from '../src/main/hooks/sessionHookConfig';
import { sessionMcpServers } from '../src/main/mcp/loadMcpServers';
import { sessionRuleSet } from '../src/main/permissions/sessionRules';
import { initShellParser } from '../src/main/shell/parser';
import {
  managedPolicyPath,
  choosePolicyFile,
  ManagedPolicyError,
  modelBaseUrlAllowed,
  outsideContentWithFloor,
  policyRefusal,
  readManagedPolicy,
} from '../src/main/settings/managedPolicy';
import { removeTempDirs, tempDir } from './support/tempDirs';

beforeAll(() => initShellParser());
afterEach(() => {
  vi.unstubAllEnvs();
  removeTempDirs();
});

/** Writes a policy file in a temp folder and names it through TETHER_MANAGED_SETTINGS. */
function usePolicy(policy: unknown): string {
  const file = path.join(tempDir(), 'managed-settings.json');
  writeFileSync(file, typeof policy === 'string' ? policy : JSON.stringify(policy));
  vi.stubEnv('TETHER_MANAGED_SETTINGS', file);
  return file;
}

/** A person whose own settings allow `rules`, and a folder to explain calls in. */
function personAllowing(allow: string[]): { dataDir: string; workspace: string } {
  const dataDir = tempDir();
  writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify({ permissions: { allow } }));
  return { dataDir, workspace: tempDir() };
}

function explainCommand(source: { dataDir: string; workspace: string }, command: string, mode: 'ask' | 'unleashed' = 'ask') {
  const { rules, projectTrusted } = sessionRuleSet(source);
  return explain({ tool: 'run_command', args: { command }, mode, tainted: false, workspaceRoot: source.workspace, rules, projectTrusted });
}

describe('where the managed policy is', () => {
  it('is the platform’s system-wide file unless TETHER_MANAGED_SETTINGS names another', () => {
    expect(managedPolicyPath({}, 'linux')).toBe('/etc/tether/managed-settings.json');
    expect(managedPolicyPath({}, 'darwin')).toBe('/Library/Application Support/Tether/managed-settings.json');
    expect(managedPolicyPath({ ProgramData: 'D:\\PD' }, 'win32')).toBe('D:\\PD\\Tether\\managed-settings.json');
    expect(managedPolicyPath({ TETHER_MANAGED_SETTINGS: '/srv/policy.json' }, 'linux')).toBe('/srv/policy.json');
  });

  it('never lets TETHER_MANAGED_SETTINGS stand in for a system-wide file that exists (an .envrc could point it at {})', () => {
    const dir = tempDir();
    const system = path.join(dir, 'etc', 'managed-settings.json');
    const named = path.join(dir, 'empty.json');
    writeFileSync(named, '{}');
    // No system file: the named one is the policy.
    expect(choosePolicyFile(system, named)).toBe(named);
    mkdirSync(path.dirname(system));
    writeFileSync(system, JSON.stringify({ permissions: { deny: ['run_command(curl *)'] } }));
    expect(choosePolicyFile(system, named)).toBe(system);
    expect(choosePolicyFile(system, undefined)).toBe(system);
    // Only an administrator can put anything at the system place: even a dangling link there wins over the variable.
    rmSync(system);
    symlinkSync(path.join(dir, 'nowhere.json'), system);
    expect(choosePolicyFile(system, named)).toBe(system);
  });

  it('is no policy when the system-wide file is missing', () => {
    expect(readManagedPolicy(path.join(tempDir(), 'absent.json'))).toBeUndefined();
  });
});

describe('a managed policy that cannot be used fails closed', () => {
  const bad: Array<[string, unknown, RegExp]> = [
    ['not JSON', '{"permissions": ', /is not valid JSON/],
    ['an unknown key (a typo must not drop a switch)', { disableUnleashd: true }, /unknown key\(s\) "disableUnleashd"/],
    ['a switch of the wrong type', { disableUnleashed: 'yes' }, /disableUnleashed/],
    ['an unknown permission list', { permissions: { denny: ['run_command(rm *)'] } }, /permissions/],
    ['a URL that is not one', { allowedModelBaseUrls: ['not a url'] }, /allowedModelBaseUrls/],
    ['an unknown outsideContent', { outsideContent: 'sometimes' }, /outsideContent/],
    ['an array at the top', [], /top level/],
  ];
  for (const [what, policy, problem] of bad) {
    it(`refuses ${what}, naming the file`, () => {
      const file = usePolicy(policy);
      expect(() => readManagedPolicy()).toThrow(ManagedPolicyError);
      expect(() => readManagedPolicy()).toThrow(problem);
      expect(() => readManagedPolicy()).toThrow(file);
      // And so does every session's rule set: nothing runs under a policy nobody can read.
      expect(() => sessionRuleSet(personAllowing([]))).toThrow(file);
    });
  }

  it('refuses a rule it cannot read, and a file named by TETHER_MANAGED_SETTINGS that is not there', () => {
    const file = usePolicy({ permissions: { deny: ['run_command(rm *'] } });
    expect(() => sessionRuleSet(personAllowing([]))).toThrow(file);
    const missing = path.join(tempDir(), 'typo.json');
    vi.stubEnv('TETHER_MANAGED_SETTINGS', missing);
    expect(() => readManagedPolicy()).toThrow(`${missing} (named by TETHER_MANAGED_SETTINGS) does not exist`);
    const folder = tempDir();
    vi.stubEnv('TETHER_MANAGED_SETTINGS', folder);
    expect(() => readManagedPolicy()).toThrow(/cannot be read/);
  });
});

describe('the managed policy’s rules', () => {
  it('deny what the person’s settings allow, and explain names the policy', () => {
    usePolicy({ permissions: { deny: ['run_command(rm *)'] } });
    const result = explainCommand(personAllowing(['run_command(rm *)', 'run_command']), 'rm -rf build');
    expect(result).toMatchObject({ decision: 'deny', rule: 'run_command(rm *)', source: 'managed' });
    expect(result.reason).toContain('managed policy');
  });

  it('ask where the person’s settings allow, and unleashed mode does not answer them', () => {
    usePolicy({ permissions: { ask: ['run_command(git push *)'] } });
    const result = explainCommand(personAllowing(['run_command(git push *)']), 'git push origin main');
    expect(result).toMatchObject({ decision: 'ask', rule: 'run_command(git push *)', source: 'managed' });
    expect(result.reason).toContain('managed policy');
    expect(explainCommand(personAllowing([]), 'git push origin main', 'unleashed')).toMatchObject({ decision: 'ask', source: 'managed' });
    // A person's own ask rule is answered by unleashed mode: only the policy's holds.
    vi.stubEnv('TETHER_MANAGED_SETTINGS', '');
    const own = personAllowing([]);
    writeFileSync(path.join(own.dataDir, 'settings.json'), JSON.stringify({ permissions: { ask: ['run_command(git push *)'] } }));
    expect(explainCommand(own, 'git push origin main', 'unleashed')).toMatchObject({ decision: 'allow' });
  });

  it('allow what they allow', () => {
    usePolicy({ permissions: { allow: ['run_command(make *)'] } });
    expect(explainCommand(personAllowing([]), 'make build')).toMatchObject({ decision: 'allow', source: 'managed' });
  });

  it('are not there without a policy (the test would pass for the wrong reason otherwise)', () => {
    vi.stubEnv('TETHER_MANAGED_SETTINGS', '');
    expect(explainCommand(personAllowing(['run_command(rm *)']), 'rm -rf build')).toMatchObject({ decision: 'allow', source: 'user' });
  });
});

describe('the managed policy’s switches', () => {
  const file = '/etc/tether/managed-settings.json';
  const run = { unleashed: false, noSandbox: false, baseUrl: 'https://api.openai.com/v1' };

  it('refuse --unleashed and --no-sandbox, naming the policy file', () => {
    expect(policyRefusal({ file, disableUnleashed: true }, { ...run, unleashed: true })).toBe(
      `--unleashed is turned off by the managed policy ${file} (disableUnleashed).`,
    );
    expect(policyRefusal({ file, disableNoSandbox: true }, { ...run, noSandbox: true })).toContain(`${file} (disableNoSandbox)`);
    expect(policyRefusal({ file, requireSandbox: true }, { ...run, noSandbox: true })).toContain(`${file} (requireSandbox)`);
    expect(policyRefusal({ file, disableUnleashed: true }, run)).toBeUndefined();
    expect(policyRefusal({ file }, { ...run, unleashed: true, noSandbox: true })).toBeUndefined();
    expect(policyRefusal(undefined, { ...run, unleashed: true })).toBeUndefined();
  });

  it('allow only the model servers listed, by whole path segments', () => {
    const policy = { file, allowedModelBaseUrls: ['https://api.openai.com/v1', 'https://llm.corp.example/'] };
    for (const ok of [
      'https://api.openai.com/v1',
      'https://api.openai.com/v1/',
      'https://llm.corp.example',
      'https://llm.corp.example/x/v1',
    ]) {
      expect(modelBaseUrlAllowed(policy, ok), ok).toBe(true);
    }
    for (const bad of [
      'https://api.openai.com/v10',
      'https://api.openai.com.evil.example/v1',
      'https://api.openai.com@evil.example/v1',
      'http://api.openai.com/v1',
      'https://llm.corp.example.evil',
      'https://api.anthropic.com',
    ]) {
      expect(modelBaseUrlAllowed(policy, bad), bad).toBe(false);
    }
    expect(policyRefusal(policy, { ...run, baseUrl: 'https://api.anthropic.com' })).toContain(`not allowed by the managed policy ${file}`);
  });

  it('raise outsideContent to its floor, never lower it', () => {
    expect(outsideContentWithFloor({ file, outsideContent: 'ask' }, 'off')).toBe('ask');
    expect(outsideContentWithFloor({ file, outsideContent: 'block' }, 'ask')).toBe('block');
    expect(outsideContentWithFloor({ file, outsideContent: 'ask' }, 'block')).toBe('block');
    expect(outsideContentWithFloor({ file }, 'off')).toBe('off');
    expect(outsideContentWithFloor(undefined, 'off')).toBe('off');
  });

  it('start only the MCP servers it lists; the others are listed with why', () => {
    const policyFile = usePolicy({ allowedMcpServers: ['github'] });
    const spec = (name: string) => ({
      id: `cli:${name}`,
      name,
      source: 'cli' as const,
      file: 'mcp.json',
      config: { command: 'x', args: [] },
    });
    const servers = sessionMcpServers({
      dataDir: tempDir(),
      workspace: tempDir(),
      projectTrusted: true,
      extra: [spec('github'), spec('evil')],
    });
    expect(servers.find((s) => s.name === 'github')?.problem).toBeUndefined();
    expect(servers.find((s) => s.name === 'evil')?.problem).toContain(
      `the managed policy ${policyFile} allows only the MCP servers github`,
    );
  });

  it('refuse tether run --unleashed before any session is made', async () => {
    const policyFile = usePolicy({ disableUnleashed: true, disableNoSandbox: true });
    vi.stubEnv('TETHER_API_KEY', 'test-key');
    const dataDir = path.join(tempDir(), 'home');
    mkdirSync(dataDir);
    await expect(headlessRun(['--unleashed', '--data-dir', dataDir, 'do it'])).rejects.toThrow(
      `--unleashed is turned off by the managed policy ${policyFile}`,
    );
    await expect(headlessRun(['--no-sandbox', '--data-dir', dataDir, 'do it'])).rejects.toThrow('(disableNoSandbox)');
    expect(existsSync(path.join(dataDir, 'tether.db'))).toBe(false);
  });

  it('adds its hooks before the person’s and the project’s, and a bad one fails closed', () => {
    const policyFile = usePolicy({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/opt/guard.sh', timeout: 5 }] }] },
    });
    const dataDir = tempDir();
    writeFileSync(
      path.join(dataDir, 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'mine.sh' }] }] } }),
    );
    expect(sessionHookConfig(dataDir, tempDir()).map((hook) => [hook.source, hook.command, hook.matcher ?? null])).toEqual([
      ['managed', '/opt/guard.sh', 'Bash'],
      ['user', 'mine.sh', null],
    ]);
    const bad = usePolicy({ hooks: { PreToolUse: [{ matcher: '(', hooks: [] }] } });
    expect(bad).not.toBe(policyFile);
    expect(() => sessionHookConfig(dataDir, tempDir())).toThrow(bad);
  });
});
