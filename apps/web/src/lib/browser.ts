/** Leaves the app for another site (a provider's consent page); its own module so tests can replace it. */
export function leaveTo(url: string): void {
  window.location.assign(url);
}

/** Hands a file the app received to the browser's downloads, under the given name. */
export function saveFile(file: Blob, fileName: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked once the click has handed the file over, not before.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
