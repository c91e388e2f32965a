import { Button } from '@mantine/core';
import type { ReactNode } from 'react';

export type OnboardingChoiceProps = {
  children: ReactNode;
  onClick: () => void;
  /** Shown at the right end, e.g. the 'Soon' badge. */
  badge?: ReactNode;
  loading?: boolean;
  disabled?: boolean;
};

/** One of the ways forward on an import step, as a full-width button. */
export function OnboardingChoice({ children, onClick, badge, loading, disabled }: OnboardingChoiceProps) {
  return (
    <Button
      variant="default"
      size="lg"
      fullWidth
      justify="space-between"
      rightSection={badge}
      onClick={onClick}
      loading={loading}
      disabled={disabled}
    >
      {children}
    </Button>
  );
}
