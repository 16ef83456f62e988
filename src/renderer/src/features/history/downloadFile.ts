/**
 * Hands the person a file the page made: a Blob behind an anchor with `download`. It works the same
 * in the browser `tether serve` serves and in the Electron window (which shows its save dialog), with
 * no request to the host, so the file holds exactly what the page holds.
 */
export function downloadFile(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Not revoked at once: a browser may start reading the blob only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
