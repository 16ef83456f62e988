import { useCallback, useMemo } from 'react';
import { getApi } from '../../lib/api';
import { useApp, useAppStore } from '../../stores/useApp';
import { isActive } from '../../stores/selectors';
import { Icon } from '../../ui/Icon';
import { TaskBox, type TaskDraft } from './TaskBox';

/** The task box of a running or finished session: messages are queued for the agent's next turn. */
export function SessionTaskBox({ sessionId }: { sessionId: string }) {
  const status = useApp((state) => state.logs[sessionId]?.state.status ?? state.sessions[sessionId]?.status ?? 'new');
  const sendMessage = useApp((state) => state.sendMessage);
  const stopSession = useApp((state) => state.stopSession);
  const active = isActive(status);
  const mentions = useCallback((query: string) => getApi().request('workspace:files', { sessionId, query }), [sessionId]);
  // The text outlives the box: kept while another session shows, with a message refused meanwhile.
  const store = useAppStore();
  const text = useApp((state) => state.taskDrafts[sessionId] ?? '');
  const setTaskDraft = useApp((state) => state.setTaskDraft);
  const draft = useMemo<TaskDraft>(
    () => ({ text, read: () => store.getState().taskDrafts[sessionId] ?? '', set: (next) => setTaskDraft(sessionId, next) }),
    [text, store, sessionId, setTaskDraft],
  );

  function handleSubmit(text: string) {
    return sendMessage(sessionId, text);
  }
  function handleStop() {
    void stopSession(sessionId);
  }

  return (
    <TaskBox
      placeholder={
        active
          ? 'Message the agent; it reads it on its next turn (Enter sends, Shift+Enter new line)'
          : 'Continue this session (Enter sends, Shift+Enter new line)'
      }
      submitLabel={active ? 'Queue' : 'Send'}
      onSubmit={handleSubmit}
      mentions={mentions}
      draft={draft}
    >
      {active && (
        <button type="button" className="danger" data-testid="session-stop" onClick={handleStop} title="Stop the agent now">
          <Icon name="stop" size={12} />
          <span>Stop</span>
        </button>
      )}
    </TaskBox>
  );
}
