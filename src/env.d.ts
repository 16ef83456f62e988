// Text files imported with Vite's ?raw suffix: tool descriptions and prompts live in .txt files.
declare module '*.txt?raw' {
  const text: string;
  export default text;
}
