import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeServices, openServices } from './support/appServices';
import { fixtureRepo, removeTempDirs, tempDir } from './support/tempDirs';

// Settings through the contract, under a managed policy named by TETHER_MANAGED_SETTINGS: what it
// fixes is in the view, and a change it forbids is refused with a message naming it.

afterEach(async () => {
  vi.unstubAllEnvs();
  await closeServices();
  removeTempDirs();
});

function usePolicy(policy: unknown): string {
  const file = path.join(tempDir(), 'managed-settings.json');
  writeFileSync(file, typeof policy === 'string' ? policy : JSON.stringify(policy));
  vi.stubEnv('TETHER_MANAGED_SETTINGS', file);
  return file;
}

describe('Settings under a managed policy', () => {
  it('shows what the policy fixes and its floor for outside content', async () => {
    const file = usePolicy({
      permissions: { deny: ['run_command(rm *)'] },
      disableUnleashed: true,
      outsideContent: 'block',
      allowedMcpServers: ['github'],
    });
    const { handlers } = await openServices({ dataDir: tempDir() });
    const view = await handlers['settings:get']({});
    // The person's own choice (ask, the default) is below the floor: the view shows what applies.
    expect(view.outsideContent).toBe('block');
    expect(view.managedPolicy).toEqual({
      file,
      fixes: [
        'deny rules that always apply: run_command(rm *)',
        'unleashed runs (--unleashed) are turned off',
        'after reading outside content: at least "block"',
        'MCP servers allowed: github',
      ],
      outsideContentFloor: 'block',
      unleashedDisabled: true,
    });
  });

  it('refuses a setting below the floor and a model server it does not list, and keeps the rest', async () => {
    const file = usePolicy({ outsideContent: 'ask', allowedModelBaseUrls: ['https://llm.corp.example/v1'] });
    const { handlers } = await openServices({ dataDir: tempDir() });
    await expect(handlers['settings:update']({ outsideContent: 'off' })).rejects.toThrow(`The managed policy ${file} sets at least "ask"`);
    await expect(handlers['settings:update']({ baseUrl: 'https://api.openai.com/v1' })).rejects.toThrow(
      `is not allowed by the managed policy ${file}`,
    );
    expect(await handlers['settings:update']({ outsideContent: 'block', maxSteps: 7 })).toMatchObject({
      outsideContent: 'block',
      maxSteps: 7,
    });
    expect(await handlers['settings:update']({ baseUrl: 'https://llm.corp.example/v1' })).toMatchObject({
      baseUrl: 'https://llm.corp.example/v1',
    });
  });

  it('says why nothing runs when the policy cannot be read, instead of failing to open Settings', async () => {
    const file = usePolicy('{"disableUnleashed": tru');
    const { handlers } = await openServices({ dataDir: tempDir() });
    const view = await handlers['settings:get']({});
    expect(view.managedPolicy).toMatchObject({ file, fixes: [] });
    expect(view.managedPolicy?.problem).toContain('is not valid JSON');
  });

  it('has no policy in the view when there is none', async () => {
    vi.stubEnv('TETHER_MANAGED_SETTINGS', '');
    const { handlers } = await openServices({ dataDir: tempDir() });
    expect((await handlers['settings:get']({})).managedPolicy).toBeUndefined();
  });

  it('refuses to switch a session to unleashed when the policy turns it off, and allows the other modes', async () => {
    const file = usePolicy({ disableUnleashed: true });
    const app = await openServices({ dataDir: tempDir(), turns: [{ text: 'Nothing to do.' }] });
    const { sessionId } = await app.handlers['session:start']({ workspace: fixtureRepo('failing-test'), task: 'look' });
    await app.waitForEvent('session.finished');
    await expect(app.handlers['session:setMode']({ sessionId, mode: 'unleashed' })).rejects.toThrow(
      `--unleashed is turned off by the managed policy ${file} (disableUnleashed).`,
    );
    expect((await app.handlers['session:setMode']({ sessionId, mode: 'auto-edit' })).mode).toBe('auto-edit');
  });
});
