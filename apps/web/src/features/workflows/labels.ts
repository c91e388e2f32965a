import {
  NETWORK_FILTER_LABELS,
  type NetworkFilterField,
  type TFilterItem,
  type TWorkflowFilters,
  type WorkflowEngagement,
} from '@warmpath/shared';

/** Spec section 2's action labels: the CRM's two engagements read alike. */
export const ENGAGEMENT_LABELS: Record<WorkflowEngagement, string> = {
  PUSH_TO_SLACK: 'Push notification on Slack',
  PUSH_TO_CRM: 'Push notification to CRM',
  PUSH_TO_HUBSPOT: 'Push notification to CRM',
  PUSH_TO_WEBHOOK: 'Push notification to webhook',
};

const TOGGLE_LABELS: Record<string, string> = {
  idealCustomerProfile: 'Ideal customer profile',
  personas: 'Personas',
  myAccounts: 'My accounts',
  externalOnly: 'Reached through allies',
  assignedTo: 'Accounts assigned to teammates',
};

/** One filter as the diagram shows it: its name, and its values when they read as words. */
export function filterLabel({ name, values }: TFilterItem): string {
  const toggle = TOGGLE_LABELS[name];
  if (toggle) return toggle;
  const label = NETWORK_FILTER_LABELS[name as NetworkFilterField];
  // Names and companies are ids: their count says enough.
  if (name === 'personName' || name === 'companyName' || name === 'connector') return `${label}: ${values.length}`;
  return `${label}: ${values.join(', ')}`;
}

/** The filter card's lines: each contact level, then the company level; empty when nothing filters. */
export function filterLines(filters: TWorkflowFilters) {
  const contact = filters.contactLevel
    .filter((level) => level.length > 0)
    .map((level) => level.map(filterLabel).join(' and '));
  const company = [
    ...filters.companyLevel.filters.map(filterLabel),
    ...(filters.companyLevel.targetedAccounts ? ['Targeted accounts'] : []),
  ];
  return { contact, company };
}
