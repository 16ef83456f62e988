// After the build: writes a Brotli (.br) and a gzip (.gz) copy beside every text asset of the built
// renderer, so `tether serve` sends 9 MB of JavaScript as about 3.6 MB without compressing per request.
// The copies are build output (out/ is not committed); staticFiles serves one only while it is newer
// than its original.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.resolve(process.argv[2] ?? 'out/renderer');
const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|wasm|txt|map)$/;
const MIN_BYTES = 1024;

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile() && COMPRESSIBLE.test(entry.name)) yield full;
  }
}

if (!fs.existsSync(root)) {
  console.error(`precompress: ${root} does not exist; run the build first.`);
  process.exit(1);
}
let before = 0;
let after = 0;
for (const file of files(root)) {
  const bytes = fs.readFileSync(file);
  if (bytes.length < MIN_BYTES) continue;
  const br = zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
  before += bytes.length;
  after += br.length;
}
console.log(`precompress: ${(before / 1e6).toFixed(1)} MB of renderer assets, ${(after / 1e6).toFixed(1)} MB as Brotli`);
