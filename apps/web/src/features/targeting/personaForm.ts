import type { TPersonaInput } from '@warmpath/shared';

export const EMPTY_PERSONA: TPersonaInput = { name: '', jobDepartments: [], seniorities: [], customJobTitles: [] };

/**
 * Spec section 5: Add Persona is disabled when the name is empty, or when there are no custom
 * titles and either no departments or no seniorities.
 */
export function canAddPersona(values: TPersonaInput): boolean {
  if (values.name.trim() === '') return false;
  if (values.customJobTitles.length > 0) return true;
  return values.jobDepartments.length > 0 && values.seniorities.length > 0;
}
