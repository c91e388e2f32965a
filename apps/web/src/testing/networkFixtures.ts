import type {
  TConnector,
  TContactsPage,
  TNetworkFilters,
  TNetworkRow,
  TProximityExplanation,
  TReportCards,
  TWarmIntroModalData,
} from '@warmpath/shared';
import { type ApiCall, type FakeRoute, stubApi } from './fakeApi.ts';

// A small network for the network page's tests: two prospects, the colleagues and client allies
// who know them, their signals, and the answers of the network API.

const uuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const ids = {
  john: uuid(1),
  mary: uuid(2),
  jane: uuid(11),
  bob: uuid(12),
  carl: uuid(13),
  ivy: uuid(21),
  olga: uuid(31),
};

export const reportCards: TReportCards = {
  // Steady growth: 1,072 thirty days ago, 1,204 today (+12.3%).
  networkRelationships: {
    amount: 1204,
    percentage: 12.3,
    trend: Array.from({ length: 31 }, (_, day) => (day === 30 ? 1204 : 1072 + day * 4)),
  },
  // A team that joined this month: nothing 30 days ago, so no percentage to show.
  networkConnections: {
    amount: 37,
    percentage: 0,
    trend: Array.from({ length: 31 }, (_, day) => (day < 20 ? 0 : day === 30 ? 37 : 30)),
  },
  networkCompanies: { amount: 210, percentage: 0, trend: Array.from({ length: 31 }, () => 210) },
  updating: false,
};

const janeConnector: TConnector = {
  id: ids.jane,
  fullName: 'Jane Doe',
  avatar: null,
  jobTitle: 'Account Executive',
  connectionSources: ['LINKEDIN_CONNECTION', 'GOOGLE_MEETING'],
  proximity: 82,
  isCurrentUser: false,
};
const bobConnector: TConnector = {
  id: ids.bob,
  fullName: 'Bob Stone',
  avatar: null,
  jobTitle: 'CTO',
  connectionSources: ['GOOGLE_MAIL'],
  proximity: 40,
  isCurrentUser: false,
};
const carlConnector: TConnector = {
  id: ids.carl,
  fullName: 'Carl Ray',
  avatar: null,
  jobTitle: 'CEO',
  connectionSources: ['LINKEDIN_CONNECTION', 'SHARED_EXPERIENCE', 'GOOGLE_MAIL'],
  proximity: 30,
  isCurrentUser: false,
};

export const john: TNetworkRow = {
  id: ids.john,
  name: 'John Smith',
  avatar: null,
  linkedinUrl: 'https://www.linkedin.com/in/john-smith',
  email: 'john@acme.example',
  companyName: 'Acme',
  companyLogo: null,
  companySize: '51 - 200',
  jobTitle: 'Head of Sales',
  engagement: 'MET',
  connectors: [janeConnector, bobConnector, carlConnector],
  clientsConnected: [
    {
      id: ids.ivy,
      name: 'Ivy Client',
      linkedinProfileImageUrl: null,
      companyName: 'Initech',
      companyLogo: null,
      jobTitle: 'COO',
      tag: 'Client',
      contactOwner: { id: ids.olga, fullName: 'Olga Owner', avatar: null },
      connectionSources: ['SHARED_EXPERIENCE'],
      proximity: 55,
    },
  ],
  proximity: 82,
  signals: [
    { id: 's-website', type: 'VISITED_WEBSITE', proximityScore: 40, metadata: {} },
    { id: 's-past-client', type: 'PAST_CLIENT', proximityScore: 90, metadata: {} },
    { id: 's-worked', type: 'WORKED_WITH_CLIENT', proximityScore: 70, metadata: { customTag: 'Investor' } },
  ],
  introRequestedAt: null,
};

export const mary: TNetworkRow = {
  ...john,
  id: ids.mary,
  name: 'Mary Major',
  linkedinUrl: null,
  companyName: 'Globex',
  jobTitle: 'CFO',
  engagement: 'NEVER_MET',
  connectors: [bobConnector],
  clientsConnected: [],
  proximity: 20,
  signals: [],
  introRequestedAt: '2025-03-01T10:00:00.000Z',
};

export function contactsPage(rows: TNetworkRow[], page = 1, pageSize = 30, totalCount = 95): TContactsPage {
  return { rows, pagination: { page, pageSize, totalPages: Math.ceil(totalCount / pageSize), totalCount } };
}

/** The table's answer to a request: the page and size asked for, over 95 prospects. */
export function contactsAnswer({ search }: ApiCall): Response {
  const page = Number(search.get('page'));
  const pageSize = Number(search.get('pageSize'));
  return Response.json(contactsPage([john, mary], page, pageSize));
}

