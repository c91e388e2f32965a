import { describe, expect, it } from 'vitest';
import { afterAccountsStepPath, hasReachedStep } from './onboardingSteps.ts';

describe('hasReachedStep', () => {
  it('is true at the step and past it, false before it', () => {
    const atExternals = { onboardingStep: 'EXTERNALS_DONE', hasCompletedOnboarding: false } as const;
    expect(hasReachedStep(atExternals, 'EXTERNALS_DONE')).toBe(true);
    expect(hasReachedStep(atExternals, 'ACCOUNTS_IMPORT_DONE')).toBe(false);
    expect(hasReachedStep(atExternals, 'COMPLETED')).toBe(false);
    expect(hasReachedStep({ onboardingStep: 'SIGNUP_DONE', hasCompletedOnboarding: false }, 'EXTERNALS_DONE')).toBe(
      false,
    );
  });

  it('counts a completed onboarding as past every step', () => {
    const done = { onboardingStep: 'ACCOUNTS_IMPORT_DONE', hasCompletedOnboarding: true } as const;
    expect(hasReachedStep(done, 'COMPLETED')).toBe(true);
    expect(hasReachedStep({ ...done, hasCompletedOnboarding: false }, 'COMPLETED')).toBe(false);
  });
});

describe('afterAccountsStepPath', () => {
  it('sends an admin to invite teammates and the other roles to import clients', () => {
    expect(afterAccountsStepPath('admin')).toBe('/sign-up/invite-teammates');
    expect(afterAccountsStepPath('member')).toBe('/sign-up/import-clients');
    expect(afterAccountsStepPath('viewer')).toBe('/sign-up/import-clients');
  });
});
