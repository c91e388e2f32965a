import { HIDDEN_INDUSTRIES, JOB_DEPARTMENTS, VISIBLE_INDUSTRIES } from '@warmpath/shared';

// The vocabulary of the demo data: names, company names, job titles and weighted choices. Plain ASCII,
// so that e-mail addresses and LinkedIn slugs derive from names without transliteration.

const words = (list: string) => list.split(' ');

export const FIRST_NAMES = words(
  'Camille Louis Chloe Hugo Manon Lucas Ines Julien Claire Antoine Sophie Nicolas Pauline Mathieu ' +
    'Elodie Thomas Margaux Pierre Celine Romain Olena Andriy Iryna Dmytro Kateryna Oleksandr Yulia Taras ' +
    'Natalia Bohdan Anna Lukas Lena Felix Hannah Jonas Leonie Maximilian Sarah Tobias Julia Niklas ' +
    'Katharina Florian Miriam Stefan Emily James Olivia Oliver Charlotte George Amelia Harry Isla Jack ' +
    'Grace William Lucy Daniel Lucia Alejandro Carmen Javier Elena Pablo Marta Diego Paula Sergio Laura ' +
    'Adrian Emma Michael Jessica David Ashley Ryan Megan Kevin Rachel Brian Nora Samuel Alice Victor Eva ' +
    'Martin Zoe Adam Marie Paul Leo Mila Noah Ava Ethan Sofia Liam Nina',
);

export const LAST_NAMES = words(
  'Martin Bernard Dubois Thomas Robert Richard Petit Durand Leroy Moreau Simon Laurent Lefebvre Michel ' +
    'Garcia David Bertrand Roux Vincent Fournier Morel Girard Andre Mercier Dupont Lambert Bonnet ' +
    'Francois Martinez Legrand Shevchenko Kovalenko Bondarenko Tkachenko Kravchenko Oliynyk Shevchuk ' +
    'Polishchuk Boyko Melnyk Lysenko Marchenko Rudenko Savchenko Moroz Pavlenko Mueller Schmidt Schneider ' +
    'Fischer Weber Meyer Wagner Becker Schulz Hoffmann Koch Richter Klein Wolf Schroeder Neumann Schwarz ' +
    'Zimmermann Braun Krueger Smith Jones Taylor Brown Williams Wilson Johnson Davies Robinson Wright ' +
    'Thompson Evans Walker White Roberts Green Hall Wood Jackson Clarke Fernandez Lopez Sanchez Perez ' +
    'Gomez Diaz Moreno Alvarez Romero Navarro Torres Ruiz Serrano Molina Ortega Delgado Castro Ortiz ' +
    'Rubio Marin Miller Anderson Moore Harris Clark Lewis Young Allen King Scott Baker Nelson Carter ' +
    'Mitchell Rossi Bianchi Jansen Peeters Novak',
);

/** Company names are a stem, an ending and a sector word: 40 x 40 x 40 distinct names. */
export const NAME_STEMS = words(
  'Nor Blue Bright Hel Vel Kin Ast Lum Quant Sol Terr Ox Mar Alt Nov Cor Arc Fjor Zen Pol Lyn Cal Bor ' +
    'Ever Grav Ion Jun Kel Mir Nex Orb Pax Riv Sil Tav Ver Wyn Yar Fal Dun',
);
export const NAME_ENDINGS = words(
  'vik peak line ora ix ium ara wave field stone gate ford sync ly io eon ant ex ona ica berg dale mark ' +
    'bridge path nova loop byte ware core leaf rock well hub craft point scale spring tide wind',
);

/** The sector word of a company name; one that names an industry sets it, a generic one leaves it to chance. */
export const NAME_SECTORS: readonly (readonly [word: string, industry: string | null])[] = [
  ['Labs', 'Tech & Software'],
  ['Software', 'Tech & Software'],
  ['Cloud', 'Tech & Software'],
  ['Data', 'Tech & Software'],
  ['AI', 'Tech & Software'],
  ['Consulting', 'Professional Services'],
  ['Partners', 'Professional Services'],
  ['Advisory', 'Professional Services'],
  ['Stores', 'Retail'],
  ['Market', 'Retail'],
  ['Telecom', 'Telecommunication'],
  ['Networks', 'Telecommunication'],
  ['Shop', 'E-commerce'],
  ['Commerce', 'E-commerce'],
  ['Foods', 'Consumer Packaged Goods (food & cosmetics)'],
  ['Beauty', 'Consumer Packaged Goods (food & cosmetics)'],
  ['Logistics', 'Transportation & logistics'],
  ['Freight', 'Transportation & logistics'],
  ['Bank', 'Banking'],
  ['Capital', 'Banking'],
  ['Insurance', 'Insurance'],
  ['Energy', 'Energy'],
  ['Media', 'Media'],
  ['Studios', 'Entertainment'],
  ['Industries', 'Manufacturing'],
  ['Motors', 'Automotive'],
  ['Construction', 'Construction'],
  ['Properties', 'Real estate'],
  ['Academy', 'Education'],
  ['Maison', 'Luxury'],
  ['Events', 'Events'],
  ['Mining', 'Mining'],
  ['Defence', 'Defence'],
  ['Group', null],
  ['Holdings', null],
  ['Global', null],
  ['Solutions', null],
  ['Systems', null],
  ['Technologies', null],
  ['International', null],
];

