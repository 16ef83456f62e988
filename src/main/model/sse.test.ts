import { describe, expect, it } from 'vitest';
import { parseServerSentEvents, readServerSentEvents, SseDecoder } from './sse';

async function* bytes(chunks: string[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield new TextEncoder().encode(chunk);
}

async function all(chunks: string[]) {
  const events = [];
  for await (const event of readServerSentEvents(bytes(chunks))) events.push(event);
  return events;
}

describe('SseDecoder', () => {
  it('reassembles events cut anywhere, even inside the event name (as the mastra TCP chunks are)', async () => {
    const events = await all(['event: response.in_progre', 'ss\nd', 'ata: {"a":1}\n', '\nevent: x\ndata: 2\n\n']);
    expect(events).toEqual([
      { event: 'response.in_progress', data: '{"a":1}' },
      { event: 'x', data: '2' },
    ]);
  });

  it('accepts \\r\\n and \\r line ends, including a \\r\\n split across chunks', async () => {
    expect(await all(['data: a\r', '\n\r\ndata: b\r\rdata: c\n\n'])).toEqual([
      { event: null, data: 'a' },
      { event: null, data: 'b' },
      { event: null, data: 'c' },
    ]);
  });

  it('skips comment lines (OpenRouter keep-alives) and joins multi-line data', () => {
    expect(parseServerSentEvents(': OPENROUTER PROCESSING\n\n: again\n\ndata: one\ndata: two\n\n')).toEqual([
      { event: null, data: 'one\ntwo' },
    ]);
  });

  it('strips exactly one space after the colon and keeps the rest', () => {
    expect(parseServerSentEvents('data:  two spaces\n\ndata:none\n\n')).toEqual([
      { event: null, data: ' two spaces' },
      { event: null, data: 'none' },
    ]);
  });

  it('delivers a last event that lacks its blank line when the stream ends', () => {
    const decoder = new SseDecoder();
    expect(decoder.push('data: [DONE]')).toEqual([]);
    expect(decoder.end()).toEqual([{ event: null, data: '[DONE]' }]);
  });

  it('does not dispatch an event line without data, and decodes UTF-8 split inside a character', async () => {
    const euro = new TextEncoder().encode('data: €\n\n');
    async function* split() {
      yield euro.slice(0, 7);
      yield euro.slice(7);
    }
    const events = [];
    for await (const event of readServerSentEvents(split())) events.push(event);
    expect(events).toEqual([{ event: null, data: '€' }]);
    expect(parseServerSentEvents('event: ping\n\n')).toEqual([]);
  });
});
