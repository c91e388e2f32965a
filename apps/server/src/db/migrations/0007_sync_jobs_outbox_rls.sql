SELECT enable_tenant_rls('google_sync_state');
--> statement-breakpoint
SELECT enable_tenant_rls('job_runs');
--> statement-breakpoint
SELECT enable_tenant_rls('outbox');
--> statement-breakpoint
CREATE INDEX outbox_dispatch_due_idx ON outbox_dispatch (due_at);
