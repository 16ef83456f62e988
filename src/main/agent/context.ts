import type { ConversationItem, UserItem } from '../../shared/conversation';
import type { InstructionFile } from '../../shared/events';
import type { CompactionView } from '../../shared/conversationState';
import type { HookNote, SessionState } from '../../shared/session';
import compactedContext from './prompts/compactedContext.txt?raw';
import instructionsFound from './prompts/instructionsFound.txt?raw';
import projectInstructions from './prompts/projectInstructions.txt?raw';
import systemPrompt from './prompts/system.txt?raw';
import { revertNotes } from './revertNotes';
import { rewindNotes } from './rewindNotes';
import { trimMiddle } from './trim';
import { fillTemplate } from './fillTemplate';

/** What goes to the model each turn: the system prompt and the conversation, tool outputs trimmed. */

export interface ContextOptions {
  /** The most characters of one tool output the model sees. */
  maxToolOutputChars: number;
}

export const defaultContextOptions: ContextOptions = { maxToolOutputChars: 24_000 };

/**
 * The system prompt. `files` are the workspace root's instruction files as the session's log holds
 * them (read once, at its first run), so the prompt is the same bytes for the session's whole life.
 */
export function buildInstructions(workspace: string, now: Date = new Date(), files: readonly InstructionFile[] = []): string {
  // The date, not the time: the prompt prefix must stay byte-identical across turns for caching.
  const base = fillTemplate(systemPrompt, {
    workspace,
    platform: `${process.platform} (${process.arch})`,
    date: now.toISOString().slice(0, 10),
  }).trimEnd();
  if (files.length === 0) return base;
  return `${base}\n\n${fillTemplate(projectInstructions.trim(), { files: instructionBlocks(files) })}`;
}

function instructionBlocks(files: readonly InstructionFile[]): string {
  return files.map((file) => `<instructions path="${file.path}">\n${file.text.trimEnd()}\n</instructions>`).join('\n\n');
}

/** Instruction files found later, as the message the model gets where they were found. */
/** A session hook's note, said to be one: it is a configured command speaking, not the person. */
function hookMessage(note: HookNote): string {
  return note.hookEvent === 'Stop'
    ? `A Stop hook configured in settings asks you to go on: ${note.text}`
    : `A ${note.hookEvent} hook configured in settings adds:\n${note.text}`;
}

export function instructionsMessage(files: readonly InstructionFile[]): UserItem {
  return { type: 'user', text: fillTemplate(instructionsFound.trim(), { files: instructionBlocks(files) }) };
}

/** A compaction's summary as the model gets it, with the files touched and the plan as they were then. */
export function compactionMessage(compaction: Pick<CompactionView, 'summary' | 'files' | 'plan'>): UserItem {
  const files =
    compaction.files.length > 0 ? compaction.files.map((file) => `- ${file.path}${file.edited ? ' (changed)' : ''}`).join('\n') : '(none)';
  const plan = compaction.plan.length > 0 ? compaction.plan.map((step) => `- [${step.status}] ${step.step}`).join('\n') : '(no plan)';
  // One pass, so a summary that happens to contain "{{files}}" is left as it is.
  return { type: 'user', text: fillTemplate(compactedContext.trim(), { summary: compaction.summary.trim(), files, plan }) };
}

/**
 * The conversation as the model should see it. Every tool call gets exactly one result right after
 * the response that asked for it: APIs refuse a call without a result, and the log may hold results in
 * the order they finished.
 *
 * After a compaction the model gets the task, the last compaction's summary and every instruction
 * file found before it, then the items from the compaction's `keptFromItem` on; results of calls
 * that were summarised are left out with them.
 */
export function buildModelItems(state: SessionState, options: ContextOptions = defaultContextOptions): ConversationItem[] {
  const results = new Map<string, ConversationItem>();
  for (const item of state.items) {
    if (item.type === 'tool_result') {
      results.set(item.callId, { ...item, output: trimMiddle(item.output, { maxChars: options.maxToolOutputChars }) });
    }
  }
  const out: ConversationItem[] = [];
  const compaction = state.compactions.at(-1);
  const start = compaction?.keptFromItem ?? 0;
  if (compaction) {
    const taskIndex = state.items.findIndex((item) => item.type === 'user');
    if (taskIndex >= 0 && taskIndex < start) out.push(state.items[taskIndex]!);
    out.push(compactionMessage(compaction));
    for (const note of state.instructions.notes) if (note.atItem < start) out.push(instructionsMessage(note.files));
  }
  let owed: string[] = [];
  const payDebts = () => {
    for (const callId of owed) {
      out.push(results.get(callId) ?? { type: 'tool_result', callId, output: 'No result was recorded for this call.', isError: true });
    }
    owed = [];
  };
  // What the person reverted in the live diff goes where it happened, before the item that followed.
  const reverted = revertNotes(state);
  const tellReverts = (index: number) => {
    const note = reverted.get(index);
    if (!note) return;
    payDebts();
    out.push(note);
  };
  // What a rewind changed behind the model's back (files under a kept conversation, or the reverse).
  const rewound = rewindNotes(state);
  const tellRewinds = (index: number) => {
    const note = rewound.get(index);
    if (!note) return;
    payDebts();
    out.push(note);
  };
  const found = new Map<number, InstructionFile[]>();
  for (const note of state.instructions.notes)
    if (note.atItem >= start) found.set(note.atItem, [...(found.get(note.atItem) ?? []), ...note.files]);
  const tellInstructions = (index: number) => {
    const files = found.get(index);
    if (!files) return;
    payDebts();
    out.push(instructionsMessage(files));
  };
  // What session hooks said (SessionStart, UserPromptSubmit, Stop), where they said it; a compaction's summary covers the older ones.
  const hooksSaid = new Map<number, string[]>();
  for (const note of state.hookNotes)
    if (note.atItem >= start) hooksSaid.set(note.atItem, [...(hooksSaid.get(note.atItem) ?? []), hookMessage(note)]);
  const tellHooks = (index: number) => {
    const texts = hooksSaid.get(index);
    if (!texts) return;
    payDebts();
    for (const text of texts) out.push({ type: 'user', text });
  };
  for (const [index, item] of state.items.entries()) {
    if (index < start) continue;
    tellReverts(index);
    tellRewinds(index);
    tellInstructions(index);
    tellHooks(index);
    if (item.type === 'tool_result') continue;
    if (item.type === 'tool_call') {
      // A call logged after a result belongs to the next response: the previous response's results
      // go first, or two tool-only responses would be sent back as one (and the cached prefix change).
      if (state.items[index - 1]?.type === 'tool_result') payDebts();
      out.push(item);
      owed.push(item.callId);
      continue;
    }
    payDebts();
    out.push(item);
  }
  payDebts();
  tellReverts(state.items.length);
  tellRewinds(state.items.length);
  tellInstructions(state.items.length);
  tellHooks(state.items.length);
  return out;
}
