import { useAppStore } from '../../stores/useApp';
import { stepLabel } from './rewindSteps';

/** "Rewind to here" on a step: opens the dialog that says what the rewind would do. */
export function RewindHereButton({ sessionId, seq }: { sessionId: string; seq: number }) {
  const store = useAppStore();

  function handleClick() {
    const app = store.getState();
    const state = app.logs[sessionId]?.state;
    void app.openRewind(sessionId, seq, state ? stepLabel(state, seq) : 'this step');
  }

  return (
    <button
      type="button"
      className="ghost rewind-here"
      data-testid="rewind-here"
      data-seq={seq}
      title="Rewind the files and/or the conversation to right after this step"
      onClick={handleClick}
    >
      ⟲ Rewind to here
    </button>
  );
}
