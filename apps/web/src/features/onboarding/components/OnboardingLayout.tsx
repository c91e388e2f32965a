import { Container, Paper, Progress, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export type OnboardingLayoutProps = {
  /** The spec's onboarding progress value for this screen; absent on screens outside the steps. */
  progress?: number;
  children: ReactNode;
};

export function OnboardingLayout({ progress, children }: OnboardingLayoutProps) {
  return (
    <Container component="main" size="sm" py="xl">
      <Stack gap="lg">
        <Text fw={700} size="xl">
          Warmpath
        </Text>
        {progress === undefined ? null : <Progress value={progress} aria-label="Onboarding progress" />}
        <Paper withBorder radius="md" p="xl">
          {children}
        </Paper>
      </Stack>
    </Container>
  );
}
