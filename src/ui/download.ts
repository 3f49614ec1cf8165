/** Hands bytes to the browser as a file download (the page's only way to write a file). */
export function downloadFile(bytes: Uint8Array, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([bytes.slice()], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by the time the click returns; the URL can go once it has been read.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
