/** Leaves the app for another site (a provider's consent page); its own module so tests can replace it. */
export function leaveTo(url: string): void {
  window.location.assign(url);
}
