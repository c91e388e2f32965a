import {
  ACTION_FILTER_OPTION_LIMIT,
  ACTION_TYPE_LABELS,
  type ActionFilterName,
  engagementOfCode,
  PAST_ACTION_FILTER_NAMES,
  RECOMMENDED_ACTION_FILTER_NAMES,
  ROLES,
  SIGNAL_LABELS,
  type TActionCommandResult,
  type TActionCompany,
  type TActionContact,
  type TActionCounts,
  type TActionFilter,
  type TActionFilterItem,
  type TActionFilters,
  type TClientConnected,
  type TConnector,
  type TNetworkRow,
  type TPastAction,
  type TPastActionsPage,
  type TRecommendedAction,
  type TRecommendedActionsFiltersQuery,
  type TRecommendedActionsPage,
  ZSignal,
} from '@warmpath/shared';
import { z } from 'zod';
import type { Database, Tx } from '../../db/client.ts';
import type { EventsDeps } from '../../events/record.ts';
import { eventPeople, eventUser } from '../../events/subjects.ts';
import { loadGraphSettings } from '../../graph/settings.ts';
import { AppError } from '../../lib/app-error.ts';
import { containsPattern } from '../../lib/like-pattern.ts';
import type { Member } from '../../plugins/auth.ts';
import { networkRows } from '../network/network.repo.ts';
import {
  type ActionRow,
  type ActionScope,
  type ActionSelection,
  type ActionTab,
  actionRows,
  closeAction,
  countActions,
  filterOptions,
  lockAction,
  tabCounts,
  workspaceDay,
} from './actions.repo.ts';
import { firstRecommendationsPending } from './engine.ts';

// The Actions calls of spec section 7: today's recommendations, the past, pending and skipped
// actions, their filters and counts, and what a user does with an action. Admins see the team's
// past, pending and skipped actions, others their own; the restricted third role gets empty lists.

export type ActionsDeps = { database: Database } & EventsDeps;

const NOT_RECOMMENDED_TO_YOU = 'Only the users this action is recommended to can act on it.';

const KNOWN_ROLES: readonly string[] = ROLES;
/** Spec section 6: the third role's loading of actions data is skipped. */
const isRestricted = (member: Member) => !KNOWN_ROLES.includes(member.role);
const isAdmin = (member: Member) => member.role === 'admin';

function pagination(page: number, pageSize: number, totalCount: number) {
  return { page, pageSize, totalCount, totalPages: Math.max(1, Math.ceil(totalCount / pageSize)) };
}
const emptyPage = (page: number, pageSize: number) => ({ rows: [], pagination: pagination(page, pageSize, 0) });

/** Today's recommendations the caller sees: their own; an admin may pick teammates' with the `user` filter. */
function recommendedSelection(member: Member, today: string, filters: TActionFilterItem[]): ActionSelection {
  const users = isAdmin(member)
    ? filters.filter((filter) => filter.filterName === 'user').flatMap((filter) => filter.values)
    : [];
  return {
    scopes: [{ kind: 'recommended', today, to: users.length > 0 ? { anyOf: users } : { userId: member.userId } }],
    filters,
    filterNames: ['company', 'signal', 'actionType'],
  };
}

/** A tab of acted-on (or waiting) actions: the team's for an admin, else the caller's own. */
const tabScope = (member: Member, tab: ActionTab): ActionScope => ({
  kind: 'tab',
  tab,
  of: isAdmin(member) ? 'team' : { userId: member.userId },
});

const contactOf = (row: ActionRow): TActionContact => ({
  id: row.prospect_id,
  fullName: row.prospect_name,
  avatar: row.prospect_avatar,
  proximity: row.proximity,
  engagement: engagementOfCode(row.engagement),
  linkedInUrl: row.prospect_linkedin,
  jobTitle: row.prospect_title,
  email: row.prospect_email,
  phoneNumber: row.prospect_phone,
});

