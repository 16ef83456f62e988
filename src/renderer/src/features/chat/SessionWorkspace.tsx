import { useApp } from '../../stores/useApp';
import { SessionHeader } from './SessionHeader';
import { Conversation } from './Conversation';
import { SessionTaskBox } from './SessionTaskBox';
import { PlanPanel } from '../plan/PlanPanel';
import { DiffPanel } from '../diff/DiffPanel';
import { TerminalPanel } from '../terminal/TerminalPanel';

/** The selected session: conversation in the centre, plan and live diff on the right, terminal below. */
export function SessionWorkspace({ sessionId }: { sessionId: string }) {
  const terminalOpen = useApp((state) => state.terminalOpen);
  return (
    <main className={`workspace${terminalOpen ? ' with-terminal' : ''}`} data-testid="session-view" data-session-id={sessionId}>
      <section className="centre" aria-label="Conversation">
        <SessionHeader sessionId={sessionId} />
        <Conversation sessionId={sessionId} />
        <SessionTaskBox sessionId={sessionId} />
      </section>
      <aside className="right" aria-label="Plan and changes">
        <PlanPanel sessionId={sessionId} />
        <DiffPanel sessionId={sessionId} />
      </aside>
      <TerminalPanel sessionId={sessionId} />
    </main>
  );
}
