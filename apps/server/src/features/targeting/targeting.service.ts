import type { TPersona, TPersonaOutput, TTargetingScheme } from '@warmpath/shared';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Member } from '../../plugins/auth.ts';
import {
  deletePersona,
  findPersonas,
  findTargetingScheme,
  insertPersona,
  saveTargetingScheme,
} from './targeting.repo.ts';

export type TargetingDeps = { database: Database };

export function getTargetingScheme(deps: TargetingDeps, member: Member): Promise<TTargetingScheme | null> {
  return deps.database.inWorkspace(member.workspaceId, (tx) =>
    findTargetingScheme(tx, member.workspaceId, member.userId),
  );
}

const unique = <T>(values: T[], key: (value: T) => unknown = (value) => value) => [
  ...new Map(values.map((value) => [key(value), value])).values(),
];

/** Every item of a targeting scheme counts once (spec section 5). */
export function withoutDuplicates(scheme: TTargetingScheme): TTargetingScheme {
  return {
    countries: unique(scheme.countries),
    companySize: unique(scheme.companySize),
    companyType: unique(scheme.companyType),
    jobDepartments: unique(scheme.jobDepartments),
    industries: unique(scheme.industries),
    seniorities: unique(scheme.seniorities),
    customJobTitles: unique(scheme.customJobTitles),
    selectedCustomJobTitles: unique(scheme.selectedCustomJobTitles),
    competitorDomainsToExclude: unique(scheme.competitorDomainsToExclude),
    technologies: unique(scheme.technologies, (technology) => technology.value),
    specificIndustries: unique(scheme.specificIndustries),
  };
}

export async function setTargetingScheme(
  deps: TargetingDeps,
  member: Member,
  scheme: TTargetingScheme,
): Promise<TTargetingScheme> {
  const saved = withoutDuplicates(scheme);
  await deps.database.inWorkspace(member.workspaceId, (tx) =>
    saveTargetingScheme(tx, member.workspaceId, member.userId, saved),
  );
  return saved;
}

export function listPersonas(deps: TargetingDeps, member: Member): Promise<TPersona[]> {
  return deps.database.inWorkspace(member.workspaceId, (tx) => findPersonas(tx, member.workspaceId, member.userId));
}

/** `persona` has passed ZPersonaInput (the route validates it), which also drops duplicates. */
export function createPersona(deps: TargetingDeps, member: Member, persona: TPersonaOutput): Promise<TPersona> {
  return deps.database.inWorkspace(member.workspaceId, (tx) =>
    insertPersona(tx, { ...persona, workspaceId: member.workspaceId, userId: member.userId }),
  );
}

export async function removePersona(deps: TargetingDeps, member: Member, personaId: string): Promise<void> {
  const deleted = await deps.database.inWorkspace(member.workspaceId, (tx) =>
    deletePersona(tx, member.workspaceId, member.userId, personaId),
  );
  if (!deleted) throw new AppError('NOT_FOUND', 'Persona not found');
}