const companyOf = (id: string | null, name: string | null, logo: string | null, size: string | null) =>
  id && name ? ({ id, companyName: name, companyLogo: logo, companySize: size } satisfies TActionCompany) : null;

const signalsOf = (stored: unknown) => {
  const parsed = z.array(ZSignal).safeParse(stored);
  return parsed.success ? parsed.data : [];
};

/**
 * The connector of an ask-intro as the network table shows it (connection sources, proximity, the
 * ally's contact owner); from the stored person alone if the graph no longer links them.
 */
function connectorsOf(row: ActionRow, network: TNetworkRow | undefined) {
  if (row.type !== 'ask-intro' || !row.connector_id || !row.connector_name) {
    return { connector: null, clientConnector: null };
  }
  const id = row.connector_id;
  if (row.source === 'client' || (row.source === null && !row.connector_is_colleague)) {
    const ally: TClientConnected = network?.clientsConnected.find((client) => client.id === id) ?? {
      id,
      name: row.connector_name,
      linkedinProfileImageUrl: row.connector_avatar,
      companyName: row.connector_company_name,
      companyLogo: row.connector_company_logo,
      jobTitle: row.connector_title,
      tag: null,
      contactOwner: null,
      connectionSources: [],
      proximity: 0,
    };
    return { connector: null, clientConnector: ally };
  }
  const colleague: TConnector = network?.connectors.find((connector) => connector.id === id) ?? {
    id,
    fullName: row.connector_name,
    avatar: row.connector_avatar,
    jobTitle: row.connector_title,
    connectionSources: [],
    proximity: 0,
    isCurrentUser: false,
  };
  return { connector: colleague, clientConnector: null };
}

async function toRecommended(tx: Tx, member: Member, rows: ActionRow[]): Promise<TRecommendedAction[]> {
  const { model } = await loadGraphSettings(tx, member.workspaceId);
  const network = new Map(
    (
      await networkRows(
        tx,
        member,
        rows.map((row) => row.prospect_id),
        model,
      )
    ).map((row) => [row.id, row]),
  );
  return rows.map((row) => {
    const contact = contactOf(row);
    const company = companyOf(row.company_id, row.company_name, row.company_logo, row.company_size);
    const asksIntro = row.type === 'ask-intro';
    const { connector, clientConnector } = connectorsOf(row, network.get(row.prospect_id));
    return {
      actionId: row.id,
      actionType: row.type,
      signals: signalsOf(row.signals),
      contact,
      company,
      connector,
      clientConnector,
      connectorCompany: companyOf(
        row.connector_company_id,
        row.connector_company_name,
        row.connector_company_logo,
        row.connector_company_size,
      ),
      recommendationUsers: row.recommendation_users.map((id) => ({ id })),
      introTarget: asksIntro ? contact : null,
      introTargetCompany: asksIntro ? company : null,
      prospect: asksIntro ? null : contact,
      prospectCompany: asksIntro ? null : company,
      source: asksIntro ? (clientConnector ? 'client' : 'connector') : null,
      recommendedOn: row.recommended_on ?? '',
      why: row.reason,
    };
  });
}

function toPast(row: ActionRow): TPastAction {
  const status = row.status === 'recommended' ? 'pending' : row.status;
  const colleague = row.connector_is_colleague;
  return {
    actionId: row.id,
    actionType: row.type,
    status,
    actionDate: new Date(row.acted_at ?? row.created_at).toISOString(),
    owner:
      row.owner_id && row.owner_name
        ? {
            id: row.owner_id,
            fullName: row.owner_name,
            avatar: row.owner_avatar,
            proximity: null,
            engagement: null,
            linkedInUrl: row.owner_linkedin,
          }
        : null,
    contact: contactOf(row),
    company: companyOf(row.company_id, row.company_name, row.company_logo, row.company_size),
    warmIntroMessage: row.message,
    connectorUser:
      row.connector_id && row.connector_name && colleague
        ? {
            id: row.connector_id,
            fullName: row.connector_name,
            avatar: row.connector_avatar,
            jobTitle: row.connector_title,
          }
        : null,
    clientConnector:
      row.connector_id && row.connector_name && !colleague
        ? {
            id: row.connector_id,
            name: row.connector_name,
            linkedinProfileImageUrl: row.connector_avatar,
            companyName: row.connector_company_name,
            companyLogo: row.connector_company_logo,
          }
        : null,
    replied: row.replied_at !== null,
    repliedAt: row.replied_at ? new Date(row.replied_at).toISOString() : null,
    thankedAt: row.thanked_at ? new Date(row.thanked_at).toISOString() : null,
  };
}

