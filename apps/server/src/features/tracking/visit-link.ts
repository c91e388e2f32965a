import { VISIT_TOKEN_PARAM } from '@warmpath/shared';
import { z } from 'zod';
import { createStateSigner } from '../../lib/signed-state.ts';

/** How long a link from our e-mails identifies its recipient on the team's site. */
const VISIT_LINK_DAYS = 30;
const ZVisitToken = z.object({ w: z.uuid(), p: z.uuid() });

/**
 * The links our e-mails carry to the team's own site (an intro request's forward note, a direct
 * message): a signed, expiring token naming the recipient, so their visit is theirs without any
 * third-party data. Tampered, expired or another workspace's tokens name nobody.
 */
export function visitLinks(encryptionKey: Buffer) {
  const signer = createStateSigner(encryptionKey, 'visit-link');
  return {
    /** `siteUrl` with the recipient's token in `wp_t`. */
    link(siteUrl: string, workspaceId: string, personId: string): string {
      const url = new URL(siteUrl);
      url.searchParams.set(VISIT_TOKEN_PARAM, signer.sign({ w: workspaceId, p: personId }, VISIT_LINK_DAYS * 86_400));
      return url.toString();
    },
    /** The person a token names in this workspace, or null. */
    personOf(token: string, workspaceId: string): string | null {
      const parsed = ZVisitToken.safeParse(signer.verify(token));
      return parsed.success && parsed.data.w === workspaceId ? parsed.data.p : null;
    },
  };
}
export type VisitLinks = ReturnType<typeof visitLinks>;
