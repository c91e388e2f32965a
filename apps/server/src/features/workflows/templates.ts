import type { TWorkflow } from '@warmpath/shared';

type Template = Pick<TWorkflow, 'name' | 'description' | 'signals' | 'filters' | 'engagements'>;

const anyone = { contactLevel: [], companyLevel: { filters: [], targetedAccounts: false } };

/** The workflows the product ships: what an operator starts a workspace's agents from. */
export const WORKFLOW_TEMPLATES = {
  'past-client-job-change': {
    name: 'Past client changed jobs',
    description: 'A client we track moved to another company: tell the team in Slack and note it in the CRM.',
    signals: ['PAST_CLIENT'],
    filters: anyone,
    engagements: ['PUSH_TO_SLACK', 'PUSH_TO_CRM'],
  },
  'warm-visit-target-account': {
    name: 'Warm visit at a target account',
    description:
      'Someone at one of our target accounts is on our pricing page or reading many pages: tell the team in Slack.',
    signals: ['VISITED_PRICING_PAGE', 'VISITED_MANY_PAGES'],
    filters: { contactLevel: [], companyLevel: { filters: [], targetedAccounts: true } },
    engagements: ['PUSH_TO_SLACK'],
  },
  'met-colleague-at-icp': {
    name: 'Already met a colleague at an ICP company',
    description: 'A colleague met someone at a company of our ideal customer profile: send it to our own systems.',
    signals: ['ALREADY_MET_COLLEAGUE'],
    filters: {
      contactLevel: [],
      companyLevel: { filters: [{ name: 'idealCustomerProfile', values: ['true'] }], targetedAccounts: false },
    },
    engagements: ['PUSH_TO_WEBHOOK'],
  },
} as const satisfies Record<string, Template>;

export type WorkflowTemplate = keyof typeof WORKFLOW_TEMPLATES;
export const isWorkflowTemplate = (name: string): name is WorkflowTemplate => name in WORKFLOW_TEMPLATES;