export async function recommendedActions(
  deps: ActionsDeps,
  member: Member,
  input: { filters: TActionFilterItem[]; page: number; pageSize: number },
): Promise<TRecommendedActionsPage> {
  if (isRestricted(member)) return emptyPage(input.page, input.pageSize);
  return deps.database.inWorkspace(member.workspaceId, async (tx) => {
    const { today } = await workspaceDay(tx, member.workspaceId);
    const selection = recommendedSelection(member, today, input.filters);
    const totalCount = await countActions(tx, member.workspaceId, selection);
    const rows = await actionRows(tx, member.workspaceId, {
      selection,
      order: 'recommended',
      limit: input.pageSize,
      offset: (input.page - 1) * input.pageSize,
    });
    return {
      rows: await toRecommended(tx, member, rows),
      pagination: pagination(input.page, input.pageSize, totalCount),
    };
  });
}

export async function tabActions(
  deps: ActionsDeps,
  member: Member,
  input: { tab: ActionTab; filters: TActionFilterItem[]; page: number; pageSize: number },
): Promise<TPastActionsPage> {
  if (isRestricted(member)) return emptyPage(input.page, input.pageSize);
  return deps.database.inWorkspace(member.workspaceId, async (tx) => {
    const selection: ActionSelection = {
      scopes: [tabScope(member, input.tab)],
      filters: input.filters,
      filterNames: PAST_ACTION_FILTER_NAMES,
    };
    const totalCount = await countActions(tx, member.workspaceId, selection);
    const rows = await actionRows(tx, member.workspaceId, {
      selection,
      order: 'latest',
      limit: input.pageSize,
      offset: (input.page - 1) * input.pageSize,
    });
    return { rows: rows.map(toPast), pagination: pagination(input.page, input.pageSize, totalCount) };
  });
}

export async function actionCounts(deps: ActionsDeps, member: Member): Promise<TActionCounts> {
  if (isRestricted(member)) return { recommended: 0, past: 0, pending: 0, skipped: 0, preparingRecommendations: false };
  return deps.database.inWorkspace(member.workspaceId, async (tx) => {
    const { today } = await workspaceDay(tx, member.workspaceId);
    const counts = await tabCounts(tx, member.workspaceId, {
      recommended: recommendedSelection(member, today, []),
      past: { scopes: [tabScope(member, 'past')] },
      pending: { scopes: [tabScope(member, 'pending')] },
      skipped: { scopes: [tabScope(member, 'skipped')] },
    });
    const preparingRecommendations = await firstRecommendationsPending(tx, member.workspaceId, member.userId);
    return { ...counts, preparingRecommendations };
  });
}

const LABELS: Partial<Record<ActionFilterName, Record<string, string>>> = {
  signal: SIGNAL_LABELS,
  actionType: ACTION_TYPE_LABELS,
};

/**
 * One filter's options among the selected actions. Enumerations are searched by their label,
 * the others by name in SQL. On recommendations, `user` means the users they are for.
 */
async function filterOf(
  tx: Tx,
  member: Member,
  input: { selection: ActionSelection; name: ActionFilterName; searchTerm: string; recommendations: boolean },
): Promise<TActionFilter> {
  const label = LABELS[input.name];
  const rows = await filterOptions(tx, member.workspaceId, {
    selection: input.selection,
    filter: input.recommendations && input.name === 'user' ? 'recommendationUser' : input.name,
    pattern: label ? null : containsPattern(input.searchTerm),
    limit: ACTION_FILTER_OPTION_LIMIT,
  });
  const search = input.searchTerm.toLowerCase();
  return {
    filterName: input.name,
    optionValues: rows
      .map((row) => ({
        optionName: label?.[row.value] ?? row.name,
        optionValue: row.value,
        count: row.count,
        avatar: row.avatar,
        companyLogo: row.company_logo,
      }))
      .filter((option) => !label || option.optionName.toLowerCase().includes(search)),
  };
}

