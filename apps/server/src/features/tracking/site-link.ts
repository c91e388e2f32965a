import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { trackingSites } from '../../db/schema/index.ts';
import type { VisitLinks } from './visit-link.ts';

/**
 * A link to the team's site (its first tracked site) naming `personId`, for the e-mails that reach
 * them: their visit is then theirs. Null while the workspace tracks no site.
 */
export async function siteLinkFor(tx: Tx, links: VisitLinks, workspaceId: string, personId: string) {
  const [site] = await tx
    .select({ origins: trackingSites.origins })
    .from(trackingSites)
    .where(eq(trackingSites.workspaceId, workspaceId));
  const origin = site?.origins[0];
  return origin ? links.link(`${origin}/`, workspaceId, personId) : null;
}

/** The message with the site's link below it, when there is one. */
export const withSiteLink = (text: string, link: string | null) => (link ? `${text.trimEnd()}\n\n${link}` : text);
