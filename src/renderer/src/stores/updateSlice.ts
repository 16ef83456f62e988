import type { UpdateView } from '../../../shared/contract';
import type { GetState, SetState, StoreDeps } from './appState';
import { errorMessage } from '../lib/errorMessage';

/** The desktop app's update, kept current by `app:updateChanged`; "Restart to update" asks the core. */
export interface UpdateSlice {
  update: UpdateView;
  restartingToUpdate: boolean;
  loadUpdate(): Promise<void>;
  updateChanged(view: UpdateView): void;
  restartToUpdate(): Promise<void>;
}

export function createUpdateSlice(deps: StoreDeps, set: SetState, get: GetState): UpdateSlice {
  const { api } = deps;
  return {
    update: { state: 'unavailable' },
    restartingToUpdate: false,

    async loadUpdate() {
      try {
        set({ update: await api.request('app:update', {}) });
      } catch {
        // A host without updates: nothing to show.
      }
    },

    updateChanged(view) {
      set({ update: view });
    },

    async restartToUpdate() {
      set({ restartingToUpdate: true });
      try {
        const answer = await api.request('app:restartToUpdate', {});
        if (!answer.restarted) {
          get().notify(answer.reason ?? 'The update was not installed.');
          await get().loadUpdate();
        }
      } catch (error) {
        get().notify(`Could not restart to update: ${errorMessage(error)}`);
      } finally {
        set({ restartingToUpdate: false });
      }
    },
  };
}
