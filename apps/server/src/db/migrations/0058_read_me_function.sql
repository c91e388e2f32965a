-- `/me`, the call every page makes first, in one round trip: the workspace is set for row-level
-- security and the member read by one statement, with no transaction around it (set_config's local
-- setting ends with the statement's own). PL/pgSQL keeps the query's plan per connection, so
-- PostgreSQL does not plan six subqueries at every call. Runs as its caller: row-level security applies.
CREATE FUNCTION read_me(ws uuid, uid uuid)
RETURNS TABLE (
  id uuid, "firstName" text, "lastName" text, email text, avatar text, role text, "workspaceId" uuid,
  "hasCompletedOnboarding" boolean, "onboardingStep" text, "linkedinConnected" boolean, "targetingSet" boolean,
  "googleConnected" boolean, "googleSettings" text, "hubspotConnected" boolean, "slackConnected" boolean,
  "webhookSettings" text
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  PERFORM set_config('app.workspace_id', ws::text, true);
  RETURN QUERY
  SELECT u.id, u.first_name, u.last_name, u.email, u.avatar, u.role, u.workspace_id,
    u.has_completed_onboarding, u.onboarding_step, u.linkedin_connected_at IS NOT NULL,
    EXISTS (SELECT 1 FROM targeting_schemes t WHERE t.workspace_id = u.workspace_id AND t.user_id = u.id),
    EXISTS (SELECT 1 FROM integrations i WHERE i.workspace_id = u.workspace_id AND i.user_id = u.id AND i.kind = 'google'),
    (SELECT i.settings FROM integrations i WHERE i.workspace_id = u.workspace_id AND i.user_id = u.id AND i.kind = 'google'),
    EXISTS (SELECT 1 FROM integrations i WHERE i.workspace_id = u.workspace_id AND i.kind = 'hubspot'),
    EXISTS (SELECT 1 FROM integrations i WHERE i.workspace_id = u.workspace_id AND i.kind = 'slack'),
    (SELECT i.settings FROM integrations i WHERE i.workspace_id = u.workspace_id AND i.kind = 'webhook')
  FROM users u
  WHERE u.workspace_id = ws AND u.id = uid;
END;
$$;
