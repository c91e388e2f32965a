import { Button } from '@mantine/core';
import { ONBOARDING_PROGRESS } from '@warmpath/shared';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { usePublicConfig } from '../../public/api.ts';
import { OnboardingLayout } from '../components/OnboardingLayout.tsx';

/** The demo-booking page: the operator's calendar, in a new tab. */
export function BookADemoPage() {
  const calendarUrl = usePublicConfig().data?.demoCalendarUrl;

  return (
    <OnboardingLayout progress={ONBOARDING_PROGRESS.bookADemo}>
      <PageHeader title="Book a demo" />
      {calendarUrl ? (
        <Button component="a" href={calendarUrl} target="_blank" rel="noopener noreferrer">
          Book a demo
        </Button>
      ) : null}
    </OnboardingLayout>
  );
}