export const networkFilters: TNetworkFilters = {
  filters: [
    {
      filterField: 'companyName',
      prettyName: 'Companies',
      options: [
        { key: 'acme', name: 'Acme', count: 12, companyLogo: null },
        { key: 'globex', name: 'Globex', count: 7, companyLogo: null },
      ],
      hasMore: true,
    },
    {
      filterField: 'proximity',
      prettyName: 'Proximities',
      options: [
        { key: 'High', name: 'High', count: 4 },
        { key: 'Medium', name: 'Medium', count: 9 },
        { key: 'Low', name: 'Low', count: 30 },
      ],
      hasMore: false,
    },
  ],
};

/** The filters' answer: page 2 of companies holds Initech, the last. */
export function filtersAnswer({ search }: ApiCall): Response {
  if (search.get('companyNamePage') !== '2') return Response.json(networkFilters);
  return Response.json({
    filters: [
      {
        filterField: 'companyName',
        prettyName: 'Companies',
        options: [{ key: 'initech', name: 'Initech', count: 3, companyLogo: null }],
        hasMore: false,
      },
    ],
  } satisfies TNetworkFilters);
}

export const proximityExplanation: TProximityExplanation = {
  prospectId: ids.john,
  proximity: 82,
  paths: [
    {
      connectorId: ids.jane,
      connectorName: 'Jane Doe',
      kind: 'colleague',
      isCurrentUser: false,
      viaName: null,
      // 1 - (1 - 0.78) * (1 - 0.2) = 0.824: the meetings count in full, LinkedIn closes a fifth of the 22 left.
      link: 82,
      trust: null,
      proximity: 82,
      channels: [
        { source: 'GOOGLE_MEETING', alone: 78, added: 78, detail: '3 meetings in the last 6 months' },
        { source: 'LINKEDIN_CONNECTION', alone: 20, added: 4, detail: 'Connected on LinkedIn' },
      ],
    },
    {
      connectorId: ids.ivy,
      connectorName: 'Ivy Client',
      kind: 'ally',
      isCurrentUser: false,
      viaName: 'Olga Owner',
      link: 68,
      trust: 0.5,
      proximity: 34,
      channels: [
        { source: 'GOOGLE_MAIL', alone: 51, added: 51, detail: '4 e-mails sent, 3 received' },
        { source: 'SHARED_EXPERIENCE', alone: 35, added: 17, detail: '12 months together at Acme' },
      ],
    },
  ],
};

export const janeIntro: TWarmIntroModalData = {
  source: 'connector',
  connector: {
    id: ids.jane,
    fullName: 'Jane Doe',
    firstName: 'Jane',
    avatar: null,
    jobTitle: 'Account Executive',
    companyName: 'Engines',
    connectionSources: ['GOOGLE_MEETING', 'LINKEDIN_CONNECTION'],
    proximity: 82,
  },
  target: {
    id: ids.john,
    fullName: 'John Smith',
    firstName: 'John',
    avatar: null,
    jobTitle: 'Head of Sales',
    companyName: 'Acme',
  },
  contactOwner: null,
  signals: john.signals,
  templates: {
    connectorMessage: 'Hi Jane, could you introduce me to John Smith? Ada Lovelace',
    introTargetMessage: 'Hi John Smith, meet Ada Lovelace.',
  },
  introRequestsLast7Days: 2,
  weeklyCap: 5,
};

export const ivyIntro: TWarmIntroModalData = {
  ...janeIntro,
  source: 'client',
  connector: {
    id: ids.ivy,
    fullName: 'Ivy Client',
    firstName: 'Ivy',
    avatar: null,
    jobTitle: 'COO',
    companyName: 'Initech',
    connectionSources: ['SHARED_EXPERIENCE'],
    proximity: 55,
  },
  contactOwner: {
    id: ids.olga,
    fullName: 'Olga Owner',
    firstName: 'Olga',
    avatar: null,
    jobTitle: 'Partner Manager',
    companyName: 'Engines',
  },
  templates: {
    connectorMessage: 'Hi Olga, could you ask Ivy Client to introduce me to John Smith?',
    introTargetMessage: 'Hi John Smith, meet Ada Lovelace.',
  },
};

/** The network API with the answers above; `extra` replaces or adds routes. */
export function stubNetworkApi(extra: Record<string, FakeRoute> = {}) {
  return stubApi({
    'GET /contacts/query/network-report-cards': Response.json(reportCards),
    'POST /contacts/query': contactsAnswer,
    'POST /contacts/query/filters': filtersAnswer,
    'POST /contacts/query/filters/search': Response.json({ options: [] }),
    'GET /contacts/query/proximity-explanation': Response.json(proximityExplanation),
    'GET /contacts/query/warm-intro-modal-data': ({ search }) =>
      Response.json(search.get('source') === 'client' ? ivyIntro : janeIntro),
    ...extra,
  });
}
