/**
 * One CSV record (RFC 4180): a field with a comma, a quote, a line break or edge spaces is quoted,
 * its quotes doubled. A field a spreadsheet would run as a formula (=, +, -, @, tab, CR first) gets a
 * leading apostrophe: the commands and summaries in an audit come from the model and are hostile.
 */
export function csvRecord(fields: readonly string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]|^\s|\s$/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
