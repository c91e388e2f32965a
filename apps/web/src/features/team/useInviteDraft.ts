import type { Role } from '@warmpath/shared';
import { useState } from 'react';
import { addInvitee, type Invitee } from './inviteDraft.ts';

export type InviteDraft = {
  invitees: readonly Invitee[];
  /** Adds the typed e-mail; returns the validation message when it is not an e-mail. */
  add: (typed: string, role: Role) => string | null;
  remove: (email: string) => void;
  changeRole: (email: string, role: Role) => void;
  clear: () => void;
};

/** The invitees of the invite form, kept by its owner (the modal, or the onboarding page that also sends them). */
export function useInviteDraft(): InviteDraft {
  const [invitees, setInvitees] = useState<readonly Invitee[]>([]);
  return {
    invitees,
    add: (typed, role) => {
      const result = addInvitee(invitees, typed, role);
      if (result.invitees !== invitees) setInvitees(result.invitees);
      return result.error;
    },
    remove: (email) => setInvitees((current) => current.filter((invitee) => invitee.email !== email)),
    changeRole: (email, role) =>
      setInvitees((current) => current.map((invitee) => (invitee.email === email ? { ...invitee, role } : invitee))),
    clear: () => setInvitees([]),
  };
}
