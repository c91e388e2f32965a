import {
  type TActionCompany,
  type TActionContact,
  type TActionFilters,
  type TPastAction,
  type TRecommendedAction,
  ZActionFiltersBody,
  ZActionIdBody,
  ZSendThankYouBody,
} from '@warmpath/shared';
import { type ApiCall, errorAnswer, type FakeRoute, stubApi } from '../../../testing/fakeApi.ts';
import { member } from '../../../testing/users.ts';

// A small day of actions for the actions screens' tests, and a fake Actions API that keeps them:
// skipping, completing or sending moves an action out of today's list and into its tab, as the server does.

const uuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const actionIds = {
  askJohn: uuid(101),
  moveMary: uuid(102),
  helloPaul: uuid(103),
  teammates: uuid(104),
  /** The past intro request to John through Jane, which got a reply. */
  pastAskJohn: uuid(111),
};
const people = { john: uuid(1), mary: uuid(2), paul: uuid(3), zoe: uuid(4), jane: uuid(11), teammate: uuid(51) };

const contact = (id: string, fullName: string, extra: Partial<TActionContact> = {}): TActionContact => ({
  id,
  fullName,
  avatar: null,
  proximity: 60,
  engagement: 'TOUCHED',
  linkedInUrl: null,
  jobTitle: null,
  email: null,
  phoneNumber: null,
  ...extra,
});
const company = (n: number, companyName: string, companySize: string | null): TActionCompany => ({
  id: uuid(200 + n),
  companyName,
  companyLogo: null,
  companySize,
});

const john = contact(people.john, 'John Smith', { jobTitle: 'Head of Sales', email: 'john@acme.example' });
const acme = company(1, 'Acme', '51 - 200');
const mary = contact(people.mary, 'Mary Major', {
  jobTitle: 'COO',
  email: 'mary@globex.example',
  engagement: 'MET',
});
const globex = company(2, 'Globex', '201 - 500');
const paul = contact(people.paul, 'Paul Plain', { jobTitle: 'CTO' });
const initech = company(3, 'Initech', '11 - 50');

const askJohn: TRecommendedAction = {
  actionId: actionIds.askJohn,
  actionType: 'ask-intro',
  signals: [
    { id: 's1', type: 'VISITED_PRICING_PAGE', proximityScore: 80, metadata: {} },
    { id: 's2', type: 'CONNECTED_WITH_COLLEAGUE', proximityScore: 30, metadata: { connectorName: 'Jane Doe' } },
    { id: 's3', type: 'VISITED_WEBSITE', proximityScore: 20, metadata: {} },
  ],
  contact: john,
  company: acme,
  connector: {
    id: people.jane,
    fullName: 'Jane Doe',
    avatar: null,
    jobTitle: 'Account Executive',
    connectionSources: ['LINKEDIN_CONNECTION'],
    proximity: 70,
    isCurrentUser: false,
  },
  clientConnector: null,
  connectorCompany: null,
  recommendationUsers: [{ id: member.id }],
  introTarget: john,
  introTargetCompany: acme,
  prospect: null,
  prospectCompany: null,
  source: 'connector',
  recommendedOn: '2025-06-15',
  why: 'warm (Visited pricing page): ask Jane Doe for an intro (proximity 70)',
};

/** A past client who moved to Globex; where they were is unknown. */
const moveMary: TRecommendedAction = {
  ...askJohn,
  actionId: actionIds.moveMary,
  actionType: 'DIRECT_MESSAGE',
  signals: [{ id: 's4', type: 'PAST_CLIENT', proximityScore: 90, metadata: { newCompanyName: 'Globex' } }],
  contact: mary,
  company: globex,
  connector: null,
  introTarget: null,
  introTargetCompany: null,
  prospect: mary,
  prospectCompany: globex,
  source: null,
  why: 'warm (Past client): direct message, a past client',
};

/** A prospect the user knows, without an e-mail address. */
const helloPaul: TRecommendedAction = {
  ...moveMary,
  actionId: actionIds.helloPaul,
  signals: [{ id: 's5', type: 'VISITED_WEBSITE', proximityScore: 40, metadata: {} }],
  contact: paul,
  company: initech,
  prospect: paul,
  prospectCompany: initech,
  // Recommended before the line of why was kept.
  why: null,
};

/** A teammate's recommendation, which an admin sees but may not act on. */
const teammates: TRecommendedAction = {
  ...askJohn,
  actionId: actionIds.teammates,
  contact: contact(people.zoe, 'Zoe Quinn', { jobTitle: 'CFO' }),
  introTarget: contact(people.zoe, 'Zoe Quinn', { jobTitle: 'CFO' }),
  recommendationUsers: [{ id: people.teammate }],
};

export const recommendedActions = [askJohn, moveMary, helloPaul, teammates];

const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();

const ownerAda = {
  id: member.id,
  fullName: 'Ada Lovelace',
  avatar: null,
  proximity: null,
  engagement: null,
  linkedInUrl: null,
};

