import { createReadStream, realpathSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { createGzip } from 'node:zlib';
import { isInside } from '../workspace/filePaths';

/**
 * Serves the built renderer (index.html and its assets) and nothing else: no listings, no dotfiles,
 * nothing outside the folder, whatever the path says (`..`, encoded slashes, symlinks). Text is sent
 * compressed to a browser that accepts it: the Brotli or gzip copy the build wrote beside the file
 * (scripts/precompressRenderer.mjs) while it is newer than the file, else gzip made as it streams.
 */

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
};

export type StaticFileHandler = (
  pathname: string,
  request: IncomingMessage,
  response: ServerResponse,
  headers: Record<string, string>,
) => Promise<void>;

export function staticFiles(rootDir: string): StaticFileHandler {
  const root = realpathSync(rootDir);

  return async (pathname, request, response, headers) => {
    const file = resolveInside(root, pathname);
    if (file === null) return plain(response, 404, 'Not found.', headers);

    let real: string;
    let size: number;
    try {
      real = await realpath(file);
      const info = await stat(real);
      if (!info.isFile() || !isInside(real, root)) return plain(response, 404, 'Not found.', headers);
      size = info.size;
    } catch {
      return plain(response, 404, 'Not found.', headers);
    }

    const isIndex = real === path.join(root, 'index.html');
    const type = contentTypes[path.extname(real).toLowerCase()] ?? 'application/octet-stream';
    const encoding = COMPRESSIBLE.test(type) ? await chooseEncoding(root, real, request.headers['accept-encoding']) : undefined;
    response.writeHead(200, {
      ...headers,
      'Content-Type': type,
      ...(encoding ? { 'Content-Encoding': encoding.name } : {}),
      ...(encoding?.size !== undefined ? { 'Content-Length': String(encoding.size) } : encoding ? {} : { 'Content-Length': String(size) }),
      ...(COMPRESSIBLE.test(type) ? { Vary: 'Accept-Encoding' } : {}),
      // The page carries no secret, but a cached one would outlive a rebuild; Vite's hashed assets never change.
      'Cache-Control': isIndex ? 'no-store' : pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    await new Promise<void>((resolve) => {
      const source = createReadStream(encoding?.file ?? real);
      const stream = encoding && encoding.file === undefined ? source.pipe(createGzip({ level: 6 })) : source;
      source.on('error', () => {
        response.destroy();
        resolve();
      });
      stream.on('error', () => {
        response.destroy();
        resolve();
      });
      response.on('close', () => {
        stream.destroy();
        source.destroy();
        resolve();
      });
      stream.pipe(response);
    });
  };
}

/** Types worth compressing: text, and WebAssembly. */
const COMPRESSIBLE = /^(text\/|application\/(json|wasm)|image\/svg)/;

interface Encoding {
  name: 'br' | 'gzip';
  /** The precompressed copy to send, or none when gzip is made as the file streams. */
  file?: string;
  size?: number;
}

/** What to send for `file` to a browser that says `accepted`: a precompressed copy, gzip on the fly, or nothing. */
async function chooseEncoding(root: string, file: string, accepted: string | string[] | undefined): Promise<Encoding | undefined> {
  const accepts = parseAcceptEncoding(Array.isArray(accepted) ? accepted.join(',') : (accepted ?? ''));
  const original = await stat(file);
  for (const [name, suffix] of [
    ['br', '.br'],
    ['gzip', '.gz'],
  ] as const) {
    if (!accepts.has(name)) continue;
    try {
      const copyPath = await realpath(file + suffix);
      const copy = await stat(copyPath);
      if (copy.isFile() && isInside(copyPath, root) && copy.mtimeMs >= original.mtimeMs) return { name, file: copyPath, size: copy.size };
    } catch {
      // No copy: try the next, then gzip as it streams.
    }
  }
  return accepts.has('gzip') ? { name: 'gzip' } : undefined;
}

/** The encodings a request accepts (a q of 0 refuses one). */
function parseAcceptEncoding(header: string): Set<string> {
  const accepted = new Set<string>();
  for (const part of header.split(',')) {
    const [name, ...parameters] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = parameters.map((parameter) => /^\s*q=([\d.]+)/.exec(parameter)?.[1]).find((value) => value !== undefined);
    if (q !== undefined && Number(q) === 0) continue;
    accepted.add(name);
  }
  return accepted;
}

/** The file a URL path names inside `root`, or null when it names anything else. */
function resolveInside(root: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter((segment) => segment !== '');
  // `.` and `..` are dot segments, `.env` and `.git` dotfiles: none belongs to a built renderer.
  if (segments.some((segment) => segment.startsWith('.'))) return null;
  const file = path.resolve(root, segments.length === 0 ? 'index.html' : segments.join('/'));
  return isInside(file, root) ? file : null;
}

export function plain(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(`${text}\n`);
}
