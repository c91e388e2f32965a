SELECT enable_tenant_rls('invites');
--> statement-breakpoint
CREATE UNIQUE INDEX invites_one_pending_per_email ON invites (workspace_id, email) WHERE status = 'pending';
