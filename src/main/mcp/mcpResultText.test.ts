import { describe, expect, it } from 'vitest';
import { mcpResultText } from './mcpResultText';

describe('what the model reads of an MCP result', () => {
  it('joins text, and says in one line what images, audio, binary resources and links are', () => {
    const text = mcpResultText({
      content: [
        { type: 'text', text: 'Here it is:' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'audio', data: 'AAAAAA==', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'file:///a.bin', mimeType: 'application/octet-stream', blob: 'AAAA' } },
        { type: 'resource', resource: { uri: 'file:///a.txt', text: 'inside' } },
        { type: 'resource_link', uri: 'file:///b.md', name: 'b.md', mimeType: 'text/markdown' },
      ],
    });
    expect(text).toBe(
      [
        'Here it is:',
        '[image: image/png, 3 bytes; not shown to the model]',
        '[audio: audio/wav, 4 bytes; not shown to the model]',
        '[resource file:///a.bin (application/octet-stream): 3 bytes of binary data; not shown to the model]',
        '[resource file:///a.txt]\ninside',
        '[resource link: b.md <file:///b.md> (text/markdown)]',
      ].join('\n'),
    );
  });

  it('falls back to the structured content when there is no content', () => {
    expect(mcpResultText({ content: [], structuredContent: { temperature: 21 } })).toBe('{\n  "temperature": 21\n}');
  });
});
