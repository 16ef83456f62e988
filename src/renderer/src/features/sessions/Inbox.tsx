import { useState } from 'react';
import { useApp } from '../../stores/useApp';
import { Icon } from '../../ui/Icon';
import { InboxItem } from './InboxItem';

/** Every approval waiting across sessions and projects, oldest first, so nothing waits unseen. */
export function Inbox() {
  const inbox = useApp((state) => state.inbox);
  const [open, setOpen] = useState(true);
  const count = inbox.length;

  return (
    <section
      className={`inbox${count > 0 ? ' has-items' : ''}`}
      aria-label="Inbox: approvals waiting for you"
      data-testid="inbox"
      data-count={count}
    >
      <button type="button" className="ghost inbox-header" aria-expanded={open} onClick={() => setOpen((value) => !value)}>
        <Icon name="inbox" />
        <span>Inbox</span>
        {count > 0 ? (
          <span className="badge count" data-testid="inbox-count">
            {count}
          </span>
        ) : (
          <span className="faint">nothing waiting</span>
        )}
      </button>
      {open && count > 0 && (
        <ol className="inbox-list">
          {inbox.map((entry) => (
            <InboxItem key={entry.approvalId} entry={entry} />
          ))}
        </ol>
      )}
    </section>
  );
}
