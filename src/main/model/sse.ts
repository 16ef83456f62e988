/**
 * A server-sent events decoder (the WHATWG rules: lines end in \n, \r\n or \r; `data:` lines join
 * with \n; a blank line ends an event; lines starting with `:` are comments). Real streams are cut
 * anywhere by the network, even inside `event:`, so bytes are buffered until a line is whole.
 */

export interface ServerSentEvent {
  /** The `event:` field, or null when the event had none. */
  event: string | null;
  data: string;
}

export class SseDecoder {
  private buffer = '';
  private event: string | null = null;
  private data: string[] = [];
  private sawField = false;

  /** Feeds decoded text; returns the events it completed. */
  push(text: string): ServerSentEvent[] {
    this.buffer += text;
    const events: ServerSentEvent[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) break;
      // A lone \r at the very end may be the first half of \r\n: wait for the next chunk.
      if (match[0] === '\r' && match.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  /** The stream ended: a last event that lacked its blank line still counts. */
  end(): ServerSentEvent[] {
    const events: ServerSentEvent[] = [];
    if (this.buffer !== '') {
      const event = this.line(this.buffer.replace(/\r$/, ''));
      this.buffer = '';
      if (event) events.push(event);
    }
    const last = this.dispatch();
    if (last) events.push(last);
    return events;
  }

  private line(line: string): ServerSentEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.data.push(value);
      this.sawField = true;
    } else if (field === 'event') {
      this.event = value;
      this.sawField = true;
    }
    return undefined;
  }

  private dispatch(): ServerSentEvent | undefined {
    const event = this.sawField && this.data.length > 0 ? { event: this.event, data: this.data.join('\n') } : undefined;
    this.event = null;
    this.data = [];
    this.sawField = false;
    return event;
  }
}

/** Decodes a response body into events as they arrive. */
export async function* readServerSentEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const decoder = new SseDecoder();
  const text = new TextDecoder();
  for await (const chunk of body) {
    yield* decoder.push(text.decode(chunk, { stream: true }));
  }
  yield* decoder.push(text.decode());
  yield* decoder.end();
}

/** Splits a whole recorded SSE body into its events. */
export function parseServerSentEvents(body: string): ServerSentEvent[] {
  const decoder = new SseDecoder();
  return [...decoder.push(body), ...decoder.end()];
}
