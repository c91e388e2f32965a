// Business constants and limits of the product specification, section 9. One place for each number.

export const PAGINATION = {
  defaultPage: 1,
  defaultPageSize: 30,
  pageSizeChoices: [15, 20, 30, 50, 100],
  pageWindow: 5,
} as const;

export const DEBOUNCE_MS = { search: 1000, dropdownSearch: 300, tagInput: 500 } as const;

export const SESSION_COOKIE_MAX_AGE_SECONDS = 604_800;
export const SESSION_COOKIE_DAYS = 7;

export const CSV_UPLOAD = { maxFiles: 1, maxBytes: 1024 * 1024 * 1024, accept: { 'text/csv': ['.csv'] } } as const;
/**
 * The LinkedIn exports' uploads. LinkedIn allows 30,000 first-degree connections, about 5 MB of
 * Connections.csv, and a member's own Positions.csv is a few kilobytes: the limits leave room for
 * long names without letting one upload fill the server or the workspace. Lines not imported are
 * listed up to `listedRejections` and counted in all.
 */
export const LINKEDIN_UPLOAD = {
  connectionsMaxBytes: 50 * 1024 * 1024,
  positionsMaxBytes: 2 * 1024 * 1024,
  maxConnections: 30_000,
  maxPositions: 1_000,
  listedRejections: 100,
} as const;
export const EXPORT_FILE_PREFIX = 'warmpath';

export const DOMAIN_TAG_LIMITS = { signUp: 5, workspace: 10, exclusions: 50, tagLength: 50 } as const;
export const INVITE_SUGGESTIONS = { initial: 4, step: 2 } as const;

export const TAG_OPTIONS = ['Client', 'Ally', 'Investor', 'Partner', 'Freelancer'] as const;

export const PROXIMITY_BANDS = [
  { name: 'Low', min: 0, max: 24 },
  { name: 'Medium', min: 25, max: 74 },
  { name: 'High', min: 75, max: 100 },
] as const;

export const JOB_DEPARTMENTS = [
  'Sales',
  'HR',
  'Marketing',
  'Tech',
  'Finance',
  'Logistics',
  'Executive',
  'Legal',
  'Product',
  'Data',
  'Customer Service',
  'Operation',
] as const;
export const ONBOARDING_JOB_DEPARTMENTS = [
  'Executive',
  'Finance',
  'HR',
  'Legal',
  'Marketing',
  'Operations',
  'Product',
  'Sales',
  'Tech',
  'Data',
  'Customer Service',
] as const;

export const SENIORITIES = ['C-Level', 'Manager', 'Individual Contributor', 'Senior', 'Junior'] as const;

export const COMPANY_SIZES = [
  '1 - 10',
  '11 - 50',
  '51 - 200',
  '201 - 500',
  '501 - 1000',
  '1001 - 5000',
  '5001 - 10000',
  '10000+',
] as const;
export const COMPANY_TYPES = ['BtoC', 'BtoB'] as const;

export const DEFAULT_COUNTRIES = ['France', 'Ukraine', 'Germany', 'United Kingdom', 'Spain'] as const;
export const ONBOARDING_DEFAULT_COUNTRIES = ['France', 'United Kingdom', 'Germany', 'Spain', 'Ukraine'] as const;

export const VISIBLE_INDUSTRIES = [
  'Retail',
  'Professional Services',
  'Tech & Software',
  'Telecommunication',
  'E-commerce',
  'Consumer Packaged Goods (food & cosmetics)',
  'Transportation & logistics',
] as const;
export const HIDDEN_INDUSTRIES = [
  'Luxury',
  'Automotive',
  'Banking',
  'Manufacturing',
  'Construction',
  'Defence',
  'Education',
  'Entertainment',
  'Events',
  'Insurance',
  'Media',
  'Mining',
  'Public',
  'Real estate',
  'Energy',
] as const;

export const OPTION_PAGE = { initial: 100, step: 100 } as const;

export const SKELETON = {
  tableRows: 10,
  crmClients: { columns: 2, rows: 5 },
  actions: { columns: 7, rows: 10 },
  clientLists: { columns: 7, rows: 10 },
  other: { columns: 5, rows: 10 },
  networkColumns: 8,
} as const;

export const LAYOUT = {
  alliesTableMaxHeight: '72vh',
  usersTableMaxHeight: '80vh',
  filterDropdownMaxHeightPx: 300,
  onboardingDropdownMaxHeightPx: 200,
} as const;

export const VISIBLE_SIGNALS = 2;
export const VISIBLE_AVATARS = 2;
export const DAYS_IN_MONTH = 30;

export const TOAST = { position: 'top-right', theme: 'light', autoClose: 5000 } as const;

/** Onboarding progress bar values, by route (spec section 2). */
export const ONBOARDING_PROGRESS = {
  connect: 5,
  bookADemo: 5,
  createDetails: 10,
  registerInvite: 10,
  sync: 15,
  syncGoogleConnected: 25,
  importAccounts: 40,
  targetingScheme: 45,
  accountsUpload: 50,
  importClients: 70,
  inviteTeammates: 80,
  clientsUpload: 90,
} as const;

/** Where the web app sends analytics events (spec section 7); the server's CSP allows it when a key is set. */
export const POSTHOG_HOST = 'https://app.posthog.com';

/** Sent with a request, it acts in the caller's demo workspace, as its admin, instead of their own. */
export const DEMO_WORKSPACE_HEADER = 'x-warmpath-workspace';
export const DEMO_WORKSPACE_VALUE = 'demo';

/**
 * Where the web build lists each first page's own copy of index.html (page path to file, both under
 * the build's folder); the server sends that copy for the page's path.
 */
export const FIRST_PAGES_MANIFEST = 'first-pages.json';
