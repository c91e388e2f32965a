import { Button, Text } from '@mantine/core';
import { MESSAGES } from '@warmpath/shared';
import { Link, useLocation } from 'react-router';
import { z } from 'zod';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { PATHS } from '../../../lib/paths.ts';
import { OnboardingLayout } from '../components/OnboardingLayout.tsx';

const ZDomainsNotWhitelistedState = z.object({ message: z.string() });
/** The server's refusal, handed over by the Create account page. */
export type DomainsNotWhitelistedState = z.infer<typeof ZDomainsNotWhitelistedState>;

/** Sign-up refused because the company's domains are not whitelisted (spec sections 2 and 8). */
export function DomainsNotWhitelistedPage() {
  const state = ZDomainsNotWhitelistedState.safeParse(useLocation().state);

  return (
    <OnboardingLayout>
      <PageHeader title="Sign-up refused" />
      <Text role="alert" mb="lg">
        {state.success ? state.data.message : MESSAGES.domainsNotWhitelisted}
      </Text>
      <Button component={Link} to={PATHS.signUp.createDetails} variant="default">
        Back to your account details
      </Button>
    </OnboardingLayout>
  );
}
