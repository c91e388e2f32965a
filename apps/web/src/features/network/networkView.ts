import { PATHS } from '../../lib/paths.ts';

// The network page's two views and the links between them, kept in the URL's search params so a
// link, a reload or the back button lands on the same view.

export const NETWORK_VIEWS = ['people', 'accounts'] as const;
export type NetworkView = (typeof NETWORK_VIEWS)[number];
export const VIEW_PARAM = 'view';
/** Opens the people view on one company's prospects (its Companies filter chosen). */
export const COMPANY_PARAM = 'companyId';
/** Opens the people view on one person, as the webhook events link. */
export const PERSON_PARAM = 'personId';

export const viewOf = (params: URLSearchParams): NetworkView =>
  params.get(VIEW_PARAM) === 'accounts' ? 'accounts' : 'people';

/** The people view filtered to one company. */
export const companyLink = (companyId: string) =>
  `${PATHS.network}?${new URLSearchParams({ [COMPANY_PARAM]: companyId }).toString()}`;
