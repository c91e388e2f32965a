/**
 * The tables of the public schema that are not one workspace's own rows, with the reason each is
 * global. One list for every check that needs it: row-level security (rls.int.test.ts) leaves them
 * alone, the Citus check (citus-ready.int.test.ts) does not ask their keys to lead with
 * `workspace_id`, and docs/citus.md makes them reference tables instead of distributing them.
 * Every other table of the schema is a tenant table: `workspaces` itself (distributed by its `id`) and
 * every table with a `workspace_id` column.
 */
export const NON_TENANT_TABLES: Readonly<Record<string, string>> = {
  user_identities: 'sign-in finds the workspace from the identity subject before any workspace is known',
  demo_workspaces: "sign-in finds a member's demo workspace from the identity subject, like user_identities",
  workspace_domains: 'sign-up finds a joinable workspace from an email domain before the user belongs to one',
  invite_index: 'an invitee opens the link (a random invitation id) before belonging to any workspace',
  tracking_sites: 'the public tracking endpoint finds the workspace from the public site key it is sent',
  idp_accounts: "the built-in identity provider's people: they sign in before any workspace exists",
  idp_secrets: "the built-in identity provider's signing keys and cookie secrets, one set for the deployment",
  idp_payloads: "the built-in identity provider's sessions, grants and codes, before any workspace context",
};
