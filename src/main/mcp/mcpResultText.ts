import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * What the model reads of an MCP tool result: text joined in order; an embedded text resource's
 * text under its URI; images, audio, binary resources and links as one line saying what they are
 * (the model cannot see them, and base64 would only flood its context). A result with no content
 * but structured content gets that, as JSON.
 */
export function mcpResultText(result: CallToolResult): string {
  const parts: string[] = [];
  for (const item of result.content ?? []) {
    switch (item.type) {
      case 'text':
        parts.push(item.text);
        break;
      case 'image':
        parts.push(`[image: ${item.mimeType}, ${size(item.data)}; not shown to the model]`);
        break;
      case 'audio':
        parts.push(`[audio: ${item.mimeType}, ${size(item.data)}; not shown to the model]`);
        break;
      case 'resource': {
        const { resource } = item;
        const mime = resource.mimeType ? ` (${resource.mimeType})` : '';
        if ('text' in resource && typeof resource.text === 'string') parts.push(`[resource ${resource.uri}${mime}]\n${resource.text}`);
        else
          parts.push(
            `[resource ${resource.uri}${mime}: ${'blob' in resource && typeof resource.blob === 'string' ? size(resource.blob) : 'no content'} of binary data; not shown to the model]`,
          );
        break;
      }
      case 'resource_link':
        parts.push(
          `[resource link: ${item.name} <${item.uri}>${item.mimeType ? ` (${item.mimeType})` : ''}${item.description ? ` ${item.description}` : ''}]`,
        );
        break;
      default:
        parts.push(`[${String((item as { type?: unknown }).type)} content; not shown to the model]`);
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent, null, 2));
  return parts.join('\n');
}

/** The decoded size of base64 data, for a person. */
function size(base64: string): string {
  const bytes = Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`;
}
