import type { z } from 'zod';
import { EVENT_PAYLOADS, EVENT_TYPES, eventComponentName, ZEventPerson, ZEventUser } from '../events.ts';
import * as actions from '../schemas/actions.ts';
import * as common from '../schemas/common.ts';
import * as lists from '../schemas/lists.ts';
import * as network from '../schemas/network.ts';
import * as targeting from '../schemas/targeting.ts';
import * as team from '../schemas/team.ts';
import * as users from '../schemas/users.ts';
import * as workflows from '../schemas/workflows.ts';
import * as workspace from '../schemas/workspace.ts';

/**
 * The shared schemas the OpenAPI document names as components, by name: a generated client then
 * reads `Account` where it would otherwise read an anonymous object. Query and path parameters are
 * left out: the document lists them one by one.
 */
export const API_COMPONENTS: Readonly<Record<string, z.ZodType>> = {
  Error: common.ZError,
  Health: common.ZHealth,
  PublicConfig: common.ZPublicConfig,

  Role: users.ZRole,
  OnboardingStep: users.ZOnboardingStep,
  Domain: users.ZDomain,
  Me: users.ZMe,
  UpdateMe: users.ZUpdateMe,
  CheckDomainRequest: users.ZCheckDomainRequest,
  CheckDomainResponse: users.ZCheckDomainResponse,
  Registration: users.ZRegistration,
  LinkedinImportResult: users.ZLinkedinImportResult,
  GoogleAuthenticateResponse: users.ZGoogleAuthenticateResponse,
  SyncRun: users.ZSyncRun,
  Suggestion: users.ZSuggestion,
  UndeliveredEmail: users.ZUndeliveredEmail,

  Teammate: team.ZTeammate,
  ChangeRole: team.ZChangeRole,
  InviteTeammate: team.ZInviteTeammate,
  InviteTeammatesRequest: team.ZInviteTeammatesRequest,
  InvitedTeammate: team.ZInvitedTeammate,
  InviteTeammatesResponse: team.ZInviteTeammatesResponse,
  InviteInfo: team.ZInviteInfo,
  AcceptInvitation: team.ZAcceptInvitation,

  Option: targeting.ZOption,
  TargetingScheme: targeting.ZTargetingScheme,
  OptionPage: targeting.ZOptionPage,
  Country: targeting.ZCountry,
  PersonaInput: targeting.ZPersonaInput,
  Persona: targeting.ZPersona,
  AdvanceOnboarding: targeting.ZAdvanceOnboarding,

  Workspace: workspace.ZWorkspace,
  WorkspaceUpdate: workspace.ZWorkspaceUpdate,

  Pagination: network.ZPagination,
  FilterItem: network.ZFilterItem,
  FiltersBody: network.ZFiltersBody,
  Connector: network.ZConnector,
  ContactOwner: network.ZContactOwner,
  ClientConnected: network.ZClientConnected,
  Signal: network.ZSignal,
  NetworkRow: network.ZNetworkRow,
  ContactsPage: network.ZContactsPage,
  FilterOption: network.ZFilterOption,
  NetworkFilter: network.ZNetworkFilter,
  NetworkFilters: network.ZNetworkFilters,
  FilterSearchResult: network.ZFilterSearchResult,
  ReportCards: network.ZReportCards,
  ProximityChannel: network.ZProximityChannel,
  ProximityExplanation: network.ZProximityExplanation,
  WarmIntroModalData: network.ZWarmIntroModalData,
  WarmIntroItem: network.ZWarmIntroItem,
  WarmIntroItems: network.ZWarmIntroItems,
  WarmIntroSent: network.ZWarmIntroSent,

  ActionContact: actions.ZActionContact,
  ActionCompany: actions.ZActionCompany,
  RecommendedAction: actions.ZRecommendedAction,
  RecommendedActionsPage: actions.ZRecommendedActionsPage,
  ActionOwner: actions.ZActionOwner,
  ActionConnectorUser: actions.ZActionConnectorUser,
  ActionClientConnector: actions.ZActionClientConnector,
  PastAction: actions.ZPastAction,
  PastActionsPage: actions.ZPastActionsPage,
  ActionFilterOption: actions.ZActionFilterOption,
  ActionFilter: actions.ZActionFilter,
  ActionFilters: actions.ZActionFilters,
  ActionFilterItem: actions.ZActionFilterItem,
  ActionFiltersBody: actions.ZActionFiltersBody,
  ActionCounts: actions.ZActionCounts,
  ActionIdBody: actions.ZActionIdBody,
  ActionCommandResult: actions.ZActionCommandResult,
  SendAskIntroActionBody: actions.ZSendAskIntroActionBody,
  SendDirectMessageActionBody: actions.ZSendDirectMessageActionBody,
  SendThankYouBody: actions.ZSendThankYouBody,
  SendThankYouResult: actions.ZSendThankYouResult,

  ClientForm: lists.ZClientForm,
  Client: lists.ZClient,
  ClientsPage: lists.ZClientsPage,
  ClientTags: lists.ZClientTags,
  AccountUser: lists.ZAccountUser,
  Account: lists.ZAccount,
  AccountsPage: lists.ZAccountsPage,
  AssignableAccountUsers: lists.ZAssignableAccountUsers,
  UpdateAssignees: lists.ZUpdateAssignees,
  MyAccounts: lists.ZMyAccounts,
  CrmClient: lists.ZCrmClient,
  CrmClientsPage: lists.ZCrmClientsPage,
  ImportStatus: lists.ZImportStatus,
  JobChange: lists.ZJobChange,
  Departure: lists.ZDeparture,
  JobChanges: lists.ZJobChanges,

  Workflow: workflows.ZWorkflow,
  WorkflowFilters: workflows.ZWorkflowFilters,
  WorkflowPush: workflows.ZWorkflowPush,
  WorkflowRun: workflows.ZWorkflowRun,
  WorkflowRuns: workflows.ZWorkflowRuns,

  EventPerson: ZEventPerson,
  EventUser: ZEventUser,
  ...Object.fromEntries(EVENT_TYPES.map((type) => [eventComponentName(type), EVENT_PAYLOADS[type]])),
};
