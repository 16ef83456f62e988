import { openStore, type Store } from '../../src/main/store/store';

/** A store in `dataDir` holding one new session over `workspace`, in that folder's project. */
export function storeWithSession(dataDir: string, workspace: string): { store: Store; sessionId: string } {
  const store = openStore(dataDir);
  const project = store.projects.ensure(workspace);
  const { id } = store.sessions.create({
    workspace,
    projectId: project.id,
    model: 'm',
    api: 'chat',
    baseUrl: 'http://127.0.0.1:9',
    maxSteps: 5,
  });
  return { store, sessionId: id };
}
