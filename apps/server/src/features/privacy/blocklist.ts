/** A member's blocklist as a matcher: an entry with '@' blocks that address, one without it a whole domain. */
export type Blocklist = { blocks: (email: string) => boolean; size: number };

export function blocklistOf(entries: readonly string[]): Blocklist {
  const addresses = new Set<string>();
  const domains = new Set<string>();
  for (const entry of entries) (entry.includes('@') ? addresses : domains).add(entry.toLowerCase());
  return {
    size: addresses.size + domains.size,
    blocks: (email) => {
      const address = email.trim().toLowerCase();
      if (addresses.has(address)) return true;
      // A domain blocks its subdomains too (mail.clinic.example is the clinic's).
      const host = address.slice(address.lastIndexOf('@') + 1);
      for (let at = host; at.includes('.'); at = at.slice(at.indexOf('.') + 1)) if (domains.has(at)) return true;
      return false;
    },
  };
}
