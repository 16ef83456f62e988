/**
 * Fills the `{{name}}` slots of a prompt template in one pass. Values go in as they are: a value
 * holding `{{other}}` stays literal, and so does `$&` or `$'`, which String.replace with a string
 * replacement would expand (a file path or a summary may hold either). A slot with no value is
 * left as written.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (slot, name: string) => values[name] ?? slot);
}
