import { PageHeader } from '../../../components/PageHeader.tsx';
import { TargetingSchemeForm } from '../components/TargetingSchemeForm.tsx';

/** Targeting, Target Accounts tab: the saved targeting scheme, editable. */
export function TargetedAccountsPage() {
  return (
    <>
      <PageHeader title="Target Accounts" />
      <TargetingSchemeForm context="settings" />
    </>
  );
}
