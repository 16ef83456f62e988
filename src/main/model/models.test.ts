import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { config } from '../../../test/fixtures/scriptedModel/collect';
import { checkToolSupport, listModels } from './models';

/** A bare HTTP server answering GET /v1/models with a fixed body: listings in shapes other servers use. */
const servers: http.Server[] = [];
async function listing(status: number, body: string): Promise<string> {
  const server = http.createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('listModels', () => {
  it("reads OpenRouter's supported_parameters as tool support", async () => {
    const baseUrl = await listing(
      200,
      JSON.stringify({
        data: [
          { id: 'a/tools', context_length: 32768, supported_parameters: ['tools', 'tool_choice', 'temperature'] },
          { id: 'b/plain', context_length: 4096, supported_parameters: ['temperature'] },
        ],
      }),
    );
    expect(await listModels(config(baseUrl, 'chat'))).toEqual([
      { id: 'a/tools', supportsTools: true, contextWindow: 32768 },
      { id: 'b/plain', supportsTools: false, contextWindow: 4096 },
    ]);
    await expect(checkToolSupport(config(baseUrl, 'chat', 'b/plain'))).rejects.toThrow(
      'says it cannot use tools (its supported_parameters do not include "tools")',
    );
  });

  it('reads a bare array and LM Studio’s max_context_length', async () => {
    const baseUrl = await listing(200, JSON.stringify([{ id: 'local', max_context_length: 16384 }]));
    expect(await listModels(config(baseUrl, 'chat'))).toEqual([{ id: 'local', contextWindow: 16384 }]);
  });

  it('says what went wrong with a listing that is not JSON or not OK', async () => {
    const html = await listing(200, '<html>hello</html>');
    await expect(listModels(config(html, 'chat'))).rejects.toMatchObject({ kind: 'bad_response' });
    const denied = await listing(401, '{"error":{"message":"bad key"}}');
    await expect(listModels(config(denied, 'chat'))).rejects.toMatchObject({
      kind: 'auth',
      message: expect.stringContaining('answered 401'),
    });
    // Neither blocks a session.
    await expect(checkToolSupport(config(html, 'chat'))).resolves.toBeUndefined();
    await expect(checkToolSupport(config(denied, 'chat'))).resolves.toBeUndefined();
  });
});