/** What a recommendation becomes once acted on. */
function toPast(action: TRecommendedAction, status: TPastAction['status'], actionDate: string): TPastAction {
  return {
    actionId: action.actionId,
    actionType: action.actionType,
    status,
    actionDate,
    owner: status === 'pending' ? null : ownerAda,
    contact: action.introTarget ?? action.prospect ?? action.contact,
    company: action.introTargetCompany ?? action.prospectCompany ?? action.company,
    warmIntroMessage: null,
    connectorUser: action.connector
      ? {
          id: action.connector.id,
          fullName: action.connector.fullName,
          avatar: null,
          jobTitle: action.connector.jobTitle,
        }
      : null,
    clientConnector: null,
    replied: false,
    repliedAt: null,
    thankedAt: null,
  };
}

/** The user's intro request to John through Jane, sent two days ago and answered yesterday. */
export const pastAskJohn: TPastAction = {
  ...toPast(askJohn, 'completed', daysAgo(2)),
  actionId: actionIds.pastAskJohn,
  replied: true,
  repliedAt: daysAgo(1),
};

export const actionFilters: TActionFilters = {
  filters: [
    {
      filterName: 'user',
      optionValues: [
        { optionName: 'Ada Lovelace', optionValue: member.id, count: 3, avatar: null, companyLogo: null },
        { optionName: 'Tom Mate', optionValue: people.teammate, count: 1, avatar: null, companyLogo: null },
      ],
    },
    {
      filterName: 'company',
      optionValues: [
        { optionName: 'Acme', optionValue: acme.id, count: 2, avatar: null, companyLogo: null },
        { optionName: 'Globex', optionValue: globex.id, count: 1, avatar: null, companyLogo: null },
      ],
    },
    { filterName: 'signal', optionValues: [] },
    { filterName: 'actionType', optionValues: [] },
  ],
};

type Tabs = { recommended: TRecommendedAction[]; past: TPastAction[]; pending: TPastAction[]; skipped: TPastAction[] };

function pageOf<T>(rows: readonly T[], { search }: ApiCall): Response {
  const page = Number(search.get('page') ?? 1);
  const pageSize = Number(search.get('pageSize') ?? 30);
  return Response.json({
    rows: rows.slice((page - 1) * pageSize, page * pageSize),
    pagination: { page, pageSize, totalPages: Math.max(1, Math.ceil(rows.length / pageSize)), totalCount: rows.length },
  });
}

/**
 * The fake Actions API over one day: four recommendations, one past action (the user's intro request to
 * John through Jane, replied to), one pending, one skipped. Routes in `extra` replace the defaults.
 */
export function stubActionsApi(extra: Record<string, FakeRoute> = {}) {
  const tabs: Tabs = {
    recommended: [...recommendedActions],
    past: [pastAskJohn],
    pending: [{ ...toPast(teammates, 'pending', daysAgo(3)), actionId: uuid(112) }],
    skipped: [{ ...toPast(helloPaul, 'skipped', daysAgo(40)), actionId: uuid(113), owner: null }],
  };
  const move = (to: 'past' | 'skipped', status: TPastAction['status']) => (call: ApiCall) => {
    const { actionId } = ZActionIdBody.parse(call.body);
    const action = tabs.recommended.find((candidate) => candidate.actionId === actionId);
    if (!action) return errorAnswer(404, 'NOT_FOUND', 'No such action');
    tabs.recommended = tabs.recommended.filter((candidate) => candidate !== action);
    tabs[to] = [toPast(action, status, new Date().toISOString()), ...tabs[to]];
    return Response.json({ actionId, status });
  };
  const thank = (call: ApiCall) => {
    const { actionId } = ZSendThankYouBody.parse(call.body);
    const thankedAt = new Date().toISOString();
    tabs.past = tabs.past.map((row) => (row.actionId === actionId ? { ...row, thankedAt } : row));
    return Response.json({ actionId, thankedAt });
  };
  const filtered = (rows: readonly TRecommendedAction[], call: ApiCall) => {
    const { filters } = ZActionFiltersBody.parse(call.body);
    const companies = filters.find((filter) => filter.filterName === 'company')?.values;
    return companies ? rows.filter((row) => row.company && companies.includes(row.company.id)) : rows;
  };
  const api = stubApi({
    'GET /actions/query/counts': () =>
      Response.json({
        recommended: tabs.recommended.length,
        past: tabs.past.length,
        pending: tabs.pending.length,
        skipped: tabs.skipped.length,
        preparingRecommendations: false,
      }),
    'POST /actions/query/recommended-actions': (call) => pageOf(filtered(tabs.recommended, call), call),
    'GET /actions/query/recommended-actions-filters': Response.json(actionFilters),
    'POST /actions/query': (call) => pageOf(tabs.past, call),
    'POST /actions/query/pending-actions': (call) => pageOf(tabs.pending, call),
    'POST /actions/query/skipped-actions': (call) => pageOf(tabs.skipped, call),
    'GET /actions/query/filters': Response.json(actionFilters),
    'POST /actions/command/skip-action': move('skipped', 'skipped'),
    'POST /actions/command/set-action-complete': move('past', 'completed'),
    'POST /contacts/command/send-ask-intro-action-email': move('past', 'completed'),
    'POST /contacts/command/send-direct-message-action-email': move('past', 'completed'),
    'POST /actions/command/send-thank-you': thank,
    ...extra,
  });
  return { ...api, tabs };
}