/** The admins' 'Show' toggles over today's recommendations (the team's); option search by field. */
export async function recommendedActionsFilters(
  deps: ActionsDeps,
  member: Member,
  query: TRecommendedActionsFiltersQuery,
): Promise<TActionFilters> {
  if (isRestricted(member)) return { filters: [] };
  const names = RECOMMENDED_ACTION_FILTER_NAMES.filter(
    (name) => (name !== 'user' || isAdmin(member)) && (!query.filterField || name === query.filterField),
  );
  return deps.database.inWorkspace(member.workspaceId, async (tx) => {
    const { today } = await workspaceDay(tx, member.workspaceId);
    const selection: ActionSelection = {
      scopes: [{ kind: 'recommended', today, to: isAdmin(member) ? 'team' : { userId: member.userId } }],
    };
    const filters: TActionFilter[] = [];
    for (const name of names) {
      filters.push(
        await filterOf(tx, member, { selection, name, searchTerm: query.searchTerm ?? '', recommendations: true }),
      );
    }
    return { filters };
  });
}

/** The filters of the past, pending and skipped tabs, over every action the caller may see there. */
export async function tabActionsFilters(deps: ActionsDeps, member: Member): Promise<TActionFilters> {
  if (isRestricted(member)) return { filters: [] };
  return deps.database.inWorkspace(member.workspaceId, async (tx) => {
    const selection: ActionSelection = {
      scopes: [tabScope(member, 'past'), tabScope(member, 'pending'), tabScope(member, 'skipped')],
    };
    const filters: TActionFilter[] = [];
    for (const name of PAST_ACTION_FILTER_NAMES) {
      filters.push(await filterOf(tx, member, { selection, name, searchTerm: '', recommendations: false }));
    }
    return { filters };
  });
}

/**
 * The action, locked, if the caller may still act on it: theirs to act on, and still open. Intros
 * claim an action this way before a send acts on it.
 */
export async function claimOpenAction(tx: Tx, member: Member, actionId: string) {
  const action = await lockAction(tx, member.workspaceId, actionId);
  if (!action) throw new AppError('NOT_FOUND', 'Action not found');
  if (!action.recommendation_users.includes(member.userId)) throw new AppError('FORBIDDEN', NOT_RECOMMENDED_TO_YOU);
  if (action.status !== 'recommended' && action.status !== 'pending') {
    throw new AppError('ALREADY_DONE', 'This action was already completed or skipped.');
  }
  return action;
}

async function close(deps: ActionsDeps, member: Member, actionId: string, status: 'completed' | 'skipped') {
  const ws = member.workspaceId;
  return deps.database.inWorkspace(ws, async (tx): Promise<TActionCommandResult> => {
    const action = await claimOpenAction(tx, member, actionId);
    await closeAction(tx, ws, actionId, { status, ownerUserId: member.userId });
    // Marked complete by hand; a send that completes an action is its intro's or message's event.
    if (status === 'completed') {
      await deps.events.record(tx, ws, 'action.completed', async () => ({
        actionId,
        actionType: action.type,
        prospect: (await eventPeople(tx, ws, deps.publicUrl, [action.prospect_id]))(action.prospect_id),
        completedBy: await eventUser(tx, ws, member.userId),
      }));
    }
    return { actionId, status };
  });
}

export const skipAction = (deps: ActionsDeps, member: Member, actionId: string) =>
  close(deps, member, actionId, 'skipped');
export const completeAction = (deps: ActionsDeps, member: Member, actionId: string) =>
  close(deps, member, actionId, 'completed');
