import { useEffect, useState } from 'react';
import type { ApprovalPreview } from '../../../../shared/contract';
import { RequestError } from '../../../../shared/requestError';
import { getApi } from '../../lib/api';
import type { EditOutcome } from './approvalEdit';

/** How long the person's typing must pause before their version is judged again. */
const PAUSE_MS = 200;

/**
 * What the answer would make of the person's version of the call, judged in main as they type it
 * (`approval:preview`: the same engine, rules and taint as the answer; nothing runs, nothing is
 * logged). `pending` while a judgement of the current draft is on its way; an answer for an older
 * draft is dropped, so what the request shows is always about what is in the box.
 */
export type DraftJudgement =
  { status: 'unchanged' } | { status: 'pending' } | { status: 'ready'; preview: ApprovalPreview } | { status: 'failed'; message: string };

export function useDraftJudgement(approvalId: string, outcome: EditOutcome): DraftJudgement {
  const args = outcome.kind === 'changed' ? outcome.args : undefined;
  const draft = args === undefined ? '' : JSON.stringify(args);
  const [judged, setJudged] = useState<{ draft: string; preview: DraftJudgement } | undefined>(undefined);

  useEffect(() => {
    if (args === undefined) return;
    let current = true;
    const timer = setTimeout(() => {
      getApi()
        .request('approval:preview', { approvalId, args })
        .then((preview) => current && setJudged({ draft, preview: { status: 'ready', preview } }))
        .catch(
          (error: unknown) =>
            current &&
            setJudged({
              draft,
              preview: {
                status: 'failed',
                message: `Your version could not be checked before you answer: ${RequestError.from(error).message}`,
              },
            }),
        );
    }, PAUSE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // `draft` is `args` as text: the request goes again only when the person's version changed.
  }, [approvalId, draft]);

  if (args === undefined) return { status: 'unchanged' };
  return judged?.draft === draft ? judged.preview : { status: 'pending' };
}
