import { z } from 'zod';
import { ZPagination } from './network.ts';

/** What the audit log records (issue 22). Stored as text: a later kind needs no migration. */
export const AUDIT_ACTIONS = [
  'person.exported',
  'person.erased',
  'source.connected',
  'source.disconnected',
  'network.exported',
  'member.removed',
  'ally.link-sent',
  'ally.google-read',
  'ally.shared',
  'ally.withdrew',
  'sharing.changed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** How Admin › Workspace names each action. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'person.exported': 'Exported a person',
  'person.erased': 'Erased a person',
  'source.connected': 'Connected a source',
  'source.disconnected': 'Disconnected a source',
  'network.exported': 'Exported the network (CSV)',
  'member.removed': 'Removed a member',
  'ally.link-sent': 'Sent an ally a share link',
  'ally.google-read': 'An ally matched their Google account (read once, token dropped)',
  'ally.shared': 'An ally shared connections',
  'ally.withdrew': 'An ally withdrew their connections',
  'sharing.changed': 'Changed their sharing level',
};

/** One entry of Admin › Workspace › Audit log. */
export const ZAuditEntry = z.object({
  id: z.uuid(),
  at: z.iso.datetime({ offset: true }),
  actorEmail: z.string(),
  action: z.string(),
  subject: z.string(),
  details: z.record(z.string(), z.unknown()),
});
export type TAuditEntry = z.infer<typeof ZAuditEntry>;

export const ZAuditQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type TAuditQuery = z.input<typeof ZAuditQuery>;

/** `GET /workspace/query/audit-log`: newest first. */
export const ZAuditPage = z.object({ rows: z.array(ZAuditEntry), pagination: ZPagination });
export type TAuditPage = z.infer<typeof ZAuditPage>;

/** Everything the workspace holds about one person (GDPR article 15): `POST /people/command/export/{id}`. */
export const ZPersonExport = z.object({
  exportedAt: z.iso.datetime({ offset: true }),
  identity: z.object({
    id: z.uuid(),
    fullName: z.string(),
    email: z.string().nullable(),
    linkedinUrl: z.string().nullable(),
    phone: z.string().nullable(),
    title: z.string().nullable(),
    company: z.string().nullable(),
  }),
  employments: z.array(
    z.object({
      company: z.string(),
      title: z.string().nullable(),
      startedOn: z.string().nullable(),
      endedOn: z.string().nullable(),
      source: z.string(),
    }),
  ),
  /** Headers only: kind, when, their role, how many took part, whose account. We keep no subjects or bodies. */
  interactions: z.array(
    z.object({
      kind: z.string(),
      occurredAt: z.string(),
      role: z.string(),
      participants: z.number().int(),
      account: z.string(),
    }),
  ),
  edges: z.array(
    z.object({
      connector: z.string(),
      meetings: z.number().int(),
      mailsSent: z.number().int(),
      mailsReceived: z.number().int(),
      sharedMonths: z.number().int(),
      linkedin: z.boolean(),
      lastInteractionAt: z.string().nullable(),
    }),
  ),
  signals: z.array(z.string()),
  actions: z.array(z.object({ type: z.string(), status: z.string(), createdAt: z.string() })),
  /** Where the workspace learnt of them: member accounts, LinkedIn exports, lists. */
  sources: z.array(z.string()),
});
export type TPersonExport = z.infer<typeof ZPersonExport>;
