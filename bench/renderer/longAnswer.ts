/**
 * A long markdown answer, as a model writes one at the end of a task: headings, paragraphs with
 * inline code and emphasis, lists, a table and fenced code. The scripted model streams it a word
 * (about a token) at a time.
 */
export function longAnswer(words: number): string {
  const sections: string[] = [];
  for (let n = 1; countWords(sections) < words; n++) {
    sections.push(
      `## ${n}. What changed in \`src/module${n}.ts\``,
      `The loader in **module ${n}** read the whole file before parsing it, so a large config blocked the event loop for ` +
        `hundreds of milliseconds. It now streams the file with \`createReadStream\` and parses line by line; errors keep ` +
        `their line numbers, and an empty file is still an empty config rather than an error.`,
      `- \`loadConfig(path)\` returns the same shape as before, so callers do not change.\n` +
        `- A syntax error says which line and which key, for example: *unexpected "]" on line ${n * 7}*.\n` +
        `- The cache is keyed on the file's \`mtime\` and size, and cleared when either changes.`,
      '```ts\n' +
        `export async function loadConfig${n}(path: string): Promise<Config> {\n` +
        `  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });\n` +
        `  const config: Config = {};\n` +
        `  for await (const line of lines) parseLine(config, line);\n` +
        `  return config;\n` +
        '}\n```',
      `| case | before | after |\n|---|---|---|\n| 10 MB config | ${300 + n} ms | ${20 + (n % 9)} ms |\n| empty file | error | \`{}\` |`,
      `I ran \`node --test test/module${n}.test.js\`: all ${12 + (n % 5)} tests pass.`,
    );
  }
  return sections.join('\n\n');
}

function countWords(parts: string[]): number {
  let count = 0;
  for (const part of parts) count += part.split(/\s+/).filter(Boolean).length;
  return count;
}
