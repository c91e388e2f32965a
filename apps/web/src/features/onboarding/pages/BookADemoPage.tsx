import { Button } from '@mantine/core';
import { ONBOARDING_PROGRESS } from '@warmpath/shared';
import { OnboardingLayout } from '../../../app/OnboardingLayout.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { usePublicConfig } from '../../public/api.ts';

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
