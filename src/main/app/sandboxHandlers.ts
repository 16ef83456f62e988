import os from 'node:os';
import type { Handlers } from '../../shared/contract';
import type { SandboxFence, SandboxView } from '../../shared/sandbox';
import { RequestError } from '../../shared/requestError';
import type { Store } from '../store/store';
import { checkSandboxAvailability } from '../sandbox/availability';
import { builtInFence } from '../sandbox/fence';
import { projectFence, readSandboxSettings, writeSandboxSettings } from '../sandbox/fenceSettings';
import { LIT_HOME_FOLDERS, litEntryRefusal } from '../sandbox/litHomeFolders';
import { PACKAGE_REGISTRIES } from '../sandbox/packageRegistries';
import { projectCachesDir } from '../sandbox/toolchainCaches';

type SandboxHandlers = Pick<Handlers, 'sandbox:get' | 'sandbox:update'>;

/** The settings screen's view of the sandbox for a project, and its edits (kept in the data folder). */
export function createSandboxHandlers(options: { dataDir: string; store: Store; home?: string }): SandboxHandlers {
  const { dataDir, store } = options;
  const home = options.home ?? os.homedir();
  const projectPath = (projectId: string): string => {
    const project = store.projects.get(projectId);
    if (!project) throw new RequestError('not_found', `There is no project ${projectId}; open its folder first.`);
    return project.path;
  };
  const view = (folder: string): SandboxView => {
    const settings = readSandboxSettings(dataDir);
    const availability = checkSandboxAvailability();
    const builtIn = builtInFence({ workspace: folder, dataDir });
    return {
      available: availability.available,
      ...(availability.available ? {} : { reason: availability.reason }),
      unavailable: settings.unavailable,
      builtIn: {
        allowWrite: builtIn.allowWrite,
        denyWrite: builtIn.denyWrite,
        denyRead: readable(builtIn.denyRead, folder),
        caches: projectCachesDir(dataDir, folder),
        litHome: LIT_HOME_FOLDERS.map((entry) => ({ path: `~/${entry.path}`, why: entry.why })),
      },
      registries: PACKAGE_REGISTRIES.map(({ ecosystem, domains }) => ({ ecosystem, domains: [...domains] })),
      fence: projectFence(settings, folder),
    };
  };
  return {
    'sandbox:get': async ({ projectId }) => view(projectPath(projectId)),
    'sandbox:update': async ({ projectId, fence, unavailable }) => {
      const folder = projectPath(projectId);
      // What the person lights must be in the home folder, not all of it, and hold no known secret.
      for (const entry of fence?.litHome ?? []) {
        const refusal = litEntryRefusal(entry.trim(), home);
        if (refusal) throw new RequestError('invalid_input', `Not lit: ${refusal}`);
      }
      const settings = readSandboxSettings(dataDir);
      writeSandboxSettings(dataDir, {
        unavailable: unavailable ?? settings.unavailable,
        projects: fence ? { ...settings.projects, [folder]: tidy(fence) } : settings.projects,
      });
      return view(folder);
    },
  };
}

/** The `.env*` globs at each depth, as one line a person reads at a glance. */
function readable(denyRead: string[], folder: string): string[] {
  const globs = denyRead.filter((entry) => entry.includes('*'));
  if (globs.length === 0) return denyRead;
  return [...denyRead.filter((entry) => !entry.includes('*')), `${folder}/**/.env* (up to ${globs.length - 1} folders down)`];
}

/** Entries as the person typed them, without blanks or repeats. */
function tidy(fence: SandboxFence): SandboxFence {
  const clean = (list: string[]) => [...new Set(list.map((entry) => entry.trim()).filter(Boolean))];
  return {
    allowWrite: clean(fence.allowWrite),
    denyWrite: clean(fence.denyWrite),
    denyRead: clean(fence.denyRead),
    allowedDomains: clean(fence.allowedDomains),
    packageRegistries: fence.packageRegistries,
    ...(fence.litHome && fence.litHome.length > 0 ? { litHome: clean(fence.litHome) } : {}),
  };
}
