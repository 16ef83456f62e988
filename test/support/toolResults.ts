import type { ScriptedRequestBody } from '../fixtures/scriptedModel';

/**
 * The tool results a model request carried, by call id, whichever API it used: what the model was
 * told, which is what a test of the loop must check.
 */
export function toolOutputs(body: ScriptedRequestBody): Map<string, string> {
  const outputs = new Map<string, string>();
  const input = Array.isArray(body.input) ? body.input : [];
  for (const item of input as Array<Record<string, unknown>>) {
    if (item.type === 'function_call_output') outputs.set(String(item.call_id), String(item.output));
  }
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (const message of messages as Array<Record<string, unknown>>) {
    if (message.role === 'tool') outputs.set(String(message.tool_call_id), String(message.content));
    // Anthropic: tool_result blocks inside user messages.
    if (message.role === 'user' && Array.isArray(message.content)) {
      for (const block of message.content as Array<Record<string, unknown>>) {
        if (block.type === 'tool_result') outputs.set(String(block.tool_use_id), String(block.content));
      }
    }
  }
  return outputs;
}

/** The text of every tool result in a request, in order. */
export function allToolOutputs(body: ScriptedRequestBody): string[] {
  return [...toolOutputs(body).values()];
}