/** Spreads `weights` (summing to 100) over 100 slots: picking a slot uniformly picks a value with its weight. */
export function weightedSlots<T>(weights: readonly (readonly [T, number])[]): T[] {
  const slots = weights.flatMap(([value, weight]) => Array.from({ length: weight }, () => value));
  if (slots.length !== 100) throw new Error(`weights sum to ${slots.length}, not 100`);
  return slots;
}

/** Industries of companies whose name does not say: the product's visible industries come up most. */
export const INDUSTRY_SLOTS = weightedSlots([
  ...VISIBLE_INDUSTRIES.map((industry) => [industry, 10] as const),
  ...HIDDEN_INDUSTRIES.map((industry) => [industry, 2] as const),
]);

/** ISO country codes, weighted to the product's default countries (France, Ukraine, Germany, United Kingdom, Spain). */
export const COUNTRY_SLOTS = weightedSlots([
  ['FR', 30],
  ['GB', 14],
  ['DE', 14],
  ['ES', 9],
  ['UA', 8],
  ['US', 12],
  ['NL', 4],
  ['IT', 3],
  ['BE', 2],
  ['CH', 2],
  ['PL', 2],
]);

/** Industries whose companies mostly sell to consumers. */
export const CONSUMER_INDUSTRIES = [
  'Retail',
  'E-commerce',
  'Consumer Packaged Goods (food & cosmetics)',
  'Luxury',
  'Entertainment',
  'Media',
  'Automotive',
];

export const TECHNOLOGIES = [
  'Salesforce',
  'HubSpot',
  'Google Workspace',
  'Microsoft 365',
  'Slack',
  'Zoom',
  'AWS',
  'Google Cloud',
  'Azure',
  'Shopify',
  'Stripe',
  'Zendesk',
  'Intercom',
  'Segment',
  'Snowflake',
  'Datadog',
  'Jira',
  'Notion',
  'Figma',
  'Workday',
  'SAP',
  'Oracle',
  'Marketo',
  'Pipedrive',
  'Looker',
  'Tableau',
  'Kubernetes',
  'React',
  'WordPress',
  'Magento',
];

/** Departments (JOB_DEPARTMENTS indices) by weight: sales and tech teams are the largest. */
export const DEPARTMENT_SLOTS = weightedSlots(
  (
    [
      ['Sales', 18],
      ['HR', 6],
      ['Marketing', 10],
      ['Tech', 18],
      ['Finance', 7],
      ['Logistics', 4],
      ['Executive', 4],
      ['Legal', 3],
      ['Product', 8],
      ['Data', 6],
      ['Customer Service', 8],
      ['Operation', 8],
    ] as const
  ).map(([department, weight]) => [JOB_DEPARTMENTS.indexOf(department), weight] as const),
);

/** SENIORITIES indices by weight: C-Level, Manager, Individual Contributor, Senior, Junior. */
export const SENIORITY_SLOTS = weightedSlots([
  [0, 5],
  [1, 20],
  [2, 35],
  [3, 25],
  [4, 15],
]);

/** Per department (JOB_DEPARTMENTS order): the C-level title, the manager title and the individual role. */
export const TITLES: Record<(typeof JOB_DEPARTMENTS)[number], readonly [string, string, string]> = {
  Sales: ['Chief Revenue Officer', 'Head of Sales', 'Account Executive'],
  HR: ['Chief People Officer', 'HR Manager', 'HR Business Partner'],
  Marketing: ['Chief Marketing Officer', 'Marketing Manager', 'Marketing Specialist'],
  Tech: ['Chief Technology Officer', 'Engineering Manager', 'Software Engineer'],
  Finance: ['Chief Financial Officer', 'Finance Manager', 'Financial Analyst'],
  Logistics: ['Chief Supply Chain Officer', 'Logistics Manager', 'Logistics Coordinator'],
  Executive: ['Chief Executive Officer', 'Managing Director', 'Chief of Staff'],
  Legal: ['General Counsel', 'Legal Manager', 'Legal Counsel'],
  Product: ['Chief Product Officer', 'Head of Product', 'Product Manager'],
  Data: ['Chief Data Officer', 'Head of Data', 'Data Analyst'],
  'Customer Service': ['Chief Customer Officer', 'Customer Success Lead', 'Customer Success Manager'],
  Operation: ['Chief Operating Officer', 'Operations Manager', 'Operations Analyst'],
};

/** Pages of the team's website; the pricing page is a warm signal. */
export const WEBSITE_PATH_SLOTS = weightedSlots([
  ['/', 30],
  ['/pricing', 12],
  ['/product', 14],
  ['/customers', 8],
  ['/integrations', 8],
  ['/blog/warm-introductions-101', 10],
  ['/blog/account-mapping', 8],
  ['/about', 5],
  ['/careers', 5],
]);

/** Tags of allies (spec: ally, internal, client and investor have their own colours). */
export const ALLY_TAG_SLOTS = weightedSlots([
  ['ally', 35],
  ['client', 25],
  ['partner', 15],
  ['investor', 15],
  ['internal', 10],
]);

export const LOGO_COLOURS = ['1E3A8A', '0F766E', '7C3AED', 'B45309', 'BE123C', '15803D', '334155', '0369A1'];
