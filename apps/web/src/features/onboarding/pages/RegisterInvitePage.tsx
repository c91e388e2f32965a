import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { ONBOARDING_PROGRESS, type TInviteInfo } from '@warmpath/shared';
import { useForm } from 'react-hook-form';
import { generatePath, Link, useNavigate, useParams } from 'react-router';
import { FormCheckbox } from '../../../components/FormCheckbox.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { hasErrorCode, type TApiErrorCode } from '../../../lib/api.ts';
import { clearInviteId, clearRegistration, storeInviteId } from '../../../lib/auth.ts';
import { PATHS } from '../../../lib/paths.ts';
import { useAuth } from '../../../lib/useAuth.ts';
import {
  acceptInvitationDefaults,
  closedInvitationMessage,
  type TAcceptInvitationForm,
  type TAcceptInvitationFormInput,
  ZAcceptInvitationForm,
} from '../../team/acceptInvitationForm.ts';
import { useAcceptInvitation, useInviteInfo } from '../../team/api.ts';
import { InvitationWorkspace } from '../../team/components/InvitationWorkspace.tsx';
import { useSetMe } from '../../users/api.ts';
import { OnboardingLayout } from '../components/OnboardingLayout.tsx';
import { TERMS_LABEL } from '../terms.ts';
import { useRegistrationSignIn } from '../useRegistrationSignIn.ts';

/** Refusals of an acceptance that mean the invitation itself is unusable: unknown, already used, expired. */
const DEAD_INVITATION_CODES: readonly TApiErrorCode[] = ['NOT_FOUND', 'INVITATION_USED', 'INVITATION_EXPIRED'];

/**
 * Invitee registration, in two stages (spec section 2): sign in with Google or Microsoft, then accept
 * the invitation. A registered user never gets here (the sign-up entry guard sends them on).
 */
export function RegisterInvitePage() {
  const { inviteId = '' } = useParams();
  const auth = useAuth();

  return (
    <OnboardingLayout progress={ONBOARDING_PROGRESS.registerInvite}>
      <PageHeader title="Join your workspace" />
      {auth.isAuthenticated ? <AcceptInvitation inviteId={inviteId} /> : <ConnectToJoin inviteId={inviteId} />}
    </OnboardingLayout>
  );
}

function ConnectToJoin({ inviteId }: { inviteId: string }) {
  const signIn = useRegistrationSignIn();
  const connect = () => {
    storeInviteId(inviteId);
    signIn({ process: 'member-registration', target: generatePath(PATHS.signUp.registerInvite, { inviteId }) });
  };

  return (
    <Stack>
      <Text>Sign in with the account your invitation was sent to.</Text>
      <Button onClick={connect}>Connect with Google</Button>
      <Button onClick={connect} variant="default">
        Connect with Microsoft
      </Button>
    </Stack>
  );
}

function AcceptInvitation({ inviteId }: { inviteId: string }) {
  const info = useInviteInfo(inviteId);

  if (info.isPending) {
    return (
      <Stack role="status" aria-busy="true" aria-label="Loading the invitation">
        <Skeleton height={56} />
        <Skeleton height={36} />
        <Skeleton height={36} />
      </Stack>
    );
  }
  if (info.isError) return <UnusableInvitation message={info.error.message} />;
  const closed = closedInvitationMessage(info.data.status);
  if (closed !== null) return <UnusableInvitation message={closed} />;

  return (
    <Stack gap="xl">
      <InvitationWorkspace info={info.data} />
      <AcceptInvitationForm info={info.data} />
    </Stack>
  );
}

/** An invitation that cannot be accepted: why, and the way to sign up otherwise. */
function UnusableInvitation({ message }: { message: string }) {
  // Leaving for sign-up ends this registration: nothing should lead back to the dead invitation.
  const leave = () => {
    clearRegistration();
    clearInviteId();
  };
  return (
    <Alert color="red" variant="light" role="alert" title="This invitation cannot be used">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{message}</Text>
        <Anchor component={Link} to={PATHS.signUp.connect} onClick={leave} size="sm">
          Go to sign-up
        </Anchor>
      </Stack>
    </Alert>
  );
}

function AcceptInvitationForm({ info }: { info: TInviteInfo }) {
  const profile = useAuth().user?.profile;
  const navigate = useNavigate();
  const accept = useAcceptInvitation();
  const setMe = useSetMe();
  const form = useForm<TAcceptInvitationFormInput, unknown, TAcceptInvitationForm>({
    resolver: zodResolver(ZAcceptInvitationForm),
    defaultValues: acceptInvitationDefaults(info, profile),
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit(({ firstName, lastName }) => {
    accept.mutate(
      { firstName, lastName, inviteId: info.inviteId },
      {
        onSuccess: async (me) => {
          clearRegistration();
          // Kept for the targeting step, which starts from the inviting admin's scheme (spec section 4).
          storeInviteId(info.inviteId);
          // Together, so the next page renders with the new user (see useAcceptInvitation).
          await setMe(me, () => navigate(me.isGoogleConnected ? PATHS.root : PATHS.signUp.sync, { replace: true }));
        },
      },
    );
  });

  const deadInvitation = hasErrorCode(accept.error, ...DEAD_INVITATION_CODES);

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label="First name"
          autoComplete="given-name"
          error={errors.firstName?.message}
          {...form.register('firstName')}
        />
        <TextInput
          label="Last name"
          autoComplete="family-name"
          error={errors.lastName?.message}
          {...form.register('lastName')}
        />
        <FormCheckbox
          control={form.control}
          name="termsAccepted"
          label={TERMS_LABEL}
          error={errors.termsAccepted?.message}
        />
        {accept.isError ? (
          deadInvitation ? (
            <UnusableInvitation message={accept.error.message} />
          ) : (
            <Alert color="red" variant="light" role="alert">
              {accept.error.message}
            </Alert>
          )
        ) : null}
        <Button type="submit" loading={accept.isPending}>
          Accept invitation
        </Button>
      </Stack>
    </form>
  );
}
